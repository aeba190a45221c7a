"""The battle map: content tiles in numpy arrays indexed [y, x], with FOV, LOS and paths from tcod.

A hex map (`hexes`, a ruleset's choice: `Ruleset.hexes`) is the same array read as "odd-r" offset hexes
(engine.map.hexes): its steps, distances, sight and paths are the hexes' own, everything else is shared."""

from __future__ import annotations

from typing import Iterable, Mapping

import attrs
import numpy as np
import tcod.constants
import tcod.map
import tcod.path

from engine.core.geometry import NEIGHBOURS, ORTHOGONAL, Pos, distance  # noqa: F401 - the map's vocabulary
from engine.core.ruleset import Walk
from engine.map import hexes as hexmap
from engine.map.terrain import COVER_LEVEL, Terrain

@attrs.frozen(eq=False)
class Grid:
    """Tile ids per cell; derived arrays are built once and never mutated."""

    tile_ids: tuple[str, ...]  # index -> terrain id
    tiles: np.ndarray  # int16 [y, x] indices into tile_ids
    walkable: np.ndarray = attrs.field(init=False)
    transparent: np.ndarray = attrs.field(init=False)
    cover: np.ndarray = attrs.field(init=False)
    cost: np.ndarray = attrs.field(init=False)
    terrain: Mapping[str, Terrain] = attrs.field(kw_only=True)
    origin: "Grid | None" = attrs.field(default=None, kw_only=True)  # the map as generated, before any change
    # The storeys above this one, each a grid of the same size (engine.map.levels); () on a map of one level.
    storeys: tuple["Grid", ...] = attrs.field(default=(), kw_only=True)
    hexes: bool = attrs.field(default=False, kw_only=True)  # read as odd-r hexes (engine.map.hexes), not squares
    _fov_cache: dict = attrs.field(init=False, factory=dict)  # (origin, radius) -> seen cells
    _sight_cache: dict = attrs.field(init=False, factory=dict)  # (origin, radius) -> seen cells as bytes, row-major
    _union_cache: dict = attrs.field(init=False, factory=dict)  # (origins, radius) -> cells any of them sees

    def __attrs_post_init__(self) -> None:
        lut = [self.terrain[t] for t in self.tile_ids]
        walk = np.array([t.walkable for t in lut], dtype=bool)
        see = np.array([t.transparent for t in lut], dtype=bool)
        cov = np.array([COVER_LEVEL[t.cover] for t in lut], dtype=np.int8)
        cost = np.array([t.move_cost if t.walkable else 0 for t in lut], dtype=np.int16)
        for name, table in (("walkable", walk), ("transparent", see), ("cover", cov), ("cost", cost)):
            arr = table[self.tiles]
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)
        self.tiles.setflags(write=False)

    @classmethod
    def from_ids(cls, rows: list[list[str]], terrain: Mapping[str, Terrain]) -> "Grid":
        ids = tuple(sorted({t for row in rows for t in row}))
        index = {t: i for i, t in enumerate(ids)}
        tiles = np.array([[index[t] for t in row] for row in rows], dtype=np.int16)
        return cls(ids, tiles, terrain=terrain)

    @property
    def width(self) -> int:
        return int(self.tiles.shape[1])

    @property
    def height(self) -> int:
        return int(self.tiles.shape[0])

    def inside(self, p: Pos) -> bool:
        return 0 <= p[0] < self.width and 0 <= p[1] < self.height

    def tile(self, p: Pos) -> str:
        return self.tile_ids[int(self.tiles[p[1], p[0]])]

    def with_tiles(self, changes: Mapping[tuple, str]) -> "Grid":
        """A new grid with some cells replaced (explosions, doors): (x, y) on this grid, (x, y, z) on storey z."""
        if not changes:
            return self
        here = {p[:2]: t for p, t in changes.items() if len(p) == 2 or not p[2]}
        above = [{p[:2]: t for p, t in changes.items() if len(p) == 3 and p[2] == z} for z in range(1, self.levels)]
        storeys = tuple(g.with_tiles(c) for g, c in zip(self.storeys, above))
        if not here:
            return Grid(self.tile_ids, self.tiles, terrain=self.terrain, origin=self.origin or self, storeys=storeys,
                        hexes=self.hexes)
        ids = tuple(sorted(set(self.tile_ids) | set(here.values())))
        index = {t: i for i, t in enumerate(ids)}
        remap = np.array([index[t] for t in self.tile_ids], dtype=np.int16)
        tiles = remap[self.tiles]
        for (x, y), t in here.items():
            tiles[y, x] = index[t]
        return Grid(ids, tiles, terrain=self.terrain, origin=self.origin or self, storeys=storeys, hexes=self.hexes)

    def as_hexes(self) -> "Grid":
        """The same cells (and storeys) read as hexes."""
        return Grid(self.tile_ids, self.tiles, terrain=self.terrain, origin=self.origin and self.origin.as_hexes(),
                    storeys=tuple(s.as_hexes() for s in self.storeys), hexes=True)

    def neighbours(self, p: Pos) -> tuple[Pos, ...]:
        """The cells one step from p (8 squares or 6 hexes), inside the map or not."""
        if self.hexes:
            return hexmap.neighbours(p)
        return tuple((p[0] + dx, p[1] + dy) for dx, dy in NEIGHBOURS)

    def steps(self, a: Pos, b: Pos) -> int:
        """How many steps apart two cells are (Chebyshev on squares, hex distance on hexes)."""
        return hexmap.distance(a, b) if self.hexes else distance(a, b)

    def step(self, p: Pos, dx: int, dy: int) -> Pos:
        """The cell a keypad direction leads to from p (on hexes: engine.map.hexes.step)."""
        return hexmap.step(p, dx, dy) if self.hexes else (p[0] + dx, p[1] + dy)

    @property
    def levels(self) -> int:
        return 1 + len(self.storeys)

    def level(self, z: int) -> "Grid":
        """Storey z (0: this grid, the ground)."""
        return self if z == 0 else self.storeys[z - 1]

    def original(self, p: Pos) -> str:
        """The tile this cell had when the map was made (what smoke clears back to)."""
        return (self.origin or self).tile(p)

    def fov(self, origin: Pos, radius: int) -> np.ndarray:
        """Cells seen from origin: symmetric shadowcast, so seeing is mutual. Read-only, cached."""
        key = (origin, radius)
        seen = self._fov_cache.get(key)
        if seen is None:
            if len(self._fov_cache) > 4096:
                self._fov_cache.clear()
            if self.hexes:
                seen = hexmap.fov(self.transparent, origin, radius)
            else:
                seen = tcod.map.compute_fov(self.transparent, (origin[1], origin[0]), radius=radius,
                                            light_walls=True, algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST)
            seen.setflags(write=False)
            self._fov_cache[key] = seen
        return seen

    def seen_from(self, origins: frozenset[Pos], radius: int) -> np.ndarray:
        """The union of the fields of view from `origins`: what a side sees. Read-only, cached: most commands
        move one unit, or none, so a side's eyes stand where they stood a command before."""
        key = (origins, radius)
        seen = self._union_cache.get(key)
        if seen is None:
            if len(self._union_cache) > 1024:
                self._union_cache.clear()
            seen = np.zeros(self.tiles.shape, dtype=bool)
            for origin in origins:
                seen |= self.fov(origin, radius)
            seen.setflags(write=False)
            self._union_cache[key] = seen
        return seen

    def sees(self, a: Pos, b: Pos, radius: int) -> bool:
        """`fov(a, radius)` holds b. Sighting asks this for every pair of units after every command: the field
        of view is read as bytes (a byte per cell), kept per (origin, radius) like the array, so an answer is
        an index, not a numpy lookup."""
        if abs(a[0] - b[0]) > radius or abs(a[1] - b[1]) > radius:
            return False
        width = self.tiles.shape[1]
        if not (0 <= b[0] < width and 0 <= b[1] < self.tiles.shape[0]):
            return bool(self.fov(a, radius)[b[1], b[0]])
        key = (a, radius)
        seen = self._sight_cache.get(key)
        if seen is None:
            if len(self._sight_cache) > 4096:
                self._sight_cache.clear()
            seen = self._sight_cache[key] = self.fov(a, radius).tobytes()
        return seen[b[1] * width + b[0]] != 0

    def cover_against(self, target: Pos, shooter: Pos) -> int:
        """Best cover level of the target's orthogonal neighbours that face the shooter (90° each)."""
        return self.cover_source(target, shooter)[0]

    def cover_source(self, target: Pos, shooter: Pos) -> tuple[int, Pos | None]:
        """That cover level and the cell that gives it (None when there is no cover). On hexes: the neighbours
        within 30° of the shooter's direction (60° each)."""
        if self.hexes:
            return self._hex_cover(target, shooter)
        vx, vy = shooter[0] - target[0], shooter[1] - target[1]
        best, where = 0, None
        for dx, dy in ORTHOGONAL:
            along = dx * vx + dy * vy
            across = abs(dy * vx - dx * vy)
            if along <= 0 or along < across:
                continue
            n = (target[0] + dx, target[1] + dy)
            if self.inside(n) and int(self.cover[n[1], n[0]]) > best:
                best, where = int(self.cover[n[1], n[0]]), n
        return best, where

    def _hex_cover(self, target: Pos, shooter: Pos) -> tuple[int, Pos | None]:
        (tx, ty), (sx, sy) = hexmap.centre(target), hexmap.centre(shooter)
        vx, vy = sx - tx, sy - ty
        best, where = 0, None
        for n in hexmap.neighbours(target):
            nx, ny = hexmap.centre(n)
            along, across = (nx - tx) * vx + (ny - ty) * vy, abs((nx - tx) * vy - (ny - ty) * vx)
            if along <= 0 or across > along * _TAN_30 + 1e-9:
                continue
            if self.inside(n) and int(self.cover[n[1], n[0]]) > best:
                best, where = int(self.cover[n[1], n[0]]), n
        return best, where

    def cells_of(self, tiles) -> np.ndarray:
        """[y, x] True where the tile is one of `tiles` (terrain ids): a ruleset's own kind of ground (water)."""
        return np.isin(self.tiles, [i for i, t in enumerate(self.tile_ids) if t in tiles])

    def passable(self, walk: Walk | None = None) -> np.ndarray:
        """[y, x] where a unit walking by `walk` may stand or step: the walkable cells (or those its `price`
        opens), and the water it swims."""
        walk = walk or _PLAIN
        open_ = self.walkable if walk.price is None else np.asarray(walk.price) > 0
        return open_ if walk.water is None else open_ | (np.asarray(walk.water) > 0)

    def path(self, start: Pos, goal: Pos, blocked: Iterable[Pos] = (), walk: Walk | None = None) -> list[Pos]:
        """Cheapest 8-way path from start to goal, excluding start; [] if there is none. Priced by `walk` (see
        `paths_within`); without one a step costs the tile's move cost, a diagonal as much as a side step."""
        walk = walk or _PLAIN
        blocked = [c for c in blocked if tuple(c) != tuple(goal)]
        if not self.inside(goal):
            return []
        pf, cost = self._pathfinder(start, walk, blocked)
        if cost[goal[1], goal[0]] <= 0:
            return []
        yx = pf.path_to((goal[1], goal[0]))[1:].tolist()
        return [(x, y) for y, x in yx]

    def paths_within(self, start: Pos, reach: int, blocked: Iterable[Pos] = (), walk: Walk | None = None
                     ) -> dict[Pos, tuple[Pos, ...]]:
        """The cheapest path (as `path` finds it) to every cell within `reach`, from one search.

        Without a walk a step costs 1 (a cell count). A ruleset's `Walk` prices each step into a cell, and `reach`
        is then in its currency (metres, TU). A walk without `extra` counts `reach` by its price and picks paths
        weighted by `price` (or the tile's move cost when it has none); a walk with `extra` (additive prices)
        counts and picks by its exact cost."""
        walk = walk or _PLAIN
        blocked = list(blocked)
        pf, cost = self._pathfinder(start, walk, blocked)
        if not walk.by_edges and not self.hexes:
            steps = self.distances(start, blocked, walk)
        else:
            pf.resolve()
            steps = pf.distance
        ys, xs = np.nonzero((steps <= reach) & (steps > 0) & (cost > 0))
        cells = list(zip(ys.tolist(), xs.tolist()))
        for cell in cells:  # the searches `path_to` would run, in its order, so ties break as in `path`;
            pf.resolve(cell)  # a cell once reached keeps its parent, so the paths are read after, in one go
        travel = pf.traversal
        width = travel.shape[1]
        parent = (travel[..., 0] * width + travel[..., 1]).ravel().tolist()  # flat: a nested list is slow
        known: dict[int, tuple[Pos, ...] | None] = {start[1] * width + start[0]: ()}
        out: dict[Pos, tuple[Pos, ...]] = {}
        for y, x in cells:
            path = _walk_back(y * width + x, width, parent, known)
            if path:
                out[(x, y)] = path
        return out

    def distances(self, start: Pos, blocked: Iterable[Pos] = (), walk: Walk | None = None) -> np.ndarray:
        """What the cheapest walk from start to every cell costs (Chebyshev moves without a walk, else the walk's
        price as in `paths_within`); huge where unreachable."""
        walk = walk or _PLAIN
        if self.hexes and not walk.by_edges:  # counted in steps, as on squares
            walk = attrs.evolve(walk, price=(self.cost > 0).astype(np.int16) if walk.price is None else walk.price)
        if walk.by_edges or self.hexes:
            pf, _cost = self._pathfinder(start, walk, list(blocked))
            pf.resolve()
            return np.minimum(pf.distance, tcod.path.maxarray((1,), dtype=np.int32)[0]).astype(np.int32)
        cost = (self.cost > 0).astype(np.int8) if walk.price is None else np.array(walk.price, dtype=np.int16)
        for x, y in blocked:
            cost[y, x] = 0
        dist = tcod.path.maxarray(cost.shape, dtype=np.int32)
        dist[start[1], start[0]] = 0
        tcod.path.dijkstra2d(dist, cost, walk.cardinal, walk.diagonal, out=dist)
        return dist

    def _pathfinder(self, start: Pos, walk: Walk, blocked: list[Pos]) -> tuple[tcod.path.Pathfinder, np.ndarray]:
        """A search rooted at start, and the cost of entering each cell (0: closed) it uses for side steps."""
        if self.hexes:  # six steps, each at the side step's price (A-7.3: no diagonals on hexes)
            cost = walk.edges(self.cost > 0)[0] if walk.by_edges else \
                np.array(self.cost if walk.price is None else walk.price, dtype=np.int16)
            for x, y in blocked:
                cost[y, x] = 0
            graph = tcod.path.CustomGraph(cost.shape)
            hexmap.add_edges(graph, cost, 1 if walk.by_edges else walk.cardinal)
        elif not walk.by_edges:  # multiplicative: tcod's simple graph, as fast as it gets
            cost = np.array(self.cost if walk.price is None else walk.price, dtype=np.int16)
            for x, y in blocked:
                cost[y, x] = 0
            graph = tcod.path.SimpleGraph(cost=cost, cardinal=walk.cardinal, diagonal=walk.diagonal)
        else:  # additive or swimming: side steps and diagonals enter a cell at their own prices
            cost, corner = walk.edges(self.cost > 0)
            for x, y in blocked:
                cost[y, x] = corner[y, x] = 0
            graph = tcod.path.CustomGraph(cost.shape)
            graph.add_edges(edge_map=_SIDE, cost=cost)
            graph.add_edges(edge_map=_CORNER, cost=corner)
        pf = tcod.path.Pathfinder(graph)
        pf.add_root((start[1], start[0]))
        return pf, cost


def _walk_back(cell: int, width: int, parent: list[int], known: dict[int, tuple[Pos, ...] | None]
               ) -> tuple[Pos, ...]:
    """The path from the root to `cell` (y * width + x) along the search's parents, excluding the root, as
    `path_to` reads it; () if the search never reached it. Known paths are reused: a cell costs about a step."""
    chain = []
    while cell not in known:
        up = parent[cell]
        if up == cell:  # its own parent and not the root: never reached
            known[cell] = None
            break
        chain.append(cell)
        cell = up
    path = known[cell]
    if path is None:
        for c in chain:
            known[c] = None
        return ()
    for c in reversed(chain):
        path = known[c] = (*path, (c % width, c // width))
    return path


_PLAIN = Walk()
_TAN_30 = 3 ** -0.5
_SIDE = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], dtype=np.int8)
_CORNER = np.array([[1, 0, 1], [0, 0, 0], [1, 0, 1]], dtype=np.int8)
