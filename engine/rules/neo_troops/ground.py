"""The battle map read the neo-troops way: cover tags (N-3.2), difficult cells (N-6.3) and paths priced in metres
(N-0.1: 2 m orthogonal, 3 m diagonal, double into a difficult cell)."""

from __future__ import annotations

from typing import Iterable

import numpy as np
import tcod

from engine.core.geometry import Pos
from engine.map.grid import Grid
from engine.rules.neo_troops.schema import Settings

TAGS = {1: ("light",), 2: ("heavy",)}  # the map's partial and full cover


def cover_tags(grid: Grid, target: Pos, shooter: Pos) -> tuple[str, ...]:
    """The cover the target has against the shooter, as cover.toml ids: partial is light, full is heavy."""
    return TAGS.get(grid.cover_against(target, shooter), ())


def difficult(grid: Grid) -> frozenset[Pos]:
    """Cells that cost more than a plain step to enter (rubble, brush, water)."""
    ys, xs = np.nonzero(grid.cost > 1)
    return frozenset(zip(xs.tolist(), ys.tolist()))


def metres_from(grid: Grid, start: Pos, s: Settings, blocked: Iterable[Pos] = ()) -> np.ndarray:
    """Metres of the cheapest path from `start` to every cell ([y, x]; huge where unreachable)."""
    cost = np.where(grid.cost > 1, s.difficult_factor, (grid.cost > 0).astype(np.int32)).astype(np.int32)
    for x, y in blocked:
        cost[y, x] = 0
    dist = tcod.path.maxarray(cost.shape, dtype=np.int32)
    dist[start[1], start[0]] = 0
    tcod.path.dijkstra2d(dist, cost, s.step_m, s.diagonal_m, out=dist)
    return dist


def reachable(grid: Grid, start: Pos, metres: int, s: Settings, blocked: Iterable[Pos] = ()) -> frozenset[Pos]:
    """Cells a Move or Run of `metres` can end in."""
    dist = metres_from(grid, start, s, blocked)
    ys, xs = np.nonzero(dist <= metres)
    return frozenset(zip(xs.tolist(), ys.tolist()))
