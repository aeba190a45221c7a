"""State is one pure fold of events. No dice, no I/O, no ruleset knowledge.

`fold` batches: a record's events usually touch the same few units many times, so changes are
gathered per unit and each touched unit (and the state) is rebuilt once.
"""

from __future__ import annotations

from typing import Any, Iterable

from engine.core.events import (Event, MissionEnded, Moved, Noted, PhaseStarted, Resolved, SideStarted, TileChanged,
                           UnitChanged, UnitSpawned)
from engine.core.model import State, replace, with_fields
from engine.core.records import merged


def apply(state: State, event: Event) -> State:
    return fold(state, (event,))


_LAST: tuple[State | None, tuple[Event, ...], State | None] = (None, (), None)  # the last fold: its state,
# events and result. The rules after a command fold the same events onto the same state, and the caller folds
# them once more; states and events are frozen, so the same objects fold to the same state.


def fold(state: State, events: Iterable[Event]) -> State:
    global _LAST
    events = tuple(events)
    last_state, last_events, last = _LAST  # one read: another thread may replace it meanwhile
    if state is last_state and len(events) == len(last_events) and all(
            a is b for a, b in zip(events, last_events)):
        return last  # type: ignore[return-value]
    result = _fold(state, events)
    _LAST = (state, events, result)
    return result


def _fold(state: State, events: tuple[Event, ...]) -> State:
    pending: dict[str, dict[str, Any]] = {}
    spawned: dict[str, Any] = {}
    fields: dict[str, Any] = {}
    dice: dict[str, int] | None = None
    tiles: dict = {}
    for event in events:
        if event.rolls:
            if dice is None:
                dice = dict(state.dice)
            for r in event.rolls:
                if r.index >= 0:
                    end = r.index + len(r.faces)
                    if end > dice.get(r.stream, 0):
                        dice[r.stream] = end
        if isinstance(event, UnitChanged):
            _change(pending, spawned, event.unit, event.changes)
        elif isinstance(event, Moved):
            moved = {"pos": event.path[-1], "facing": event.facing}
            if event.levels:
                moved["z"] = event.levels[-1]
            _change(pending, spawned, event.unit, moved)
        elif isinstance(event, UnitSpawned):
            spawned[event.unit.id] = event.unit
            pending.pop(event.unit.id, None)
        elif isinstance(event, SideStarted):
            fields["side"] = event.side
        elif isinstance(event, PhaseStarted):
            fields["phase"] = event.phase
        elif isinstance(event, TileChanged):  # a storey's tile is kept under (x, y, z), the ground's under (x, y)
            tiles[(*event.pos, event.z) if event.z else event.pos] = event.tile
        elif isinstance(event, MissionEnded):
            fields["winner"], fields["ended"] = event.winner, event.reason
        elif isinstance(event, Noted):
            fields["record"] = event.record
        else:
            assert isinstance(event, Resolved)
    if pending or spawned:
        units = dict(state.units)
        units.update(spawned)
        for uid, changes in pending.items():
            units[uid] = replace(units[uid], changes)
        fields["units"] = units
    if dice is not None:
        fields["dice"] = dice
    if tiles:
        fields["tiles_changed"] = {**state.tiles_changed, **tiles}
        fields["grid"] = state.grid.with_tiles(tiles)
    return with_fields(state, fields) if fields else state


def _change(pending: dict[str, dict[str, Any]], spawned: dict[str, Any], uid: str, changes: dict[str, Any]) -> None:
    if uid in spawned:  # spawned in this same batch: change the new unit itself
        spawned[uid] = replace(spawned[uid], changes)
    else:
        into = pending.setdefault(uid, {})
        if "record" in changes and "record" in into:  # two changes of the record: one, in order
            into.update(changes, record=merged(into["record"], changes["record"]))
        else:
            into.update(changes)
