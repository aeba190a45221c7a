"""Forest: woods thick and thin from a seeded noise field, undergrowth that hides, a stream with
fords, a winding path from the south edge to the extraction point, fallen logs, boulders and a
hunting cabin."""

from __future__ import annotations

from typing import Mapping

import numpy as np

from engine.map.terrain import Terrain
from engine.map.common import SPAWN_DEPTH, Battlefield, Canvas, MapRng, cells_of, landing, nearest
from engine.map.features import Style, building
from engine.map.zones import aliens_in, finish, paint_extraction, spread_civilians

CABIN = Style(window="window", furniture="crate")
TREES, BRUSH = 0.60, 0.50  # noise above these is wood, then undergrowth


def generate(width: int, height: int, seed: int, terrain: Mapping[str, Terrain],
             counts: Mapping[str, int], hexes: bool = False) -> Battlefield:
    rng = MapRng(seed)
    cv = Canvas(width, height, "grass", terrain, hexes)
    wood = rng.noise(height, width, smooth=2)
    cv.paint(wood > TREES, "tree")
    cv.paint((wood > BRUSH) & (wood <= TREES), "brush")
    for _ in range(max(2, width * height // 500)):  # clearings
        cx, cy, r = rng.between(2, width - 3), rng.between(2, height - 3), rng.between(2, 4)
        ys, xs = np.ogrid[:height, :width]
        cv.paint((xs - cx) ** 2 + (ys - cy) ** 2 <= r * r, "grass")
    cv.fill(0, height - SPAWN_DEPTH, width - 1, height - 1, "grass")  # the landing clearing
    cv.free[height - SPAWN_DEPTH - 1:, :] = False
    extraction = paint_extraction(cv, rng)
    _stream(cv, rng)
    _path(cv, rng, extraction[0])
    cabin = _cabin(cv, rng)
    _scatter(cv, rng, "log", max(3, width * height // 200))
    _scatter(cv, rng, "boulder", max(2, width * height // 400))
    walk = cv.walkable()
    squad = landing(walk, rng, counts.get("xcom", 0))
    north = walk.copy()
    north[height * 70 // 100:, :] = False
    centre = cabin or (width // 2, height // 2)
    zones = {
        "xcom": squad,
        "aliens": aliens_in(cells_of(north), rng, counts.get("aliens", 0), squad),
        "civilians": spread_civilians(cells_of(cv.mask("floor") & walk) or cells_of(north), rng),
        "extraction": extraction,
        "hold": nearest(cells_of(walk), centre)[:30],
    }
    return finish(cv, zones, "grass")


def _stream(cv: Canvas, rng: MapRng) -> None:
    """West to east across the middle third, wandering; two or three fords."""
    h, w = cv.height, cv.width
    y = rng.between(h // 3, h // 2)
    cells = []
    for x in range(w):
        cells.append((x, y))
        if rng.chance(30):
            step = rng.pick([-1, 1])
            y = min(max(h // 4, y + step), 2 * h // 3)
            cells.append((x, y))
    for x, y in cells:
        if cv.free[y, x]:
            cv.put(x, y, "water")
    for i in rng.shuffled(range(2, len(cells) - 2))[: rng.between(2, 3)]:
        for x, y in cells[i - 1: i + 2]:
            if cv.at(x, y) == "water":
                cv.put(x, y, "ford")


def _path(cv: Canvas, rng: MapRng, goal: tuple[int, int]) -> None:
    """A footpath wandering from the south edge to the extraction point; it fords the stream."""
    x, y = rng.between(cv.width // 4, 3 * cv.width // 4), cv.height - 1
    while (x, y) != goal:
        here = cv.at(x, y)
        if here == "water":
            cv.put(x, y, "ford")
        elif here in ("tree", "brush", "boulder", "log"):
            cv.put(x, y, "dirt")
        elif here == "grass":
            cv.put(x, y, "dirt")
        if rng.chance(25) and x not in (0, cv.width - 1):
            x += rng.pick([-1, 1])
        else:
            x += (goal[0] > x) - (goal[0] < x) if rng.chance(30) else 0
            y += (goal[1] > y) - (goal[1] < y)


def _cabin(cv: Canvas, rng: MapRng) -> tuple[int, int] | None:
    for _ in range(30):
        bw, bh = rng.between(7, 10), rng.between(6, 8)
        x0, y0 = rng.between(2, cv.width - bw - 3), rng.between(SPAWN_DEPTH + 2, cv.height - SPAWN_DEPTH - bh - 3)
        area = cv.tiles[y0 - 1:y0 + bh + 1, x0 - 1:x0 + bw + 1]
        if np.isin(area, [cv.code("water"), cv.code("ford"), cv.code("dirt")]).any() or not cv.claim(x0, y0, x0 + bw - 1, y0 + bh - 1):
            continue
        cv.fill(x0 - 1, y0 - 1, x0 + bw, y0 + bh, "grass")  # a clearing round it
        building(cv, rng, x0, y0, x0 + bw - 1, y0 + bh - 1, CABIN, windows=40, doors=1)
        return x0 + bw // 2, y0 + bh // 2
    return None


def _scatter(cv: Canvas, rng: MapRng, tile: str, count: int) -> None:
    for _ in range(count):
        x, y = rng.between(1, cv.width - 2), rng.between(1, cv.height - SPAWN_DEPTH - 2)
        if cv.free[y, x] and cv.at(x, y) in ("grass", "brush"):
            cv.put(x, y, tile)
