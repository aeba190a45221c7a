"""Zones of a battlefield — where each side deploys, where civilians shelter, the extraction point,
the ground to hold — and the checks every generated map must pass."""

from __future__ import annotations

from typing import Mapping

import numpy as np

from engine.map.terrain import Terrain
from engine.map.common import UNREACHABLE, Battlefield, Canvas, MapRng, cells_of, connect, nearest, reachable, scatter
from engine.map.grid import Grid, Pos

COMMON_ZONES = ("xcom", "aliens", "civilians", "extraction", "hold")
CIVILIAN_SLOTS = 16  # the most civilians a mission can place
EXTRACTION = (4, 3)  # width, height of the extraction point


def finish(cv: Canvas, zones: dict[str, list[Pos]], ground: str) -> Battlefield:
    """Make every zone reachable from the squad's first cell, then freeze the grid."""
    anchor = zones["xcom"][0]
    walk = cv.walkable()
    targets = []
    for cells in zones.values():
        for x, y in cells:
            if walk[y, x]:
                targets.append((x, y))
            else:  # an objective you stand next to
                around = cv.around(x, y)
                targets.append(next((c for c in around if walk[c[1], c[0]]), around[0]))
    connect(cv, anchor, targets, ground)
    return Battlefield(cv.grid(), {k: tuple(v) for k, v in zones.items()})


def extraction_patch(width: int, rng: MapRng) -> tuple[int, int]:
    """Top-left corner of the extraction point: on the north edge, in its left or right third."""
    ew, _eh = EXTRACTION
    if rng.chance(50):
        return rng.between(1, max(1, width // 3 - ew)), 1
    return rng.between(min(width - ew - 1, 2 * width // 3), width - ew - 1), 1


def paint_extraction(cv: Canvas, rng: MapRng, tile: str = "landing_zone") -> list[Pos]:
    """Mark the extraction point on the ground and keep structures off it."""
    x0, y0 = extraction_patch(cv.width, rng)
    x1, y1 = x0 + EXTRACTION[0] - 1, y0 + EXTRACTION[1] - 1
    cv.fill(x0, y0, x1, y1, tile)
    cv.free[max(0, y0 - 1): y1 + 2, max(0, x0 - 1): x1 + 2] = False
    return nearest([(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)], (x0, y0))


def spread_civilians(candidates: list[Pos], rng: MapRng) -> list[Pos]:
    return scatter(candidates, rng, min(CIVILIAN_SLOTS, len(candidates)), apart=3)


def aliens_in(candidates: list[Pos], rng: MapRng, count: int, avoid: list[Pos], keep: int = 10) -> list[Pos]:
    """Alien spawns spread over the candidates, at least `keep` cells from every cell in `avoid` where possible."""
    near = {(x + dx, y + dy) for x, y in avoid for dx in range(1 - keep, keep) for dy in range(1 - keep, keep)}
    far = [c for c in candidates if c not in near]  # the cells fewer than `keep` from one, as a set: one lookup each
    return scatter(far if len(far) >= count else candidates, rng, count, apart=2)


def add_zones(field: Battlefield, rng: MapRng, terrain: Mapping[str, Terrain], hexes: bool = False) -> Battlefield:
    """The common zones for a map whose tiles must not change (open_ground): only cells the squad
    can already reach are used."""
    grid = Grid(field.grid.tile_ids, field.grid.tiles.copy(), terrain=field.grid.terrain)  # this is the map as made
    zones = dict(field.spawns)
    anchor = zones["xcom"][0] if zones.get("xcom") else (grid.width // 2, grid.height - 1)
    ok = reachable(grid.walkable, anchor, hexes)
    h, w = ok.shape
    floor = ok & (grid.tiles == (grid.tile_ids.index("floor") if "floor" in grid.tile_ids else -1))
    middle = np.zeros_like(ok)
    middle[h // 4: 3 * h // 4, :] = True
    zones["civilians"] = tuple(spread_civilians(cells_of(floor) or cells_of(ok & middle), rng))
    ex, ey = extraction_patch(w, rng)
    box = np.zeros_like(ok)
    box[ey:ey + EXTRACTION[1], ex:ex + EXTRACTION[0]] = True
    zones["extraction"] = tuple(nearest(cells_of(box & ok), (ex, ey))) or (anchor,)
    centre = (w // 2, h // 2)
    zones["hold"] = tuple(c for c in nearest(cells_of(ok), centre)[:24])
    return Battlefield(grid, zones)


def problems(field: Battlefield, terrain: Mapping[str, Terrain]) -> list[str]:
    """What is wrong with a battlefield; empty when every guarantee holds."""
    grid: Grid = field.grid
    out = [f"tile {t!r} is not in terrain.toml" for t in grid.tile_ids if t not in terrain]
    if out:
        return out
    zones = field.spawns
    squad = zones.get("xcom", ())
    if not squad:
        return ["the squad has nowhere to deploy"]
    ok = grid.distances(squad[0]) < UNREACHABLE if grid.hexes else reachable(grid.walkable, squad[0])  # 6-way
    for side in ("xcom", "aliens"):
        cells = zones.get(side, ())
        if len(set(cells)) != len(cells):
            out.append(f"{side}: two units share a spawn cell")
    for name, cells in zones.items():
        for x, y in cells:
            if not grid.inside((x, y)):
                out.append(f"{name}: {x},{y} is off the map")
            elif grid.walkable[y, x]:
                if not ok[y, x]:
                    out.append(f"{name}: {x},{y} cannot be reached from the squad")
            elif name in ("xcom", "aliens", "civilians"):
                out.append(f"{name}: {x},{y} is a {grid.tile((x, y))}, nobody can stand there")
            elif not any(grid.inside(n) and ok[n[1], n[0]] for n in grid.neighbours((x, y))):
                out.append(f"{name}: nobody can get next to {x},{y}")
        if not cells and name != "civilians":
            out.append(f"{name}: the zone is empty")
    return out
