"""A finished or unfinished log opened for viewing: the state after any record, turn by turn.

Jumps use the log's own checkpoints: the state after record n is the nearest checkpointed state
on n's branch folded forward, so any jump costs the same however long the log is.
"""

from __future__ import annotations

import gc
import re
from pathlib import Path
from typing import Any

import attrs

from engine.core import codec
from engine.log import writer as log
from engine.log import reading
from engine.content.models import Content
from engine.core.dice import Dice, Faces, commitment, derive, seed_from_int
from engine.core.events import Event
from engine.play.game import build, check_header
from engine.core.model import State
from engine.core.reducer import fold

CACHE = 256  # states kept from recent jumps
EVENTS = 8192  # records whose typed events are kept


@attrs.frozen
class Turn:
    """Where a side's turn begins: the record whose events start it."""

    n: int
    phase: int
    side: str


class Timeline:
    def __init__(self, content: Content, path: Path, seed_file: Path | None = None) -> None:
        self.path = path
        records, self.broken = reading.records(path)
        self.header = records[0][1]
        check_header(content, self.header)
        self.content = content
        self.ruleset, self.initial = build(content, self.header)
        self.records: dict[int, dict[str, Any]] = dict(records)
        self.base: dict[int, int] = {}
        self.commands: list[int] = []  # command records, in log order
        self.turns: list[Turn] = []
        self._anchors: dict[int, int] = {}  # record -> checkpoint line holding the state after it
        self._states: dict[int, State] = {1: self.initial}
        self._events: dict[int, tuple[Event, ...]] = {}
        self.seed: bytes | None = None
        self.seed_source = ""
        self.seed_file: Path | None = None  # the file the seed was read from, if it came from one
        head, phase = 1, 0
        for n, record in records[1:]:
            kind = record.get("kind")
            if kind == "command":
                self.base[n], head = record["base"], n
                self.commands.append(n)
                for event in record["events"]:
                    if event.get("kind") == "phase":
                        phase = event["phase"]
                    if event.get("kind") == "side":
                        self.turns.append(Turn(n, phase, event["side"]))
            elif kind == "undo":
                head = record["base"]
            elif kind == "checkpoint":
                self._anchors[record["anchor"]["of"]] = n
            elif kind == "reveal":
                self.seed, self.seed_source = bytes.fromhex(record["seed"]), f"revealed on line {n}"
        self.final = head  # the state the log ends in
        public = self.header.get("seed_public")
        if self.seed is None and isinstance(public, int) and not isinstance(public, bool):
            self.seed, self.seed_source = seed_from_int(public), f"public seed {public}"  # anyone can make it
        if self.seed is None and seed_file is not None:  # never the file beside the log on its own:
            self.seed, self.seed_source = log.read_seed(seed_file), str(seed_file)  # it would foretell the dice
            self.seed_file = Path(seed_file)
        if self.seed is not None and commitment(self.seed) != self.header["seed_commitment"]:
            raise log.LogError(f"the seed ({self.seed_source}) does not match the header's commitment", 1)
        # Every record stays parsed while the log is open (JSON: no cycles, freed by reference counts when the
        # timeline goes): set aside from the collector, whose full passes would otherwise walk them all and
        # stall a jump for seconds on a long log.
        gc.freeze()

    @property
    def ended(self) -> bool:
        return self.seed_source.startswith("revealed")

    def branch(self, n: int) -> list[int]:
        """Command records from the start to n, on n's own branch."""
        out = []
        while n in self.base:
            out.append(n)
            n = self.base[n]
        return out[::-1]

    def state_at(self, n: int) -> State:
        """The state after record n (a command, or 1 for the start)."""
        path: list[int] = []
        k = n
        while k not in self._states and k not in self._anchors and k in self.base:
            path.append(k)
            k = self.base[k]
        state = self._states.get(k)
        if state is None:
            anchor = self.records[self._anchors[k]]["anchor"]["state"]
            state = codec.load_state(anchor, self.initial.grid)
        for m in reversed(path):
            state = fold(state, self.events(m))
        if len(self._states) > CACHE:
            self._states = {1: self.initial}
        self._states[n] = state
        return state

    def events(self, n: int) -> list[Event]:
        """Record n's events, typed. A jump folds the same records for the map and again for each side's fog:
        each record is typed once (events are frozen), and the cache is bounded (EVENTS records)."""
        known = self._events.get(n)
        if known is None:
            try:
                known = tuple(codec.load_event(e) for e in self.records[n]["events"])
            except codec.CodecError as exc:
                raise log.LogError(f"malformed record: {exc}", n) from None
            if len(self._events) >= EVENTS:
                self._events = {}  # a new dict, not a clear: the fog's worker thread may be reading the old one
            self._events[n] = known
        return list(known)

    def turn_of(self, n: int) -> int:
        """Index in `turns` of the turn record n belongs to."""
        i = 0
        for j, turn in enumerate(self.turns):
            if turn.n <= n:
                i = j
        return i

    def explain(self, n: int) -> list[str]:
        """Every roll of record n with its whole derivation: seed, HMAC, face, formula, sources."""
        record = self.records.get(n)
        if record is None and n > max(self.records):
            raise log.LogError(f"--record {n} is out of range: the log has lines 1 to {max(self.records)}")
        if record is None or record.get("kind") != "command":
            raise log.LogError("not a command record: nothing was rolled there", n)
        out = [f"Record {n}: {_command_text(record['command'])}",
               f"Seed commitment (header): {self.header['seed_commitment']}"]
        if self.seed is None:
            out.append("Seed: not revealed until the mission ends (give --seed-file to audit it before that; "
                       "knowing it foretells every die to come)")
            return out + [f"  {r['actor']} {r['purpose']}: {r['formula']}" for e in record["events"]
                          for r in e.get("rolls", [])]
        out.append(f"Seed: {self.seed.hex()} ({self.seed_source}); sha256(seed) = commitment ✓")
        base = self.state_at(record["base"])
        dice = Dice(Faces(self.seed), base.dice)
        dice.sources = {}
        events = self.ruleset.decide(base, codec.load_command(record["command"]), dice)
        logged = [r for e in record["events"] for r in e.get("rolls", [])]
        redone = [] if not isinstance(events, list) else [codec.dump_roll(r) for e in events for r in e.rolls]
        if codec.canonical(redone) != codec.canonical(logged):
            out.append("WARNING: re-deciding this record does not give the logged rolls: run replay --verify")
        names = {u.id: u.name for u in base.units.values()}
        names.update({e["unit"]["id"]: e["unit"]["name"] for e in record["events"] if e.get("kind") == "spawned"})
        if not logged:
            out.append("No dice were rolled in this record.")
        for roll in logged:
            out.append("")
            out.append(f"{names.get(roll['actor'], roll['actor'])} · {roll['purpose']} · {roll['formula']}"
                       + (f" [{roll['crit']} crit]" if roll.get("crit") else ""))
            sides = _sides(roll["expr"])
            for i, face in enumerate(roll["faces"]):
                d = derive(self.seed, roll["stream"], roll["index"] + i, sides)
                out.append(f"  die {i + 1}: stream {roll['stream']!r}, index {roll['index'] + i}: "
                           f"HMAC-SHA256(seed, \"{d.message}\") = {d.digest}")
                out.append(f"          32-bit word {d.slot} of 8 = {d.word} (below {(1 << 32) - (1 << 32) % sides}: "
                           f"unbiased); {d.word} mod {sides} + 1 = {d.face}"
                           + ("" if d.face == face else f"  ✗ THE LOG SAYS {face}"))
            for line in dice.sources.get((roll["stream"], roll["index"]), []):
                out.append(f"  from: {line}")
        return out


def _sides(expr: str) -> int:
    """The die size of a roll's expression: 1d100 -> 100; a formula's own die for HP rolls."""
    m = re.search(r"\d+d(\d+)", expr)
    return int(m.group(1)) if m else 100


def _command_text(command: dict[str, Any]) -> str:
    fields = ", ".join(f"{k}={v}" for k, v in command.items() if k != "kind")
    return f"{command.get('kind')} ({fields})" if fields else str(command.get("kind"))
