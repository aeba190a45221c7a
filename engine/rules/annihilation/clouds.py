"""Smoke and fire on the map (A-17.8, A-17.9): the cloud a smoke or incendiary blast leaves, how long it stays, what
it does to a unit in it, and how smoke cuts sight.

A smoke grenade fills the squares of its diamond that the blast reaches (open ground in sight of its centre: walls
stop it) for `smoke_turns` full turns after the one it went off in; an incendiary blast's squares burn until the end
of the next full turn (`fire_turns` 1). A cloud from turn T therefore lifts when turn T + 1 + turns starts. Sight
passes through at most `smoke_sight_squares` (2) smoke squares: counted along the line from the viewer's square
(not counted) to the square seen (counted), so one sees two squares into smoke and nothing beyond three."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs
import numpy as np

from engine.core.dice import Dice
from engine.core.events import Event, Noted, UnitChanged
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.map import levels
from engine.rules.annihilation import phase
from engine.rules.annihilation.blast import cells
from engine.rules.annihilation.board import Cloud, covered, field_of
from engine.rules.annihilation.soldier import changes

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation

KIND_OF = {"smoke": "smoke", "incendiary": "fire"}  # damage type -> the cloud it leaves


def settle(rs: Annihilation, state: State, centre: Pos, damage_type: str, radius: int, z: int = 0) -> list[Event]:
    """The cloud a blast on storey z leaves there (nothing for high explosive or armour piercing); a smoke cloud
    gives its stun to every unit it settles on (A-17.8: coming into contact with it)."""
    kind = KIND_OF.get(damage_type)
    if kind is None:
        return []
    grid, st = state.grid.level(z), rs.book.settings
    reach = grid.fov(centre, radius + 1)  # tcod's radius stops short of the ring it names
    area = tuple(sorted(c for c in cells(rs.book, centre, radius)
                        if grid.inside(c) and grid.walkable[c[1], c[0]] and reach[c[1], c[0]]))
    if not area:
        return []
    turns = st.smoke_turns if kind == "smoke" else st.fire_turns
    cloud = Cloud(kind, area, state.phase, state.phase + 1 + turns, z)
    words = "Smoke fills" if kind == "smoke" else "Fire takes"
    out: list[Event] = [Noted(record=attrs.evolve(field_of(state), clouds=field_of(state).clouds + (cloud,)),
                              cause=f"{words} {len(area)} squares around {centre[0]},{centre[1]}"
                                    + (f" on level {z}" if z else "") + " until turn "
                                    f"{cloud.until} starts")]
    if kind == "smoke":
        inside = set(area)
        for unit in state.units.values():
            if unit.pos in inside and unit.z == z and unit.record is not None and unit.record.fighter.status != "dead":
                out += smoke_on(rs, unit, "in the smoke as it spreads")
    return out


def lift(rs: Annihilation, state: State) -> list[Event]:
    """At the start of a turn, the clouds whose time is up lift."""
    field = field_of(state)
    staying = tuple(c for c in field.clouds if c.until > state.phase)
    if len(staying) == len(field.clouds):
        return []
    gone = [c for c in field.clouds if c.until <= state.phase]
    words = ", ".join(f"{'smoke' if c.kind == 'smoke' else 'fire'} of turn {c.since}" for c in gone)
    return [Noted(record=attrs.evolve(field, clouds=staying), cause=f"lifts: {words}")]


def smoke_on(rs: Annihilation, unit: Unit, why: str) -> list[Event]:
    """A-17.8: 4 stun on contact, at most once a turn."""
    f = unit.record.fighter
    if f.smoked or f.status == "dead":
        return []
    f, step = phase.smoke_contact(rs.book, attrs.evolve(f, facing=unit.facing))
    return [UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(unit.record, fighter=f)),
                        cause=f"{why}: smoke, {step.text}")]


def fire_on(rs: Annihilation, unit: Unit, dice: Dice, why: str) -> list[Event]:
    """A-17.9: 10 incendiary damage on the under armour, at most once a turn."""
    f = unit.record.fighter
    if f.burned or f.status == "dead":
        return []
    f, step, rolls = phase.fire_contact(rs.book, dice, attrs.evolve(f, facing=unit.facing))
    return [UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(unit.record, fighter=f)),
                        cause=f"{why}: fire, {rs.book.settings.fire_damage} on the under armour, {step.text}",
                        rolls=rolls)]


def in_smoke(state: State, cell: Pos, z: int = 0) -> bool:
    return cell in covered(state, "smoke", z)


def burning(state: State, cell: Pos, z: int = 0) -> bool:
    return cell in covered(state, "fire", z)


# -- sight through smoke -------------------------------------------------------------------------------------------

def _mask(rs: Annihilation, state: State, z: int) -> np.ndarray | None:
    smoke = covered(state, "smoke", z)
    if not smoke:
        return None
    mask = np.zeros((state.grid.height, state.grid.width), dtype=np.int16)
    for x, y in smoke:
        mask[y, x] = 1
    return mask


def _cached(rs: Annihilation, state: State) -> dict:
    """The cache of sight through smoke, for this map and this set of clouds."""
    key = (state.grid, field_of(state).clouds)
    cache = rs._haze
    if cache.get("key") != key:
        cache.clear()
        cache["key"] = key
    return cache


def _smoke(rs: Annihilation, state: State, z: int) -> np.ndarray | None:
    cache = _cached(rs, state)
    if ("mask", z) not in cache:
        cache["mask", z] = _mask(rs, state, z)
    return cache["mask", z]


def smoky(state: State, z: int) -> bool:
    """Whether smoke lies on storey z (`covered` not empty), without gathering its squares."""
    return any(c.kind == "smoke" and c.z == z and c.cells for c in field_of(state).clouds)


def _counts(rs: Annihilation, state: State, origin: Pos, z: int) -> np.ndarray | None:
    """[y, x]: the smoke squares of storey z on the line from `origin` (not counted) to each square (counted); None
    while no smoke lies on that storey."""
    mask = _smoke(rs, state, z)
    if mask is None:
        return None
    cache = _cached(rs, state)
    if ("count", origin, z) in cache:
        return cache["count", origin, z]
    ys, xs = np.indices(mask.shape)
    dx, dy = xs - origin[0], ys - origin[1]
    n = np.maximum(np.abs(dx), np.abs(dy))
    count = np.zeros(mask.shape, dtype=np.int16)
    steps = np.maximum(n, 1)
    for k in range(1, int(n.max(initial=0)) + 1):  # the k-th square of each line, the major axis a square a step
        on = n >= k
        px = origin[0] + (2 * dx * k + steps) // (2 * steps)
        py = origin[1] + (2 * dy * k + steps) // (2 * steps)
        count += np.where(on, mask[np.clip(py, 0, mask.shape[0] - 1), np.clip(px, 0, mask.shape[1] - 1)], 0)
    count.setflags(write=False)
    cache["count", origin, z] = count
    return count


def seen_from(rs: Annihilation, state: State, origin: Pos, z: int = 0) -> np.ndarray:
    """The squares of storey z seen from `origin` on it: its field of view, less those behind more than 2 smoke
    squares of that storey."""
    seen = state.grid.level(z).fov(origin, rs.sight_range)
    count = _counts(rs, state, origin, z)
    if count is None:
        return seen
    cache = _cached(rs, state)
    if (origin, z) not in cache:
        out = seen & (count <= rs.book.settings.smoke_sight_squares)
        out.setflags(write=False)
        cache[origin, z] = out
    return cache[origin, z]


def _across(rs: Annihilation, state: State, origin: Pos, z0: int, z: int) -> np.ndarray | None:
    """[y, x]: the smoke squares a line from `origin` on storey z0 to each square of another storey z passes, as
    engine.map.levels draws it: along the upper storey and straight down through the open air. Looking down: the
    viewer's own storey's line to the square above, then the square seen; looking up: the line along the upper
    storey from the square over the viewer. None: no smoke on the way."""
    if z > z0:
        return _counts(rs, state, origin, z)
    line, below = _counts(rs, state, origin, z0), _smoke(rs, state, z)
    if line is None or below is None:
        return line if below is None else below
    return line + below


def sees(rs: Annihilation, state: State, a: Pos, b: Pos, za: int = 0, zb: int = 0) -> bool:
    """Sight from a on storey za to b on zb (engine.map.levels); smoke lies on its own storey and cuts a line along
    that storey, and, with settings `smoke_between_storeys`, a line between two storeys too (docs/rules-notes.md,
    Storeys)."""
    if not levels.sees(state.grid, (*a, za), (*b, zb), rs.sight_range):
        return False
    if za == zb:  # no smoke on the storey: the field of view just read is the whole answer (asked per pair a step)
        return not smoky(state, za) or bool(seen_from(rs, state, a, za)[b[1], b[0]])
    if not rs.book.settings.smoke_between_storeys:
        return True
    count = _across(rs, state, a, za, zb)
    return count is None or int(count[b[1], b[0]]) <= rs.book.settings.smoke_sight_squares


def side_sight(rs: Annihilation, state: State, side: str) -> np.ndarray:
    """[z, y, x]: what the side's conscious units see on every storey, cut by smoke (between storeys with
    `smoke_between_storeys`). Read-only, kept for the map and clouds by where the eyes stand: a command moves one
    unit, or none, and the rules ask before and after it."""
    grid = state.grid
    eyes = [u for u in state.side_units(side) if u.conscious]
    key = (grid, field_of(state).clouds)
    cache = rs._haze
    if cache.get("key") != key or len(cache) > 512:  # bounded: a long mission of moves stands in many places
        cache.clear()
        cache["key"] = key
    places = ("side", side, tuple((u.pos, u.z) for u in eyes))
    seen = cache.get(places)
    if seen is not None:
        return seen
    seen = np.zeros((grid.levels, grid.height, grid.width), dtype=bool)
    for unit in eyes:
        if grid.storeys:
            seen |= _view(rs, state, unit.pos, unit.z)
        else:
            seen[0] |= seen_from(rs, state, unit.pos)
    seen.setflags(write=False)
    cache[places] = seen
    return seen


def _view(rs: Annihilation, state: State, origin: Pos, z: int) -> np.ndarray:
    """[z, y, x]: what one unit at `origin` on storey z sees of every storey, cut by smoke. Read-only, kept with
    the clouds: when one eye of a side moves, the others' views are the ones they had."""
    if not any(c.kind == "smoke" for c in field_of(state).clouds):  # nothing to cut: the map's own sight
        return levels.fov(state.grid, (*origin, z), rs.sight_range)
    cache = _cached(rs, state)
    key = ("view", origin, z)
    view = cache.get(key)
    if view is not None:
        return view
    view = levels.fov(state.grid, (*origin, z), rs.sight_range).copy()  # kept read-only with the grid
    view[z] &= seen_from(rs, state, origin, z)
    for k in range(state.grid.levels) if rs.book.settings.smoke_between_storeys else ():
        count = _across(rs, state, origin, z, k) if k != z else None
        if count is not None:
            view[k] &= count <= rs.book.settings.smoke_sight_squares
    view.setflags(write=False)
    cache[key] = view
    return view
