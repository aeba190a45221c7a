"""Hexes on the shared [y, x] map: "odd-r" offset coordinates, pointy-topped hexes, every odd row half a hex east.

A cell (x, y) of a hex map is the same array cell as on a square one, so generators, tiles, storeys and logs are
unchanged; only what is next to what differs. Axial (q, r) is for arithmetic (distance, lines, angles). The six
directions are clockwise from north-east: NE, E, SE, SW, W, NW (a unit's facing indexes them).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from engine.core.geometry import Pos

# Axial steps, clockwise from north-east.
AXIAL: tuple[Pos, ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
NAMES = ("NE", "E", "SE", "SW", "W", "NW")
# The same steps in offset (dx, dy) from an even row and from an odd row.
EVEN: tuple[Pos, ...] = ((0, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1))
ODD: tuple[Pos, ...] = ((1, -1), (1, 0), (1, 1), (0, 1), (-1, 0), (0, -1))


def axial(p: Pos) -> Pos:
    x, y = p
    return x - (y - (y & 1)) // 2, y


def offset(a: Pos) -> Pos:
    q, r = a
    return q + (r - (r & 1)) // 2, r


def steps(p: Pos) -> tuple[Pos, ...]:
    """The six offset steps from p's row, in facing order."""
    return ODD if p[1] & 1 else EVEN


def neighbours(p: Pos) -> tuple[Pos, ...]:
    return tuple((p[0] + dx, p[1] + dy) for dx, dy in steps(p))


def distance(a: Pos, b: Pos) -> int:
    (aq, ar), (bq, br) = axial(a), axial(b)
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def centre(p: Pos) -> tuple[float, float]:
    """Where p's centre is drawn, in hex widths east and rows south (x east, y south)."""
    return p[0] + 0.5 * (p[1] & 1), p[1] * math.sqrt(3) / 2


def facing_towards(a: Pos, b: Pos) -> int:
    """The direction (0 = NE, clockwise) nearest the one from a to b."""
    (ax, ay), (bx, by) = centre(a), centre(b)
    angle = math.degrees(math.atan2(bx - ax, -(by - ay))) % 360  # clockwise from north
    return int(((angle - 30) % 360 + 30) // 60) % 6


def step(p: Pos, dx: int, dy: int) -> Pos:
    """A square-keypad direction as a hex step: east and west stay in the row, a diagonal goes to that side of the
    row above or below, and north or south to the cell stored above or below (north-east or north-west of it)."""
    if dx and dy:
        odd = p[1] & 1
        return p[0] + (1 if dx > 0 and odd else -1 if dx < 0 and not odd else 0), p[1] + dy
    return p[0] + dx, p[1] + dy


def across(a: Pos, b: Pos) -> Pos | None:
    """The cell between a and b when b is two steps straight ahead of a (a jump over it), else None."""
    for k, first in enumerate(neighbours(a)):
        if neighbours(first)[k] == b:
            return first
    return None


def hexagon(c: Pos, radius: int) -> tuple[Pos, ...]:
    """Every cell at hex distance ≤ radius of c, in offset coordinates (3r² + 3r + 1 of them)."""
    q, r = axial(c)
    return tuple(offset((q + dq, r + dr)) for dq in range(-radius, radius + 1)
                 for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1))


def _round(fq: float, fr: float) -> Pos:
    x, z = fq, fr
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return int(rx), int(rz)


def line(a: Pos, b: Pos) -> tuple[Pos, ...]:
    """The cells from a to b (both included), sampled at each hex centre step and nudged off the edges by the same
    small amount whichever end it starts from: the line from b to a is the same cells, so seeing stays mutual."""
    (aq, ar), (bq, br) = axial(a), axial(b)
    n = distance(a, b)
    if n == 0:
        return (a,)
    eq, er = 1e-6, 2e-6
    return tuple(offset(_round(aq + (bq - aq) * i / n + eq, ar + (br - ar) * i / n + er)) for i in range(n + 1))


@lru_cache(maxsize=64)
def _rays(parity: int, radius: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """From an origin on a row of this parity at (0, parity): every cell within radius (dy, dx), and for each the
    cells between (dy, dx, padded with the origin itself, which is always open)."""
    origin = (0, parity)
    cells = [c for c in hexagon(origin, radius) if c != origin]
    inner = [line(origin, c)[1:-1] for c in cells]
    width = max((len(i) for i in inner), default=0) or 1
    dy = np.zeros((len(cells), width), dtype=np.int32)
    dx = np.zeros((len(cells), width), dtype=np.int32)
    for k, between in enumerate(inner):
        for j, (x, y) in enumerate(between):
            dx[k, j], dy[k, j] = x, y - parity
    ty = np.array([y - parity for _x, y in cells], dtype=np.int32)
    tx = np.array([x for x, _y in cells], dtype=np.int32)
    return ty, tx, dy, dx


def fov(transparent: np.ndarray, origin: Pos, radius: int) -> np.ndarray:
    """[y, x] cells seen from origin: within radius, every cell on the line between see-through (the cell itself
    need not be: a wall is seen). Off the map is opaque."""
    h, w = transparent.shape
    pad = radius + 1
    open_ = np.zeros((h + 2 * pad, w + 2 * pad), dtype=bool)
    open_[pad:pad + h, pad:pad + w] = transparent
    ty, tx, dy, dx = _rays(origin[1] & 1, radius)
    oy, ox = origin[1] + pad, origin[0] + pad
    clear = open_[oy + dy, ox + dx].all(axis=1) if len(ty) else np.zeros(0, dtype=bool)
    seen = np.zeros((h, w), dtype=bool)
    ys, xs = ty + origin[1], tx + origin[0]
    keep = clear & (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
    seen[ys[keep], xs[keep]] = True
    if 0 <= origin[1] < h and 0 <= origin[0] < w:
        seen[origin[1], origin[0]] = True
    return seen


def add_edges(graph, cost: np.ndarray, multiplier: int = 1) -> None:
    """The six steps on a tcod CustomGraph of [y, x] (or [z, y, x]) nodes, into cells priced by `cost`: the two
    that differ between even and odd rows only from the rows that have them."""
    rows = np.arange(cost.shape[-2]) & 1
    odd = np.broadcast_to(rows[:, None], cost.shape[-2:])
    odd = np.broadcast_to(odd, cost.shape).astype(np.int8)
    lead = (0,) * (cost.ndim - 2)
    for dx, dy in (d for d in EVEN if d in ODD):
        graph.add_edge((*lead, dy, dx), multiplier, cost=cost)
    for (dx, dy), where in [(d, 1 - odd) for d in EVEN if d not in ODD] + [(d, odd) for d in ODD if d not in EVEN]:
        graph.add_edge((*lead, dy, dx), multiplier, cost=cost, condition=where)
