"""Section 9 on the shared maps: what a walking step into each cell costs in TU (A-9.1: 4 orthogonal, 6 diagonal,
plus the terrain modifier of the tile entered; a closed door is opened on the way for its 4 TU), as a `Walk` the
client and the AI price paths with."""

from __future__ import annotations

import numpy as np

from engine.core.geometry import Pos
from engine.core.ruleset import Walk
from engine.map import levels
from engine.map import hexes
from engine.map.grid import Grid
from engine.rules.annihilation.book import Book


def walk(book: Book, ground: dict, grid: Grid, cache: dict, factor: int = 1, flying: bool = False) -> Walk:
    """A-9.1 as the kernel's additive Walk: `factor` × (4 or 6 + the modifier), + 4 TU for a door on the way; a
    legless character crawls at `factor` = crawl_multiplier (A-10.2), its doors still 4 TU. On storeys: stairs,
    ladders and jumps through windows (9.1); a flyer also flies through open air and hovers up and down (9.2). Kept
    per map value."""
    if cache.get("grid") is not grid:
        cache.clear()
        cache["grid"] = grid
    if factor not in cache:
        cache[factor] = tuple(_extra(book, ground, grid.level(z), factor) for z in range(grid.levels))
    hexes = book.settings.grid == "hex"  # one step cost on hexes
    side, corner = ("hex_walk", "hex_walk") if hexes else ("walk", "walk_diagonal")
    cardinal, diagonal = factor * book.costs[side].tu, factor * book.costs[corner].tu
    extras = cache[factor]
    if grid.levels == 1:  # a window or a fence on the ground is jumped as on any storey (9.1)
        if "hops" not in cache:
            cache["hops"] = levels.jumps(grid, jumpable(ground, grid), book.costs["jump"].tu, flying=flying)
        return Walk(cardinal=cardinal, diagonal=diagonal, currency="TU", extra=extras[0], hops=cache["hops"])
    if "links" not in cache:
        stairs, ladders = levels.links(grid)
        c = book.costs
        up = np.where(stairs, c["stairs_up"].tu, np.where(ladders, c["climb_up"].tu, 0)).astype(np.int32)
        down = np.where(stairs, c["stairs_down"].tu, np.where(ladders, c["climb_down"].tu, 0)).astype(np.int32)
        cache["links"] = (up, down, levels.jumps(grid, jumpable(ground, grid), c["jump"].tu))
    up, down, hops = cache["links"]
    if not flying:
        layers = tuple(Walk(cardinal=cardinal, diagonal=diagonal, currency="TU", extra=e) for e in extras[1:])
        return Walk(cardinal=cardinal, diagonal=diagonal, currency="TU", extra=extras[0], layers=layers, up=up,
                    down=down, hops=hops)
    return _flight(book, ground, grid, cache, factor, (cardinal, diagonal), up, down)


def _flight(book: Book, ground: dict, grid: Grid, cache: dict, factor: int, steps: tuple[int, int], up, down) -> Walk:
    """A flyer's walk (9.2): the walking one, and each storey's open air priced as flying (4 or 6, no terrain, the
    unit type's own fly costs being the table's), hovering 8 a level wherever the storey above is open air there."""
    key = ("flying", factor)
    if key not in cache:
        air = np.stack([levels.open_air(grid, z) for z in range(grid.levels)])
        hover = book.costs["hover"].tu
        sky = air[1:] & (air[:-1] | np.stack([grid.level(z).walkable for z in range(grid.levels - 1)]))
        lift = np.where(up > 0, up, np.where(sky, hover, 0)).astype(np.int32)
        drop = np.where(down > 0, down, np.where(sky, hover, 0)).astype(np.int32)
        layers = []
        for z in range(1, grid.levels):
            price = (grid.level(z).walkable | air[z]).astype(np.int16)
            extra = np.where(air[z], 0, cache[factor][z]).astype(np.int16)
            layers.append(Walk(cardinal=steps[0], diagonal=steps[1], currency="TU", price=price, extra=extra))
        cache[key] = (tuple(layers), lift, drop, levels.jumps(grid, jumpable(ground, grid), book.costs["jump"].tu,
                                                              flying=True))
    layers, lift, drop, hops = cache[key]
    return Walk(cardinal=steps[0], diagonal=steps[1], currency="TU", extra=cache[factor][0], layers=layers, up=lift,
                down=drop, hops=hops)


def jumpable(ground: dict, grid: Grid) -> np.ndarray:
    """[z, y, x]: a tile a unit may jump through or over (ground.toml `jump`: a window, a small fence; 9.1)."""
    return np.stack([np.array([bool(g is not None and g.jump) for g in (ground.get(t) for t in grid.level(z).tile_ids)],
                              dtype=bool)[grid.level(z).tiles] for z in range(grid.levels)])


def _extra(book: Book, ground: dict, grid: Grid, factor: int) -> np.ndarray:
    """What each cell of one storey adds to a step into it: the terrain's modifier and a door opened on the way."""
    door = book.costs["open_door"].tu
    plus = np.array([0 if g is None else factor * book.terrain[g.terrain].modifier + (door if g.opens else 0)
                     for g in (ground.get(t) for t in grid.tile_ids)], dtype=np.int16)[grid.tiles]
    plus.setflags(write=False)
    return plus


def step_kind(ground: dict, grid: Grid, here: tuple[int, int, int], there: tuple[int, int, int],
              flying: bool = False) -> str | None:
    """Section 9 for a step between two places: a walk to a square beside it on its storey (a flight when that
    square is open air), stairs or a ladder between two storeys (hovering, for a flyer, where the upper one is open
    air), a jump across a window or a small fence to the square beyond it, landing below when that one is open air;
    None: no way."""
    (x0, y0, z0), (x, y, z) = here, there
    if not (0 <= z < grid.levels and 0 <= z0 < grid.levels and grid.inside((x, y))):
        return None
    dx, dy = x - x0, y - y0
    if z == z0 and grid.steps((x0, y0), (x, y)) == 1:
        return "fly" if flying and bool(levels.open_air(grid, z)[y, x]) else "walk"
    if (dx, dy) == (0, 0) and abs(z - z0) == 1:
        low, way = min(z, z0), "up" if z > z0 else "down"
        stairs, ladders = levels.links(grid)
        if stairs[low, y, x]:
            return f"stairs_{way}"
        if ladders[low, y, x]:
            return f"climb_{way}"
        return f"hover_{way}" if flying and bool(levels.open_air(grid, low + 1)[y, x]) else None
    middle = hexes.across((x0, y0), (x, y)) if grid.hexes else \
        (x0 + dx // 2, y0 + dy // 2) if {abs(dx), abs(dy)} == {0, 2} else None
    if middle is not None and z <= z0:
        if jumpable(ground, grid)[z0, middle[1], middle[0]] and levels.lands(grid, (x, y, z0), flying) == z:
            return "jump"
    return None


def terrain_at(ground: dict, grid: Grid, cell: Pos) -> tuple[str, bool]:
    """The terrain.toml id of a cell's tile and whether entering it opens a door."""
    g = ground.get(grid.tile(cell))
    return ("level", False) if g is None else (g.terrain, g.opens)
