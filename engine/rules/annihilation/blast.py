"""Blasts (section 17): who is in one, what each takes (falloff A-17.5) and on which armour side (A-17.4)."""

from __future__ import annotations

from typing import Literal

from engine.core.geometry import Pos
from engine.map import hexes
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.space import Grid, Side, blast_distance, diamond, side_on

Delivery = Literal["grenade", "missile"]  # mines and charges are "grenade"; shells and rockets "missile"


def falloff(damage: int, spaces: int, radius: int) -> int:
    """A-17.5: `floor(D0 × 3^B / 4^B)` up to the edge ring B = r, nothing beyond; rounded down once."""
    if spaces > radius:
        return 0
    return damage * 3 ** spaces // 4 ** spaces


def cells(book: Book, centre: Pos, radius: int) -> tuple[Pos, ...]:
    """A-17.1, A-17.3: the diamond on squares, the hexagon on hexes (map cells)."""
    return hexes.hexagon(centre, radius) if book.settings.grid == "hex" else diamond(centre, radius)


def spaces_from(book: Book, centre: Pos, cell: Pos, dz: int = 0) -> int:
    """A-7.5: the blast distance on this grid (|dz| only with multi-level blasts)."""
    if book.settings.grid == "hex":
        return hexes.distance(centre, cell) + (abs(dz) if book.settings.multi_level_blasts else 0)
    return blast_distance(centre, cell, dz, book.settings.multi_level_blasts)


def side_hit(centre: Pos, at: Pos, facing: int, delivery: Delivery, launched_from: Pos | None = None,
             grid: Grid = "square") -> Side:
    """A-17.4: at the centre a grenade or mine hits under the armour, a missile the side facing its launch point;
    anywhere else the side facing the blast centre."""
    if at == centre:
        if delivery == "grenade" or launched_from is None:
            return "under"
        return side_on(grid, facing, at, launched_from)
    return side_on(grid, facing, at, centre)
