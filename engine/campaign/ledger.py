"""A campaign in play: commands in, events out, each record on disk (fsynced) before it counts. Ironman: no undo.

A campaign is a folder `saves/campaigns/NAME/`: `campaign.jsonl` (the campaign log, written by the mission log's
own writer: JSON Lines, hash-chained, its secret seed committed to on line 1 and kept in `campaign.jsonl.seed`),
`roster.toml` (the living characters, rewritten after each command for people to read; the log is the truth) and
one ordinary mission log per mission flown, whose header names the campaign and the record that launched it.

The dice of campaign record n come from HMAC(seed, "campaign:n"); a mission's seed from HMAC(seed, "mission:ID").
"""

from __future__ import annotations

import hmac
import re
from pathlib import Path
from typing import Any

from engine.campaign import decide as d
from engine.campaign.codec import Codec, CodecError
from engine.campaign.seam import NAMES, UNCHANGED
from engine.campaign.state import Campaign, Event, fold
from engine.campaign.story import told
from engine.content import missions as mission_sides
from engine.content.models import Content
from engine.core.commands import Rejected
from engine.core.creation import Character
from engine.core.dice import Dice, Faces, commitment, seed_from_int
from engine.core.ruleset import make
from engine.log import writer as log
from engine.log.chain import chain

FORMAT = "xenotac-campaign"
VERSION = 1
LOG = "campaign.jsonl"
ROSTER = "roster.toml"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")


def folder_of(saves: Path, name: str) -> Path:
    return saves / "campaigns" / name


def campaigns(saves: Path) -> list[str]:
    """The campaigns in a save folder, by name."""
    root = saves / "campaigns"
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / LOG).is_file() and NAME.match(p.name))


def latest(saves: Path) -> str | None:
    """The campaign whose log was written last, or None."""
    names = campaigns(saves)
    return max(names, key=lambda n: (folder_of(saves, n) / LOG).stat().st_mtime_ns) if names else None


def check_name(name: str) -> None:
    if not NAME.match(name):
        raise log.LogError(f"{name[:40]!r}: a campaign's name is 1-32 letters, digits, - or _, starting with a "
                           "letter or digit")


def command_dice(seed: bytes, n: int) -> Dice:
    return Dice(Faces(hmac.digest(seed, f"campaign:{n}".encode(), "sha256")))


def mission_number(seed: bytes, offer: str) -> int:
    """The number a mission's seed is made from (`seed_from_int`): public when the campaign's seed is."""
    return int.from_bytes(hmac.digest(seed, f"mission:{offer}".encode(), "sha256")[:8], "big") % 10**18


class Ledger:
    """The campaign's state, its rules and its writer. With `folder` None it lives in memory (simulate --trials)."""

    def __init__(self, content: Content, header: dict[str, Any], seed: bytes, folder: Path | None) -> None:
        from engine.play import catalog

        self.content = content
        self.header = header
        self.seed = seed
        self.folder = folder
        self.name = str(header["name"])
        self.ruleset_id = str(header["ruleset"])
        plain = make(self.ruleset_id, content, None)
        self.title = plain.title
        self.creation = plain.creation()
        self.downtime = plain.downtime()
        self.outfitter = plain.loadout()
        self.rules = d.Rules(self.downtime, tuple(catalog.missions_for(content, self.ruleset_id)),
                             lambda m: self.creation.places(m) if self.creation else 0,
                             self._recruit if self.creation else None, self.outfitter)
        self.codec = Codec(self.creation.record if self.creation else None, None,
                           self.outfitter.kit if self.outfitter else None)
        try:
            records = self.codec.load_records(header["records"])
        except CodecError as exc:
            raise log.LogError(f"the header's records: {exc}", 1) from None
        probe = self.downtime.begin(records, Dice(Faces(b"the class of the base")))
        self.codec.base = None if probe.base is UNCHANGED else type(probe.base)
        self.state = Campaign(self.ruleset_id, records=records)
        self.writer: log.Writer | None = None
        self.hashes: dict[int, str] = {}  # line -> sha256 of its bytes
        self.next_n = 2
        self.notes: list[str] = []
        self.story: list[str] = []  # every event so far in words, with its rolls (the campaign screen's `L`)
        self.brief: list[str] = []  # the same in brief (engine.campaign.story): what `L` shows first

    @property
    def path(self) -> Path | None:
        return self.folder / LOG if self.folder is not None else None

    # -- starting and opening --

    @classmethod
    def new(cls, content: Content, folder: Path | None, name: str, ruleset_id: str, seed: bytes,
            public: int | None, records: list[Character]) -> "Ledger":
        check_name(name)
        if not records:  # the ruleset's default squad pool, if it names one; else recruits (`Begin`)
            creation = make(ruleset_id, content, None).creation()
            records = [Character(ruleset_id, r) for r in (creation.starters() if creation else ())]
        header = make_header(content, name, ruleset_id, seed, public, records)
        if folder is not None:
            if folder.exists() and any(folder.iterdir()):
                raise log.LogError(f"a campaign named {name} already exists in {folder.parent}")
            writer = log.Writer.create(folder / LOG, header, seed)
        book = cls(content, header, seed, folder)
        if folder is not None:
            book.writer = writer
            book.hashes[1] = writer.last_hash
        places = max((book.rules.places(m) for m in book.rules.missions), default=0)
        begun = book.submit(d.Begin(0 if records else places + 2))
        if isinstance(begun, Rejected):
            raise log.LogError(f"the campaign cannot begin: {begun}")
        return book

    @classmethod
    def open(cls, content: Content, folder: Path) -> "Ledger":
        """Carry a campaign on: its log folded (not re-decided: `verify` does that), a torn last record set aside,
        then a mission that ended before its debrief was written is debriefed (see `notes`)."""
        path = folder / LOG
        if not path.is_file():
            raise log.LogError(f"no campaign {folder.name!r} in {folder.parent} (`xenotac campaign list`)")
        lock = log.Lock(path)
        try:
            notes = [note] if (note := log.set_aside(path, lock)) else []
            lines, broken = chain(path)
            if broken is not None:
                raise log.LogError(f"campaign log {broken}; `xenotac campaign verify {folder.name}` explains")
            header = lines[0][2]
            check_header(content, header)
            companion = log.read_companion(log.seed_path(path), strict=True)
            if commitment(companion.seed) != header["seed_commitment"]:
                raise log.LogError(f"{log.seed_path(path)} is not the seed this campaign committed to")
            if companion.header is not None and companion.header != log.line_hash(lines[0][1]):
                raise log.LogError("the header was changed after it was written (the seed file holds its hash)", 1)
            book = cls(content, header, companion.seed, folder)
            for n, raw, record in lines:
                book.hashes[n] = log.line_hash(raw)
                if n > 1:
                    events = book.events_of(record, n)
                    book.state = fold(book.state, events)
                    book.tell(events)
            book.next_n = lines[-1][0] + 1
            book.writer = log.Writer(path, book.hashes[lines[-1][0]], book.next_n, lock)
        except BaseException:
            lock.release()
            raise
        book.notes = notes
        return book

    def events_of(self, record: dict[str, Any], n: int) -> list[Event]:
        if record.get("kind") != "command" or not isinstance(record.get("events"), list):
            raise log.LogError("not a campaign command record", n)
        try:
            return [self.codec.load_event(e) for e in record["events"]]
        except (CodecError, KeyError, TypeError) as exc:
            raise log.LogError(f"malformed record ({exc})", n) from None

    # -- play --

    def submit(self, command: d.Command, final: Any = None) -> list[Event] | Rejected:
        n = self.next_n
        events = d.decide(self.state, command, self.rules, command_dice(self.seed, n), n, final)
        if isinstance(events, Rejected):
            return events
        record = {"kind": "command", "command": self.codec.dump(command),
                  "events": [self.codec.dump(e) for e in events]}
        if self.writer is not None:
            self.writer.append(record)
            self.hashes[n] = self.writer.last_hash
        self.next_n += 1
        self.state = fold(self.state, events)
        self.tell(events)
        self._save_roster()
        return events

    def tell(self, events: list[Event]) -> None:
        self.story += told(events)
        self.brief += told(events, whole=False)

    def characters(self, names: tuple[str, ...] | None = None) -> list[Character]:
        by_name = {r.name: r for r in self.state.records}
        chosen = [by_name[n] for n in names] if names is not None else list(self.state.living())
        return [Character(self.ruleset_id, r) for r in chosen]

    def mission(self):
        """The game of the mission in flight: a new log, or the one already begun carried on; None if it has ended
        (then `finish` debriefs it)."""
        from engine.play.game import Game

        flight = self.state.flying
        assert flight is not None
        number = mission_number(self.seed, flight.offer.id)
        path = self.folder / flight.log if self.folder is not None else None
        if path is not None and path.is_file() and path.stat().st_size > 0:
            return None if log.is_finished(path) else Game.resume(self.content, path)
        if path is not None and path.is_file():  # the game stopped while creating it, before its header: begin again
            path.unlink()
            log.seed_path(path).unlink(missing_ok=True)  # the same seed is made again from the campaign's
        link = {"name": self.name, "record": flight.record, "hash": self.hashes.get(flight.record, "")}
        public = number if self.header["seed_public"] is not False else None
        return Game.new(self.content, self.ruleset_id, flight.offer.mission, seed_from_int(number), path,
                        squad=self.characters(flight.squad) or None, public=public, campaign=link, alone=True,
                        **self.downtime.mission_params())

    def land(self, game) -> list[Event] | Rejected:
        """The debrief of a mission that has ended, from its game."""
        state = game.state
        digest = game.writer.last_hash if game.writer is not None else ""
        return self.submit(d.Debrief(state.winner == mission_sides.PLAYER, state.ended or "", digest), final=state)

    def finish(self) -> list[Event] | Rejected | None:
        """A mission in flight whose log has ended but has no debrief yet (the game stopped between them): its
        debrief now, from the log. None when there is none to finish."""
        from engine.play.timeline import Timeline

        flight = self.state.flying
        if flight is None or self.folder is None:
            return None
        path = self.folder / flight.log
        if not path.is_file() or not log.is_finished(path):
            return None
        timeline = Timeline(self.content, path)
        final = timeline.state_at(timeline.final)
        last = b""
        for _n, _off, raw in log.read_lines(path):
            last = raw
        won = final.winner == mission_sides.PLAYER
        return self.submit(d.Debrief(won, final.ended or "", log.line_hash(last)), final=final)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()

    # -- helpers --

    def _save_roster(self) -> None:
        if self.folder is None:
            return
        from engine.play import roster

        try:
            roster.save(self.folder / ROSTER, self.characters())
        except roster.RosterError as exc:  # the log is the truth; the roster file is for reading
            self.notes.append(str(exc))

    def _recruit(self, count: int, dice: Dice) -> tuple[tuple[Any, ...], tuple]:
        """`count` characters of the ruleset, their numbers raised in turn until the draft may be made."""
        import attrs

        assert self.creation is not None
        taken = {r.name for r in self.state.records}
        out, rolls = [], []
        for name in [n for n in NAMES if n not in taken][:count]:
            draft = attrs.evolve(self.creation.draft(), name=name)
            turn = 0
            while self.creation.check(draft):
                numbers = self.creation.form(draft).numbers
                raised = False
                for k in range(len(numbers)):
                    num = numbers[(turn + k) % len(numbers)]
                    if num.value < num.high and self.creation.refusal(draft, num.id, num.value + 1) is None:
                        draft, turn, raised = draft.set(num.id, num.value + 1), turn + k + 1, True
                        break
                if not raised:
                    raise log.LogError(f"{self.ruleset_id} cannot make a recruit: {self.creation.check(draft)[0]}")
            record, made = self.creation.create(draft, dice)
            out.append(record)
            rolls += made
        return tuple(out), tuple(rolls)


def make_header(content: Content, name: str, ruleset_id: str, seed: bytes, public: int | None,
                records: list[Character]) -> dict[str, Any]:
    from engine.play import roster

    if public is not None and seed != seed_from_int(public):
        raise ValueError(f"the seed is not the one public seed {public} makes")
    return {"kind": "header", "format": FORMAT, "campaign_version": VERSION, "name": name, "ruleset": ruleset_id,
            "content_sha256": content.sha_for(ruleset_id), "content_files": content.files_for(ruleset_id),
            "records": roster.to_header(records),
            "seed_commitment": commitment(seed), "seed_public": False if public is None else public}


def check_header(content: Content, header: dict[str, Any]) -> None:
    """Line 1 of a campaign log, each field a reader relies on; one LogError at line 1 if not."""
    from engine.core.ruleset import available

    if header.get("format") != FORMAT:
        raise log.LogError(f"not a xenotac campaign log (format {str(header.get('format'))[:40]!r})", 1)
    if header.get("campaign_version") != VERSION:
        raise log.LogError(f"campaign log version {str(header.get('campaign_version'))[:20]} is not {VERSION}", 1)
    if header.get("ruleset") not in available():
        raise log.LogError(f"unknown ruleset {str(header.get('ruleset'))[:40]!r}", 1)
    if not isinstance(header.get("name"), str) or not NAME.match(header["name"]):
        raise log.LogError("the header has no valid campaign name", 1)
    files = header.get("content_files")  # a campaign begun before it was kept has none: its content hash alone
    if files is not None:
        if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
            raise log.LogError("the header's content files are not file names with their hashes", 1)
        if (changed := changes(files, content.files_for(header["ruleset"]))):
            raise log.LogError(f"the content changed since this campaign began: {changed}; put it back as it was "
                               "(or start a new campaign)", 1)
    sha = content.sha_for(header["ruleset"])
    if header.get("content_sha256") != sha:
        raise log.LogError(f"this campaign was played with content sha {str(header.get('content_sha256'))[:12]}; "
                           f"you have {sha[:12]} (a file of the shared tables or of content/{header['ruleset']}/ "
                           "changed)", 1)
    if not isinstance(header.get("records"), list):
        raise log.LogError("the header has no records", 1)
    promised = header.get("seed_commitment")
    if not isinstance(promised, str) or len(promised) != 64:
        raise log.LogError("the header has no seed commitment", 1)
    public = header.get("seed_public")
    if not (public is False or isinstance(public, int) and not isinstance(public, bool) and 0 <= public < 10**18):
        raise log.LogError("the header does not say whether its seed is public", 1)
    if public is not False and commitment(seed_from_int(public)) != promised:
        raise log.LogError(f"the header says its seed is public seed {public}, but commits to another", 1)


def changes(was: dict[str, str], now: dict[str, str], most: int = 3) -> str:
    """The content files that differ, in words ("xxxzone/campaign.toml changed, mods/x.toml is new"), or ""."""
    said = [f"{name[:60]} changed" if name in now and name in was else
            f"{name[:60]} is new" if name in now else f"{name[:60]} is gone"
            for name in sorted(set(was) | set(now)) if was.get(name) != now.get(name)]
    more = f" and {len(said) - most} more" if len(said) > most else ""
    return ", ".join(said[:most]) + more
