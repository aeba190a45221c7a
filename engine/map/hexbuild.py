"""Buildings drawn for a hex map (a ruleset's `hexes`): what `features.building` and open ground's sheds make there.

A square room's east and west walls read as zigzags on odd-r hexes, so here a building is a hexagon in its box: the
north and south walls run along a row, the four others along the two hex diagonals. Its rooms are bands across it
(inner walls along a row) and, in a wide band, a split along a diagonal; every inner wall has a door with floor on
both sides, and every door out has the building's floor on one side and open ground straight across.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from engine.map import hexes
from engine.map.common import Canvas, MapRng
from engine.map.grid import Pos

BAND = 2  # rows of floor, the least a room across the building has
WIDE = 9  # floor cells across, the least a band split along a diagonal needs
SE, SW = 2, 3  # engine.map.hexes directions


def outline(x0: int, y0: int, x1: int, y1: int) -> dict[int, tuple[int, int]]:
    """Row -> (first, last) cell of the biggest hexagon in the box with wall runs of three or more along its north
    and south rows: its west side steps south-west to the middle row and then south-east (the east side mirrors
    it). It has an odd number of rows, so it may be shorter than the box."""
    half = max(1, min((y1 - y0) // 2, x1 - x0 - 2))
    ym = y0 + half
    rows = {}
    for y in range(y0, ym + half + 1):
        inset = half - min(y - y0, ym + half - y)  # half hexes in from the middle row's ends
        rows[y] = ((2 * x0 + (ym & 1) + inset - (y & 1)) // 2, (2 * x1 + (ym & 1) - inset - (y & 1)) // 2)
    return rows


def _apart(cv: Canvas, box: tuple[int, int, int, int], walls: set) -> tuple[int, int, int, int]:
    """The box narrowed by a hex at a side where its middle row's end would come within two hexes of another
    building's wall: a one-hex alley between two buildings would read as a doorway without a door."""
    x0, y0, x1, y1 = box
    rows = outline(*box)
    ym = (min(rows) + max(rows)) // 2
    near = [(x, y) for y in range(ym - 1, ym + 2) for x in range(x0 - 2, x1 + 3) if cv.inside(x, y)]
    close = {x for x, y in near if not x0 <= x <= x1 and cv.at(x, y) in walls}
    return x0 + any(x < x0 for x in close), y0, x1 - any(x > x1 for x in close), y1


def mask(shape: tuple[int, int], box: tuple[int, int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """[y, x]: the hexagon `outline` makes in the box, and its inside (all of it but the ring)."""
    outer, inner = np.zeros(shape, dtype=bool), np.zeros(shape, dtype=bool)
    rows = outline(*box)
    top, bottom = min(rows), max(rows)
    for y, (l, r) in rows.items():
        if 0 <= y < shape[0]:
            outer[y, max(l, 0):min(r, shape[1] - 1) + 1] = True
            if top < y < bottom:
                inner[y, max(l + 1, 0):min(r - 1, shape[1] - 1) + 1] = True
    return outer, inner


def _ring(rows: dict[int, tuple[int, int]]) -> list[Pos]:
    """The outer wall's cells, without the four where a row wall turns into a diagonal one."""
    top, bottom = min(rows), max(rows)
    out = [(x, y) for y in (top, bottom) for x in range(rows[y][0] + 1, rows[y][1])]
    return out + [(x, y) for y in range(top + 1, bottom) for x in rows[y]]


def _openings(cells: set[Pos], is_floor: Callable[[Pos], bool], outside: Callable[[Pos], bool],
              ring: list[Pos]) -> list[Pos]:
    """Ring cells a door can go in: the building's floor on one side, open ground straight across (`outside`)."""
    out = []
    for c in ring:
        near = hexes.neighbours(c)
        if any(is_floor(near[k]) and outside(near[(k + 3) % 6]) and near[(k + 3) % 6] not in cells
               for k in range(6)):
            out.append(c)
    return out


def _side(cell: Pos, rows: dict[int, tuple[int, int]]) -> str:
    x, y = cell
    return "n" if y == min(rows) else "s" if y == max(rows) else "w" if x == rows[y][0] else "e"


def building(cv: Canvas, rng: MapRng, box: tuple[int, int, int, int], style, windows: int, doors: int,
             storey: bool) -> tuple[list[list[Pos]], list[Pos], list[Pos]]:
    """`features.building` on hexes: (its rooms' cells, its doors out, the loft's cells)."""
    rows = outline(*_apart(cv, box, {style.wall, style.window, style.door}))
    top, bottom = min(rows), max(rows)
    cells = {(x, y) for y, (l, r) in rows.items() for x in range(l, r + 1)}
    for x, y in cells:
        edge = y in (top, bottom) or x in rows[y]
        cv.put(x, y, style.wall if edge else style.floor)
    first = top + 1
    upstairs: list[Pos] = []
    loft = storey and style.loft and style.railing and style.stairs and bottom - top >= 6
    if loft:
        for y, tile in ((top + 1, style.loft), (top + 2, style.railing)):
            cv.fill(rows[y][0] + 1, y, rows[y][1] - 1, y, tile)
        upstairs = [(x, top + 1) for x in range(rows[top + 1][0] + 1, rows[top + 1][1])]
        first = top + 3
    inner_doors: list[Pos] = []
    bands = _bands(cv, rng, rows, first, bottom - 1, style.inner_wall or style.wall, style.inner_door or style.door,
                   inner_doors, 0)
    rooms: list[list[Pos]] = []
    for y0, y1 in bands:
        rooms += _split_diagonal(cv, rng, rows, y0, y1, style, inner_doors)
    floor = cv.code(style.floor)
    if loft:  # stairs in the railing, down to two floor hexes
        below = [x for x in range(rows[top + 2][0] + 1, rows[top + 2][1])
                 if all(cv.inside(*n) and int(cv.tiles[n[1], n[0]]) == floor
                        for n in hexes.neighbours((x, top + 2))[SE:SW + 1])]
        if below:
            cv.put(rng.pick(below), top + 2, style.stairs)
    ring = _ring(rows)
    walkable = cv.lut("walkable")
    openings = _openings(cells, lambda c: cv.inside(*c) and int(cv.tiles[c[1], c[0]]) == floor,
                         lambda c: cv.inside(*c) and bool(walkable[cv.tiles[c[1], c[0]]]), ring)
    out: list[Pos] = []
    sides: set[str] = set()
    for cell in rng.shuffled(openings):
        if len(out) >= doors:
            break
        side = _side(cell, rows)
        if side in sides and len(sides) < 2:
            continue
        cv.put(*cell, style.door)
        out.append(cell)
        sides.add(side)
    if style.window:
        for cell in openings:
            if cell not in out and not _near(cell, out) and rng.chance(windows):
                cv.put(*cell, style.window)
    if style.furniture:
        for room in rooms:
            if len(room) >= 12 and rng.chance(60):
                ordered = sorted(room, key=lambda c: (c[1], c[0]))
                cell = rng.pick([ordered[0], ordered[-1]])  # a corner: never in the way
                if not _near(cell, inner_doors + out):
                    cv.put(*cell, style.furniture)
    return rooms, out, upstairs


def _near(cell: Pos, others: list[Pos]) -> bool:
    return any(hexes.distance(cell, o) <= 1 for o in others)


def _bands(cv: Canvas, rng: MapRng, rows: dict[int, tuple[int, int]], y0: int, y1: int, wall: str, door: str,
           doors: list[Pos], depth: int) -> list[tuple[int, int]]:
    """Floor rows y0..y1 split into bands by inner walls along a row, each with a door in its middle stretch."""
    if depth >= 2 or y1 - y0 + 1 < 2 * BAND + 1 or (y1 - y0 + 1 <= 6 and rng.chance(50)):
        return [(y0, y1)]
    y = rng.between(y0 + BAND, y1 - BAND)
    l, r = rows[y]
    cv.fill(l + 1, y, r - 1, y, wall)
    d = (rng.between(l + 2, r - 2), y)
    cv.put(*d, door)
    doors.append(d)
    return (_bands(cv, rng, rows, y0, y - 1, wall, door, doors, depth + 1)
            + _bands(cv, rng, rows, y + 1, y1, wall, door, doors, depth + 1))


def _split_diagonal(cv: Canvas, rng: MapRng, rows: dict[int, tuple[int, int]], y0: int, y1: int, style,
                    doors: list[Pos]) -> list[list[Pos]]:
    """A band's rooms: itself, or (wide enough) two rooms either side of an inner wall along one hex diagonal,
    from the wall above to the wall below, with a door in its middle row."""
    band = [(x, y) for y in range(y0, y1 + 1) for x in range(rows[y][0] + 1, rows[y][1])]
    narrowest = min(rows[y][1] - rows[y][0] - 1 for y in range(y0, y1 + 1))
    if narrowest < WIDE or not rng.chance(60):
        return [band]
    way = rng.pick([SE, SW])
    l, r = rows[y0]
    x = rng.between(l + 1 + 3, r - 1 - 3)
    line = [(x, y0)]
    for _ in range(y1 - y0):
        line.append(hexes.neighbours(line[-1])[way])
    if any(not rows[y][0] + 3 < x < rows[y][1] - 3 or _near((x, y), doors) for x, y in line):
        return [band]
    inner_wall, inner_door = style.inner_wall or style.wall, style.inner_door or style.door
    for c in line:
        cv.put(*c, inner_wall)
    d = line[len(line) // 2]
    cv.put(*d, inner_door)
    doors.append(d)
    cut = {y: x for x, y in line}
    return [[c for c in band if c[0] < cut[c[1]]], [c for c in band if c[0] > cut[c[1]]]]


def shed(rng: MapRng, box: tuple[int, int, int, int], put: Callable[[int, int, str], None],
         inside: Callable[[Pos], bool]) -> None:
    """Open ground's walled building on hexes: the hexagon, one to three doors out, a crate or two inside."""
    rows = outline(*box)
    top, bottom = min(rows), max(rows)
    cells = {(x, y) for y, (l, r) in rows.items() for x in range(l, r + 1)}
    floor = {(x, y) for x, y in cells if y not in (top, bottom) and x not in rows[y]}
    for x, y in cells:
        put(x, y, "floor" if (x, y) in floor else "wall")
    openings = _openings(cells, lambda c: c in floor, inside, _ring(rows))
    doors = [openings[rng.below(len(openings))] for _door in range(rng.between(1, 3))]
    for cell in doors:
        put(*cell, "door")
    inner = sorted(c for c in floor if not _near(c, doors))  # a crate never shuts a door
    for _crate in range(rng.between(0, 2) if inner else 0):
        put(*inner[rng.below(len(inner))], "crate")
