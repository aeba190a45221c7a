"""Maps made once per process: verifying many logs of the same map (tamper, CI, the benchmarks' AI missions)
must not generate it again each time. The terrain is held too, so an `id` is never reused for another. Each game
gets a grid of its own over the kept one's cells (read-only arrays, shared): its sight caches fill and die with
the game, so a long-lived process (the host) keeps only the last few maps' cells.
"""

from __future__ import annotations

from typing import Mapping

from engine.map import climate, storeys
from engine.map.common import Battlefield
from engine.map.gen import GENERATORS
from engine.map.grid import Grid
from engine.map.terrain import Terrain


_FIELDS: dict[tuple, tuple[Mapping[str, Terrain], Battlefield]] = {}  # the last maps made, each with its terrain
FIELDS_KEPT = 8


def battlefield(generator: str, width: int, height: int, seed: int, terrain: Mapping[str, Terrain],
                counts: Mapping[str, int], levels: int, climates: tuple[str, ...] = (), hexes: bool = False
                ) -> Battlefield:
    """The generator's map in the climate its seed draws of `climates` (engine.map.climate; none: as generated) with
    `levels` storeys, read as hexes when `hexes` (the square generators' cells as odd-r hexes), made once per process for each map seed. A map's cells never change (a grid with other tiles
    is a new grid), so one made earlier of the same terrain is the very map the generator would make again."""
    key = (generator, width, height, seed, tuple(sorted(counts.items())), levels, tuple(climates), hexes, id(terrain))
    kept = _FIELDS.get(key)
    if kept is None or kept[0] is not terrain:
        field = GENERATORS[generator](width, height, seed, terrain, counts)
        field = climate.repaint(field, generator, seed, climates, terrain)
        if levels > 1:  # the ruleset's maps stack storeys over the generated ground
            field = storeys.stack(field, seed, levels)
        if hexes:
            field = Battlefield(field.grid.as_hexes(), field.spawns)
        if len(_FIELDS) >= FIELDS_KEPT:
            del _FIELDS[next(iter(_FIELDS))]
        kept = _FIELDS[key] = (terrain, field)
    field = kept[1]
    return Battlefield(_fresh(field.grid), dict(field.spawns))


def _fresh(grid: Grid) -> Grid:
    """The same cells and storeys, with empty caches."""
    return Grid(grid.tile_ids, grid.tiles, terrain=grid.terrain, origin=grid.origin,
                storeys=tuple(_fresh(s) for s in grid.storeys), hexes=grid.hexes)

