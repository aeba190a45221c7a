"""State is one pure fold of events. No dice, no I/O, no ruleset knowledge."""

from __future__ import annotations

from functools import reduce
from typing import Iterable

import attrs

from engine.events import (Event, MissionEnded, Moved, PhaseStarted, Resolved, SideStarted, TileChanged,
                           UnitChanged, UnitSpawned)
from engine.model import State


def _count_dice(state: State, event: Event) -> State:
    rolls = event.rolls
    if not rolls:
        return state
    dice = dict(state.dice)
    for r in rolls:
        if r.index >= 0:
            dice[r.stream] = max(dice.get(r.stream, 0), r.index + len(r.faces))
    return attrs.evolve(state, dice=dice)


def _with_unit(state: State, uid: str, **changes: object) -> State:
    units = dict(state.units)
    units[uid] = attrs.evolve(units[uid], **changes)
    return attrs.evolve(state, units=units)


def apply(state: State, event: Event) -> State:
    state = _count_dice(state, event)
    if isinstance(event, Moved):
        return _with_unit(state, event.unit, pos=event.path[-1], facing=event.facing)
    if isinstance(event, UnitChanged):
        return _with_unit(state, event.unit, **event.changes)
    if isinstance(event, UnitSpawned):
        units = dict(state.units)
        units[event.unit.id] = event.unit
        return attrs.evolve(state, units=units)
    if isinstance(event, SideStarted):
        return attrs.evolve(state, side=event.side)
    if isinstance(event, PhaseStarted):
        return attrs.evolve(state, phase=event.phase)
    if isinstance(event, TileChanged):
        tiles = dict(state.tiles_changed)
        tiles[event.pos] = event.tile
        return attrs.evolve(state, tiles_changed=tiles, grid=state.grid.with_tiles({event.pos: event.tile}))
    if isinstance(event, MissionEnded):
        return attrs.evolve(state, winner=event.winner, ended=event.reason)
    assert isinstance(event, Resolved)
    return state


def fold(state: State, events: Iterable[Event]) -> State:
    return reduce(apply, events, state)
