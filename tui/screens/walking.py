"""What the battle screen's moving mode reads off the map for the cursor: the path it previews, the ground an
objective is about, and why there is no path, truly."""

from __future__ import annotations

import numpy as np

from engine.content import missions
from engine.core.model import Unit
from engine.map.grid import Pos
from tui.session import Session


def path(session: Session, unit: Unit | None, cursor: Pos) -> tuple[Pos, ...]:
    """The path the cursor previews: the ruleset's cheapest walk, around the hostiles the squad sees."""
    if unit is None or cursor == unit.pos:
        return ()
    state = session.state
    x, y = cursor
    if not session.chronicle.explored[y, x] or not state.grid.walkable[y, x]:
        return ()
    seen = session.chronicle.visible
    hostiles = [u.pos for u in state.units.values()
                if u.side != session.side and u.status != "dead" and seen[u.pos[1], u.pos[0]]]
    walk = session.ruleset.budget(state, unit).walk  # the path the ruleset prices cheapest
    return tuple(state.grid.path(unit.pos, cursor, hostiles, walk))


def zone(session: Session) -> np.ndarray | None:
    """The ground an objective is about (the extraction point, the zone to hold), shaded while moving."""
    setup = session.ruleset.setup
    if setup is None:
        return None
    cells = [c for o in missions.objectives(setup.mission).values() if o.kind in ("extract", "hold")
             for c in setup.spawns.get(o.zone, ())]
    if not cells:
        return None
    grid = session.state.grid
    area = np.zeros((grid.height, grid.width), dtype=bool)
    for x, y in cells:
        area[y, x] = True
    return area


def no_path(session: Session, unit: Unit, cursor: Pos) -> str:
    """Why there is no path to the cursor, truly: a wall is not "move the cursor first"."""
    state, (x, y) = session.state, cursor
    if cursor == unit.pos:
        return f"Move the cursor to where {unit.name} should go first"
    if not session.chronicle.explored[y, x]:
        return f"{x},{y} is unexplored: the squad knows no way there yet"
    if not state.grid.walkable[y, x]:
        tile = session.content.terrain[state.grid.tile(cursor)]
        return f"{tile.name} at {x},{y}: nobody can stand there"
    seen = session.chronicle.visible
    other = next((u for u in state.units_at(cursor) if u.side == session.side or seen[y, x]), None)
    if other is not None:
        return f"{other.name} stands at {x},{y}"
    return f"No way from {unit.pos[0]},{unit.pos[1]} to {x},{y}"
