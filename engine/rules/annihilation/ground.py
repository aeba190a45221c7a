"""Section 9 on the shared maps: what a walking step into each cell costs in TU (A-9.1: 4 orthogonal, 6 diagonal,
plus the terrain modifier of the tile entered; a closed door is opened on the way for its 4 TU), as a `Walk` the
client and the AI price paths with."""

from __future__ import annotations

import numpy as np

from engine.core.geometry import Pos
from engine.core.ruleset import Walk
from engine.map.grid import Grid
from engine.rules.annihilation.book import Book


def walk(book: Book, ground: dict, grid: Grid, cache: dict, factor: int = 1) -> Walk:
    """A-9.1 as the kernel's additive Walk: `factor` × (4 or 6 + the modifier), + 4 TU for a door on the way; a
    legless character crawls at `factor` = crawl_multiplier (A-10.2), its doors still 4 TU. Kept per map value."""
    if cache.get("grid") is not grid:
        cache.clear()
        cache["grid"] = grid
    if factor not in cache:
        door = book.costs["open_door"].tu
        plus = np.array([0 if g is None else factor * book.terrain[g.terrain].modifier + (door if g.opens else 0)
                         for g in (ground.get(t) for t in grid.tile_ids)], dtype=np.int16)[grid.tiles]
        plus.setflags(write=False)
        cache[factor] = plus
    hexes = book.settings.grid == "hex"  # one step cost on hexes
    side, corner = ("hex_walk", "hex_walk") if hexes else ("walk", "walk_diagonal")
    return Walk(cardinal=factor * book.costs[side].tu, diagonal=factor * book.costs[corner].tu, currency="TU",
                extra=cache[factor])


def terrain_at(ground: dict, grid: Grid, cell: Pos) -> tuple[str, bool]:
    """The terrain.toml id of a cell's tile and whether entering it opens a door."""
    g = ground.get(grid.tile(cell))
    return ("level", False) if g is None else (g.terrain, g.opens)
