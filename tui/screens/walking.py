"""What the battle screen's moving mode reads off the map for the cursor: the path it previews, the ground an
objective is about, and why there is no path, truly."""

from __future__ import annotations

import numpy as np

from engine.content import missions
from engine.core.model import Unit
from engine.map import levels
from engine.map.grid import Pos
from engine.map.levels import Place
from tui.session import Session


def path(session: Session, unit: Unit | None, cursor: Pos) -> tuple[Pos, ...]:
    """The path the cursor previews: the ruleset's cheapest walk, around the hostiles the squad sees."""
    if unit is None or cursor == unit.pos:
        return ()
    state = session.state
    x, y = cursor
    walk = session.ruleset.budget(state, unit).walk  # the path the ruleset prices cheapest
    if not session.chronicle.explored[y, x] or not state.grid.passable(walk)[y, x]:
        return ()
    seen = session.chronicle.spotted
    hostiles = [u.pos for u in state.units.values() if u.side != session.side and u.id in seen]
    return tuple(state.grid.path(unit.pos, cursor, hostiles, walk))


def by_places(session: Session, unit: Unit | None) -> bool:
    """Whether a walk is planned over places (x, y, level): on a map with storeys, or where the ruleset's walk
    jumps (a window, a fence) on a map of one level, since a jump is no step to a square beside."""
    if session.state.grid.storeys:
        return True
    return unit is not None and bool(session.ruleset.budget(session.state, unit).walk.hops)


def route(session: Session, unit: Unit | None, cursor: Pos, level: int) -> tuple[Place, ...]:
    """On a map with storeys (or jumps, `by_places`): the path the cursor on storey `level` previews, over every
    storey (stairs, ladders, jumps) by the ruleset's walk, around the hostiles the squad sees."""
    if unit is None or (cursor, level) == (unit.pos, unit.z):
        return ()
    state, chron = session.state, session.chronicle
    x, y = cursor
    walk = session.ruleset.budget(state, unit).walk
    if not levels.open_to(state.grid, walk, (x, y, level)):  # a floor, or open air for a flyer
        return ()
    explored = chron.explored_levels[level] if state.grid.storeys else chron.explored
    if not explored[y, x]:  # unseen up there: known only as the top of stairs seen below
        stairs, ladders = levels.links(state.grid)
        if not (level and (stairs | ladders)[level - 1, y, x] and chron.explored_levels[level - 1][y, x]):
            return ()
    seen = session.ruleset.spotted(state, session.side)
    hostiles = [(*u.pos, u.z) for u in state.units.values() if u.side != session.side and u.status != "dead"
                and u.id in seen]
    return tuple(levels.path(state.grid, (*unit.pos, unit.z), (x, y, level), hostiles, walk))


def shown(session: Session, unit: Unit, route: tuple[Place, ...], level: int) -> tuple[tuple[Pos, ...], int]:
    """The route's squares on storey `level`, and how many of them this turn pays for (they come first)."""
    state = session.state
    budget = session.ruleset.budget(state, unit)
    paid = [levels.cost(state.grid, budget.walk, (*unit.pos, unit.z), route[:i + 1]) <= budget.moves_left
            for i in range(len(route))]
    on = [(p[:2], ok) for p, ok in zip(route, paid) if p[2] == level]
    return tuple(c for c, _ in on), sum(ok for _, ok in on)


def cost(session: Session, unit: Unit | None, route: tuple[Place, ...]) -> int | None:
    """What the route costs by the ruleset's walk; None without a route or one planned cell by cell."""
    if not route or unit is None or not by_places(session, unit):
        return None
    walk = session.ruleset.budget(session.state, unit).walk
    return levels.cost(session.state.grid, walk, (*unit.pos, unit.z), route)


def zone(session: Session) -> np.ndarray | None:
    """The ground an objective is about (the extraction point, the zone to hold, the exit), shaded while moving."""
    setup = session.ruleset.setup
    if setup is None:
        return None
    cells = [c for o in missions.objectives(setup.mission).values() if o.kind in ("extract", "hold", "escape")
             for c in setup.spawns.get(o.zone, ())]
    if not cells:
        return None
    grid = session.state.grid
    area = np.zeros((grid.height, grid.width), dtype=bool)
    for x, y in cells:
        area[y, x] = True
    return area


def no_path(session: Session, unit: Unit, cursor: Pos, level: int = 0) -> str:
    """Why there is no path to the cursor, truly: a wall is not "move the cursor first"."""
    state, (x, y) = session.state, cursor
    storeys = bool(state.grid.storeys)
    if cursor == unit.pos and (not storeys or level == unit.z):
        return f"Move the cursor to where {unit.name} should go first"
    explored = session.chronicle.explored_levels[level] if storeys else session.chronicle.explored
    if not explored[y, x]:
        return f"{x},{y} is unexplored: the squad knows no way there yet"
    grid = state.grid.level(level)
    if not grid.passable(session.ruleset.budget(state, unit).walk if level == 0 else None)[y, x]:
        tile = grid.terrain[grid.tile(cursor)]
        return f"{tile.name} at {x},{y}: nobody can stand there"
    seen = session.chronicle.visible_levels[level] if storeys else session.chronicle.visible
    other = next((u for u in state.units_at(cursor, level if storeys else None)
                  if u.side == session.side or seen[y, x]), None)
    if other is not None:
        return f"{other.name} stands at {x},{y}"
    return f"No way from {unit.pos[0]},{unit.pos[1]} to {x},{y}"
