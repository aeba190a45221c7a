"""Structures the biomes share: buildings with rooms, doors, windows and an upper floor; fences
and hedgerows with gaps; clumps of cover."""

from __future__ import annotations

import attrs

from engine.map import hexbuild
from engine.map.common import Canvas, MapRng
from engine.map.grid import ORTHOGONAL, Pos

MIN_ROOM = 3  # interior cells across, the least a room can be


@attrs.frozen
class Style:
    """The tiles a building is made of."""

    wall: str = "wall"
    floor: str = "floor"
    door: str = "door"
    window: str | None = "window"
    inner_wall: str | None = None  # defaults to `wall`
    inner_door: str | None = None  # defaults to `door`
    loft: str | None = None  # the upper floor of a two-storey building
    railing: str | None = None
    stairs: str | None = None
    furniture: str | None = None


@attrs.define
class Building:
    x0: int
    y0: int
    x1: int
    y1: int
    rooms: list[tuple[int, int, int, int]] = attrs.Factory(list)
    doors: list[Pos] = attrs.Factory(list)
    upstairs: list[Pos] = attrs.Factory(list)
    cells: list[Pos] = attrs.Factory(list)  # its rooms' floor on hexes, where rooms are no rectangles

    def inside(self) -> list[Pos]:
        if self.cells:
            return list(self.cells)
        return [(x, y) for x0, y0, x1, y1 in self.rooms for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]


def building(cv: Canvas, rng: MapRng, x0: int, y0: int, x1: int, y1: int, style: Style, *,
             windows: int = 30, doors: int = 2, storey: bool = False) -> Building:
    """Outer walls, rooms split by inner walls with a door each, doors out, windows, and (if asked
    and there is room) an upper floor along the north wall, behind a railing, up a stair. On hexes: a hexagon
    (engine.map.hexbuild)."""
    if cv.hexes:
        rooms, out, upstairs = hexbuild.building(cv, rng, (x0, y0, x1, y1), style, windows, doors, storey)
        return Building(x0, y0, x1, y1, doors=out, upstairs=upstairs, cells=[c for room in rooms for c in room])
    inner_wall = style.inner_wall or style.wall
    inner_door = style.inner_door or style.door
    cv.fill(x0, y0, x1, y1, style.wall)
    cv.fill(x0 + 1, y0 + 1, x1 - 1, y1 - 1, style.floor)
    b = Building(x0, y0, x1, y1)
    top = y0 + 1
    loft = storey and style.loft and style.railing and style.stairs and x1 - x0 >= 7 and y1 - y0 >= 8
    if loft:
        cv.fill(x0 + 1, y0 + 1, x1 - 1, y0 + 1, style.loft)
        cv.fill(x0 + 1, y0 + 2, x1 - 1, y0 + 2, style.railing)
        b.upstairs = [(x, y0 + 1) for x in range(x0 + 1, x1)]
        top = y0 + 3
    inner_doors: set[Pos] = set()
    _split(cv, rng, (x0 + 1, top, x1 - 1, y1 - 1), inner_wall, inner_door, b.rooms, inner_doors, 0)
    floor_code = cv.code(style.floor)
    if loft:
        stairs = [x for x in range(x0 + 1, x1) if cv.tiles[top, x] == floor_code]
        if stairs:
            cv.put(rng.pick(stairs), y0 + 2, style.stairs)  # type: ignore[arg-type]
    ring = _outer_wall(x0, y0, x1, y1)
    openings = [c for c in ring if _inward_floor(cv, c, b, floor_code) and cv.inside(*_outward(c, b))]
    sides: set[str] = set()
    for cell in rng.shuffled(openings):
        if len(b.doors) >= doors:
            break
        side = _side(cell, b)
        if side in sides and len(sides) < 2:
            continue
        cv.put(*cell, style.door)
        b.doors.append(cell)
        sides.add(side)
    if style.window:
        for cell in openings:
            if cell not in b.doors and not _next_to(cell, b.doors) and rng.chance(windows):
                cv.put(*cell, style.window)
    if style.furniture:
        for rx0, ry0, rx1, ry1 in b.rooms:
            if (rx1 - rx0 + 1) * (ry1 - ry0 + 1) >= 12 and rng.chance(60):
                x, y = rng.pick([(rx0, ry0), (rx1, ry0), (rx0, ry1), (rx1, ry1)])  # a corner: never in the way
                if not _next_to((x, y), list(inner_doors) + b.doors):
                    cv.put(x, y, style.furniture)
    return b


def _split(cv: Canvas, rng: MapRng, rect: tuple[int, int, int, int], wall: str, door: str,
           rooms: list, doors: set[Pos], depth: int) -> None:
    """Binary space partition: a wall across with one door, then each half in turn."""
    x0, y0, x1, y1 = rect
    w, h = x1 - x0 + 1, y1 - y0 + 1
    can_v, can_h = w >= 2 * MIN_ROOM + 1, h >= 2 * MIN_ROOM + 1
    if depth >= 3 or not (can_v or can_h) or (w * h <= 30 and rng.chance(50)):
        rooms.append(rect)
        return
    vertical = can_v and (not can_h or w > h or (w == h and rng.chance(50)))
    for _ in range(4):
        if vertical:
            x = rng.between(x0 + MIN_ROOM, x1 - MIN_ROOM)
            if (x, y0 - 1) in doors or (x, y1 + 1) in doors:
                continue  # the wall would close a door it runs into
            cv.fill(x, y0, x, y1, wall)
            d = (x, rng.between(y0, y1))
            cv.put(*d, door)
            doors.add(d)
            _split(cv, rng, (x0, y0, x - 1, y1), wall, door, rooms, doors, depth + 1)
            _split(cv, rng, (x + 1, y0, x1, y1), wall, door, rooms, doors, depth + 1)
            return
        y = rng.between(y0 + MIN_ROOM, y1 - MIN_ROOM)
        if (x0 - 1, y) in doors or (x1 + 1, y) in doors:
            continue
        cv.fill(x0, y, x1, y, wall)
        d = (rng.between(x0, x1), y)
        cv.put(*d, door)
        doors.add(d)
        _split(cv, rng, (x0, y0, x1, y - 1), wall, door, rooms, doors, depth + 1)
        _split(cv, rng, (x0, y + 1, x1, y1), wall, door, rooms, doors, depth + 1)
        return
    rooms.append(rect)


def _outer_wall(x0: int, y0: int, x1: int, y1: int) -> list[Pos]:
    """The wall ring without its corners, clockwise from the north-west."""
    return ([(x, y0) for x in range(x0 + 1, x1)] + [(x1, y) for y in range(y0 + 1, y1)]
            + [(x, y1) for x in range(x1 - 1, x0, -1)] + [(x0, y) for y in range(y1 - 1, y0, -1)])


def _side(cell: Pos, b: Building) -> str:
    x, y = cell
    return "n" if y == b.y0 else "s" if y == b.y1 else "w" if x == b.x0 else "e"


def _outward(cell: Pos, b: Building) -> Pos:
    dx, dy = {"n": (0, -1), "s": (0, 1), "w": (-1, 0), "e": (1, 0)}[_side(cell, b)]
    return cell[0] + dx, cell[1] + dy


def _inward_floor(cv: Canvas, cell: Pos, b: Building, floor: int) -> bool:
    ox, oy = _outward(cell, b)
    ix, iy = 2 * cell[0] - ox, 2 * cell[1] - oy
    return cv.inside(ix, iy) and int(cv.tiles[iy, ix]) == floor


def _next_to(cell: Pos, others: list[Pos]) -> bool:
    return any(max(abs(cell[0] - o[0]), abs(cell[1] - o[1])) <= 1 for o in others)


def line(cv: Canvas, rng: MapRng, start: Pos, length: int, horizontal: bool, tile: str, gaps: int = 1) -> list[Pos]:
    """A fence or hedgerow with `gaps` openings; returns its cells."""
    cells = [(start[0] + i, start[1]) if horizontal else (start[0], start[1] + i) for i in range(length)]
    open_at = {rng.below(length) for _ in range(gaps)}
    for i, (x, y) in enumerate(cells):
        if i not in open_at:
            cv.put(x, y, tile)
    return cells


def clump(cv: Canvas, rng: MapRng, centre: Pos, tile: str, count: int, spread: int = 2, on: str | None = None) -> None:
    """A few tiles round a centre, only on free cells (and on `on` tiles, if given)."""
    for _ in range(count):
        x, y = centre[0] + rng.between(-spread, spread), centre[1] + rng.between(-spread, spread)
        if cv.inside(x, y) and cv.free[y, x] and (on is None or cv.at(x, y) == on):
            cv.put(x, y, tile)
            cv.free[y, x] = False


def around(cell: Pos) -> list[Pos]:
    return [(cell[0] + dx, cell[1] + dy) for dx, dy in ORTHOGONAL]
