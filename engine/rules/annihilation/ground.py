"""Section 9 on the shared maps: what a walking step into each cell costs in TU (A-9.1: 4 orthogonal, 6 diagonal,
plus the terrain modifier of the tile entered; a closed door is opened on the way for its 4 TU), as a `Walk` the
client and the AI price paths with."""

from __future__ import annotations

import numpy as np

from engine.core.geometry import Pos
from engine.core.ruleset import Walk
from engine.map import levels
from engine.map.grid import Grid
from engine.rules.annihilation.book import Book


def walk(book: Book, ground: dict, grid: Grid, cache: dict, factor: int = 1) -> Walk:
    """A-9.1 as the kernel's additive Walk: `factor` × (4 or 6 + the modifier), + 4 TU for a door on the way; a
    legless character crawls at `factor` = crawl_multiplier (A-10.2), its doors still 4 TU. Kept per map value."""
    if cache.get("grid") is not grid:
        cache.clear()
        cache["grid"] = grid
    if factor not in cache:
        cache[factor] = tuple(_extra(book, ground, grid.level(z), factor, opens=z == 0) for z in range(grid.levels))
    hexes = book.settings.grid == "hex"  # one step cost on hexes
    side, corner = ("hex_walk", "hex_walk") if hexes else ("walk", "walk_diagonal")
    cardinal, diagonal = factor * book.costs[side].tu, factor * book.costs[corner].tu
    extras = cache[factor]
    if grid.levels == 1:
        return Walk(cardinal=cardinal, diagonal=diagonal, currency="TU", extra=extras[0])
    if "links" not in cache:
        stairs, ladders = levels.links(grid)
        c = book.costs
        up = np.where(stairs, c["stairs_up"].tu, np.where(ladders, c["climb_up"].tu, 0)).astype(np.int32)
        down = np.where(stairs, c["stairs_down"].tu, np.where(ladders, c["climb_down"].tu, 0)).astype(np.int32)
        cache["links"] = (up, down)
    up, down = cache["links"]
    layers = tuple(Walk(cardinal=cardinal, diagonal=diagonal, currency="TU", extra=e) for e in extras[1:])
    return Walk(cardinal=cardinal, diagonal=diagonal, currency="TU", extra=extras[0], layers=layers, up=up, down=down)


def _extra(book: Book, ground: dict, grid: Grid, factor: int, opens: bool) -> np.ndarray:
    """What each cell of one storey adds to a step into it: the terrain's modifier and a door opened on the way
    (on the ground: a tile change is of the ground only; above it doors are doorways)."""
    door = book.costs["open_door"].tu
    plus = np.array([0 if g is None else factor * book.terrain[g.terrain].modifier + (door if g.opens and opens else 0)
                     for g in (ground.get(t) for t in grid.tile_ids)], dtype=np.int16)[grid.tiles]
    plus.setflags(write=False)
    return plus


def step_kind(grid: Grid, here: tuple[int, int, int], there: tuple[int, int, int]) -> str | None:
    """Section 9 for a step between two places: a walk on one storey, stairs or a ladder between two; None: no way
    (the caller has checked that both are next to each other)."""
    if here[2] == there[2]:
        return "walk"
    low = min(here[2], there[2])
    if abs(here[2] - there[2]) != 1 or here[:2] != there[:2] or low < 0 or max(here[2], there[2]) >= grid.levels:
        return None
    stairs, ladders = levels.links(grid)
    x, y = there[0], there[1]
    way = "up" if there[2] > here[2] else "down"
    if stairs[low, y, x]:
        return f"stairs_{way}"
    if ladders[low, y, x]:
        return f"climb_{way}"
    return None


def terrain_at(ground: dict, grid: Grid, cell: Pos) -> tuple[str, bool]:
    """The terrain.toml id of a cell's tile and whether entering it opens a door."""
    g = ground.get(grid.tile(cell))
    return ("level", False) if g is None else (g.terrain, g.opens)
