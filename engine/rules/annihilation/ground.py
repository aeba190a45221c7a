"""Section 9 on the shared maps: what a walking step into each cell costs in TU (A-9.1: 4 orthogonal, 6 diagonal,
plus the terrain modifier of the tile entered; a closed door is opened on the way for its 4 TU), as a `Walk` the
client and the AI price paths with."""

from __future__ import annotations

import attrs
import numpy as np

from engine.core.geometry import Pos
from engine.core.ruleset import Walk
from engine.map.grid import Grid
from engine.rules.annihilation.book import Book


@attrs.frozen
class TuWalk(Walk):
    """A-9.1's prices are additive (`4 + modifier`), the kernel's Walk multiplies (`cardinal × price`): `cost` is
    exact here from `extra` (the modifier and door of each cell); `price` is the nearest multiple of the orthogonal
    step, for the kernel's path search only (`decide` prices every step exactly)."""

    extra: np.ndarray | None = attrs.field(default=None, eq=False, repr=False)
    factor: int = 1  # x2 for a legless character crawling

    def cost(self, start: Pos, path) -> int:
        total, here = 0, start
        for cell in path:
            step = self.cardinal if here[0] == cell[0] or here[1] == cell[1] else self.diagonal
            total += self.factor * (step + int(self.extra[cell[1], cell[0]]))
            here = cell
        return total


def extra(book: Book, ground: dict, grid: Grid) -> np.ndarray:
    """[y, x]: the TU a step into each cell adds to its base cost (terrain modifier, a door's opening)."""
    lut = []
    for tile in grid.tile_ids:
        g = ground.get(tile)
        lut.append(0 if g is None else book.terrain[g.terrain].modifier + (book.costs["open_door"].tu if g.opens else 0))
    return np.array(lut, dtype=np.int16)[grid.tiles]


def walk(book: Book, ground: dict, grid: Grid, cache: dict, factor: int = 1) -> TuWalk:
    key = id(grid)
    if cache.get("grid") is not grid:
        cache.clear()
        cache["grid"] = grid
        plus = extra(book, ground, grid)
        orth = book.costs["walk"].tu
        price = np.where(grid.walkable, np.maximum(1, (orth + plus + orth // 2) // orth), 0).astype(np.int16)
        cache["plus"], cache["price"] = plus, price
    del key
    return TuWalk(cardinal=book.costs["walk"].tu, diagonal=book.costs["walk_diagonal"].tu, price=cache["price"],
                  currency="TU", extra=cache["plus"], factor=factor)


def terrain_at(ground: dict, grid: Grid, cell: Pos) -> tuple[str, bool]:
    """The terrain.toml id of a cell's tile and whether entering it opens a door."""
    g = ground.get(grid.tile(cell))
    return ("level", False) if g is None else (g.terrain, g.opens)
