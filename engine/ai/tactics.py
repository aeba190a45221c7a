"""What the AI weighs when it picks a cell or a target. Pure functions of what its side knows:
the map (public), its own units, the hostiles it sees and the places it last saw the others.
"""

from __future__ import annotations

import hashlib
from typing import Iterable

import attrs
import numpy as np
import tcod.path

from engine.content.models import COVER_LEVEL, Behaviour
from engine.map import hexes as hexmap
from engine.map.grid import Grid, Pos
from engine.core.model import Unit
from engine.core.ruleset import ShotPreview

UNREACHABLE = 10**6
HIDDEN = 2  # a threat that cannot see the cell is as good as full cover against it
FULL = COVER_LEVEL["full"]  # no shot gets through it


@attrs.frozen
class Knowledge:
    """What a side knows at one moment."""

    seen: np.ndarray  # cells it sees now, [y, x]
    targets: tuple[Unit, ...]  # hostiles in sight, conscious or not (not dead)
    threats: tuple[Pos, ...]  # where armed hostiles are, or were last seen
    vision: int
    levels: tuple[int | None, ...] = ()  # each threat's storey, None unknown (a shot heard); () on a map of one storey

    def live_targets(self) -> list[Unit]:
        return [t for t in self.targets if t.conscious]


def sees(grid: Grid, a: Pos, b: Pos, radius: int) -> bool:
    """Line of sight both ways (the shadowcast is symmetric), from a's cached field of view."""
    return grid.steps(a, b) <= radius and bool(grid.fov(a, radius)[b[1], b[0]])


def safety(grid: Grid, cell: Pos, threats: Iterable[Pos], radius: int) -> tuple[int, int]:
    """(cover, exposure): cover levels summed over the threats (hidden counts as full), and how
    many threats would see the cell with nothing between."""
    cover = exposed = 0
    for t in threats:
        if not sees(grid, t, cell, radius):
            cover += HIDDEN
            continue
        level = grid.cover_against(cell, t) if t != cell else 0
        cover += level
        exposed += level == 0
    return cover, exposed


def flanked(grid: Grid, cell: Pos, targets: Iterable[Unit], radius: int) -> int:
    """How many targets the cell sees whose cover does not face it."""
    return sum(1 for t in targets if t.conscious and sees(grid, t.pos, cell, radius)
               and grid.cover_against(t.pos, cell) == 0)


def opens_fire(grid: Grid, cell: Pos, targets: Iterable[Unit], radius: int) -> bool:
    """Some target is in sight from the cell and not in full cover from it: a cell worth trying to shoot from."""
    return any(sees(grid, t.pos, cell, radius) and grid.cover_against(t.pos, cell) < FULL for t in targets)


def position_score(grid: Grid, cell: Pos, p: Behaviour, k: Knowledge, progress: float, *,
                   friends: Iterable[Pos] = (), advance: float = 1.0) -> float:
    """How much a unit with behaviour `p` likes standing at `cell`."""
    cover, exposed = safety(grid, cell, k.threats, k.vision)
    score = p.advance * advance * progress + p.cover * cover - p.exposure * exposed
    score += p.flank * flanked(grid, cell, k.targets, k.vision)
    if k.threats:
        near = min(grid.steps(cell, t) for t in k.threats)
        if p.distance and near < p.distance:
            score -= (p.cover + 1) * (p.distance - near)
        if p.rear:
            front = min((min(grid.steps(f, t) for t in k.threats) for f in friends), default=near)
            if near < front + 2:
                score -= 3 * (front + 2 - near)
    return score


def shot_value(preview: ShotPreview, target: Unit, p: Behaviour, marked: bool, misjudged: float) -> float:
    """Expected damage, weighted towards finishing the wounded and the commander's mark."""
    finish = 1.0 + p.focus * max(0.0, 1.0 - target.hp / max(1, target.hp_max))
    value = (preview.expected_damage * finish + preview.p_headshot * 20 + preview.p_hit * 5) * misjudged
    return value * (1.5 if marked else 1.0)


def misjudgement(percent: int, *keys: object) -> float:
    """A factor in [1 - percent%, 1 + percent%], the same for the same situation: the AI's error in
    estimating its odds. A keyed hash, so games replay the same; no dice are spent on it."""
    if not percent:
        return 1.0
    digest = hashlib.blake2b(repr(keys).encode(), digest_size=4).digest()
    u = int.from_bytes(digest, "big") / 2**32 * 2 - 1
    return max(0.05, 1.0 + u * percent / 100)


def goal_field(grid: Grid, goals: Iterable[Pos], blocked: Iterable[Pos]) -> np.ndarray:
    """Steps from every cell to the nearest goal; goals may be unwalkable (a power source) or occupied."""
    goals = list(goals)
    cost = (grid.cost > 0).astype(np.int8)
    for x, y in blocked:
        cost[y, x] = 1  # the hostiles we walk towards stand on the goals
    for x, y in goals:
        cost[y, x] = 1
    if grid.hexes:  # six steps a cell (engine.map.hexes)
        graph = tcod.path.CustomGraph(cost.shape)
        hexmap.add_edges(graph, cost)
        pf = tcod.path.Pathfinder(graph)
        for x, y in goals:
            pf.add_root((y, x))
        pf.resolve()
        return np.minimum(pf.distance, UNREACHABLE)
    dist = tcod.path.maxarray(cost.shape, dtype=np.int32)
    for x, y in goals:
        dist[y, x] = 0
    tcod.path.dijkstra2d(dist, cost, 1, 1, out=dist)
    return np.minimum(dist, UNREACHABLE)
