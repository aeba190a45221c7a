"""The grid of section 0 and 6.2/6.4: squares between, the Bresenham line of fire, its cover, cones and arcs.

`D` is the Chebyshev distance; shooting and throwing count the squares between, `d = max(0, D - 1)`.
"""

from __future__ import annotations

import math
from typing import Mapping

from engine.core.geometry import Pos, distance
from engine.rules.xxxzone.attack import CoverPiece

CONE = {"cone": 22.5, "big": 45.0}  # half-angles in degrees (6.4 Interpretation)


def between(a: Pos, b: Pos) -> int:
    return max(0, distance(a, b) - 1)


def line(a: Pos, b: Pos) -> list[Pos]:
    """Every square of the Bresenham line from a to b, both ends included."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x1 > x0 else -1), (1 if y1 > y0 else -1)
    err, out = dx + dy, []
    while True:
        out.append((x0, y0))
        if (x0, y0) == (x1, y1):
            return out
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


Pieces = Mapping[Pos, tuple[str, int, int]]  # square -> (label, cover value, HP)


def cover_between(shooter: Pos, target: Pos, pieces: Pieces) -> tuple[CoverPiece, ...]:
    """6.2: the cover on the line, nearest the shooter first, ends excluded; cover adjacent to the shooter is
    fired over unless it is adjacent to the target too."""
    out = []
    for cell in line(shooter, target)[1:-1]:
        if cell not in pieces:
            continue
        near_target = distance(cell, target) <= 1
        if distance(cell, shooter) <= 1 and not near_target:
            continue
        label, value, hp = pieces[cell]
        out.append(CoverPiece(label=label, value=value, hp=hp, adjacent=near_target, cell=cell))
    return tuple(out)


def blast_cover(impact: Pos, target: Pos, pieces: Pieces) -> tuple[CoverPiece, ...]:
    """6.9: only cover adjacent to the target that lies between it and the impact square, at full value."""
    return tuple(p for p in cover_between(impact, target, pieces) if p.adjacent)


def angle(a: Pos, b: Pos) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))


def in_cone(shooter: Pos, aimed: Pos, cell: Pos, kind: str, reach: int) -> bool:
    """6.4: within the weapon's range and within ±22.5° (±45° for the Big Cone) of the line to the aimed square."""
    if cell == shooter or between(shooter, cell) > reach:
        return False
    off = abs((angle(shooter, cell) - angle(shooter, aimed) + 180) % 360 - 180)
    return off <= CONE[kind] + 1e-9


def in_front(spotter: Pos, facing: Pos, target: Pos) -> bool:
    """10: the front arc is the half-plane ahead of the facing direction (a unit step), the boundary included."""
    return (target[0] - spotter[0]) * facing[0] + (target[1] - spotter[1]) * facing[1] >= 0
