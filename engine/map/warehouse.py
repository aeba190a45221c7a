"""A guarded warehouse (the infiltrate mission, after the xxxzone playtest's second scenario): a walled hall with
windows, a back door and a side door, and in one southern corner an office holding the computer terminal. The
office opens on the hall by a door and on the outside by a locked door, the short way in for whoever can pick it.
Brush, trees and crates on the open ground to the south give a sneaking squad cover on the way from the exit, where
it deploys, to the building. Guards stand in the hall and round the back; each walks a beat between its post and
the far end of it (the `beat` zone, one cell a guard in the order of their posts) until it meets the squad."""

from __future__ import annotations

from typing import Mapping

import numpy as np

from engine.map.common import Battlefield, Canvas, MapRng, cells_of, nearest, scatter
from engine.map.grid import Pos
from engine.map import hexbuild, hexes as hexmap
from engine.map.terrain import Terrain
from engine.map.zones import finish, spread_civilians

OFFICE = (5, 4)  # the office's inside, width and height


def generate(width: int, height: int, seed: int, terrain: Mapping[str, Terrain],
             counts: Mapping[str, int], hexes: bool = False) -> Battlefield:
    rng = MapRng(seed)
    cv = Canvas(width, height, "grass", terrain, hexes)
    exit_cells = _exit(cv, rng, counts.get("xcom", 0))
    bw, bh = min(max(14, width * 45 // 100), 40), min(max(10, height * 32 // 100), 24)
    x0 = max(1, min(width - bw - 1, width // 2 - bw // 2 + rng.between(-2, 2)))
    y0 = max(2, height * 12 // 100)
    x1, y1 = x0 + bw - 1, y0 + bh - 1
    cv.free[y0:y1 + 1, x0:x1 + 1] = False
    if hexes:  # a hexagon (engine.map.hexbuild), the office along its south-west or south-east side
        y1, inside, in_office, locked, terminal = _hex_warehouse(cv, rng, (x0, y0, x1, y1))
        _cover(cv, rng, y1, locked)
        walk = cv.walkable()
    else:
        cv.fill(x0, y0, x1, y1, "wall")
        cv.fill(x0 + 1, y0 + 1, x1 - 1, y1 - 1, "floor")
        west = rng.chance(50)  # the office in the south-west corner, else the south-east
        office, locked, terminal = _office(cv, rng, x0, x1, y1, west)
        _hall(cv, rng, x0, y0, x1, y1, west, office)
        _cover(cv, rng, y1, locked)
        walk = cv.walkable()
        inside = np.zeros(walk.shape, dtype=bool)
        inside[y0 + 1:y1, x0 + 1:x1] = True
        in_office = np.zeros(walk.shape, dtype=bool)
        ox0, oy0, ox1, oy1 = office
        in_office[oy0:oy1 + 1, ox0:ox1 + 1] = True
    hall = cells_of(walk & inside & ~in_office)
    yard = np.zeros(walk.shape, dtype=bool)
    yard[max(0, y0 - 3):y0, max(0, x0 - 2):x1 + 3] = True  # behind the building: the back door's guards
    outside = cells_of(walk & yard)
    n = counts.get("aliens", 0)
    guards = scatter(hall, rng, min(len(hall), (n + 1) // 2), apart=3)
    guards += scatter([c for c in outside if c not in guards], rng, n - len(guards), apart=3)
    ground = walk & ~inside
    ground[height - 6:, :] = False  # civilians keep away from the exit
    zones = {
        "xcom": exit_cells[:counts.get("xcom", 0)],
        "aliens": guards,
        "civilians": spread_civilians(cells_of(ground), rng),
        "extraction": exit_cells,
        "exit": exit_cells,
        "hold": nearest(hall, ((x0 + x1) // 2, (y0 + y1) // 2))[:24],
        "terminal": [terminal],
        "beat": [_beat_end(post, hall if post in hall else outside) for post in guards],
    }
    return finish(cv, zones, "rubble")


def _beat_end(post: Pos, ground: list[Pos], reach: int = 3) -> Pos:
    """The far end of a guard's beat: the cell of its own ground (the hall, the yard) farthest from its post within
    `reach`, ties to the north-west; no dice, so the map stays as it was."""
    near = [c for c in ground if max(abs(c[0] - post[0]), abs(c[1] - post[1])) <= reach]
    return max(near, key=lambda c: (abs(c[0] - post[0]) + abs(c[1] - post[1]), -c[1], -c[0]), default=post)


def _exit(cv: Canvas, rng: MapRng, squad: int) -> list[Pos]:
    """Where the squad came in and must leave by: a patch on the south edge, two rows deep."""
    w, h = cv.width, cv.height
    ew = max(6, -(-squad // 2) + 2)
    x0 = rng.between(max(1, w // 4 - ew // 2), max(1, min(w - ew - 1, 3 * w // 4 - ew // 2)))
    cv.fill(x0, h - 2, x0 + ew - 1, h - 1, "landing_zone")
    cv.free[h - 4:, max(0, x0 - 1):x0 + ew + 1] = False
    return nearest([(x, y) for y in (h - 2, h - 1) for x in range(x0, x0 + ew)], (x0 + ew // 2, h - 2))


def _office(cv: Canvas, rng: MapRng, x0: int, x1: int, y1: int, west: bool) -> tuple[tuple[int, int, int, int], Pos,
                                                                                       Pos]:
    """The office's walls, its door to the hall, the locked door out and the terminal; returns the office's inside
    (x0, y0, x1, y1), the locked door and the terminal."""
    ow, oh = OFFICE
    ix0 = x0 + 1 if west else x1 - ow
    ix1 = ix0 + ow - 1
    iy0, iy1 = y1 - oh, y1 - 1
    inner_x = ix1 + 1 if west else ix0 - 1  # the wall between office and hall
    cv.fill(inner_x, iy0 - 1, inner_x, y1, "wall")
    cv.fill(ix0, iy0 - 1, ix1, iy0 - 1, "wall")
    cv.put(inner_x, rng.between(iy0, iy1), "door")
    locked = (rng.between(ix0 + 1, ix1 - 1), y1)
    cv.put(*locked, "door_locked")
    terminal = (rng.between(ix0, ix1), iy0)
    cv.put(*terminal, "terminal")
    return (ix0, iy0, ix1, iy1), locked, terminal


def _hex_warehouse(cv: Canvas, rng: MapRng, box: tuple[int, int, int, int]
                   ) -> tuple[int, np.ndarray, np.ndarray, Pos, Pos]:
    """The hall as a hexagon and its office along the south-west or south-east side, behind an inner wall along the
    same diagonal; returns the hall's last row, its inside, the office's, the locked door and the terminal."""
    x0, y0, x1, _y1 = box
    rows = hexbuild.outline(*box)
    y1 = max(rows)
    outer, inside = hexbuild.mask(cv.tiles.shape, box)
    cv.paint(outer, "wall")
    cv.paint(inside, "floor")
    west = rng.chance(50)
    ow, oh = OFFICE
    iy0 = y1 - oh

    def inner(y: int) -> int:  # the wall between office and hall, on row y
        return rows[y][0] + 1 + ow if west else rows[y][1] - 1 - ow

    office = {(x, y) for y in range(iy0, y1)
              for x in (range(rows[y][0] + 1, inner(y)) if west else range(inner(y) + 1, rows[y][1]))}
    wall = [(inner(y), y) for y in range(iy0, y1)]
    over = [c[0] for c in hexmap.neighbours(wall[0])[:1] + hexmap.neighbours(wall[0])[5:]]  # NE and NW
    north = range(rows[iy0 - 1][0] + 1, max(over) + 1) if west else range(min(over), rows[iy0 - 1][1])
    for cell in wall + [(x, iy0 - 1) for x in north]:
        cv.put(*cell, "wall")
    door = rng.pick(wall)
    cv.put(*door, "door")
    below = [(x, y1) for x in range(rows[y1][0] + 1, rows[y1][1])
             if all(c in office for c in (hexmap.neighbours((x, y1))[0], hexmap.neighbours((x, y1))[5]))]
    locked = rng.pick(below)
    cv.put(*locked, "door_locked")
    terminal = rng.pick([c for c in office if c[1] == iy0 and hexmap.distance(c, door) > 1])
    cv.put(*terminal, "terminal")
    in_office = np.zeros(inside.shape, dtype=bool)
    for x, y in office:
        in_office[y, x] = True
    hall = inside & ~in_office & (cv.tiles == cv.code("floor"))
    cv.put(rng.between(rows[y0][0] + 2, rows[y0][1] - 2), y0, "door")  # the back door
    side = rng.between(y0 + 2, y1 - 2)
    doors = [(rows[side][1] if west else rows[side][0], side)]  # the side door, away from the office
    cv.put(*doors[0], "door")
    for y in (y0, y1):  # two windows on each long wall
        runs = [(x, y) for x in range(rows[y][0] + 1, rows[y][1]) if cv.at(x, y) == "wall"
                and any(hall[n[1], n[0]] for n in hexmap.neighbours((x, y)) if cv.inside(*n))]
        for cell in rng.shuffled(runs)[:2]:
            cv.put(*cell, "window")
    for row in range(y0 + 2, y1 - 1, 3):  # shelves: crates in short rows with gaps to walk through
        for x in range(rows[row][0] + 2, rows[row][1] - 2, 4):
            pair = [(x, row), (x + 1, row)]
            if all(hall[y, x] and hexmap.distance(c, doors[0]) > 2 for c in pair for x, y in [c]) and rng.chance(60):
                for cell in pair:
                    cv.put(*cell, "crate")
    return y1, inside, in_office, locked, terminal


def _hall(cv: Canvas, rng: MapRng, x0: int, y0: int, x1: int, y1: int, west: bool,
          office: tuple[int, int, int, int]) -> None:
    """The back door, a side door on the far side from the office, windows, and shelves of crates inside."""
    ox0, _oy0, ox1, _oy1 = office
    hx0, hx1 = (ox1 + 2, x1 - 1) if west else (x0 + 1, ox0 - 2)
    cv.put(rng.between(x0 + 2, x1 - 2), y0, "door")
    side = x1 if west else x0
    cv.put(side, rng.between(y0 + 2, y1 - 2), "door")
    for x in rng.shuffled(range(hx0 + 1, hx1))[:2]:
        cv.put(x, y1, "window")
    for x in rng.shuffled([x for x in range(x0 + 2, x1 - 1) if cv.at(x, y0) == "wall"])[:2]:
        cv.put(x, y0, "window")
    cv.put(side, y0 + 1 if rng.chance(50) else y1 - 1, "window")
    for row in range(y0 + 2, y1 - 2, 3):  # shelves: crates in short rows with gaps to walk through
        x = hx0 + 1
        while x + 2 < hx1:
            if rng.chance(60):
                cv.fill(x, row, x + 1, row, "crate")
            x += 4


def _cover(cv: Canvas, rng: MapRng, y1: int, locked: Pos) -> None:
    """Brush, trees and crates between the building and the exit; the ground before the locked door kept clear."""
    h, w = cv.height, cv.width
    field = rng.noise(h, w, smooth=2)
    open_ = cv.free.copy()
    open_[:y1 + 2, :] = False
    lx, ly = locked
    open_[ly:ly + 3, max(0, lx - 1):lx + 2] = False
    cv.paint(open_ & (field > 0.62), "brush")
    cv.paint(open_ & (field < 0.08), "tree")
    spots = cells_of(open_ & (field > 0.3) & (field < 0.5))
    for x, y in scatter(spots, rng, max(3, w * h // 250), apart=4):
        cv.put(x, y, "crate")
