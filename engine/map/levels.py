"""Storeys: a map of stacked levels, each a `Grid` of the same size (`Grid.storeys`), and what crosses them.

A place is (x, y, z), z = 0 the ground. Paths search every storey at once, through the links a `Walk` prices
(stairs, ladders, hovering: `Walk.up`, `Walk.down`). Sight between storeys is kept simple: a unit sees another
storey's cell along its own storey's line of sight (for the higher of the two), and only where the cell is open to
the sky between them (every storey in between is open air there: see-through and not walkable). Seeing stays
mutual. A map of one storey never comes here: its paths and sight are the grid's own.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
import tcod.path

from engine.core.geometry import NEIGHBOURS, ORTHOGONAL, Pos
from engine.core.ruleset import Walk
from engine.map import hexes
from engine.map.grid import Grid

Place = tuple[int, int, int]  # (x, y, z)
STAIRS, LADDER, AIR, ROOF = "stairs", "ladder", "air", "roof"  # tile ids: stairs on two storeys join them


def links(grid: Grid) -> tuple[np.ndarray, np.ndarray]:
    """[z, y, x] for each storey z below the top: stairs from z to z + 1 there (a stair tile on both), and a
    ladder from z to z + 1 (a ladder tile on z under a floor or roof it comes up through)."""
    shape = (grid.levels - 1, grid.height, grid.width)
    stairs, ladders = np.zeros(shape, dtype=bool), np.zeros(shape, dtype=bool)
    for z in range(grid.levels - 1):
        low, high = grid.level(z), grid.level(z + 1)
        stairs[z] = _is(low, STAIRS) & _is(high, STAIRS)
        ladders[z] = _is(low, LADDER) & high.walkable
    return stairs, ladders


def _is(g: Grid, tile: str) -> np.ndarray:
    if tile not in g.tile_ids:
        return np.zeros(g.tiles.shape, dtype=bool)
    return g.tiles == g.tile_ids.index(tile)


def open_air(grid: Grid, z: int) -> np.ndarray:
    """[y, x]: storey z is empty air there (the ground never is)."""
    g = grid.level(z)
    return g.transparent & ~g.walkable if z > 0 else np.zeros_like(g.walkable)


def standing(grid: Grid, p: Place) -> bool:
    """A unit can stand there: inside the map, on a walkable tile of its storey (never a wall, never air)."""
    x, y, z = p
    return 0 <= z < grid.levels and grid.inside((x, y)) and bool(grid.level(z).walkable[y, x])


def holds(grid: Grid, p: Place, flying: bool) -> bool:
    """A unit may be there: standing, or (a flyer in the air) on open air."""
    x, y, z = p
    return standing(grid, p) or (flying and 0 <= z < grid.levels and grid.inside((x, y))
                                 and bool(open_air(grid, z)[y, x]))


def landing(grid: Grid, p: Place) -> int | None:
    """The storey a unit at p comes to rest on: p's own if it can stand there, else the first it can stand on
    below, falling through open air; None: it would come down in a wall, or off the map."""
    x, y, z = p
    if not (0 <= z < grid.levels and grid.inside((x, y))):
        return None
    for k in range(z, -1, -1):
        if standing(grid, (x, y, k)):
            return k
        if not open_air(grid, k)[y, x]:
            return None
    return None


def lands(grid: Grid, p: Place, flying: bool = False) -> int | None:
    """Where a jump to p comes down: a flyer stays up in open air, anyone else lands (`landing`)."""
    return p[2] if flying and holds(grid, p, True) else landing(grid, p)


def jumps(grid: Grid, over: np.ndarray, tu: int, flying: bool = False
          ) -> tuple[tuple[tuple[int, int, int], np.ndarray], ...]:
    """A `Walk`'s hops for jumping: from a place, across the square straight ahead where `over` [z, y, x] holds (a
    window, a small fence) to the one beyond, and down through open air to where it lands (`lands`), at `tu`."""
    levels, h, w = grid.levels, grid.height, grid.width
    stand = np.stack([grid.level(z).walkable for z in range(levels)])
    air = np.stack([open_air(grid, z) for z in range(levels)])
    down = np.full((levels, h, w), -1, dtype=np.int32)  # [z, y, x]: the storey a unit at that place comes to rest on
    for z in range(levels):
        below = down[z - 1] if z else np.full((h, w), -1, dtype=np.int32)
        down[z] = np.where(stand[z], z, np.where(air[z], below, -1))
        if flying:
            down[z] = np.where(air[z], z, down[z])
    out = []
    for k in range(6 if grid.hexes else 4):
        for drop in range(levels):
            cost = np.zeros((levels, h, w), dtype=np.int32)
            span = None
            for z in range(drop, levels):
                for my, mx in zip(*(v.tolist() for v in np.nonzero(over[z]))):
                    (fx, fy), (tx, ty) = _across(grid, (mx, my), k)
                    span = (ty - fy, tx - fx)  # the same for every window of this way, on squares and hexes
                    if 0 <= fx < w and 0 <= fy < h and 0 <= tx < w and 0 <= ty < h and stand[z, fy, fx] \
                            and down[z, ty, tx] == z - drop:
                        cost[z - drop, ty, tx] = tu
            if cost.any():
                out.append(((-drop, *span), cost))
    return tuple(out)


def _across(grid: Grid, middle: Pos, way: int) -> tuple[Pos, Pos]:
    """The cells on either side of `middle` along way `way` (of 4 on squares, 6 on hexes), from and to."""
    if grid.hexes:
        near = hexes.neighbours(middle)
        return near[(way + 3) % 6], near[way]
    dx, dy = ORTHOGONAL[way]
    return (middle[0] - dx, middle[1] - dy), (middle[0] + dx, middle[1] + dy)


def sky(grid: Grid, low: int, high: int) -> np.ndarray:
    """[y, x]: open air on every storey above `low` up to `high`. Read-only, kept with the grid (which never
    changes: a changed tile is a new grid), beside its fields of view under a key of its own."""
    key = ("sky", low, high)
    out = grid._fov_cache.get(key)
    if out is None:
        out = np.ones((grid.height, grid.width), dtype=bool)
        for k in range(low + 1, high + 1):
            out &= open_air(grid, k)
        out.setflags(write=False)
        grid._fov_cache[key] = out
    return out


def fov(grid: Grid, p: Place, radius: int) -> np.ndarray:
    """[z, y, x]: the places seen from p (the rule in this module's docstring). Read-only, kept with the grid:
    a side's sight asks it for every unit after every command, and most of them stand where they stood."""
    key = ("levels", p, radius)
    out = grid._fov_cache.get(key)
    if out is not None:
        return out
    x, y, z = p
    out = np.zeros((grid.levels, grid.height, grid.width), dtype=bool)
    out[z] = grid.level(z).fov((x, y), radius)
    for k in range(grid.levels):
        if k > z and sky(grid, z, k)[y, x]:  # looking up through open air above it
            out[k] = grid.level(k).fov((x, y), radius)
        elif k < z:  # looking down: its own storey's line, onto cells open to the sky
            out[k] = out[z] & sky(grid, k, z)
    out.setflags(write=False)
    if len(grid._fov_cache) > 4096:
        grid._fov_cache.clear()
    grid._fov_cache[key] = out
    return out


def sees(grid: Grid, a: Place, b: Place, radius: int) -> bool:
    if a[2] == b[2]:
        return grid.level(a[2]).sees(a[:2], b[:2], radius)
    high, low = (a, b) if a[2] > b[2] else (b, a)
    return (bool(sky(grid, low[2], high[2])[low[1], low[0]])
            and grid.level(high[2]).sees(high[:2], low[:2], radius))


def layer(walk: Walk, z: int) -> Walk:
    """The walk on storey z alone (its side steps and diagonals)."""
    return walk if z == 0 else walk.layers[z - 1]


def _search(grid: Grid, start: Place, walk: Walk, blocked: Iterable[Place]) -> tuple[tcod.path.Pathfinder, list]:
    """One search rooted at start over every storey; the arrays are what entering each place costs by each edge."""
    levels, h, w = grid.levels, grid.height, grid.width
    side = np.zeros((levels, h, w), dtype=np.int32)
    corner = np.zeros((levels, h, w), dtype=np.int32)
    for z in range(levels):
        side[z], corner[z] = layer(walk, z).edges(grid.level(z).cost > 0)
    up = np.zeros((levels, h, w), dtype=np.int32)  # entering z + 1 from below
    down = np.zeros((levels, h, w), dtype=np.int32)  # entering z from above
    if walk.up is not None:
        up[1:] = np.asarray(walk.up, dtype=np.int32)
    if walk.down is not None:
        down[:-1] = np.asarray(walk.down, dtype=np.int32)
    hops = [(offset, np.array(a, dtype=np.int32)) for offset, a in walk.hops]
    arrays = [side, corner, up, down] + [a for _o, a in hops]
    for x, y, z in blocked:
        if (x, y, z) != tuple(start):
            for a in arrays:
                a[z, y, x] = 0
    graph = tcod.path.CustomGraph((levels, h, w))
    if grid.hexes:  # six steps at the side step's price
        hexes.add_edges(graph, side)
    for dx, dy in () if grid.hexes else NEIGHBOURS:
        graph.add_edge((0, dy, dx), 1, cost=corner if dx and dy else side)
    graph.add_edge((1, 0, 0), 1, cost=up)
    graph.add_edge((-1, 0, 0), 1, cost=down)
    for offset, a in hops:
        graph.add_edge(offset, 1, cost=a)
    pf = tcod.path.Pathfinder(graph)
    pf.add_root((start[2], start[1], start[0]))
    return pf, arrays


def path(grid: Grid, start: Place, goal: Place, blocked: Iterable[Place], walk: Walk) -> list[Place]:
    """The cheapest path from start to goal over every storey, excluding start; [] if there is none."""
    if not open_to(grid, walk, goal):
        return []
    pf, _arrays = _search(grid, start, walk, [b for b in blocked if tuple(b) != tuple(goal)])
    zyx = pf.path_to((goal[2], goal[1], goal[0]))[1:].tolist()
    return [(x, y, z) for z, y, x in zyx]


def open_to(grid: Grid, walk: Walk, goal: Place) -> bool:
    """A walk may end there: a unit can stand on it, or the walk prices it (a flyer's open air)."""
    return standing(grid, goal) or _flies_to(walk, grid, goal)


def _flies_to(walk: Walk, grid: Grid, goal: Place) -> bool:
    x, y, z = goal
    return 0 <= z < grid.levels and grid.inside((x, y)) and layer(walk, z).price is not None and \
        int(np.asarray(layer(walk, z).price)[y, x]) > 0


def paths_within(grid: Grid, start: Place, reach: int, blocked: Iterable[Place], walk: Walk
                 ) -> dict[Place, tuple[Place, ...]]:
    """The cheapest path to every place within `reach` (in the walk's currency), from one search."""
    pf, _arrays = _search(grid, start, walk, list(blocked))
    pf.resolve()
    out: dict[Place, tuple[Place, ...]] = {}
    zs, ys, xs = np.nonzero((pf.distance <= reach) & (pf.distance > 0))
    for z, y, x in zip(zs.tolist(), ys.tolist(), xs.tolist()):
        zyx = pf.path_to((z, y, x))[1:].tolist()
        if zyx:
            out[(x, y, z)] = tuple((px, py, pz) for pz, py, px in zyx)
    return out


def cost(grid: Grid, walk: Walk, start: Place, steps: Iterable[Place]) -> int:
    """What walking `steps` from start costs by the walk (the ruleset's `decide` has the last word)."""
    total, here = 0, start
    hops = dict(walk.hops)
    for p in steps:
        x, y, z = p
        offset = (z - here[2], y - here[1], x - here[0])
        if offset in hops and (abs(offset[1]) > 1 or abs(offset[2]) > 1 or (offset[0] and offset[1:] != (0, 0))):
            total += int(hops[offset][z, y, x])
        elif z > here[2]:
            total += int(walk.up[here[2], y, x])
        elif z < here[2]:
            total += int(walk.down[z, y, x])
        else:
            total += layer(walk, z).cost(here[:2], [(x, y)])
        here = p
    return total


def split(path: Iterable[Place]) -> tuple[tuple[Pos, ...], tuple[int, ...]]:
    """A path of places as a `Move`'s cells and levels."""
    cells = tuple(path)
    return tuple((x, y) for x, y, _z in cells), tuple(z for _x, _y, z in cells)
