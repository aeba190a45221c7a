"""Seeded map generators, one per biome. The same seed always gives the same map, on every machine.

Randomness comes from the dice function on a public map seed, never from `random`. Each
generator takes (width, height, map seed, terrain, counts) and returns a Battlefield: the grid
and its zones — "xcom" and "aliens" (spawn cells, as many as `counts` asks) and the zones
missions name (ZONES). `open_ground` is the first generator, kept exactly as it was so older
logs rebuild the same map; `farmland` is its successor.
"""

from __future__ import annotations

from typing import Callable, Mapping

import numpy as np

from engine.map.terrain import Terrain
from engine.map import farmland, forest, hexbuild, ship, urban, warehouse
from engine.map.common import SPAWN_DEPTH, Battlefield, MapRng
from engine.map.grid import NEIGHBOURS, Grid, Pos
from engine.map.zones import COMMON_ZONES, add_zones


def open_ground(width: int, height: int, seed: int, terrain: Mapping[str, Terrain],
                counts: Mapping[str, int], hexes: bool = False) -> Battlefield:
    """Farmland: grass, a dirt road, walled buildings with doors, fences, crates and trees."""
    rng = MapRng(seed)
    rows = [["grass"] * width for _ in range(height)]
    free = np.ones((height, width), dtype=bool)  # not yet used by a structure
    free[: SPAWN_DEPTH + 1, :] = False
    free[height - SPAWN_DEPTH - 1:, :] = False

    def put(x: int, y: int, tile: str) -> None:
        if 0 <= x < width and 0 <= y < height:
            rows[y][x] = tile

    _road(rows, rng, width, height)
    area = width * height / 1600  # densities are tuned on 40x40 and scale with the area
    for _ in range(rng.between(3, 5) * max(1, round(area))):
        _building(rows, free, rng, put, hexes)
    for _ in range(round(rng.between(5, 8) * area)):
        _fence(rows, free, rng, put)
    for _ in range(round(rng.between(14, 20) * area)):
        _crates(free, rng, put)
    for _ in range(round(rng.between(8, 12) * area)):
        _copse(rows, free, rng, put)
    grid = Grid.from_ids(rows, terrain)
    grid, spawns = _spawn(grid, rng, counts, terrain)
    return Battlefield(grid, spawns)


def _road(rows: list[list[str]], rng: MapRng, width: int, height: int) -> None:
    y = rng.between(height // 3, 2 * height // 3)
    for x in range(width):
        rows[y][x] = "dirt"
        if rng.chance(15) and SPAWN_DEPTH + 2 < y + 1 < height - SPAWN_DEPTH - 2:
            y += 1 if rng.chance(50) else -1
            rows[y][x] = "dirt"


def _claim(free: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> bool:
    """Reserve a rectangle (inclusive) plus a one-cell margin if it is all free."""
    h, w = free.shape
    if x0 < 1 or y0 < 1 or x1 >= w - 1 or y1 >= h - 1:
        return False
    if not free[y0 - 1: y1 + 2, x0 - 1: x1 + 2].all():
        return False
    free[y0 - 1: y1 + 2, x0 - 1: x1 + 2] = False
    return True


def _building(rows, free, rng: MapRng, put: Callable[[int, int, str], None], hexes: bool = False) -> None:
    h, w = free.shape
    for _ in range(20):
        bw, bh = rng.between(6, 11), rng.between(5, 8)
        x0, y0 = rng.between(1, w - bw - 2), rng.between(SPAWN_DEPTH + 2, h - SPAWN_DEPTH - bh - 2)
        x1, y1 = x0 + bw - 1, y0 + bh - 1
        if not _claim(free, x0, y0, x1, y1):
            continue
        if hexes:
            hexbuild.shed(rng, (x0, y0, x1, y1), put, lambda c: 0 <= c[0] < w and 0 <= c[1] < h)
            return
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                edge = x in (x0, x1) or y in (y0, y1)
                put(x, y, "wall" if edge else "floor")
        walls = [(x, y0) for x in range(x0 + 1, x1)] + [(x, y1) for x in range(x0 + 1, x1)]
        walls += [(x0, y) for y in range(y0 + 1, y1)] + [(x1, y) for y in range(y0 + 1, y1)]
        for _door in range(rng.between(1, 3)):
            x, y = walls[rng.below(len(walls))]
            put(x, y, "door")
        for _crate in range(rng.between(0, 2)):
            put(rng.between(x0 + 1, x1 - 1), rng.between(y0 + 1, y1 - 1), "crate")
        return


def _fence(rows, free, rng: MapRng, put) -> None:
    h, w = free.shape
    for _ in range(20):
        length = rng.between(4, 9)
        horizontal = rng.chance(50)
        x0 = rng.between(1, w - (length if horizontal else 1) - 1)
        y0 = rng.between(SPAWN_DEPTH + 2, h - SPAWN_DEPTH - (1 if horizontal else length) - 2)
        x1, y1 = (x0 + length - 1, y0) if horizontal else (x0, y0 + length - 1)
        if not _claim(free, x0, y0, x1, y1):
            continue
        gap = rng.below(length)  # a gate
        for i in range(length):
            if i != gap:
                put(x0 + i if horizontal else x0, y0 if horizontal else y0 + i, "fence")
        return


def _crates(free, rng: MapRng, put) -> None:
    h, w = free.shape
    for _ in range(20):
        x, y = rng.between(1, w - 3), rng.between(SPAWN_DEPTH + 2, h - SPAWN_DEPTH - 3)
        if not free[y, x]:
            continue
        put(x, y, "crate")
        free[y, x] = False
        if rng.chance(50) and free[y, x + 1]:
            put(x + 1, y, "crate")
            free[y, x + 1] = False
        return


def _copse(rows, free, rng: MapRng, put) -> None:
    h, w = free.shape
    cx, cy = rng.between(1, w - 2), rng.between(SPAWN_DEPTH + 2, h - SPAWN_DEPTH - 3)
    for _ in range(rng.between(2, 6)):
        x, y = cx + rng.between(-2, 2), cy + rng.between(-2, 2)
        if 0 <= x < w and 0 <= y < h and free[y, x] and rows[y][x] == "grass":
            put(x, y, "tree")
            free[y, x] = False


def _spawn(grid: Grid, rng: MapRng, counts: Mapping[str, int],
           terrain: Mapping[str, Terrain]) -> tuple[Grid, dict[str, tuple[Pos, ...]]]:
    """The squad lands together at the south edge; hostiles are spread over the northern part.

    Then every spawn cell is made reachable from the squad's, breaking through whatever blocks.
    """
    h, w = grid.height, grid.width
    spawns: dict[str, tuple[Pos, ...]] = {}
    squad_zone = [(x, y) for y in range(h - SPAWN_DEPTH, h) for x in range(w) if grid.walkable[y, x]]
    cx = rng.between(w // 4, 3 * w // 4)
    squad_zone.sort(key=lambda c: (max(abs(c[0] - cx), abs(c[1] - (h - 2))), c[1], c[0]))
    spawns["xcom"] = tuple(squad_zone[: counts.get("xcom", 0)])
    north = [(x, y) for y in range(0, max(SPAWN_DEPTH, 2 * h // 5)) for x in range(w) if grid.walkable[y, x]]
    chosen: list[Pos] = []
    while len(chosen) < counts.get("aliens", 0) and north:
        chosen.append(north.pop(rng.below(len(north))))
    spawns["aliens"] = tuple(chosen)
    anchor = spawns["xcom"][0] if spawns["xcom"] else (w // 2, h - 1)
    dist = grid.distances(anchor)  # searched again only when a carve changed the grid
    for cell in [c for cells in spawns.values() for c in cells]:
        if dist[cell[1], cell[0]] < 10**6:
            continue
        grid = grid.with_tiles(_carve(grid, cell, anchor, terrain))
        dist = grid.distances(anchor)
    return grid, spawns


def _carve(grid: Grid, start: Pos, goal: Pos, terrain: Mapping[str, Terrain]) -> dict[Pos, str]:
    """Walk straight from start to goal, breaking whatever blocks the way."""
    out: dict[Pos, str] = {}
    x, y = start
    while (x, y) != goal:
        x += (goal[0] > x) - (goal[0] < x)
        y += (goal[1] > y) - (goal[1] < y)
        if not grid.walkable[y, x]:
            broken = terrain[grid.tile((x, y))].destroyed
            out[(x, y)] = broken if broken and terrain[broken].walkable else "grass"
    return out


def open_ground_zones(width: int, height: int, seed: int, terrain: Mapping[str, Terrain],
                      counts: Mapping[str, int], hexes: bool = False) -> Battlefield:
    """`open_ground` with the common zones added on their own draws: the tiles and spawns stay as they were."""
    field = open_ground(width, height, seed, terrain, counts, hexes)
    return add_zones(field, MapRng(seed ^ 0x5EED), terrain, hexes)


GENERATORS: dict[str, Callable[..., Battlefield]] = {
    "open_ground": open_ground_zones,
    "farmland": farmland.generate,
    "urban": urban.generate,
    "forest": forest.generate,
    "alien_ship": ship.generate,
    "warehouse": warehouse.generate,
}
ZONES: dict[str, set[str]] = {name: set(COMMON_ZONES) for name in GENERATORS}
ZONES["alien_ship"].add("power")
ZONES["warehouse"] |= {"terminal", "exit", "beat"}


def reachable_from(grid: Grid, start: Pos) -> np.ndarray:
    return grid.distances(start) < 10**6


__all__ = ["Battlefield", "GENERATORS", "MapRng", "NEIGHBOURS", "ZONES", "open_ground", "reachable_from"]
