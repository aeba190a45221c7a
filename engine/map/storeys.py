"""Storeys on a generated map (opt-in: `Ruleset.storeys` > 1): the biggest buildings, and the ship, get an upper
floor and a walkable roof above the ground the generator made, with stairs up from the ground and a ladder to the
roof. The ground is left as generated except the stair squares, so every map of one level is unchanged.

Above the buildings is open air (`air`: seen through, never stood on). Inner doors stay doors up there (opened and
closed on their storey: `TileChanged.z`), and outer doors under an upper floor are windows up there.
"""

from __future__ import annotations

import attrs
import numpy as np

from engine.map import hexes
from engine.map.common import Battlefield, MapRng
from engine.map.grid import NEIGHBOURS, ORTHOGONAL, Grid, Pos
from engine.map.levels import AIR, LADDER, ROOF, STAIRS
from engine.map.terrain import Terrain

TILES = {  # the storeys' own tiles, beside content's terrain
    AIR: Terrain(name="Open air", glyph=" ", color="#000000", walkable=False, transparent=True),
    ROOF: Terrain(name="Roof", glyph="=", color="#8a7a6a", walkable=True, transparent=True),
    LADDER: Terrain(name="Ladder up", glyph="H", color="#d0b070", walkable=True, transparent=True),
}
INDOOR = frozenset({"floor", "loft", "stairs", "ship_floor", "console", "power_source", "power_source_off", "door",
                    "door_open", "hatch", "hatch_open", "railing"})
WALLS = frozenset({"wall", "window", "hull", "bulkhead", "door", "door_open", "hatch", "hatch_open"})
DOORS = {"door": "door_open", "hatch": "hatch_open"}
MIN_ROOM = 12  # squares: a shed gets no upper floor
BUILDINGS = 2  # at most, the biggest first


def stack(field: Battlefield, seed: int, levels: int, hexes: bool = False) -> Battlefield:
    """The field with `levels` storeys (ground, upper floor, roof) over its biggest buildings (`hexes`: read as
    hexes, whose buildings are hexagons: engine.map.hexbuild)."""
    ground = field.grid
    rng = MapRng(seed ^ 0x5354)
    terrain = {**ground.terrain, **TILES}
    tiles = [[[ground.tile((x, y)) for x in range(ground.width)] for y in range(ground.height)]]
    tiles += [[[AIR] * ground.width for _ in range(ground.height)] for _ in range(levels - 1)]
    for room in _buildings(ground)[:BUILDINGS]:
        _raise(tiles, ground, room, rng, levels, hexes)
    base = Grid.from_ids(tiles[0], terrain)
    storeys = tuple(Grid.from_ids(t, terrain) for t in tiles[1:])
    return attrs.evolve(field, grid=attrs.evolve(base, storeys=storeys))


def _buildings(grid: Grid) -> list[list[Pos]]:
    """The indoor regions (rooms joined by their doors), biggest first; the spawn rows are never built on."""
    indoor = np.array([[grid.tile((x, y)) in INDOOR for x in range(grid.width)] for y in range(grid.height)])
    seen = np.zeros_like(indoor)
    out = []
    for y0 in range(grid.height):
        for x0 in range(grid.width):
            if not indoor[y0, x0] or seen[y0, x0]:
                continue
            region, todo = [], [(x0, y0)]
            seen[y0, x0] = True
            while todo:
                x, y = todo.pop()
                region.append((x, y))
                for dx, dy in ORTHOGONAL:
                    n = (x + dx, y + dy)
                    if grid.inside(n) and indoor[n[1], n[0]] and not seen[n[1], n[0]]:
                        seen[n[1], n[0]] = True
                        todo.append(n)
            floors = [c for c in region if grid.tile(c) not in WALLS]
            if len(floors) >= MIN_ROOM:
                out.append(sorted(region))
    return sorted(out, key=lambda r: (-len(r), r[0]))


def _filled(footprint: set[Pos], ground: Grid) -> set[Pos]:
    """The footprint with the squares it closes round (a crate in a room, which is no indoor tile): a square with
    three or four sides in it joins it, until none does, so no upper floor or roof has a hole over furniture."""
    out, grown = set(footprint), True
    while grown:
        grown = False
        near = {(x + dx, y + dy) for x, y in out for dx, dy in ORTHOGONAL} - out
        for c in sorted(near):
            if ground.inside(c) and sum((c[0] + dx, c[1] + dy) in out for dx, dy in ORTHOGONAL) >= 3:
                out.add(c)
                grown = True
    return out


def _filled_hexes(footprint: set[Pos], ground: Grid) -> set[Pos]:
    """`_filled` on hexes: a hex with four or more of its six neighbours in joins it."""
    out, grown = set(footprint), True
    while grown:
        grown = False
        near = {n for c in out for n in hexes.neighbours(c)} - out
        for c in sorted(near):
            if ground.inside(c) and sum(n in out for n in hexes.neighbours(c)) >= 4:
                out.add(c)
                grown = True
    return out


def _raise(tiles: list, ground: Grid, region: list[Pos], rng: MapRng, levels: int, hexed: bool = False) -> None:
    inside = set(region)
    shell = {(x + dx, y + dy) for x, y in region for dx, dy in NEIGHBOURS
             if ground.inside((x + dx, y + dy)) and ground.tile((x + dx, y + dy)) in WALLS} - inside
    footprint = (_filled_hexes if hexed else _filled)(inside | shell, ground)
    outer = {c for c in footprint if any((c[0] + dx, c[1] + dy) not in footprint for dx, dy in NEIGHBOURS)}
    floor = "ship_floor" if any(ground.tile(c) == "ship_floor" for c in region) else "loft"
    for x, y in footprint:
        below = ground.tile((x, y))
        if below in WALLS and (x, y) in outer:
            up = "window" if below in ("window", "door", "door_open") else ("hull" if below == "hull" else "wall")
        elif below in WALLS:
            up = below
        else:
            up = floor
        tiles[1][y][x] = up
        for z in range(2, levels):
            tiles[z][y][x] = ROOF if z == levels - 1 else floor
    floors = [c for c in region if ground.tile(c) in ("floor", "ship_floor", "loft")
              and any(ground.tile((c[0] + dx, c[1] + dy)) in WALLS for dx, dy in ORTHOGONAL)
              and not any(ground.tile((c[0] + dx, c[1] + dy)) in DOORS for dx, dy in NEIGHBOURS)]
    if len(floors) < 2:
        return
    sx, sy = rng.pick(floors)
    tiles[0][sy][sx] = tiles[1][sy][sx] = STAIRS
    far = sorted(floors, key=lambda c: -abs(c[0] - sx) - abs(c[1] - sy))
    for z in range(1, levels - 1):  # a ladder on each floor below the roof, away from the stairs
        lx, ly = far[0]
        tiles[z][ly][lx] = LADDER
