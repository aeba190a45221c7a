"""The battle map read the neo-troops way: cover tags (N-3.2), difficult cells (N-6.3) and paths priced in metres
(N-0.1: 2 m orthogonal, 3 m diagonal, double into a difficult cell)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Iterable, Mapping

import numpy as np
import tcod

from engine.core.geometry import Pos
from engine.map.grid import Grid
from engine.rules.neo_troops import pools
from engine.rules.neo_troops.movement import range_cells
from engine.rules.neo_troops.schema import Settings
from engine.rules.neo_troops.shooting import Target
from engine.rules.neo_troops.unit import Trooper

TAGS = {1: ("light",), 2: ("heavy",)}  # the map's partial and full cover


def cover_tags(grid: Grid, target: Pos, shooter: Pos) -> tuple[str, ...]:
    """The cover the target has against the shooter, as cover.toml ids: partial is light, full is heavy."""
    return TAGS.get(grid.cover_against(target, shooter), ())


_DIFFICULT: dict[Grid, frozenset[Pos]] = {}  # a grid is immutable and hashed by identity: a move asks twice


def difficult(grid: Grid) -> frozenset[Pos]:
    """Cells that cost more than a plain step to enter (rubble, brush, water)."""
    got = _DIFFICULT.get(grid)
    if got is None:
        if len(_DIFFICULT) > 16:
            _DIFFICULT.clear()
        ys, xs = np.nonzero(grid.cost > 1)
        got = _DIFFICULT[grid] = frozenset(zip(xs.tolist(), ys.tolist()))
    return got


_GROUND: dict[tuple, tuple[Mapping[Pos, bool], frozenset[Pos]]] = {}  # (grid, obstacle tiles) -> obstacles, rough


def obstacles(grid: Grid, s: Settings) -> Mapping[Pos, bool]:
    """The cells a move may jump or climb over (N-6.3): obstacle tiles, each with whether its test is Hard.
    Read-only, kept per grid (immutable, hashed by identity): a move asks for them several times."""
    return _ground(grid, s)[0]


def rough(grid: Grid, s: Settings) -> frozenset[Pos]:
    """Cells that cost double metres: the difficult ones and the obstacles crossed."""
    return _ground(grid, s)[1]


def _ground(grid: Grid, s: Settings) -> tuple[Mapping[Pos, bool], frozenset[Pos]]:
    key = (grid, tuple(s.obstacles), tuple(s.hard_obstacles))
    got = _GROUND.get(key)
    if got is None:
        if len(_GROUND) > 16:
            _GROUND.clear()
        hard, every = set(s.hard_obstacles), set(s.obstacles) | set(s.hard_obstacles)
        ys, xs = np.nonzero(~grid.walkable)
        ids, tiles = grid.tile_ids, grid.tiles
        out = {}
        for x, y in zip(xs.tolist(), ys.tolist()):
            tile = ids[int(tiles[y, x])]  # grid.tile, inlined: every unwalkable cell of the map
            if tile in every:
                out[(x, y)] = tile in hard
        got = _GROUND[key] = (MappingProxyType(out), difficult(grid) | frozenset(out))
    return got


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


def target_of(grid: Grid, shooter: Pos, t: Trooper, at: Pos, tables: dict, seen: bool = True,
              stationary: bool = False, surprised: bool = False) -> Target:
    """A trooper as a shot's target from `shooter`: cover from the map, AV 6 when only its cell is known (N-3.3),
    range in cells, melee range when adjacent; it can dodge while it can act."""
    s: Settings = tables["settings"]["default"]
    av = pools.effective_av(t.av, cover_tags(grid, at, shooter), tables["cover"], s.av_cap, not seen, s.unseen_av)
    adjacent = max(abs(at[0] - shooter[0]), abs(at[1] - shooter[1])) == 1
    return Target(id=t.id, av=av, pos=at, stationary=stationary, cells=range_cells(shooter, at), adjacent=adjacent,
                  fighter=t.fighter, can_dodge=t.can_act, surprised=surprised)
