"""Where an AI's unit can walk (engine.ai.planner's `Ai` is one): the storey it plans on, the cells it reaches, a
way back from the threats, the unexplored cell it heads for. It reads the `Ai`'s ruleset, side and memory."""

from __future__ import annotations

import attrs
import numpy as np

from engine.ai.tactics import UNREACHABLE, Knowledge, goal_field, position_score, safety
from engine.content.models import Behaviour
from engine.core.commands import Move
from engine.core.model import State, Unit
from engine.core.ruleset import Walk
from engine.map import levels
from engine.map.grid import Grid, Pos


class Ground:
    """The walking half of `Ai`: it needs `ruleset`, `side`, `memory` and the exploring memory `Ai.__init__` sets."""

    def _blocked(self, state: State, k: Knowledge, unit: Unit) -> list[Pos]:
        """Cells of its storey it knows it cannot enter: anyone not of its side whom it sees there, and where it
        remembers a hostile it no longer sees (a senseless one lies there still; a walk planned through it would be
        refused every turn). One above or below it at the same x, y blocks nothing of its storey."""
        seen = [u.pos for u in state.units.values() if u.side != self.side and u.status != "dead"
                and k.seen[u.pos[1], u.pos[0]] and u.z == unit.z]
        return seen + [pos for uid, pos in sorted(self.memory.items())
                       if pos not in seen and self.levels.get(uid, 0) == unit.z]

    def _grid(self, state: State, unit: Unit) -> Grid:
        """The storey the unit stands on: it plans its walks and positions there (engine.map.levels); going up and
        down is the ruleset's (`ai_special`)."""
        return state.grid.level(unit.z)

    def _walk(self, state: State, unit: Unit) -> Walk:
        return levels.layer(self.ruleset.budget(state, unit).walk, unit.z)

    def _open(self, state: State, unit: Unit, cell: Pos, blocked: list[Pos]) -> bool:
        """A cell it may end a walk on: open ground, nobody known there, and no friend on it (a friend's square may
        be walked through where the ruleset allows, never stopped on: the move would be refused, the turn lost)."""
        grid = self._grid(state, unit)
        return (grid.inside(cell) and bool(grid.walkable[cell[1], cell[0]]) and cell not in blocked
                and not any(u.side == self.side and u.id != unit.id for u in state.units_at(cell, unit.z)))

    def _moves(self, state: State, unit: Unit, blocked: list[Pos], step: int, dash: int) -> dict[Pos, tuple[Pos, ...]]:
        """Cells one move action reaches, and those a combo reaches when stamina allows."""
        spare = self.ruleset.budget(state, unit).dash_spare
        return self._reachable(state, unit, blocked, max(step, dash if spare else 0))

    def _reachable(self, state: State, unit: Unit, blocked: list[Pos], reach: int) -> dict[Pos, tuple[Pos, ...]]:
        """Every open cell the unit can walk to within `reach` steps, with a path to it."""
        if reach <= 0:
            return {}
        walk = self._walk(state, unit)
        grid = self._grid(state, unit)
        return {cell: path for cell, path in grid.paths_within(unit.pos, reach, blocked, walk).items()
                if self._open(state, unit, cell, blocked)}

    def _fall_back(self, state: State, unit: Unit, k: Knowledge, p: Behaviour, moves: int) -> Move | None:
        """Morale broken or badly hurt: the reachable cell farthest from the threats, in cover."""
        blocked = self._blocked(state, k, unit)
        grid = self._grid(state, unit)
        w = self._walk(state, unit)
        steps = grid.distances(unit.pos, blocked, w)
        near = min(grid.steps(unit.pos, t) for t in k.threats)
        best: tuple[float, Pos] | None = None
        ys, xs = np.nonzero((steps <= moves) & (steps > 0))
        for x, y in sorted(zip(xs.tolist(), ys.tolist())):
            if not self._open(state, unit, (x, y), blocked):
                continue
            gain = min(grid.steps((x, y), t) for t in k.threats) - near
            score = 3 * gain + position_score(grid, (x, y), attrs.evolve(p, advance=0, flank=0, distance=0), k, 0)
            if gain > 0 and (best is None or score > best[0]):
                best = (score, (x, y))
        if best is None:
            return None
        path = affordable(w, unit.pos, tuple(grid.path(unit.pos, best[1], blocked, w)), moves)
        return Move(unit=unit.id, path=path) if path else None

    def _covered(self, state: State, unit: Unit, k: Knowledge, p: Behaviour) -> bool:
        """Good enough to wait in: no known threat sees it without cover between."""
        _cover, exposed = safety(self._grid(state, unit), unit.pos, k.threats, k.vision)
        return exposed == 0

    def _field(self, grid: Grid, goals: list[Pos], blocked: list[Pos]) -> np.ndarray:
        key = (grid, tuple(goals), tuple(blocked))  # the grid object itself: a changed map is another key
        if key not in self._fields:
            self._fields[key] = goal_field(grid, goals, blocked)
        return self._fields[key]

    def _explore_target(self, state: State, unit: Unit, blocked: list[Pos]) -> Pos | None:
        """The nearest cell the side has never seen — or, all seen, the one it has not seen for longest —
        kept until it comes into view (no dithering)."""
        target = self._explore.get(unit.id)
        if target is not None and not self._seen[target[1], target[0]]:
            return target
        grid = self._grid(state, unit)
        steps = grid.distances(unit.pos, blocked)
        open_ = grid.walkable & (steps < UNREACHABLE) & ~self._seen
        if not open_.any():
            return None
        fresh = open_ & ~self._explored
        if fresh.any():
            score = np.where(fresh, steps, UNREACHABLE)
            y, x = np.unravel_index(int(np.argmin(score)), score.shape)
        else:
            stale = np.where(open_, 4 * (state.phase - self._looked) - steps, -UNREACHABLE)
            y, x = np.unravel_index(int(np.argmax(stale)), stale.shape)
        self._explore[unit.id] = (int(x), int(y))
        return self._explore[unit.id]


def affordable(walk: Walk, start: Pos, path: tuple[Pos, ...], budget: int) -> tuple[Pos, ...]:
    """The longest start of the path the budget pays for (a cell count: its first `budget` cells)."""
    n = 0
    while n < len(path) and walk.cost(start, path[:n + 1]) <= budget:
        n += 1
    return path[:n]
