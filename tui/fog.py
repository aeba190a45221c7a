"""What each side had seen by any record of a log: the fog of war of the replay viewer.

A side's memory (the cells it explored, where it last saw each hostile) depends on every state
before, so it is kept as snapshots every EVERY commands; any record is its nearest snapshot on its
own branch folded forward. `fill` takes the whole final branch once, off the screen's thread, so
that later jumps fold at most EVERY records.
"""

from __future__ import annotations

from typing import Callable

import attrs
import numpy as np

from engine.map.grid import Pos
from engine.core.model import State
from engine.core.ruleset import Ruleset
from engine.core.reducer import fold
from engine.log.view import look
from engine.play.timeline import Timeline

EVERY = 32


@attrs.frozen
class Sight:
    """One side's view after a record. The arrays are [y, x] and must not be written to."""

    visible: np.ndarray
    explored: np.ndarray
    last_seen: dict[str, Pos]  # hostile id -> where the side last saw it
    remembered: dict[Pos, str] = attrs.field(factory=dict)  # explored cells changed out of sight -> the tile it saw
    # (a storey's under (x, y, z))
    visible_levels: np.ndarray | None = None  # [z, y, x] on a map with storeys: each storey's fog, as drawn
    explored_levels: np.ndarray | None = None

    def level(self, z: int) -> tuple[np.ndarray, np.ndarray]:
        """(visible, explored) of storey z; the union's on a map of one level."""
        if self.visible_levels is None or self.explored_levels is None:
            return self.visible, self.explored
        return self.visible_levels[z], self.explored_levels[z]


def everything(state: State) -> Sight:
    """The whole map, every storey, seen."""
    every = np.ones((state.grid.levels, state.grid.height, state.grid.width), dtype=bool)
    return Sight(every[0], every[0], {}, *((every, every) if state.grid.storeys else ()))


def current(ruleset: Ruleset, state: State, side: str) -> Sight:
    """What the side sees now, remembering nothing (a far jump before the memory pass is done)."""
    visible = ruleset.visible(state, side)
    if not state.grid.storeys:
        return Sight(visible, visible, {})
    each = ruleset.sight_levels(state, side)
    return Sight(visible, visible, {}, each, each)


# side -> (explored, last seen, remembered, each storey explored)
Memory = dict[str, tuple[np.ndarray, dict[str, Pos], dict[Pos, str], np.ndarray]]


class Fog:
    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.sides = timeline.initial.sides
        grid = timeline.initial.grid
        shape = (grid.height, grid.width)
        self.storeys = bool(grid.storeys)
        # record -> memory after it; a record's branch back to the start is unique, so is its memory
        self._memory: dict[int, Memory] = {1: {s: (np.zeros(shape, dtype=bool), {}, {},
                                                  np.zeros((grid.levels, *shape), dtype=bool)) for s in self.sides}}

    def at(self, n: int, side: str) -> Sight:
        """What `side` saw after command record n (or 1, the start) and what it remembered."""
        path: list[int] = []
        k = n
        while k not in self._memory and k in self.timeline.base:
            path.append(k)
            k = self.timeline.base[k]
        state = self._walk(k, path[::-1])
        explored, last_seen, remembered, levels = self._memory[n][side]
        ruleset = self.timeline.ruleset
        if not self.storeys:
            return Sight(ruleset.visible(state, side), explored, last_seen, remembered)
        return Sight(ruleset.visible(state, side), explored, last_seen, remembered,
                     ruleset.sight_levels(state, side), levels)

    def near(self, n: int) -> bool:
        """Whether `at(n)` folds at most a couple of snapshots' worth of records (a fast jump)."""
        k, steps = n, 0
        while k not in self._memory and k in self.timeline.base:
            k, steps = self.timeline.base[k], steps + 1
            if steps > 2 * EVERY:
                return False
        return True

    def fill(self, cancelled: Callable[[], bool] = lambda: False) -> None:
        """Snapshots along the final branch, so no later jump folds more than EVERY records. Safe on a
        worker thread: it folds its own states and never touches the timeline's cache."""
        branch = self.timeline.branch(self.timeline.final)
        k, state = 1, self.timeline.initial
        for i in range(0, len(branch), EVERY):
            if cancelled():
                return
            chunk = branch[i:i + EVERY]
            state = self._walk(k, chunk, state)
            k = chunk[-1]

    def _walk(self, k: int, path: list[int], state: State | None = None) -> State:
        """Fold from the snapshot at k along `path` (its branch onwards), keeping a snapshot every EVERY
        records and at the end; the state after the last record."""
        memory = self._memory[k]
        if state is None:
            state = self.timeline.state_at(k) if k != 1 else self.timeline.initial
        if not path:
            return state
        ruleset = self.timeline.ruleset
        mine = {side: (explored.copy(), dict(seen), dict(kept), levels.copy())
                for side, (explored, seen, kept, levels) in memory.items()}
        for i, m in enumerate(path, start=1):
            before, state = state, fold(state, self.timeline.events(m))
            changed = [p for p, t in state.tiles_changed.items() if before.tiles_changed.get(p) != t]
            for side, (explored, seen, kept, levels) in mine.items():
                visible, _spotted = look(ruleset, state, side, explored, seen)
                each = ruleset.sight_levels(state, side) if self.storeys else visible[None]
                levels |= each
                for p in changed:  # a change out of sight leaves the tile the side last saw on its map
                    x, y, z = p if len(p) == 3 else (*p, 0)
                    unseen = not each[z, y, x] and levels[z, y, x] if len(p) == 3 else \
                        not visible[y, x] and explored[y, x]
                    if unseen:
                        kept.setdefault(p, before.grid.level(z).tile((x, y)))
                for p in [p for p in kept if (each[p[2]] if len(p) == 3 else visible)[p[1], p[0]]]:
                    del kept[p]  # seen again: the map shows the tile as it is
            if i % EVERY == 0 or i == len(path):
                self._keep(m, mine)
        return state

    def _keep(self, n: int, memory: Memory) -> None:
        kept = {}
        for side, (explored, seen, remembered, levels) in memory.items():
            frozen, storeys = explored.copy(), levels.copy()
            frozen.setflags(write=False)
            storeys.setflags(write=False)
            kept[side] = (frozen, dict(seen), dict(remembered), storeys)
        self._memory[n] = kept
