"""A mission in play: commands in, events or a rejection out, every record on disk before it counts.

Undo is a record too. Checkpoints every CHECKPOINT_EVERY lines keep undo and resume cost flat:
resume reads the log backwards to the last checkpoint and folds only what follows it.
"""

from __future__ import annotations

import hmac
from pathlib import Path
from typing import Any

import attrs

from engine.core import codec
from engine.log import writer as log
from engine.play import roster
from engine.core.commands import Command, Rejected, StartMission
from engine.content.models import Content
from engine.core.dice import Dice, Faces, commitment
from engine.core.events import Event
from engine.map.gen import GENERATORS
from engine.core.model import State
from engine.core.reducer import fold
from engine.core.ruleset import Ruleset, Setup, make

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
                max_phases: int | None = None, squad: list[roster.Character] | None = None) -> dict[str, Any]:
    limit = max_phases if max_phases is not None else content.missions[mission_id].max_phases
    params = {"id": mission_id, "map_seed": map_seed(seed), "casual": casual, "max_phases": limit}
    if squad:  # roster characters: the header holds all a replay needs of them
        params["squad"] = roster.to_header(squad)
    return {"kind": "header", "format": log.FORMAT, "version": log.VERSION, "ruleset": ruleset_id,
            "content_sha256": content.sha256, "mission": params, "seed_commitment": commitment(seed)}


def build(content: Content, header: dict[str, Any]) -> tuple[Ruleset, State]:
    """The ruleset and the state before the first command, from the header alone."""
    params = header["mission"]
    content = roster.with_squad(content, params["id"], roster.from_header(content, params.get("squad")))
    mission = content.missions[params["id"]]
    counts = {"xcom": len(mission.squad), "aliens": sum(mission.enemies.values())}
    field = GENERATORS[mission.generator](mission.width, mission.height, params["map_seed"], content.terrain, counts)
    setup = Setup(mission_id=params["id"], mission=mission, spawns=field.spawns, max_phases=params["max_phases"])
    ruleset = make(header["ruleset"], content, setup)
    return ruleset, State(ruleset=header["ruleset"], mission=params["id"], grid=field.grid, units={})


def check_header(content: Content, header: dict[str, Any]) -> None:
    mission = header.get("mission")
    if not isinstance(mission, dict) or not isinstance(mission.get("id"), str) \
            or not isinstance(mission.get("map_seed"), int) or not isinstance(mission.get("max_phases"), int):
        raise log.LogError("the header has no valid mission parameters", 1)
    if header.get("content_sha256") != content.sha256:
        raise log.LogError(f"this log was played with content sha {str(header.get('content_sha256'))[:12]}; "
                           f"you have {content.sha256[:12]}", 1)
    if mission["id"] not in content.missions:
        raise log.LogError(f"unknown mission {mission['id']!r}", 1)
    try:
        roster.from_header(content, mission.get("squad"))
    except roster.RosterError as exc:
        raise log.LogError(str(exc), 1) from None


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
        self.notes: list[str] = []  # what resume had to do (a torn record set aside)
        self._since_checkpoint = 0
        self._memory_n = max(e.n for e in self.history) + 1  # record numbers when there is no file

    @property
    def path(self) -> Path | None:
        return self.writer.path if self.writer else None

    @property
    def state(self) -> State:
        return self.history[-1].state

    # -- starting and resuming -----------------------------------------------------------------

    @classmethod
    def new(cls, content: Content, ruleset_id: str, mission_id: str, seed: bytes, path: Path | None,
            casual: bool = False, max_phases: int | None = None,
            squad: list[roster.Character] | None = None) -> "Game":
        """A fresh mission; with `path` None it lives in memory only (tests, benchmarks). `squad`:
        roster characters deployed in the first squad places (engine.roster.with_squad)."""
        header = make_header(content, ruleset_id, mission_id, seed, casual, max_phases, squad)
        writer = None
        if path is not None:
            if path.exists() and path.stat().st_size > 0:
                raise log.LogError(f"{path} already exists; choose another name")
            path.parent.mkdir(parents=True, exist_ok=True)
            log.write_seed(path, seed)  # first: a log must never exist without its seed
            writer = log.Writer.create(path, header)
        game = cls(content, header, seed, writer)
        started = game.submit(StartMission())
        if isinstance(started, Rejected):
            raise log.LogError(f"the mission cannot start: {started}")
        return game

    @classmethod
    def resume(cls, content: Content, path: Path) -> "Game":
        """Carry on an unfinished log. A record torn by a crash is set aside (see `notes`).

        Only the records from the last checkpoint on are read (that keeps resume flat), and a
        change to any of them is refused: `engine.recovery` continues the good part in a new
        file. Damage further back is for `replay --verify` to find."""
        header = log.read_header(path)
        check_header(content, header)
        seed = log.read_seed(log.seed_path(path))
        if commitment(seed) != header.get("seed_commitment"):
            raise log.LogError(f"{log.seed_path(path)} is not the seed this log committed to")
        lock = log.Lock(path)
        try:
            notes = [note] if (note := log.set_aside(path)) else []
            records, _size = log.tail(path)
            first = _parse_tail(records[0][2]).get("n") if records else None
            line, why = log.chain_break([raw for _o, _l, raw in records], first, None) \
                if isinstance(first, int) else (1, "no readable record")
            if line is not None:
                raise log.LogError(f"{why}; `xenotac replay LOG --verify` explains, and "
                                   f"`xenotac resume LOG --recover` continues from the last good record", line)
            game = cls(content, header, seed, None)
            game._load(path, records, lock)
        except BaseException:
            lock.release()
            raise
        game.notes = notes
        if game.state.winner is not None and not game.revealed:  # it ended, then stopped before the reveal
            game._reveal()
        return game

    def _load(self, path: Path, records: list[tuple[int, int, bytes]], lock: log.Lock) -> None:
        """The history from the last checkpoint on, then a writer to carry on after the last line."""
        parsed = [(off, _parse_tail(raw), raw) for off, _len, raw in records]
        if parsed and parsed[0][1].get("kind") == "checkpoint":
            self.history = _located(parsed[0][1], lambda: self._restore(parsed[0][1], path))
        else:  # no checkpoint yet: the log is short, fold it all
            parsed = [(off, log.parse(raw, n), raw) for n, off, raw in log.read_lines(path)][1:]
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
        if kind == "command":
            events = [codec.load_event(e) for e in record["events"]]
            state = fold(self.state, events)
            if codec.state_hash(state) != record.get("state"):
                raise log.LogError("state hash does not match its events", n)
            self.history.append(Entry(n, state, any(e.rolls for e in events), offset))
        elif kind == "undo":
            while len(self.history) > 1 and self.history[-1].n != record.get("base"):
                self.history.pop()
        elif kind == "reveal":
            self.revealed = True

    # -- play --------------------------------------------------------------------------------

    def submit(self, command: Command) -> Rejected | list[Event]:
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
        record = {"kind": "command", "base": self.history[-1].n, "command": codec.dump_command(command),
                  "events": [codec.dump_event(e) for e in events], "state": codec.state_hash(new)}
        n, offset = self._write(record)
        self.history.append(Entry(n, new, any(e.rolls for e in events), offset))
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
        self._write({"kind": "checkpoint", "of": self.history[-1].n,
                     "anchor": {"of": anchor.n, "state": codec.dump_state(anchor.state)},
                     "trail": [[e.n, e.offset, e.rolled] for e in trail]})
        self._since_checkpoint = 0

    def _reveal(self) -> None:
        assert self.seed is not None
        self._write({"kind": "reveal", "seed": self.seed.hex()})
        self.revealed = True

    def _write(self, record: dict[str, Any]) -> tuple[int, int]:
        self._since_checkpoint += 1
        if self.writer is None:  # an in-memory game (tests, benchmarks)
            self._memory_n += 1
            return self._memory_n - 1, -1
        return self.writer.append(record)

    def close(self) -> None:
        if self.writer:
            self.writer.close()


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
