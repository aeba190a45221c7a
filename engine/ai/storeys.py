"""The AI on a map with storeys (issue 12). The planner scores cells, goals and threats on the storey a unit stands
on, with 2-D cells: a hostile on another storey at the same x, y read as standing next to it, so a soldier under a
hovering Floater stepped off its square and back, phase after phase. `own` keeps to the unit's storey what is on it;
what is on another storey is a place to shoot at (the shot previews add the height) or to `climb` to by the stairs.
On a map of one storey every unit and hostile is on level 0, so both change nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.ai.tactics import Knowledge
from engine.core.commands import Move
from engine.core.model import State, Unit
from engine.map import levels
from engine.map.levels import Place

if TYPE_CHECKING:
    from engine.ai.planner import Ai


def own(k: Knowledge, unit: Unit) -> tuple[Knowledge, list[Place]]:
    """What the side knows on the unit's storey, and the places of the hostiles it knows on the others (a threat of
    unknown storey, a shot heard, counts as on the unit's)."""
    levels_ = k.levels or (None,) * len(k.threats)
    off = [(*t, z) for t, z in zip(k.threats, levels_) if z is not None and z != unit.z]
    off += [(*t.pos, t.z) for t in k.live_targets() if t.z != unit.z and (*t.pos, t.z) not in off]
    if not off and all(t.z == unit.z for t in k.targets):
        return k, []
    kept = [(t, z) for t, z in zip(k.threats, levels_) if z is None or z == unit.z]
    return attrs.evolve(k, targets=tuple(t for t in k.targets if t.z == unit.z), threats=tuple(t for t, _ in kept),
                        levels=tuple(z for _, z in kept)), sorted(off)


def climb(ai: "Ai", state: State, unit: Unit, places: list[Place], tu: int) -> Move | None:
    """The cheapest walk over the storeys towards the nearest of the places, stopping short of it (the hostile is
    there) and cut to what `tu` pays for; None if there is no way or not even a step."""
    walk, grid, start = ai.ruleset.budget(state, unit).walk, state.grid, (*unit.pos, unit.z)
    if tu <= 0 or not grid.storeys:
        return None
    others = [(*u.pos, u.z) for u in state.units.values() if u.id != unit.id and u.status != "dead"]
    best = None
    for place in places:
        for goal in _ways(grid, walk, unit, place):
            path = levels.path(grid, start, goal, others, walk)
            path = path[:-1] if goal == place else path  # short of the hostile's own square
            if path and (best is None or (levels.cost(grid, walk, start, path), path) < best):
                best = (levels.cost(grid, walk, start, path), path)
    if best is None:
        return None
    path = best[1]
    while path and levels.cost(grid, walk, start, path) > tu:
        path = path[:-1]
    if not path:
        return None
    cells, zs = levels.split(path)
    return Move(unit=unit.id, path=cells, levels=zs)


def _ways(grid, walk, unit: Unit, place: Place) -> list[Place]:
    """Where to walk for a hostile at `place`: its square if a walk may end there, else the stairs towards its
    storey (a Floater hovers over open air no soldier stands on)."""
    if levels.open_to(grid, walk, place):
        return [place]
    z = unit.z + (1 if place[2] > unit.z else -1)
    stairs, _ladders = levels.links(grid)
    ys, xs = stairs[min(z, unit.z)].nonzero()
    return [(x, y, z) for x, y in zip(xs.tolist(), ys.tolist())]
