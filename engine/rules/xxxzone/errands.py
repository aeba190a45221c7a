"""The squad AI's errand on a stealth mission (10): its Lockpicker finds the short way in and picks it while the
rest keep out of sight. It knows only the squares its side has seen (the AI's memory, in the log's checkpoints):
a locked door it has not seen is none, so it first scouts, cautiously, closing in on the mission's machine (whose
square the briefing gives) over open ground it has seen, to look at the walls nearest it."""

from __future__ import annotations

import math

import numpy as np

from engine.content import missions
from engine.core.commands import Act, Combo, Command, Wait
from engine.core.geometry import NEIGHBOURS, distance
from engine.core.model import State, Unit
from engine.rules.xxxzone import hacking, moving

SCOUT_REACH = 6  # squares: while the Lockpicker could get this much nearer the machine, it is still scouting


def machines(rs, state: State) -> list:
    """The cells of the mission's machines still running (the briefing names their zones)."""
    return [cell for o in missions.objectives(rs.setup.mission).values()
            for cell in rs.setup.spawns.get(o.zone, ()) if hacking.machine(rs, state, cell)]


def picked(rs, state: State, known: np.ndarray) -> bool:
    """A lock the side has seen picked: a square it has seen turned to what a picked lock leaves (a closed door)."""
    left = {v.unlocks_to for v in rs.content.terrain.values() if v.unlocks_to}
    return any(tile in left and len(cell) == 2 and known[cell[1], cell[0]]
               for cell, tile in state.tiles_changed.items())


def ai_lock(rs, state: State, unit: Unit, hostile: bool, known: np.ndarray) -> Command | None:
    """The squad's Lockpicker, while no hostile is in sight and the mission's machine still runs, makes for the
    nearest locked door it can reach (cautiously, as far as its AP go) and picks it: the short way in (10). The
    rest of the squad waits out of sight until it is open, rather than take the long way past the guards. Only
    the locked doors in `known`, the cells its side has seen ([y, x]), are looked for; with none known it scouts,
    the rest waiting, closing in on the machine over open ground it has seen until it can get no nearer (by then
    it has looked at the walls nearest the machine; no lock there, and the squad takes the long way in)."""
    c = unit.record
    if rs.setup is None or hostile or unit.side != missions.PLAYER or c.turn.continuing is not None \
            or not machines(rs, state):
        return None
    locks = [(int(x), int(y)) for y, x in zip(*np.nonzero(known & state.grid.cells_of(
        {t for t, v in rs.content.terrain.items() if v.unlocks_to})))]
    if not locks and picked(rs, state, known):
        return None  # the short way is open: the squad goes about its work
    if "lockpicker" not in c.op.abilities:
        picker = next((u for u in state.side_units(unit.side) if u.conscious and u.id != unit.id
                       and "lockpicker" in u.record.op.abilities), None)
        scouting = picker is not None and not locks and _scout(rs, state, picker, known, SCOUT_REACH) is not None
        return Wait(unit=unit.id) if picker is not None and (locks or scouting) else None
    for lock in locks:
        if distance(unit.pos, lock) <= 1:
            return Act(unit=unit.id, action="pick_lock", cell=lock) if hacking.refused(
                rs, state, unit, "pick_lock", lock) is None and c.turn.ap > 0 else None
    per = moving.step_cost(rs, unit, "cautiously")
    steps = c.turn.ap // per if isinstance(per, int) and per > 0 else 0
    others = [u.pos for u in state.units.values() if u.id != unit.id and u.status != "dead"]
    if not steps:
        return None
    if not locks:
        path = _scout(rs, state, unit, known, steps)
        return Combo(unit=unit.id, path=path) if path else None
    ways = [state.grid.path(unit.pos, (lock[0] + dx, lock[1] + dy), others) for lock in locks for dx, dy in NEIGHBOURS]
    ways = [w for w in ways if w]
    if not ways:
        return None
    return Combo(unit=unit.id, path=tuple(min(ways, key=lambda w: (len(w), w))[:steps]))


def _scout(rs, state: State, unit: Unit, known: np.ndarray, steps: int) -> tuple | None:
    """The path of a walk of at most `steps` squares outside (never through a door: the errand is to find the way
    in) to the square nearest the machine in a straight line, if that is nearer than where it stands by a square or
    more; None when it can get no nearer."""
    (mx, my), *_ = machines(rs, state)
    grid = state.grid
    others = [u.pos for u in state.units.values() if u.id != unit.id and u.status != "dead"]
    ys, xs = np.nonzero(grid.cells_of({t for t, v in rs.content.terrain.items() if v.opens_to or v.closes_to}))
    paths = {cell: path for cell, path in grid.paths_within(unit.pos, steps, others + list(zip(
        xs.tolist(), ys.tolist()))).items() if len(path) <= steps}  # a square costs the same AP in brush

    def near(cell) -> float:
        return math.hypot(cell[0] - mx, cell[1] - my)

    best = min(paths, key=lambda cell: (near(cell), len(paths[cell]), cell), default=None)
    if best is None or near(best) > near(unit.pos) - 1:
        return None
    return tuple(paths[best])
