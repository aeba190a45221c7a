"""Maps made once per process: verifying many logs of the same map (tamper, CI, the benchmarks' AI missions)
must not generate it again each time. The terrain is held too, so an `id` is never reused for another. Each game
gets a grid of its own over the kept one's cells (read-only arrays, shared): its sight caches fill and die with
the game, so a long-lived process (the host) keeps only the last few maps' cells.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from engine.map import climate, hexes as hexmap, storeys
from engine.map.common import UNREACHABLE, Battlefield
from engine.map.gen import GENERATORS
from engine.map.grid import Grid
from engine.map.terrain import Terrain


_FIELDS: dict[tuple, tuple[Mapping[str, Terrain], Battlefield]] = {}  # the last maps made, each with its terrain
FIELDS_KEPT = 8


def battlefield(generator: str, width: int, height: int, seed: int, terrain: Mapping[str, Terrain],
                counts: Mapping[str, int], levels: int, climates: tuple[str, ...] = (), hexes: bool = False
                ) -> Battlefield:
    """The generator's map in the climate its seed draws of `climates` (engine.map.climate; none: as generated) with
    `levels` storeys, read as hexes when `hexes` (the square generators' cells as odd-r hexes), made once per
    process for each map seed. A map's cells never change (a grid with other tiles is a new grid), so one made
    earlier of the same terrain is the very map the generator would make again."""
    key = (generator, width, height, seed, tuple(sorted(counts.items())), levels, tuple(climates), hexes, id(terrain))
    kept = _FIELDS.get(key)
    if kept is None or kept[0] is not terrain:
        field = GENERATORS[generator](width, height, seed, terrain, counts)
        field = climate.repaint(field, generator, seed, climates, terrain)
        if levels > 1:  # the ruleset's maps stack storeys over the generated ground
            field = storeys.stack(field, seed, levels)
        if hexes:
            field = _hex_spawns(Battlefield(field.grid.as_hexes(), field.spawns))
        if len(_FIELDS) >= FIELDS_KEPT:
            del _FIELDS[next(iter(_FIELDS))]
        kept = _FIELDS[key] = (terrain, field)
    field = kept[1]
    return Battlefield(_fresh(field.grid), dict(field.spawns))


SPAWNS = ("xcom", "aliens", "civilians")  # the zones units deploy in


def _hex_spawns(field: Battlefield) -> Battlefield:
    """The generators join a map's cells 8-way; read as hexes (6-way) a spawn can be shut in. Each one the squad's
    landing cannot reach on hexes moves to the nearest free cell it can reach (the same for the same map)."""
    grid = field.grid
    reach = grid.distances(field.spawns["xcom"][0]) < UNREACHABLE if field.spawns.get("xcom") else None
    if reach is None or all(reach[y, x] for side in SPAWNS for x, y in field.spawns.get(side, ())):
        return field
    used = {c for side in SPAWNS for c in field.spawns.get(side, ())}
    ys, xs = np.nonzero(reach)
    free = sorted(zip(xs.tolist(), ys.tolist()))
    spawns = dict(field.spawns)
    for side in SPAWNS:
        cells = list(spawns.get(side, ()))
        for i, (x, y) in enumerate(cells):
            if not reach[y, x]:
                cells[i] = min((c for c in free if c not in used), key=lambda c: (hexmap.distance(c, (x, y)), c))
                used.add(cells[i])
        if side in spawns:
            spawns[side] = tuple(cells)
    return Battlefield(grid, spawns)


def _fresh(grid: Grid) -> Grid:
    """The same cells and storeys, with empty caches."""
    return Grid(grid.tile_ids, grid.tiles, terrain=grid.terrain, origin=grid.origin,
                storeys=tuple(_fresh(s) for s in grid.storeys), hexes=grid.hexes)

