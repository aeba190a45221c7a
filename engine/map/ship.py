"""A crashed alien ship: an octagonal hull (a hexagon on hexes) in a scorched field, bulkheads dividing it into rooms
round a core, hatches between them, a breach torn in the hull, consoles, and the power source at
the heart of the core. Debris lies along the furrow the crash ploughed."""

from __future__ import annotations

from typing import Mapping

import numpy as np

from engine.map import hexbuild, hexes as hexmap
from engine.map.terrain import Terrain
from engine.map.common import SPAWN_DEPTH, Battlefield, Canvas, MapRng, cells_of, landing, nearest
from engine.map.zones import aliens_in, finish, paint_extraction, spread_civilians

CORE = 2  # cells from the power source to the core's bulkhead


def generate(width: int, height: int, seed: int, terrain: Mapping[str, Terrain],
             counts: Mapping[str, int], hexes: bool = False) -> Battlefield:
    rng = MapRng(seed)
    cv = Canvas(width, height, "grass", terrain, hexes)
    cv.free[height - SPAWN_DEPTH - 1:, :] = False
    extraction = paint_extraction(cv, rng)
    ground = rng.noise(height, width, smooth=2)
    cv.paint((ground > 0.72) & cv.free, "tree")
    a = min(max(8, width * 28 // 100), 24)  # half-width and half-height of the hull
    b = min(max(6, height * 22 // 100), 16, (height - SPAWN_DEPTH - 8) // 2)
    cx = width // 2 + rng.between(-2, 2)
    cy = max(b + 3, min(height - SPAWN_DEPTH - b - 4, height * 42 // 100 + rng.between(-2, 2)))
    ys, xs = np.ogrid[:height, :width]
    dx, dy = np.abs(xs - cx), np.abs(ys - cy)
    cut = min(a, b) // 2
    if hexes:  # a hexagon: its diagonal hull runs along the hex diagonals, with no leaks
        outer, inner = hexbuild.mask((height, width), (cx - a, cy - b, cx + a, cy + b))
    else:
        outer = (dx <= a) & (dy <= b) & (dx + dy <= a + b - cut)
        inner = (dx <= a - 1) & (dy <= b - 1) & (dx + dy <= a + b - cut - 1)
    near = (dx <= a + 3) & (dy <= b + 3) & ~outer
    cv.paint(near & (ground > 0.35), "scorch")
    cv.paint(near & (ground <= 0.35), "grass")
    cv.paint(outer, "hull")
    cv.paint(inner, "ship_floor")
    cv.free[np.broadcast_to(near | outer, cv.free.shape)] = False
    _rooms(cv, rng, cx, cy, a, b)
    _breach(cv, rng, cx, cy, a, b)
    _furrow(cv, rng, cx, cy, a)
    power = (cx, cy)
    cv.put(*power, "power_source")
    walk = cv.walkable()
    interior = cells_of(inner & walk)
    squad = landing(walk, rng, counts.get("xcom", 0))
    core = [(x, y) for x, y in interior if abs(x - cx) <= CORE and abs(y - cy) <= CORE]
    zones = {
        "xcom": squad,
        "aliens": aliens_in(interior, rng, counts.get("aliens", 0), squad, keep=4),
        "civilians": spread_civilians(cells_of(walk & ~np.broadcast_to(outer | near, walk.shape)), rng),
        "extraction": extraction,
        "hold": nearest(core, power) or nearest(interior, power),
        "power": [power],
    }
    return finish(cv, zones, "wreckage")


def _rooms(cv: Canvas, rng: MapRng, cx: int, cy: int, a: int, b: int) -> None:
    """Bulkheads from the core to the hull, north, south, east and west: four rooms round the core.
    Every bulkhead has a hatch; so does every side of the core."""
    floor = cv.code("ship_floor")
    k = CORE + 1
    for x in range(cx - k, cx + k + 1):
        for y in (cy - k, cy + k):
            cv.put(x, y, "bulkhead")
    for y in range(cy - k, cy + k + 1):
        for x in (cx - k, cx + k):
            cv.put(x, y, "bulkhead")
    for x, y in ((cx, cy - k), (cx, cy + k), (cx - k, cy), (cx + k, cy)):
        cv.put(x, y, "hatch")
    spokes = []
    for sx, sy in ((0, -1), (0, 1), (-1, 0), (1, 0)):  # a spoke from each face of the core to the hull
        ox, oy = (cx + (k + 1) * sx + (1 if sx == 0 else 0) * rng.pick([-2, 2]),
                  cy + (k + 1) * sy + (1 if sy == 0 else 0) * rng.pick([-2, 2]))
        spoke = []
        x, y = ox, oy
        # on hexes a spoke north or south runs out along a hex diagonal, away from the middle, not in a zigzag
        way = None if not (cv.hexes and sy) else {(-1, -1): 5, (1, -1): 0, (-1, 1): 3, (1, 1): 2}[
            (1 if ox > cx else -1, sy)]
        while cv.inside(x, y) and int(cv.tiles[y, x]) == floor:
            spoke.append((x, y))
            x, y = (x + sx, y + sy) if way is None else hexmap.neighbours((x, y))[way]
        for cell in spoke:
            cv.put(*cell, "bulkhead")
        spokes.append(spoke)
    for spoke in spokes:
        if cv.hexes and len(spoke) >= 3:  # off both ends: there a hex across the hatch can be the wall it meets
            cv.put(*spoke[rng.between(1, len(spoke) - 2)], "hatch")
        elif len(spoke) >= 2:
            cv.put(*spoke[rng.between(0, len(spoke) - 2)], "hatch")
    for _ in range(rng.between(4, 8)):  # consoles against the walls
        x, y = rng.between(cx - a + 2, cx + a - 2), rng.between(cy - b + 2, cy + b - 2)
        if int(cv.tiles[y, x]) == floor and _hugs_wall(cv, x, y) and not _by_hatch(cv, x, y):
            cv.put(x, y, "console")


def _hugs_wall(cv: Canvas, x: int, y: int) -> bool:
    return any(cv.at(x + dx, y + dy) in ("hull", "bulkhead") for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)))


def _by_hatch(cv: Canvas, x: int, y: int) -> bool:
    return any(cv.at(x + dx, y + dy) in ("hatch", "power_source") for dx in (-1, 0, 1) for dy in (-1, 0, 1)
               if cv.inside(x + dx, y + dy))


def _breach(cv: Canvas, rng: MapRng, cx: int, cy: int, a: int, b: int) -> None:
    """The boarding ramp's hatch on the south hull and a breach torn in the east or west hull."""
    y = cy
    while cv.at(cx, y) != "hull":
        y += 1
    cv.put(cx, y, "hatch")
    side = rng.pick([-1, 1])
    by = cy + rng.between(-b // 2, b // 2)
    x = _hull(cv, cx, by, side)
    if cv.hexes:  # not where a bulkhead meets the hull: a torn hex beside it would be a doorway with no door
        rows = sorted(range(cy - b + 2, cy + b - 1), key=lambda y: (abs(y - by), y))
        by = next((y for y in rows if not _by_bulkhead(cv, (_hull(cv, cx, y, side), y))), by)
        x = _hull(cv, cx, by, side)
    torn = hexmap.neighbours((x, by)) if cv.hexes else ((x, by - 1), (x, by + 1), (x + side, by))
    for cell in ((x, by), *torn):
        if cv.inside(*cell) and cv.at(*cell) == "hull":
            cv.put(*cell, "wreckage")


def _by_bulkhead(cv: Canvas, cell) -> bool:
    return any(cv.inside(*c) and cv.at(*c) == "bulkhead" for c in hexmap.hexagon(cell, 2))


def _hull(cv: Canvas, cx: int, y: int, side: int) -> int:
    """The first hull cell from the middle of row y towards `side`."""
    x = cx
    while cv.inside(x, y) and cv.at(x, y) != "hull":
        x += side
    return x


def _furrow(cv: Canvas, rng: MapRng, cx: int, cy: int, a: int) -> None:
    """The furrow the ship ploughed, from the west or east edge to the hull, strewn with debris."""
    side = rng.pick([-1, 1])
    x, y = (0 if side < 0 else cv.width - 1), cy + rng.between(-2, 2)
    while cv.at(x, y) not in ("hull", "ship_floor", "wreckage", "hatch"):
        cv.put(x, y, "dirt")
        if rng.chance(18):
            for ox, oy in ((0, -2), (0, 2)):
                if cv.inside(x + ox, y + oy) and cv.at(x + ox, y + oy) in ("grass", "scorch", "tree"):
                    cv.put(x + ox, y + oy, "debris")
        x -= side
        if not cv.inside(x, y) or abs(x - cx) < a // 2:
            break
