"""The AI's answer to being shot at from out of its sight (settings `shots_seen`, `Ruleset.heard`): a unit with no
hostile in sight walks towards the nearest square its enemies fired from, over every storey, but only as far as
leaves it the TUs for a snap shot and its side's reserve (`Budget.step`), so that it can fire the moment it comes
into view, as OpenXcom's aliens close on a soldier who shot at them. Deterministic: the cheapest walk, ties to the
lower square."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.commands import Move
from engine.core.model import State, Unit
from engine.map import levels

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation


def stalk(rs: Annihilation, state: State, unit: Unit) -> Move | None:
    shots = rs.heard(state, unit.side)
    budget = rs.budget(state, unit)
    if not shots or budget.step <= 0:
        return None
    grid, start = state.grid, (*unit.pos, unit.z)
    others = [(*u.pos, u.z) for u in state.units.values() if u.id != unit.id and u.status != "dead"]
    best = None
    for x, y in shots:
        for z in range(grid.levels):
            if not levels.standing(grid, (x, y, z)):
                continue
            path = levels.path(grid, start, (x, y, z), others, budget.walk)
            if not path:
                continue
            key = (levels.cost(grid, budget.walk, start, path), (x, y, z))
            if best is None or key < best[0]:
                best = (key, path)
    if best is None:
        return None
    path = best[1][:-1]  # the shooter's square itself is taken: it stops short of it
    while path and levels.cost(grid, budget.walk, start, path) > budget.step:
        path = path[:-1]
    if not path:
        return None
    cells, zs = levels.split(path)
    return Move(unit=unit.id, path=cells, levels=zs if grid.storeys else ())
