"""What the squad has seen and heard, rebuilt from the log's records alone.

The live client feeds it the records the game just wrote, and `resume` feeds it the whole file:
the same records give the same roll log, message log, explored cells and last-known enemy
positions, so a resumed mission looks exactly like the one that was left.
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

from engine.core import codec
from engine.map.grid import Pos
from engine.core.events import Event, UnitChanged
from engine.core.model import State, Unit, replace
from engine.core.reducer import fold
from engine.core.ruleset import Ruleset
from engine.log.story import describe, sides_of, tile_lines
from engine.log.view import Eyes, everything, hidden_line, look
from tui import told

CRIT = {"success": " [crit+]", "failure": " [crit-]"}


def roll_text(roll: dict[str, Any]) -> str:
    return roll["formula"] + CRIT.get(roll.get("crit") or "", "")


def roll_line(event: dict[str, Any], names: dict[str, str]) -> str | None:
    """One roll-log line: `Anton → Sectoid: agility 4*53=212, luck 6*30=180>=100 ✓ → HIT, 10 dmg`."""
    rolls = event.get("rolls") or []
    if not rolls:
        return None
    formulas = ", ".join(roll_text(r) for r in rolls)
    if event.get("kind") == "resolved":
        text = event.get("text", "")
        head, sep, tail = text.partition(": ")
        if sep and "→" in head:
            return f"{head}: {formulas} → {tail}"
        who = names.get(event.get("actor", ""), event.get("actor", ""))
        rest = text[len(who):].strip() if text.startswith(who) else text
        return f"{who}: {formulas} → {rest}"
    uid = event.get("unit", {}).get("id") if event.get("kind") == "spawned" else event.get("unit")
    who = names.get(uid or "", uid or "dice")
    return f"{who}: {formulas}"


class Chronicle:
    """`opened`: the mission has ended, so every record is told whole (engine.log.view's rule)."""

    def __init__(self, ruleset: Ruleset, initial: State, side: str, opened: bool = False) -> None:
        self.ruleset = ruleset
        self.side = side
        self.opened = opened
        self.eyes = Eyes(ruleset, side)
        self.rolls: list[str] = []
        self.messages: list[str] = []
        self.journal: list[str] = []  # both, in order, for the full log
        self.names: dict[str, str] = {}
        self.sides = sides_of(ruleset.content, ruleset.id)  # what the messages call the sides
        self.last_seen: dict[str, Pos] = {}  # hostile id -> where the squad last saw it
        self.explored = np.zeros((initial.grid.height, initial.grid.width), dtype=bool)
        self.visible = np.zeros_like(self.explored)
        self.spotted: frozenset[str] = frozenset()  # the living other units the side sees now (Ruleset.spotted)
        self.levels = initial.grid.levels
        self.explored_levels = np.zeros((self.levels, *self.explored.shape), dtype=bool)  # the fog of each storey
        self.visible_levels = np.zeros_like(self.explored_levels)
        self.turn_start = 0  # record that began the squad's current turn: undo stops there
        self.remembered: dict[Pos, str] = {}  # explored cells changed out of sight -> the tile the squad saw there
        self.acted: dict[str, Pos] = {}  # hostiles the squad saw act in the last other turn, where last seen
        self.last_actor: str | None = None  # the unit of the last command, for the view to follow
        self._deeds: dict[str, list[str]] = {}  # what each hostile was seen doing this other turn
        self._repeat = told.Repeat()
        self._stack: list[tuple[int, State]] = [(1, initial)]
        self._hidden = 0  # rolls out of sight told by the last roll line, while nothing came after it

    @property
    def state(self) -> State:
        return self._stack[-1][1]

    @property
    def head(self) -> int:
        return self._stack[-1][0]

    def feed_all(self, records: Iterable[dict[str, Any]]) -> None:
        for record in records:
            self.feed(record)

    def feed(self, record: dict[str, Any], known: tuple[list[Event], State] | None = None) -> None:
        """`known`: a command record's events and the state after them, when the caller holds them typed."""
        kind = record.get("kind")
        if kind == "command":
            self._command(record, known)
        elif kind == "undo":
            while len(self._stack) > 1 and self._stack[-1][0] != record.get("base"):
                self._stack.pop()
            self._say(f"↶ undone: back to log line {record.get('base')}")
            self._look(self.state)
        elif kind == "reveal":
            self._say(f"Seed revealed: {record.get('seed')}")

    def _command(self, record: dict[str, Any], known: tuple[list[Event], State] | None = None) -> None:
        before = self.state
        events = record.get("events", [])
        if known is not None:
            loaded, after = known
        else:
            loaded = [codec.load_event(e) for e in events]
            after = fold(before, loaded)
        for event in events:
            if event.get("kind") == "spawned":
                self.names[event["unit"]["id"]] = event["unit"]["name"]
        self._stack.append((int(record.get("n", self.head + 1)), after))
        self._look(after)
        command = record.get("command") or {}
        self.last_actor = command.get("unit")
        said = len(self.messages)
        turn_came = False
        mine = self.last_actor in after.units and after.units[self.last_actor].side == self.side
        ours = mine or command.get("side") == self.side  # our unit's command, or our end of turn
        seen = everything(events) if self.opened or before.winner is not None else \
            self.eyes.tell(before, after, events)
        units = dict(before.units)  # each unit as the events so far left it
        tiles = tile_lines(self.ruleset.content.terrain, before.grid.tile,
                           [e for e in seen.events if e["kind"] == "tile"])
        for event, typed, shown in zip(events, loaded, seen.shown):
            if event.get("kind") == "side" and event.get("side") == self.side:
                self.turn_start = self.head
                turn_came = True
            morale_line = self._change_line(typed, units, after, (shown or event).get("cause", ""))  # all kept
            if shown is None:
                if event.get("kind") == "tile":
                    self._changed_unseen(before, tuple(event["pos"]), event.get("z", 0))
                continue
            for text in (roll_line(shown, self.names), morale_line):
                if text:
                    self._roll(text)
            if shown.get("kind") == "tile":  # the record's tile changes, told together where the first one is
                for text in tiles:
                    self._say(text, told.drift_key(text))
                tiles = []
                continue
            text = self._message(shown)
            if text:
                self._say(text)
                if not ours:  # what hostiles did in their own turn, not what befell them in ours
                    self._deed(shown, after, text)
        if seen.hidden:
            self._out_of_sight(seen.hidden)
        if turn_came:
            self._other_turn_told(after)
        if mine:
            self.acted = {}  # the player has read the map since
        if mine and len(self.messages) == said:  # every action of the player leaves a line, in words
            self._say(told.quiet_command(command, events, self.names))

    def _deed(self, event: dict[str, Any], after: State, text: str) -> None:
        """Note what a hostile was seen doing, for the line per alien when the squad's turn comes."""
        uid = event.get("actor") or event.get("unit")
        unit = after.units.get(uid) if isinstance(uid, str) else None
        if unit is not None and unit.side != self.side and event.get("kind") in ("moved", "resolved", "changed"):
            self._deeds.setdefault(unit.id, []).append(text)

    def _other_turn_told(self, after: State) -> None:
        """One line per hostile the squad saw act in the turn just gone, and where each was last seen."""
        self.acted = {uid: self.last_seen.get(uid, after.units[uid].pos) for uid in self._deeds if uid in after.units}
        lines = told.turn_lines(self._deeds, self.names)
        self._deeds = {}
        if lines:
            self._say(f"While you waited: {len(lines)} seen acting")
            for line in lines:
                self._say(line)

    def _roll(self, text: str) -> None:
        self.rolls.append(text)
        self.journal.append(f"  » {text}")
        self._hidden = 0

    def _out_of_sight(self, count: int) -> None:
        """`5 rolls out of sight`: one line for the dice of a run of unseen records, counted together."""
        if self._hidden and self.rolls and self.journal and self.journal[-1] == f"  » {hidden_line(self._hidden)}":
            count += self._hidden
            self.rolls.pop()
            self.journal.pop()
        self._roll(hidden_line(count))
        self._hidden = count

    def _change_line(self, event: Any, units: dict[str, Unit], after: State, cause: str) -> str | None:
        """`Julia: morale 28 → 38 (+10, killed Sectoid 2)`, in the ruleset's words (`Ruleset.change_note`); keeps
        `units` (each as the events so far left it) up to date, the unseen's too. `cause` is the event's as the
        side saw it."""
        if not isinstance(event, UnitChanged) or event.unit not in units or event.unit not in after.units:
            return None
        was = units[event.unit]
        now = units[event.unit] = replace(was, event.changes)
        note = self.ruleset.change_note(was, now, cause)
        return f"{self.names.get(event.unit, event.unit)}: {note}" if note else None

    def say(self, text: str) -> None:
        """A line for the message log that no record holds (a note from resume)."""
        self._say(text)

    def _say(self, text: str, key: str | None = None) -> None:
        """A message line; the same again (by `key`: smoke thinning anywhere) becomes one line `×N`."""
        text = told.plain_names(text, self.names)
        merged = self._repeat.merge(text, key)
        if merged is not None and self.messages:
            self.messages[-1] = merged
            if self.journal and self.journal[-1] == self._repeat.previous:
                self.journal[-1] = merged
            self._repeat.previous = merged
            return
        self.messages.append(text)
        self.journal.append(text)

    def _look(self, state: State) -> None:
        self.visible, spotted = look(self.eyes, state, self.side, self.explored, self.last_seen)
        self.spotted = frozenset(u.id for u in spotted)
        if self.levels > 1:
            self.visible_levels = self.ruleset.sight_levels(state, self.side)
            self.explored_levels |= self.visible_levels
        for p in [p for p in self.remembered if (self.visible_levels[p[2]] if len(p) == 3 else self.visible)[p[1], p[0]]]:
            del self.remembered[p]  # seen again: the map shows the tile as it is

    def _changed_unseen(self, before: State, pos: Pos, z: int = 0) -> None:
        """A tile changed where the squad cannot see: an explored cell keeps the tile it last saw there (a storey's
        under (x, y, z))."""
        x, y = pos
        explored = self.explored_levels[z] if z else self.explored
        if before.grid.inside(pos) and explored[y, x]:
            self.remembered.setdefault((x, y, z) if z else pos, before.grid.level(z).tile(pos))

    def _message(self, event: dict[str, Any]) -> str | None:
        """A seen event in the message log; a deployment only for the side's own units (shorter than the story's)."""
        if event.get("kind") == "spawned":
            unit = event["unit"]
            return f"{unit['name']} deploys with {unit['hp']} HP" if unit["side"] == self.side else None
        return describe(event, self.names, self.sides)
