"""Geometry of section 7: range distance, blast distance and diamonds, facing and the side an attack hits.

Squares use the kernel's (x, y) with y pointing south and facings indexed as engine.core.geometry.NEIGHBOURS
(0 = N, clockwise). The hex variant (A-7.3) plays on the shared map read as offset hexes (engine.map.hexes: every
odd row half a hex east, six facings clockwise from north-east); `hex_distance` and `hexagon` are the axial (q, r)
arithmetic, the functions taking a `Grid` take map cells.
"""

from __future__ import annotations

import math
from typing import Literal

from engine.core.geometry import NEIGHBOURS, Pos
from engine.map import hexes

Side = Literal["front", "left", "right", "rear", "under"]
Grid = Literal["square", "hex"]


def range_distance(a: Pos, b: Pos, dz: int = 0, per_level: int = 1) -> int:
    """A-7.4: `max(|dx|,|dy|) + floor(min(|dx|,|dy|)/2)`, plus `per_level` for each level of height difference."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) + min(dx, dy) // 2 + per_level * abs(dz)


def blast_distance(a: Pos, b: Pos, dz: int = 0, multi_level: bool = False) -> int:
    """A-7.5: Manhattan distance (diamond blasts); `|dz|` is added only with multi-level blasts."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) + (abs(dz) if multi_level else 0)


def steps(grid: Grid, a: Pos, b: Pos) -> int:
    """How many steps apart two map cells are: 8-way on squares (adjacent = 1), 6-way on hexes."""
    if grid == "hex":
        return hexes.distance(a, b)
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def hex_distance(a: Pos, b: Pos) -> int:
    """A-7.3, A-7.4 on a hex field in axial coordinates."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def diamond(centre: Pos, radius: int) -> tuple[Pos, ...]:
    """A-17.1: every square at blast distance ≤ r, row by row from the top (2r² + 2r + 1 cells)."""
    cx, cy = centre
    return tuple((cx + dx, cy + dy) for dy in range(-radius, radius + 1)
                 for dx in range(-(radius - abs(dy)), radius - abs(dy) + 1))


def hexagon(centre: Pos, radius: int) -> tuple[Pos, ...]:
    """A-17.3: every hex at hex distance ≤ r (3r² + 3r + 1 cells)."""
    q, r = centre
    return tuple((q + dq, r + dr) for dq in range(-radius, radius + 1)
                 for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1))


def between(grid: Grid, a: Pos, b: Pos, dz: int = 0, per_level: int = 1) -> int:
    """The range distance on either grid (A-7.4), between map cells."""
    if grid == "hex":
        return hexes.distance(a, b) + per_level * abs(dz)
    return range_distance(a, b, dz, per_level)


def side_on(grid: Grid, facing: int, target: Pos, origin: Pos) -> Side:
    """A-7.7 on either grid: on hexes the facing is one of six (engine.map.hexes) and the same angles decide,
    between the cells' centres as drawn."""
    if grid == "square":
        return hit_side(facing, target, origin)
    tx, ty = hexes.centre(target)
    fx, fy = (a - b for a, b in zip(hexes.centre(hexes.neighbours(target)[facing]), (tx, ty)))
    ox, oy = hexes.centre(origin)
    return _side(fx, fy, ox - tx, oy - ty)


def hit_side(facing: int, target: Pos, origin: Pos) -> Side:
    """A-7.7: the armour side an attack from `origin` hits on a target at `target` facing `facing`.
    θ is the angle between the facing vector and the vector to the origin: ≤ 67.5° front, ≥ 112.5° rear, else the
    side the cross product names (> 0 right). An attack from the target's own square counts as from the front.
    (θ is never exactly on a boundary: tan 67.5° is irrational.)"""
    fx, fy = NEIGHBOURS[facing]
    return _side(fx, fy, origin[0] - target[0], origin[1] - target[1])


def _side(fx: float, fy: float, ax: float, ay: float) -> Side:
    if (ax, ay) == (0, 0):
        return "front"
    theta = math.degrees(math.atan2(abs(fx * ay - fy * ax), fx * ax + fy * ay))
    if theta <= 67.5:
        return "front"
    if theta >= 112.5:
        return "rear"
    return "right" if fx * ay - fy * ax > 0 else "left"


def turn_steps(facing: int, towards: int, directions: int = 8) -> int:
    """A-9.3, A-9.4: facing steps (45° on squares, 60° on hexes) between two facings, the short way round."""
    d = (towards - facing) % directions
    return min(d, directions - d)


def facing_towards(a: Pos, b: Pos, grid: Grid = "square") -> int:
    """The facing nearest the direction from a to b: on squares 0 = N, clockwise; on hexes engine.map.hexes'."""
    if grid == "hex":
        return hexes.facing_towards(a, b)
    angle = math.degrees(math.atan2(b[0] - a[0], -(b[1] - a[1]))) % 360
    return int((angle + 22.5) // 45) % 8
