"""The aliens across storeys (the kernel's planner plans on the storey a unit stands on; going up and down is this):
with a hostile in sight and no shot, a unit climbs to the upper-floor or roof square that gives its best shot this
phase, with the TU left to fire; with none up there it comes down the stairs to hunt. With nobody in sight, one unit
of a side at a time goes up to watch from an upper floor, and a watcher stays up there, unless it is the last of
its side standing (then it hunts: stalking.py). Paths and prices are the
preview's (engine.map.levels, the unit's `Walk`); the AI knows only the hostiles its side sees (`in_sight`).
Deterministic: candidates in a fixed order, ties to the cheaper walk, then the place."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.core.commands import Command, Move, Rejected, Wait
from engine.core.model import State, Unit
from engine.map import levels
from engine.rules.annihilation import clouds

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation

TRIED = 8  # upper squares whose shots are previewed, the cheapest to reach first: each preview is a full one
MIN_CHANCE = 0.1  # a climb for less than this is no firing position


def perch(rs: Annihilation, state: State, unit: Unit, in_sight: list[Unit]) -> Command | None:
    grid = state.grid
    if not grid.storeys:
        return None
    known = [t for t in in_sight if t.conscious]
    if known:
        spot = firing_spot(rs, state, unit, known)
        if spot is not None:
            return spot
        return stairs_to(rs, state, unit, 0) if unit.z else None
    if not any(u.status == "active" and u.id != unit.id for u in state.side_units(unit.side)):
        return None  # the last one standing watches for nobody: it hunts (stalking.hunt, the planner)
    if unit.z:
        return Wait(unit=unit.id)  # a watcher keeps its perch
    if any(u.z for u in state.side_units(unit.side) if u.status != "dead"):
        return None
    return stairs_to(rs, state, unit, 1)


def _others(state: State, unit: Unit) -> list[tuple[int, int, int]]:
    return [(*u.pos, u.z) for u in state.units.values() if u.id != unit.id and u.status != "dead"]


def firing_spot(rs: Annihilation, state: State, unit: Unit, known: list[Unit]) -> Move | None:
    """The square above the ground, reachable this phase with the TU to fire from it left, whose best shot at a
    hostile in sight is likeliest; None if there is none worth the climb."""
    budget = rs.budget(state, unit)
    modes = [m.id for m in rs.shot_modes(state, unit) if m.usable]
    if not modes or budget.moves_left <= 0:
        return None
    start = (*unit.pos, unit.z)
    reach = levels.paths_within(state.grid, start, budget.moves_left, _others(state, unit), budget.walk)
    f = unit.record.fighter
    ranked = sorted((levels.cost(state.grid, budget.walk, start, path), place, path) for place, path in reach.items()
                    if place[2] >= 1 and levels.standing(state.grid, place)
                    and any(clouds.sees(rs, state, place[:2], t.pos, place[2], t.z) for t in known))
    best = None
    for cost, place, path in ranked[:TRIED]:
        moved = attrs.evolve(unit, pos=place[:2], z=place[2], record=attrs.evolve(
            unit.record, fighter=attrs.evolve(f, tu_left=f.tu_left - cost, energy=f.energy - cost)))
        there = attrs.evolve(state, units={**state.units, unit.id: moved})
        for t in known:
            for mode in modes:
                preview = rs.preview_shot(there, unit.id, t.id, mode)
                if isinstance(preview, Rejected) or preview.p_hit < MIN_CHANCE:
                    continue
                key = (-preview.p_hit, cost, place)
                if best is None or key < best[0]:
                    best = (key, path)
    if best is None:
        return None
    cells, zs = levels.split(best[1])
    return Move(unit=unit.id, path=cells, levels=zs)


def stairs_to(rs: Annihilation, state: State, unit: Unit, z: int) -> Move | None:
    """The cheapest walk this phase pays for onto a stair square of level z."""
    grid = state.grid
    budget = rs.budget(state, unit)
    stairs, _ladders = levels.links(grid)
    start = (*unit.pos, unit.z)
    best = None
    for y, x in zip(*(v.tolist() for v in stairs[0].nonzero())):
        path = levels.path(grid, start, (x, y, z), _others(state, unit), budget.walk)
        cost = levels.cost(grid, budget.walk, start, path) if path else None
        if cost is not None and cost <= budget.moves_left and (best is None or (cost, path) < best):
            best = (cost, path)
    if best is None:
        return None
    cells, zs = levels.split(best[1])
    return Move(unit=unit.id, path=cells, levels=zs)
