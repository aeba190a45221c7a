"""Maps made once per process: verifying many logs of the same map (tamper, CI, the benchmarks' AI missions)
must not generate it again each time. The terrain is held too, so an `id` is never reused for another. Each game
gets a grid of its own over the kept one's cells (read-only arrays, shared): its sight caches fill and die with
the game, so a long-lived process (the host) keeps only the last few maps' cells.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from engine.map import climate, hexes as hexmap, storeys
from engine.map.common import Battlefield, Canvas, cells_of, connect
from engine.map.gen import GENERATORS
from engine.map.grid import Grid, Pos
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
        extra = {"hexes": True} if hexes else {}  # buildings drawn for hexes (engine.map.hexbuild)
        field = GENERATORS[generator](width, height, seed, terrain, counts, **extra)
        field = climate.repaint(field, generator, seed, climates, terrain)
        if levels > 1:  # the ruleset's maps stack storeys over the generated ground
            field = storeys.stack(field, seed, levels, hexes)
        if hexes:
            field = _dig(Battlefield(field.grid.as_hexes(), field.spawns))
        if len(_FIELDS) >= FIELDS_KEPT:
            del _FIELDS[next(iter(_FIELDS))]
        kept = _FIELDS[key] = (terrain, field)
    field = kept[1]
    return Battlefield(_fresh(field.grid), dict(field.spawns))


SOLID = frozenset({"wall", "window", "hull", "bulkhead", "door_locked", "terminal", "terminal_hacked", "console",
                   "power_source", "power_source_off", "air"})  # what a door never opens onto
DOORS = ("door", "door_open", "hatch", "hatch_open")
OPENINGS = (*DOORS, "stairs", "ladder")  # each must lead somewhere walkable


def _dig(field: Battlefield) -> Battlefield:
    """The generators join a map's cells 8-way; read as hexes (6-way) a zone, a door or a stair can be shut in. The
    fewest blocking hexes between each and the squad's landing are broken, as `connect` does on a canvas: every
    spawn and objective, both sides of every door and the foot of every stair can then be walked to."""
    grid = field.grid
    if not field.spawns.get("xcom"):
        return field
    cv = Canvas.of(grid)
    walk = cv.walkable()
    targets = []
    for cells in field.spawns.values():
        for x, y in cells:
            near = [c for c in cv.around(x, y) if walk[c[1], c[0]]]
            targets += [(x, y)] if walk[y, x] else near[:1]  # an objective you stand next to
    for x, y in cells_of(cv.mask(*OPENINGS)):
        targets += [(x, y)] + [c for c in cv.around(x, y) if walk[c[1], c[0]]]
    for x, y in cells_of(cv.mask(*DOORS)):
        targets += _across(cv, walk, (x, y))
    common = np.bincount(grid.tiles[walk], minlength=len(grid.tile_ids))  # what a broken hex becomes, failing all else
    connect(cv, field.spawns["xcom"][0], targets, grid.tile_ids[int(np.argmax(common))])
    if np.array_equal(cv.tiles, grid.tiles):
        return field
    ground = Grid(tuple(cv.ids), cv.tiles, terrain=grid.terrain, storeys=grid.storeys, hexes=True)
    return Battlefield(ground, field.spawns)


def _across(cv: Canvas, walk: np.ndarray, door: Pos) -> list[Pos]:
    """The two hexes straight across a door that it best opens onto (what stands in one, a hedge or a crate, is
    broken): the pair with the most walkable hexes and no wall, none if every pair has a wall."""
    near = hexmap.neighbours(door)
    pairs = [(near[k], near[k + 3]) for k in range(3)
             if all(cv.inside(*c) and cv.at(*c) not in SOLID for c in (near[k], near[k + 3]))]
    best = max(pairs, key=lambda p: sum(bool(walk[c[1], c[0]]) for c in p), default=())
    return list(best)


def _fresh(grid: Grid) -> Grid:
    """The same cells and storeys, with empty caches."""
    return Grid(grid.tile_ids, grid.tiles, terrain=grid.terrain, origin=grid.origin,
                storeys=tuple(_fresh(s) for s in grid.storeys), hexes=grid.hexes)

