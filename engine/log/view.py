"""What a side saw of a mission: the one rule every reader of a log follows until the mission ends.

Until then a side sees its own units' events and rolls; another side's only while the unit acting or
affected is spotted by it (in the state before the record or after it); tile changes in the cells it
sees; and of every other die only that it was rolled, so the count stays honest ("3 rolls out of
sight"). Once the mission has ended everything opens. The battle screen's roll and message logs, the
full log, `replay --story`, `audit` and the replay viewer all read a log through this; `look` is what a
side learns of a state, shared by the fog of war, the chronicle and the AI's memory.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

import attrs
import numpy as np

from engine.core import codec
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.core.ruleset import Ruleset
from engine.log.errors import LogError

KEPT = 4  # states whose sight is kept: a record's "after" is the next one's "before"
OUT_OF_SIGHT = "someone out of sight"


@attrs.frozen
class Told:
    """One record as the side saw it: `shown[i]` is event i as seen (rolls it could not see taken out,
    a move cut to the cells it saw), or None when the side saw nothing of it."""

    shown: tuple[dict[str, Any] | None, ...]
    hidden: int  # rolls made out of its sight

    @property
    def events(self) -> list[dict[str, Any]]:
        return [e for e in self.shown if e is not None]


def hidden_line(count: int) -> str:
    return f"{count} roll{'' if count == 1 else 's'} out of sight"


def everything(events: Iterable[dict[str, Any]]) -> Told:
    return Told(tuple(events), 0)


def ended(records: Iterable[tuple[int, Mapping[str, Any]]]) -> bool:
    """Whether the mission of these records has ended (its seed revealed, or an `ended` event written)."""
    for _n, record in records:
        if record.get("kind") == "reveal" or any(e.get("kind") == "ended" for e in record.get("events", ())):
            return True
    return False


def look(sight: Ruleset | "Eyes", state: State, side: str, explored: np.ndarray, last_seen: dict[str, Pos],
         keep: Callable[[Unit], bool] | None = None) -> tuple[np.ndarray, list[Unit]]:
    """The side looks at `state`: the cells it sees join `explored`, and `last_seen` (unit id -> cell) learns
    where each other unit it spots stands (`keep` picks which), forgets the dead it sees and those whose
    cell it sees empty. Returns the cells seen and the living units spotted."""
    seen = sight.visible(state, side)
    explored |= seen
    spotted = sight.spotted(state, side)
    in_sight = []
    for unit in state.units.values():
        if unit.side == side or unit.id not in spotted or (keep is not None and not keep(unit)):
            continue
        if unit.status == "dead":
            last_seen.pop(unit.id, None)
        else:
            in_sight.append(unit)
            last_seen[unit.id] = unit.pos
    there = {u.id for u in in_sight}
    for uid, (x, y) in list(last_seen.items()):
        if seen[y, x] and uid not in there:
            del last_seen[uid]  # the side looks there and it is gone
    return seen, in_sight


class Unseen:
    """Names of units out of sight, replaced in a text by `someone out of sight`: longest first, and never part of a
    longer word (`Sectoid 1` is not `Sectoid 12`), as `(?<!\\w)name(?!\\w)` would. Matched by hand, only for the names
    the text holds: a pattern of a mission's seventy names and ids cost more to compile than the rest of telling the
    record, and one per text more still."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = sorted(names, key=len, reverse=True)

    def sub(self, text: str) -> str:
        present = [n for n in self.names if n in text]
        if not present:
            return text
        out: list[str] = []
        i = 0
        while i < len(text):
            name = next((n for n in present if text.startswith(n, i) and not _word(text, i - 1)
                         and not _word(text, i + len(n))), None)
            if name is None:
                out.append(text[i])
                i += 1
            else:
                out.append(OUT_OF_SIGHT)
                i += len(name)
        return "".join(out)


def _word(text: str, i: int) -> bool:
    """Whether text[i] is a word character, as a pattern's `\\w` reads it (none before the start or past the end)."""
    return 0 <= i < len(text) and (text[i].isalnum() or text[i] == "_")


class Eyes:
    """One side's sight of states, asked of the ruleset once per state; and a record told as it saw it."""

    def __init__(self, ruleset: Ruleset, side: str) -> None:
        self.ruleset = ruleset
        self.side = side
        self._kept: list[tuple[State, np.ndarray, frozenset[str]]] = []

    def _sight(self, state: State) -> tuple[np.ndarray, frozenset[str]]:
        for kept, cells, units in self._kept:
            if kept is state:
                return cells, units
        cells, units = self.ruleset.visible(state, self.side), self.ruleset.spotted(state, self.side)
        self._kept = [*self._kept[-(KEPT - 1):], (state, cells, units)]  # the state is held: its id stays its own
        return cells, units

    def visible(self, state: State, side: str) -> np.ndarray:
        return self._sight(state)[0] if side == self.side else self.ruleset.visible(state, side)

    def spotted(self, state: State, side: str) -> frozenset[str]:
        return self._sight(state)[1] if side == self.side else self.ruleset.spotted(state, side)

    def tell(self, before: State, after: State, events: list[dict[str, Any]]) -> Told:
        """The record that took `before` to `after` (its events in JSON form), as the side saw it."""
        shown: list[dict[str, Any] | None] = []
        hidden = 0
        unseen = self._unseen_names(before, after)
        for event in events:
            seen = self._event(event, before, after)
            rolls = event.get("rolls") or []
            if seen is None:
                shown.append(None)
                hidden += len(rolls)
                continue
            kept = [r for r in rolls if self.sees(r.get("actor"), before, after) is not False]
            hidden += len(rolls) - len(kept)
            told = [self._unnamed(r, unseen, ("formula",)) for r in kept]  # a mission die may name the unseen
            if told != rolls:
                seen = {**seen, "rolls": told}
            shown.append(self._unnamed(seen, unseen))
        return Told(tuple(shown), hidden)

    def _unseen_names(self, before: State, after: State) -> Unseen | None:
        """The names of the units the side does not see in the record."""
        names = {word for u in after.units.values() if self.sees(u.id, before, after) is False
                 for word in (u.name, u.id)}
        return Unseen(names) if names else None

    @staticmethod
    def _unnamed(event: dict[str, Any], unseen: Unseen | None,
                 fields: tuple[str, ...] = ("text", "cause")) -> dict[str, Any]:
        """A seen event (or roll) whose words name a unit out of sight, by name or id (a death that grieves a
        friend, a blast that reached into the dark, an initiative tie among the unseen) names it `someone out
        of sight`."""
        if unseen is None:
            return event
        words = {k: unseen.sub(event[k]) for k in fields if isinstance(event.get(k), str)}
        return {**event, **words} if any(event[k] != v for k, v in words.items()) else event

    def sees(self, uid: Any, before: State, after: State) -> bool | None:
        """Whether the side sees unit `uid` in the record: its own, or spotted before or after; None if
        `uid` names no unit (a die of the mission itself: it goes with its event)."""
        units = [s.units[uid] for s in (before, after) if isinstance(uid, str) and uid in s.units]
        if not units:
            return None
        if any(u.side == self.side for u in units):
            return True
        return uid in self._sight(before)[1] or uid in self._sight(after)[1]

    def _event(self, event: dict[str, Any], before: State, after: State) -> dict[str, Any] | None:
        kind = event.get("kind")
        if kind == "tile":
            return event if self._saw(event["pos"], before, after) else None
        if kind == "spawned":
            uid = event["unit"]["id"]
        elif kind in ("moved", "changed"):
            uid = event.get("unit")
        elif kind == "resolved":
            return self._resolved(event, before, after)
        else:
            return event  # a phase, a side's turn, the end: everybody knows
        seen = self.sees(uid, before, after)
        if seen is False:
            return None
        if kind == "moved" and after.units[uid].side != self.side:
            return self._moved(event, before, after)
        return event

    def _resolved(self, event: dict[str, Any], before: State, after: State) -> dict[str, Any] | None:
        """An interaction: whole if the side sees who acted; if it sees only whom (or the cell) it reached,
        that something did, in words that name neither the actor nor its numbers."""
        actor = self.sees(event.get("actor"), before, after)
        target = self.sees(event.get("target"), before, after)
        if actor is True or actor is None and target is not False:
            return event
        cell = event.get("cell")
        if target is True:
            where = after.units[event["target"]].name
        elif cell is not None and self._saw(cell, before, after):
            where = f"{cell[0]},{cell[1]}"
        else:
            return None
        text = f"Out of sight → {where}: {str(event.get('action', '')).replace('_', ' ')}, {event.get('outcome', '')}"
        return {**event, "actor": None, "text": text}

    def _saw(self, cell: Any, before: State, after: State) -> bool:
        """Whether the side saw the cell before or after the record (a cell off the map: never)."""
        x, y = cell[0], cell[1]
        if not (0 <= x < before.grid.width and 0 <= y < before.grid.height):
            return False
        return bool(self._sight(before)[0][y, x] or self._sight(after)[0][y, x])

    def _moved(self, event: dict[str, Any], before: State, after: State) -> dict[str, Any]:
        """Another side's move: the cells of its path the side saw, and whether it went out of sight."""
        seen = [i for i, p in enumerate(event.get("path", [])) if self._saw(p, before, after)]
        path = [event["path"][i] for i in seen]
        cut = {"path": path}
        if "levels" in event:  # a walk between storeys: the levels of the cells seen
            cut["levels"] = [event["levels"][i] for i in seen]
        if event["unit"] in self._sight(after)[1]:
            return {**event, **cut} if len(path) != len(event.get("path", [])) else event
        return {**event, **cut, "out_of_sight": True}


class View:
    """A log read record by record, in log order, as `side` saw it; `opened` shows everything (the mission
    has ended). Undone records are told from their own branch."""

    def __init__(self, ruleset: Ruleset, initial: State, side: str, opened: bool = False) -> None:
        self.eyes = Eyes(ruleset, side)
        self.side = side
        self.opened = opened
        self._states: dict[int, State] = {1: initial}

    def feed(self, n: int, record: Mapping[str, Any]) -> Told | None:
        """Record n told; None for a record that is not a command (an undo, a checkpoint, the reveal)."""
        if record.get("kind") != "command":
            return None
        events = list(record.get("events", []))
        if self.opened:
            return everything(events)
        before = self._states.get(record.get("base", 1))
        if before is None:
            raise LogError(f"its base {record.get('base')!r} is no earlier command", n)
        try:
            after = fold(before, [codec.load_event(e) for e in events])
        except codec.CodecError as exc:
            raise LogError(f"malformed record: {exc}", n) from None
        off = next((u for u in after.units.values() if not (0 <= u.pos[0] < after.grid.width
                                                            and 0 <= u.pos[1] < after.grid.height)), None)
        if off is not None:  # sight cannot be taken from there: the log was written by no game
            raise LogError(f"{off.name} stands off the map at {off.pos[0]},{off.pos[1]}", n)
        self._states[n] = after
        return everything(events) if before.winner is not None else self.eyes.tell(before, after, events)
