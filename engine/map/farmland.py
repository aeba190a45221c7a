"""Farmland: a fenced farmyard with a farmhouse and a barn (a hayloft upstairs), wheat fields
between hedgerows, a dirt road, copses and fences."""

from __future__ import annotations

from typing import Mapping

import numpy as np

from engine.map.terrain import Terrain
from engine.map.common import SPAWN_DEPTH, Battlefield, Canvas, MapRng, cells_of, landing, nearest
from engine.map.features import Style, building, clump, line
from engine.map.zones import aliens_in, finish, paint_extraction, spread_civilians

HOUSE = Style(window="window", loft="loft", railing="railing", stairs="stairs", furniture="crate")


def generate(width: int, height: int, seed: int, terrain: Mapping[str, Terrain],
             counts: Mapping[str, int], hexes: bool = False) -> Battlefield:
    rng = MapRng(seed)
    cv = Canvas(width, height, "grass", terrain, hexes)
    cv.free[height - SPAWN_DEPTH - 1:, :] = False  # the squad's landing strip
    extraction = paint_extraction(cv, rng)
    yard = _farmyard(cv, rng)
    _road(cv, rng, yard)
    area = width * height / 1600  # densities are tuned on 40x40 and scale with the area
    for _ in range(round(rng.between(3, 5) * area)):
        _field(cv, rng)
    for _ in range(round(rng.between(4, 7) * area)):
        x, y = rng.between(1, width - 2), rng.between(1, height - SPAWN_DEPTH - 2)
        clump(cv, rng, (x, y), "tree", rng.between(2, 6), on="grass")
    for _ in range(round(rng.between(3, 6) * area)):
        _fence(cv, rng)
    walk = cv.walkable()
    x0, y0, x1, y1 = yard
    inside = np.zeros_like(walk)
    inside[y0:y1 + 1, x0:x1 + 1] = True
    centre = ((x0 + x1) // 2, (y0 + y1) // 2)
    squad = landing(walk, rng, counts.get("xcom", 0))
    outside = walk.copy()
    outside[max(0, y0 - 6): y1 + 7, max(0, x0 - 6): x1 + 7] = False
    outside[height - SPAWN_DEPTH - 2:, :] = False
    zones = {
        "xcom": squad,
        "aliens": aliens_in(cells_of(outside), rng, counts.get("aliens", 0), squad),
        "civilians": spread_civilians(cells_of(walk & inside), rng),
        "extraction": extraction,
        "hold": nearest(cells_of(walk & inside), centre),
    }
    return finish(cv, zones, "grass")


def _farmyard(cv: Canvas, rng: MapRng) -> tuple[int, int, int, int]:
    """A fenced yard near the middle with the farmhouse and the barn in it; returns its rectangle."""
    w, h = cv.width, cv.height
    yw, yh = min(max(24, w * 55 // 100), 44, w - 4), min(max(14, h * 35 // 100), 30, h - SPAWN_DEPTH - 10)
    x0 = max(1, min(w - yw - 2, (w - yw) // 2 + rng.between(-2, 2)))
    y0 = max(5, min(h - SPAWN_DEPTH - yh - 3, (h - yh) // 2 - 2 + rng.between(-2, 2)))
    x1, y1 = x0 + yw - 1, y0 + yh - 1
    cv.free[y0 - 1:y1 + 2, x0 - 1:x1 + 2] = False
    for side in range(4):  # the yard fence, a gate or two on every side
        horizontal = side in (0, 2)
        start = (x0, y0 if side == 0 else y1) if horizontal else (x0 if side == 3 else x1, y0)
        line(cv, rng, start, yw if horizontal else yh, horizontal, "fence", gaps=rng.between(2, 3))
    half = yw // 2
    house_left = rng.chance(50)
    hw, hh = min(rng.between(9, 12), half - 2), min(rng.between(7, 9), yh - 4)
    bw, bh = min(rng.between(9, 12), yw - half - 3), min(rng.between(9, 11), yh - 4)
    hx = x0 + 2 if house_left else x1 - hw - 1
    bx = x1 - bw - 1 if house_left else x0 + 2
    building(cv, rng, hx, y0 + 2, hx + hw - 1, y0 + 1 + hh, HOUSE, windows=35, doors=2, storey=rng.chance(50))
    building(cv, rng, bx, y1 - bh - 1, bx + bw - 1, y1 - 2, HOUSE, windows=15, doors=2, storey=True)
    for _ in range(rng.between(2, 4)):  # hay bales and a tree in the yard
        x, y = rng.between(x0 + 2, x1 - 2), rng.between(y0 + 2, y1 - 2)
        if cv.at(x, y) == "grass" and cv.at(x, y - 1) == "grass" and cv.at(x, y + 1) == "grass":
            cv.put(x, y, rng.pick(["crate", "crate", "tree"]))
    return x0, y0, x1, y1


def _road(cv: Canvas, rng: MapRng, yard: tuple[int, int, int, int]) -> None:
    """A dirt road from the yard's south gate to the south edge, bending as it goes."""
    x0, _y0, x1, y1 = yard
    x = rng.between(x0 + 2, x1 - 2)
    for y in range(y1, cv.height):
        cv.put(x, y, "dirt")
        cv.free[y, x] = False
        if rng.chance(20):
            x = min(max(1, x + rng.pick([-1, 1])), cv.width - 2)
            cv.put(x, y, "dirt")


def _field(cv: Canvas, rng: MapRng) -> None:
    """A wheat field, a hedgerow along one or two of its sides."""
    for _ in range(20):
        fw, fh = rng.between(6, 14), rng.between(4, 9)
        x0, y0 = rng.between(1, cv.width - fw - 2), rng.between(1, cv.height - SPAWN_DEPTH - fh - 3)
        if not cv.claim(x0, y0, x0 + fw - 1, y0 + fh - 1):
            continue
        cv.fill(x0, y0, x0 + fw - 1, y0 + fh - 1, "crops")
        if rng.chance(70):
            line(cv, rng, (x0, y0 - 1 if rng.chance(50) else y0 + fh), fw, True, "hedge", gaps=rng.between(1, 2))
        if rng.chance(50):
            line(cv, rng, (x0 - 1 if rng.chance(50) else x0 + fw, y0), fh, False, "hedge", gaps=1)
        return


def _fence(cv: Canvas, rng: MapRng) -> None:
    for _ in range(20):
        length, horizontal = rng.between(4, 9), rng.chance(50)
        x0 = rng.between(1, cv.width - (length if horizontal else 1) - 1)
        y0 = rng.between(1, cv.height - SPAWN_DEPTH - (1 if horizontal else length) - 2)
        x1, y1 = (x0 + length - 1, y0) if horizontal else (x0, y0 + length - 1)
        if cv.claim(x0, y0, x1, y1):
            line(cv, rng, (x0, y0), length, horizontal, "fence")
            return
