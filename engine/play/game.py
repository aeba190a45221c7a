"""A mission in play: commands in, events or a rejection out, every record on disk before it counts.

Undo is a record too. Checkpoints every CHECKPOINT_EVERY lines keep undo and resume cost flat:
resume reads the log backwards to the last checkpoint and folds only what follows it.
"""

from __future__ import annotations

import hmac
import itertools
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from engine.core import canon, codec
from engine.content import missions
from engine.log import reading
from engine.log import writer as log
from engine.play import roster
from engine.core.commands import Command, EndTurn, Rejected, StartMission
from engine.content.models import Content
from engine.core.dice import Dice, Faces, commitment, seed_from_int
from engine.core.events import Event
from engine.map.fields import battlefield
from engine.core.model import State
from engine.core.reducer import fold
from engine.core.ruleset import Ruleset, Setup, make
from engine.play.minds import Minds

if TYPE_CHECKING:
    from engine.ai.planner import Ai

CHECKPOINT_EVERY = 64
UNDO_TRAIL = 64  # commands a checkpoint keeps undoable after a resume


@attrs.frozen
class Entry:
    """One state on the current branch: the record that made it and whether dice decided it."""

    n: int
    state: State
    rolled: bool
    offset: int = -1


def map_seed(seed: bytes) -> int:
    """Public: the map is known to everyone, the dice only to the seed holder."""
    return int.from_bytes(hmac.digest(seed, b"map", "sha256")[:4], "big")


def make_header(content: Content, ruleset_id: str, mission_id: str, seed: bytes, casual: bool,
                max_phases: int | None = None, squad: list[roster.Character] | None = None,
                public: int | None = None, campaign: dict[str, Any] | None = None,
                extra_turns: int = 0, alone: bool = False) -> dict[str, Any]:
    """`public`: the number a reproducible seed was made from (`--seed N`); the header says so, so a
    mission anyone could foresee never passes for a secret one. None: a secret seed. `campaign`: the campaign
    and its record that launched the mission ({"name", "record", "hash"}: engine.campaign.ledger). `extra_turns`:
    phases the squad may go on after its main objectives (written only when > 0: older headers stay as they were).
    `alone`: the squad is the roster characters only (`squad_only`, written only when true)."""
    if public is not None and seed != seed_from_int(public):
        raise ValueError(f"the seed is not the one public seed {public} makes")
    limit = max_phases if max_phases is not None else content.missions[mission_id].max_phases
    params = {"id": mission_id, "map_seed": map_seed(seed), "casual": casual, "max_phases": limit}
    if squad:  # roster characters: the header holds all a replay needs of them
        params["squad"] = roster.to_header(squad)
        if alone:
            params["squad_only"] = True
    if extra_turns:
        params["extra_turns"] = extra_turns
    header = {"kind": "header", "format": log.FORMAT, "version": log.VERSION, "ruleset": ruleset_id,
              "content_sha256": content.sha_for(ruleset_id), "mission": params, "seed_commitment": commitment(seed),
              "seed_public": False if public is None else public}
    if campaign is not None:
        header["campaign"] = campaign
    return header


def build(content: Content, header: dict[str, Any]) -> tuple[Ruleset, State]:
    """The ruleset and the state before the first command, from the header alone."""
    params = header["mission"]
    squad = roster.from_header(content, header["ruleset"], params.get("squad"))
    content = roster.with_squad(content, header["ruleset"], params["id"], squad, params.get("squad_only") is True)
    mission = content.missions[params["id"]]
    plain = make(header["ruleset"], content, None)
    deployed = plain.roster(params["id"]) or []
    counts = {side: sum(m.side == side for m in deployed) for side in (missions.PLAYER, missions.ALIENS)}
    field = battlefield(mission.generator, mission.width, mission.height, params["map_seed"], content.terrain, counts,
                        plain.storeys, plain.climates, plain.hexes)
    setup = Setup(mission_id=params["id"], mission=mission, spawns=field.spawns, max_phases=params["max_phases"],
                  extra_turns=params.get("extra_turns", 0))
    ruleset = make(header["ruleset"], content, setup)
    return ruleset, State(ruleset=header["ruleset"], mission=params["id"], grid=field.grid, units={},
                           sides=missions.SIDES)


def check_header(content: Content, header: dict[str, Any]) -> None:
    """Everything `build` and the replay read from line 1, checked, so a bad header is one line, never a KeyError:
    its own fields (`engine.log.reading.check_header`), then against this content."""
    mission = reading.check_header(header, squad_first=True)
    reading.check_ruleset(header)  # a log of a ruleset this xenotac lacks says so, not that its content differs
    sha = content.sha_for(str(header.get("ruleset")))
    if header.get("content_sha256") != sha:
        raise log.LogError(f"this log was played with content sha {str(header.get('content_sha256'))[:12]}; "
                           f"you have {sha[:12]}", 1)
    if mission["id"] not in content.missions:
        raise log.LogError(f"unknown mission {mission['id'][:40]!r}", 1)
    try:
        roster.from_header(content, str(header.get("ruleset")), mission.get("squad"))
    except roster.RosterError as exc:
        raise log.LogError(str(exc), 1) from None
    reading.check_header(header)


class Game:
    def __init__(self, content: Content, header: dict[str, Any], seed: bytes | None, writer: log.Writer | None,
                 history: list[Entry] | None = None) -> None:
        self.header = header
        self.casual = bool(header["mission"].get("casual"))
        self.ruleset, initial = build(content, header)
        self.content = self.ruleset.content  # with the header's roster characters, if any
        self.faces = Faces(seed) if seed is not None else None
        self.seed = seed
        self.writer = writer
        self.history = history or [Entry(1, initial, False)]
        self.revealed = False
        self.notes: list[str] = []  # for the player: a public seed, what resume had to do
        self.companion: log.Companion | None = None  # what the seed file holds, for the seal
        self._since_checkpoint = 0
        self._memory_n = max(e.n for e in self.history) + 1  # record numbers when there is no file
        self.decided: tuple[int, list[Event]] | None = None  # the last command record written: its n and events
        self.minds = Minds(self)

    @property
    def path(self) -> Path | None:
        return self.writer.path if self.writer else None

    @property
    def state(self) -> State:
        return self.history[-1].state

    def ai(self, side: str) -> "Ai":
        """The AI playing `side`: its memory goes into the checkpoints, and a resume gives back the same AI,
        remembering what it remembered (engine.play.minds)."""
        return self.minds.get(side)

    def ai_step(self) -> Rejected | list[Event]:
        """One command of the side to move, as its AI chooses it; the record says it was the AI's. On a
        refusal the AI is told, and skips that unit when asked again (as a resume will retrace)."""
        side = self.ruleset.turn(self.state).side  # whose controller decides now
        ai = self.ai(side)
        command = ai.next_command(self.state)
        result = self._submit(command, by_ai=True)
        if isinstance(result, Rejected):
            if isinstance(command, EndTurn):
                raise RuntimeError(f"the {side} AI cannot end its turn: {result}")
            ai.rejected(command, result)
        return result

    # -- starting and resuming -----------------------------------------------------------------

    @classmethod
    def new(cls, content: Content, ruleset_id: str, mission_id: str, seed: bytes, path: Path | None,
            casual: bool = False, max_phases: int | None = None,
            squad: list[roster.Character] | None = None, public: int | None = None,
            campaign: dict[str, Any] | None = None, extra_turns: int = 0, alone: bool = False) -> "Game":
        """A fresh mission; with `path` None it lives in memory only (tests, benchmarks). `squad`:
        roster characters deployed in the first squad places (the ruleset's `Creation.deploy`). `public`: the
        number of a reproducible seed (`--seed N`), written in the header; None for a secret seed. `extra_turns`:
        phases after the main objectives (xcom-trpg 4.8), 0 for none. `alone`: `squad` is the whole squad."""
        header = make_header(content, ruleset_id, mission_id, seed, casual, max_phases, squad, public, campaign,
                             extra_turns, alone)
        writer = log.Writer.create(path, header, seed) if path is not None else None  # lock, seed, header
        game = cls(content, header, seed, writer)
        if writer is not None:
            game.companion = log.Companion(seed, writer.last_hash)
        game.notes += _seed_notes(header)
        started = game.submit(StartMission())
        if isinstance(started, Rejected):
            raise log.LogError(f"the mission cannot start: {started}")
        return game

    @classmethod
    def resume(cls, content: Content, path: Path, lock: log.Lock | None = None) -> "Game":
        """Carry on an unfinished log. A record torn by a crash is set aside (see `notes`).

        The lock comes first: nothing is read to decide, or written, before this process holds the log.
        The header is checked every time (against the seed file's hash of it and line 2's link to it);
        of the rest, only the records from the last checkpoint on are read (that keeps resume flat), and
        a change to any of them is refused: `engine.recovery` continues the good part in a new file.
        Damage further back is for `replay --verify` to find."""
        lock = lock or log.Lock(path)
        try:
            header = log.read_header(path)
            if header.get("version") != log.VERSION:  # its state hashes are of units in the older shape
                raise log.LogError(f"this log was written in format {header.get('version')} by an older xenotac: "
                                   "it replays and audits, but cannot be carried on", 1)
            check_header(content, header)
            companion = log.read_companion(log.seed_path(path), strict=True)
            if commitment(companion.seed) != header.get("seed_commitment"):
                raise log.LogError(f"{log.seed_path(path)} is not the seed this log committed to")
            notes = [note] if (note := log.set_aside(path, lock)) else []
            _check_head(path, companion)
            records, _size = log.tail(path)
            first = _parse_tail(records[0][2]).get("n") if records else None
            line, why = log.chain_break([raw for _o, _l, raw in records], first, None) \
                if isinstance(first, int) else (1, "no readable record")
            if line is not None:
                raise log.LogError(f"{why}; `xenotac replay LOG --verify` explains, and "
                                   f"`xenotac resume LOG --recover` continues from the last good record", line)
            game = cls(content, header, companion.seed, None)
            game.companion = companion
            game._load(path, records, lock)
        except BaseException:
            lock.release()
            raise
        game.notes = notes + _seed_notes(header)
        if len(game.history) == 1 and game.writer is not None and game.writer.next_line == 2:
            started = game.submit(StartMission())  # it stopped between the header and the first record
            if isinstance(started, Rejected):
                raise log.LogError(f"the mission cannot start: {started}")
        if game.state.winner is not None and not game.revealed:  # it ended, then stopped before the reveal
            game._reveal()
        elif game.revealed and companion.end is None:  # it stopped between the reveal and the seal
            game._seal()
        elif not game.revealed and game._since_checkpoint >= CHECKPOINT_EVERY:  # it stopped before this one
            game.checkpoint()
        return game

    def _load(self, path: Path, records: list[tuple[int, int, bytes]], lock: log.Lock) -> None:
        """The history from the last checkpoint on, then a writer to carry on after the last line."""
        parsed = [(off, _parse_tail(raw), raw) for off, _len, raw in records]
        if parsed and parsed[0][1].get("kind") == "checkpoint":
            self.history = _located(parsed[0][1], lambda: self._restore(parsed[0][1], path))
            _located(parsed[0][1], lambda: self.minds.restore(parsed[0][1]))
            self._since_checkpoint = len(parsed) - 1  # the next checkpoint falls where it would have
        else:  # no checkpoint yet: the log is short, fold it all
            parsed = [(off, log.parse(raw, n), raw) for n, off, raw in log.read_lines(path)][1:]
            self._since_checkpoint = len(parsed)
        last_n, last_raw = 1, None
        for offset, record, raw in parsed:
            last_n, last_raw = record.get("n", last_n), raw
            _located(record, lambda: self._replay(record, offset))
        if last_raw is None:
            last_raw = records[-1][2] if records else next(raw for _n, _o, raw in log.read_lines(path))
        self.writer = log.Writer(path, log.line_hash(last_raw), int(last_n) + 1, lock)

    def _restore(self, checkpoint: dict[str, Any], path: Path) -> list[Entry]:
        anchor = checkpoint["anchor"]
        initial = self.history[0].state
        history = [Entry(anchor["of"], codec.load_state(anchor["state"], initial.grid), False)]
        for n, offset, rolled in checkpoint["trail"]:
            record = log.parse(log.read_at(path, offset), n)
            if record.get("n") != n or record.get("kind") != "command":
                raise log.LogError(f"the checkpoint points at byte {offset} for record {n}, but it is not there",
                                   checkpoint.get("n"))
            events = [codec.load_event(e) for e in record["events"]]
            state = fold(history[-1].state, events)
            if codec.state_hash(state) != record.get("state"):
                raise log.LogError("state hash does not match its events", n)
            history.append(Entry(n, state, bool(rolled), offset))
        return history

    def _replay(self, record: dict[str, Any], offset: int) -> None:
        """Fold a record already on disk (resume): its events are facts, not re-decided."""
        kind = record.get("kind")
        n = record.get("n")
        if self.revealed:
            raise log.LogError("a record after the reveal (the mission was over)", n)
        if kind == "command":
            events = [codec.load_event(e) for e in record["events"]]
            state = fold(self.state, events)
            if codec.state_hash(state) != record.get("state"):
                raise log.LogError("state hash does not match its events", n)
            if not isinstance(record.get("command"), dict):
                raise log.LogError("its command is not an object", n)
            self.minds.record(self.state, record["command"], record.get("ai") is True)
            self.history.append(Entry(n, state, any(e.rolls for e in events), offset))
        elif kind == "undo":
            while len(self.history) > 1 and self.history[-1].n != record.get("base"):
                self.history.pop()
        elif kind == "reveal":
            if self.state.winner is None:
                raise log.LogError("the seed is revealed before the mission ended", n)
            self.revealed = True

    # -- play --------------------------------------------------------------------------------

    def submit(self, command: Command) -> Rejected | list[Event]:
        """A player's command (the AI's go through `ai_step`)."""
        return self._submit(command, by_ai=False)

    def _submit(self, command: Command, by_ai: bool) -> Rejected | list[Event]:
        if self.faces is None:
            return Rejected("no_seed", "This mission's seed is not available: dice cannot be rolled")
        state = self.state
        dice = Dice(self.faces, state.dice)
        events = self.ruleset.decide(state, command, dice)
        if isinstance(events, Rejected):
            return events
        new = fold(state, events)
        if new.dice != dice.counters:
            raise AssertionError("a die was rolled that no event records")
        dumped = codec.dump_command(command)
        if self.writer is not None:  # only a log is resumed: an AI made later retraces what it missed
            self.minds.record(state, dumped, by_ai)
        n, offset = self._write(log.CommandRecord(self.history[-1].n, codec.canonical(dumped).encode(),
                                                  canon.events_text(events, state).encode(), codec.state_hash(new), by_ai))
        self.history.append(Entry(n, new, any(e.rolls for e in events), offset))
        self.decided = (n, events)  # what the record holds, typed: its reader in this process need not decode it
        if new.winner is not None and not self.revealed:
            self._reveal()
        elif self._since_checkpoint >= CHECKPOINT_EVERY:
            self.checkpoint()
        return events

    def undo_problem(self) -> Rejected | None:
        if len(self.history) < 3:
            return Rejected("nothing_to_undo", "Nothing to undo")
        if self.state.winner is not None:
            return Rejected("mission_over", "The mission is over and its seed revealed")
        if self.history[-1].rolled and not self.casual:
            return Rejected("dice_rolled", "Undo stops at the last dice roll (start a --casual mission to undo rolls)")
        return None

    def undo(self) -> Rejected | State:
        problem = self.undo_problem()
        if problem:
            return problem
        undone = self.history.pop()
        head = self.history[-1]
        self._write({"kind": "undo", "base": head.n, "undone": undone.n, "state": codec.state_hash(head.state)})
        return head.state

    def checkpoint(self) -> None:
        anchor_i = max(0, len(self.history) - UNDO_TRAIL - 1)
        anchor = self.history[anchor_i]
        trail = self.history[anchor_i + 1:]
        record = {"kind": "checkpoint", "of": self.history[-1].n,
                  "anchor": {"of": anchor.n, "state": codec.dump_state(anchor.state)},
                  "trail": [[e.n, e.offset, e.rolled] for e in trail]}
        minds = self.minds.snapshots() if self.writer is not None else {}
        if minds:  # what each AI remembers: a resume goes on exactly as this game would have
            record["ai"] = minds
        self._write(record)
        self._since_checkpoint = 0

    def _reveal(self) -> None:
        assert self.seed is not None
        self._write({"kind": "reveal", "seed": self.seed.hex()})
        self.revealed = True
        self._seal()

    def _seal(self) -> None:
        """The seed file names the last line and its hash: a finished log cut short shows (verify)."""
        if self.writer is None or self.companion is None:
            return
        try:
            log.seal(self.writer.path, self.companion, self.writer.next_line - 1, self.writer.last_hash)
        except log.LogError as exc:  # the log itself is whole; only the proof of its end is missing
            self.notes.append(str(exc))

    def _write(self, record: dict[str, Any] | log.CommandRecord) -> tuple[int, int]:
        self._since_checkpoint += 1
        if self.writer is None:  # an in-memory game (tests, benchmarks)
            self._memory_n += 1
            return self._memory_n - 1, -1
        return self.writer.append(record)

    def close(self) -> None:
        if self.writer:
            self.writer.close()


def _seed_notes(header: dict[str, Any]) -> list[str]:
    from engine.log.reading import seed_note

    public = header.get("seed_public")
    return [seed_note(header)] if public is not False else []


def _check_head(path: Path, companion: log.Companion) -> None:
    """Line 1 as it was written: its hash is in the seed file (newer logs), and line 2 carries it."""
    head = [raw for _n, _off, raw in itertools.islice(log.read_lines(path), 2)]
    digest = log.line_hash(head[0])
    if companion.header is not None and digest != companion.header:
        raise log.LogError("the header was changed after it was written (the seed file holds its hash)", 1)
    if len(head) > 1 and log.parse_prev(head[1]) != digest:
        raise log.LogError("the header was changed after it was written (line 2 holds its original hash)", 1)


def _parse_tail(raw: bytes) -> dict[str, Any]:
    try:
        return log.parse(raw, 0)
    except log.LogError:
        raise log.LogError("a record near the end is not valid JSON; `xenotac replay LOG --verify` names it") from None


def _located(record: dict[str, Any], work: Any) -> Any:
    """Run `work`; a malformed record becomes one LogError naming its line."""
    try:
        return work()
    except (codec.CodecError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise log.LogError(f"malformed record ({exc})", record.get("n")) from None
