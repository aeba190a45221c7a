"""What every map generator shares: seeded choices, a canvas to paint tiles on, zones, and the
guarantee that every zone cell can be walked to.

Randomness comes from the dice function on a public map seed, never from `random`.
"""

from __future__ import annotations

import hmac
from typing import Iterable, Mapping, Sequence

import attrs
import numpy as np
import tcod.path

from engine.map.terrain import Terrain
from engine.core.dice import Faces
from engine.map import hexes as hexmap
from engine.map.grid import NEIGHBOURS, Grid, Pos

SPAWN_DEPTH = 4  # rows at the map's south (squad) and north (hostiles) edges
UNREACHABLE = 10**6
BREAK_COST = 40  # carving prefers a long walk round to breaking one wall
DUG_DOORS = {"wall": "door", "window": "door", "bulkhead": "hatch"}  # on hexes a gap in a wall is a door


class MapRng:
    """Integer choices drawn from the keyed-hash dice on a public seed."""

    def __init__(self, seed: int) -> None:
        self._faces = Faces(b"xenotac-map:%d" % seed)
        self._i = 0

    def below(self, n: int) -> int:
        """0 <= r < n."""
        self._i += 1
        return self._faces.face("map", self._i, n) - 1

    def between(self, lo: int, hi: int) -> int:
        return lo + self.below(hi - lo + 1)

    def chance(self, percent: int) -> bool:
        return self.below(100) < percent

    def pick(self, items: Sequence):
        return items[self.below(len(items))]

    def shuffled(self, items: Iterable) -> list:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def noise(self, height: int, width: int, smooth: int = 2) -> np.ndarray:
        """A [y, x] field in [0, 1), box-blurred `smooth` times: woods and fields, not salt and pepper.

        Eight words per HMAC block of the same seed, so a 100x100 field costs 1250 digests."""
        self._i += 1
        n = height * width
        key = self._faces.seed
        blocks = b"".join(hmac.digest(key, b"noise:%d:%d" % (self._i, b), "sha256") for b in range(-(-n // 8)))
        field = (np.frombuffer(blocks, dtype=">u4")[:n].astype(np.float64) / 2**32).reshape(height, width)
        for _ in range(smooth):
            padded = np.pad(field, 1, mode="edge")
            field = sum(padded[dy:dy + height, dx:dx + width] for dy in range(3) for dx in range(3)) / 9
        lo, hi = float(field.min()), float(field.max())
        return (field - lo) / (hi - lo + 1e-12) * 0.999999


@attrs.frozen
class Battlefield:
    grid: Grid
    spawns: dict[str, tuple[Pos, ...]]  # zone -> cells: "xcom" and "aliens" in spawn order, and the zones missions name


class Canvas:
    """Tile ids painted into an int16 [y, x] array, plus a mask of cells no structure has used yet."""

    def __init__(self, width: int, height: int, fill: str, terrain: Mapping[str, Terrain], hexes: bool = False) -> None:
        self.width, self.height = width, height
        self.hexes = hexes  # drawn and joined as odd-r hexes (engine.map.hexes, engine.map.hexbuild)
        self.terrain = terrain
        self.ids: list[str] = [fill]
        self._index = {fill: 0}
        self.tiles = np.zeros((height, width), dtype=np.int16)
        self.free = np.ones((height, width), dtype=bool)

    @classmethod
    def of(cls, grid: Grid) -> "Canvas":
        """A canvas holding a finished grid's ground, to break a way through it."""
        cv = cls(grid.width, grid.height, grid.tile_ids[0], grid.terrain, grid.hexes)
        for tile in grid.tile_ids[1:]:
            cv.code(tile)
        cv.tiles = grid.tiles.copy()
        return cv

    def code(self, tile: str) -> int:
        if tile not in self._index:
            self._index[tile] = len(self.ids)
            self.ids.append(tile)
        return self._index[tile]

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def put(self, x: int, y: int, tile: str) -> None:
        if self.inside(x, y):
            self.tiles[y, x] = self.code(tile)

    def fill(self, x0: int, y0: int, x1: int, y1: int, tile: str) -> None:
        """An inclusive rectangle, clipped to the map."""
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, self.width - 1), min(y1, self.height - 1)
        if x0 <= x1 and y0 <= y1:
            self.tiles[y0:y1 + 1, x0:x1 + 1] = self.code(tile)

    def paint(self, mask: np.ndarray, tile: str) -> None:
        self.tiles[mask] = self.code(tile)

    def at(self, x: int, y: int) -> str:
        return self.ids[int(self.tiles[y, x])]

    def mask(self, *tiles: str) -> np.ndarray:
        codes = [self._index[t] for t in tiles if t in self._index]
        return np.isin(self.tiles, codes) if codes else np.zeros(self.tiles.shape, dtype=bool)

    def claim(self, x0: int, y0: int, x1: int, y1: int, margin: int = 1) -> bool:
        """Reserve a rectangle (inclusive) and a margin round it, if all of it is free and on the map."""
        if x0 - margin < 0 or y0 - margin < 0 or x1 + margin >= self.width or y1 + margin >= self.height:
            return False
        area = self.free[y0 - margin: y1 + margin + 1, x0 - margin: x1 + margin + 1]
        if not area.all():
            return False
        area[...] = False
        return True

    def lut(self, field: str) -> np.ndarray:
        return np.array([getattr(self.terrain[t], field) for t in self.ids])

    def walkable(self) -> np.ndarray:
        return self.lut("walkable")[self.tiles]

    def grid(self) -> Grid:
        return Grid(tuple(self.ids), self.tiles.copy(), terrain=self.terrain)

    def around(self, x: int, y: int) -> list[Pos]:
        """The cells one step away on the map: eight squares, or six hexes."""
        near = hexmap.neighbours((x, y)) if self.hexes else [(x + dx, y + dy) for dx, dy in NEIGHBOURS]
        return [c for c in near if self.inside(*c)]


def reachable(walkable: np.ndarray, start: Pos, hexes: bool = False) -> np.ndarray:
    if hexes:
        return _hex_search(walkable.astype(np.int32), start).distance < UNREACHABLE
    cost = walkable.astype(np.int8)
    dist = tcod.path.maxarray(cost.shape, dtype=np.int32)
    dist[start[1], start[0]] = 0
    tcod.path.dijkstra2d(dist, cost, 1, 1, out=dist)
    return dist < UNREACHABLE


def connect(cv: Canvas, anchor: Pos, cells: Iterable[Pos], ground: str) -> None:
    """Make every cell reachable from `anchor`, breaking the fewest obstacles on the way.

    A broken tile becomes what an explosion would leave of it, or `ground`; indestructible tiles
    are walked round."""
    cells = list(cells)
    walk = cv.walkable()
    if cv.hexes:
        return _connect_hexes(cv, walk, anchor, cells, ground)
    seen = reachable(walk, anchor)
    if all(seen[y, x] for x, y in cells):
        return
    hard = np.array([not t.destructible and not t.walkable for t in (cv.terrain[i] for i in cv.ids)])[cv.tiles]
    cost = np.where(walk, 1, np.where(hard, 0, BREAK_COST)).astype(np.int32)
    for x, y in cells:
        if seen[y, x]:
            continue
        cost[y, x] = max(int(cost[y, x]), 1)
        dist = np.where(seen, 0, tcod.path.maxarray(cost.shape, dtype=np.int32)).astype(np.int32)
        tcod.path.dijkstra2d(dist, cost, 1, 1, out=dist)
        if dist[y, x] >= UNREACHABLE:
            continue  # sealed in by indestructible tiles: the generator's checks report it
        for px, py in tcod.path.hillclimb2d(dist, (y, x), True, True)[:, ::-1].tolist():
            if not walk[py, px]:
                broken = cv.terrain[cv.at(px, py)].destroyed
                cv.put(px, py, broken if broken and cv.terrain[broken].walkable else ground)
                walk[py, px] = True
                cost[py, px] = 1
        seen = reachable(walk, anchor)


def _hex_search(cost: np.ndarray, root: Pos) -> tcod.path.Pathfinder:
    graph = tcod.path.CustomGraph(cost.shape)
    hexmap.add_edges(graph, cost)
    pf = tcod.path.Pathfinder(graph)
    pf.add_root((root[1], root[0]))
    pf.resolve()
    return pf


def _connect_hexes(cv: Canvas, walk: np.ndarray, anchor: Pos, cells: list[Pos], ground: str) -> None:
    """`connect` over the six hex steps: from each cell cut off, the cheapest way back to what the anchor reaches
    (searched from the cell, so one search each), breaking what blocks it."""
    seen = reachable(walk, anchor, True)
    hard = np.array([not t.destructible and not t.walkable for t in (cv.terrain[i] for i in cv.ids)])[cv.tiles]
    for x, y in cells:
        if seen[y, x]:
            continue
        cost = np.where(walk, 1, np.where(hard, 0, BREAK_COST)).astype(np.int32)
        pf = _hex_search(cost, (x, y))
        dist = np.where(seen, pf.distance, UNREACHABLE)
        if int(dist.min()) >= UNREACHABLE:
            continue  # sealed in by indestructible tiles: the generator's checks report it
        gy, gx = np.unravel_index(int(np.argmin(dist)), dist.shape)
        for py, px in pf.path_to((int(gy), int(gx))).tolist():
            if not walk[py, px]:
                broken = DUG_DOORS.get(cv.at(px, py)) or cv.terrain[cv.at(px, py)].destroyed
                if broken not in cv.terrain:  # content without the door: what a blast leaves
                    broken = cv.terrain[cv.at(px, py)].destroyed
                cv.put(px, py, broken if broken and cv.terrain[broken].walkable else ground)
                walk[py, px] = True
        seen = reachable(walk, anchor, True)


def landing(walkable: np.ndarray, rng: MapRng, count: int) -> list[Pos]:
    """The squad lands together near the middle of the south edge."""
    h, w = walkable.shape
    zone = [(x, y) for y in range(h - SPAWN_DEPTH, h) for x in range(w) if walkable[y, x]]
    cx = rng.between(w // 4, 3 * w // 4)
    zone.sort(key=lambda c: (max(abs(c[0] - cx), abs(c[1] - (h - 2))), c[1], c[0]))
    return zone[:count]


def scatter(candidates: Sequence[Pos], rng: MapRng, count: int, apart: int = 2) -> list[Pos]:
    """`count` cells picked in turn, each at least `apart` from the others while that is possible."""
    pool = rng.shuffled(candidates)
    chosen: list[Pos] = []
    for cell in pool:
        if len(chosen) == count:
            break
        if all(max(abs(cell[0] - c[0]), abs(cell[1] - c[1])) >= apart for c in chosen):
            chosen.append(cell)
    for cell in pool:  # crowded: fill up regardless
        if len(chosen) == count:
            break
        if cell not in chosen:
            chosen.append(cell)
    return chosen


def nearest(cells: Iterable[Pos], centre: Pos) -> list[Pos]:
    """Cells by distance from `centre`, then row, then column: a zone's preferred order."""
    return sorted(cells, key=lambda c: (max(abs(c[0] - centre[0]), abs(c[1] - centre[1])), c[1], c[0]))


def cells_of(mask: np.ndarray) -> list[Pos]:
    ys, xs = np.nonzero(mask)
    return list(zip(xs.tolist(), ys.tolist()))
