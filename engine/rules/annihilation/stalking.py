"""The AI closing on enemies it cannot see, over every storey (the kernel's planner walks one storey).

Shot at from out of its sight (settings `shots_seen`, `Ruleset.heard`), a unit with no hostile in sight walks towards
the nearest square its enemies fired from, but only as far as leaves it the TUs for a snap shot and its side's
reserve (`Budget.step`), so that it can fire the moment it comes into view, as OpenXcom's aliens close on a soldier
who shot at them. A unit above the ground with nobody in sight and no shot (`Ruleset.ai_hunt`: the last of its side,
heights.py keeps any other up there as a watcher) comes down to the ground, where the planner, which walks one storey,
closes on the hostiles its side remembers, explores and works the objective: a soldier hovering storeys up once sat
out the phase limit there, or walked up and down the air above them (issue 12).
Deterministic: the cheapest walk, ties to the lower square."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.commands import Move
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core.ruleset import Clues, Hunt
from engine.map import levels
from engine.map.levels import Place

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation


def stalk(rs: Annihilation, state: State, unit: Unit) -> Move | None:
    return towards(rs, state, unit, rs.heard(state, unit.side))


def hunt(rs: Annihilation, state: State, unit: Unit, clues: Clues) -> Hunt | None:
    """Above the ground with nobody in sight: down to the ground, where the planner walks to what its side knows."""
    if not unit.z or clues.in_sight:
        return None
    move = _down(rs, state, unit)
    return Hunt(command=move) if move is not None else None


def towards(rs: Annihilation, state: State, unit: Unit, cells: list[Pos] | tuple[Pos, ...],
            tu: int | None = None) -> Move | None:
    """The cheapest walk to the nearest of the cells on any storey, stopping short of it (someone may stand there)
    and cut to `tu` (default `Budget.step`)."""
    budget = rs.budget(state, unit)
    tu = budget.step if tu is None else tu
    if not cells or tu <= 0:
        return None
    grid, start = state.grid, (*unit.pos, unit.z)
    others = _others(state, unit)
    best = None
    for x, y in cells:
        for z in range(grid.levels):
            if not levels.standing(grid, (x, y, z)):
                continue
            path = levels.path(grid, start, (x, y, z), others, budget.walk)
            if not path:
                continue
            key = (levels.cost(grid, budget.walk, start, path), (x, y, z))
            if best is None or key < best[0]:
                best = (key, path)
    return _cut(rs, state, unit, best[1][:-1], tu) if best is not None else None


def _down(rs: Annihilation, state: State, unit: Unit) -> Move | None:
    """The cheapest walk to a square on the ground the planner's walking TUs pay for (what its walks leave for the
    enemy's phase kept, `Budget.reserve`); else as far as they go towards the nearest stairs."""
    budget = rs.budget(state, unit)
    tu = budget.moves_left - budget.reserve
    if tu <= 0:
        return None
    grid, start = state.grid, (*unit.pos, unit.z)
    reach = levels.paths_within(grid, start, tu, _others(state, unit), budget.walk)
    ground = sorted((levels.cost(grid, budget.walk, start, path), place, path) for place, path in reach.items()
                    if place[2] == 0 and levels.standing(grid, place))
    if ground:
        return _cut(rs, state, unit, ground[0][2], tu)
    stairs, _ladders = levels.links(grid)
    ys, xs = stairs[0].nonzero()
    return towards(rs, state, unit, list(zip(xs.tolist(), ys.tolist())), tu)


def _others(state: State, unit: Unit) -> list[Place]:
    return [(*u.pos, u.z) for u in state.units.values() if u.id != unit.id and u.status != "dead"]


def _cut(rs: Annihilation, state: State, unit: Unit, path: list[Place] | tuple[Place, ...], tu: int) -> Move | None:
    """The path's start that `tu` pays for, as a Move; None if not even its first step."""
    walk, start = rs.budget(state, unit).walk, (*unit.pos, unit.z)
    path = list(path)
    while path and levels.cost(state.grid, walk, start, path) > tu:
        path = path[:-1]
    if not path:
        return None
    cells, zs = levels.split(path)
    return Move(unit=unit.id, path=cells, levels=zs if state.grid.storeys else ())
