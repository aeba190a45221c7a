"""A side's AI. It decides only from what its side can see and remembers, never the true state.

One command per call: the driver submits it and asks again, so every AI step is an ordinary,
logged command. Deterministic: the same states in the same order give the same commands.
"""

from __future__ import annotations

from typing import Iterable

import attrs
import numpy as np
import tcod.path

from engine.commands import Combo, Command, EndTurn, Move, Rejected, Reload, Shoot, Throw, Wait
from engine.map.grid import NEIGHBOURS, Grid, Pos, distance
from engine.model import State, Unit
from engine.ruleset import Ruleset, ShotPreview

UNREACHABLE = 10**6
MIN_ODDS = 0.04  # below this a shot is a waste of the turn


class Ai:
    def __init__(self, ruleset: Ruleset, side: str) -> None:
        self.ruleset = ruleset
        self.side = side
        self.memory: dict[str, Pos] = {}  # enemy id -> last position seen
        self._skip: set[str] = set()  # units that got a rejection this turn
        self._explore: dict[str, Pos] = {}  # unit id -> unseen cell it is walking to
        self._turn: tuple[int, str] | None = None

    # -- knowledge -------------------------------------------------------------------------

    def observe(self, state: State) -> tuple[np.ndarray, list[Unit]]:
        """Cells the side sees and the hostiles standing in them; updates the memory."""
        seen = self.ruleset.visible(state, self.side)
        hostiles = []
        for unit in state.units.values():
            if unit.side == self.side or not seen[unit.pos[1], unit.pos[0]]:
                continue
            if unit.status == "dead":
                self.memory.pop(unit.id, None)
            else:
                hostiles.append(unit)
                self.memory[unit.id] = unit.pos
        for uid, pos in list(self.memory.items()):
            if seen[pos[1], pos[0]] and all(h.id != uid for h in hostiles):
                del self.memory[uid]  # we look there and it is gone
        return seen, hostiles

    # -- deciding --------------------------------------------------------------------------

    def next_command(self, state: State) -> Command:
        if self._turn != (state.phase, state.side):
            self._turn, self._skip = (state.phase, state.side), set()
        seen, hostiles = self.observe(state)
        self._seen = seen
        for unit in state.side_units(self.side):
            budget = self.ruleset.budget(state, unit)
            if not budget.can_act or unit.id in self._skip:
                continue
            command = self._plan(state, unit, hostiles)
            if command is not None:
                return command
            self._skip.add(unit.id)
            return Wait(unit=unit.id)
        return EndTurn(side=self.side)

    def rejected(self, command: Command, why: Rejected) -> None:
        """The driver tells us a command failed: that unit sits the turn out."""
        uid = getattr(command, "unit", None)
        if uid:
            self._skip.add(uid)

    def _plan(self, state: State, unit: Unit, hostiles: list[Unit]) -> Command | None:
        rs = self.ruleset
        weapon = rs.content.weapons[unit.weapon]
        if not weapon.blast and unit.ammo < min(m.shots for m in weapon.modes.values()) and unit.magazines > 0:
            return Reload(unit=unit.id)
        grenade = self._grenade(state, unit, hostiles)
        if grenade is not None:
            return grenade
        shot = self._best_shot(state, unit, hostiles)
        budget = rs.budget(state, unit)
        if shot is not None:
            command, _score = shot
            if budget.moves_left >= 2:
                step = self._better_cover(state, unit, hostiles, command)
                if step is not None:
                    return step
            return command
        if weapon.blast is False and unit.ammo < weapon.ammo and unit.magazines > 0 and not hostiles:
            return Reload(unit=unit.id)
        return self._advance(state, unit, hostiles, budget.moves_left, budget.combo_moves)

    def _best_shot(self, state: State, unit: Unit, hostiles: list[Unit]) -> tuple[Shoot, float] | None:
        best: tuple[Shoot, float] | None = None
        for target in hostiles:
            for mode in self.ruleset.content.weapons[unit.weapon].modes:
                preview = self.ruleset.preview_shot(state, unit.id, target.id, mode)
                if isinstance(preview, Rejected) or preview.p_hit < MIN_ODDS:
                    continue
                score = _score(preview, target)
                if best is None or score > best[1]:
                    best = (Shoot(unit=unit.id, target=target.id, mode=mode), score)
        return best

    def _grenade(self, state: State, unit: Unit, hostiles: list[Unit]) -> Throw | None:
        """Grenades go to cells with two or more hostiles and no friend."""
        items = [i for i, n in sorted(unit.items.items()) if n > 0 and self.ruleset.content.weapons[i].thrown
                 and self.ruleset.content.races[unit.race].alien >= self.ruleset.content.weapons[i].alien]
        if not items:
            return None
        cells: dict[Pos, list[Unit]] = {}
        for h in hostiles:
            if h.conscious:
                cells.setdefault(h.pos, []).append(h)
        for cell, group in sorted(cells.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            if len(group) < 2 or any(u.side == self.side for u in state.units_at(cell)):
                continue
            item = items[0]
            if distance(unit.pos, cell) <= self.ruleset.throw_range(state, unit, item) and distance(unit.pos, cell) > 1:
                target = min(group, key=lambda u: (u.hp, u.id))
                return Throw(unit=unit.id, item=item, cell=cell, target=target.id)
        return None

    def _better_cover(self, state: State, unit: Unit, hostiles: list[Unit], shot: Shoot) -> Move | None:
        """Step into a neighbouring cell with more cover if the shot stays as good."""
        here = self._cover_score(state, unit.pos, hostiles)
        best: tuple[float, Pos] | None = None
        for dx, dy in NEIGHBOURS:
            cell = (unit.pos[0] + dx, unit.pos[1] + dy)
            if not _open(state, unit, cell):
                continue
            score = self._cover_score(state, cell, hostiles)
            if score > here and (best is None or score > best[0]):
                best = (score, cell)
        if best is None:
            return None
        moved = _moved_copy(state, unit, best[1])
        after = self.ruleset.preview_shot(moved, unit.id, shot.target, shot.mode)
        if isinstance(after, Rejected) or after.p_hit < MIN_ODDS:
            return None
        return Move(unit=unit.id, path=(best[1],))

    def _cover_score(self, state: State, cell: Pos, threats: Iterable[Unit]) -> float:
        grid = state.grid
        score = 0.0
        for t in threats:
            if t.conscious:
                score += grid.cover_against(cell, t.pos)
        return score

    def _advance(self, state: State, unit: Unit, hostiles: list[Unit], moves: int, combo: int) -> Command | None:
        """Close in on the nearest hostile seen or remembered, else sweep towards the far edge."""
        if moves <= 0 and combo <= 0:
            return None
        goals = [h.pos for h in hostiles if h.conscious] or sorted(self.memory.values())
        grid = state.grid
        blocked = [h.pos for h in hostiles if h.status != "dead"]
        if not goals:  # nobody in sight or in memory: go and look where we cannot see
            target = self._explore_target(state, unit, blocked)
            if target is None:
                return None
            goals = [target]
        reach = max(moves, combo)
        field = _goal_field(grid, goals, blocked)
        here = int(field[unit.pos[1], unit.pos[0]])
        steps = grid.distances(unit.pos, blocked)
        best: tuple[float, Pos] | None = None
        ys, xs = np.nonzero((steps <= reach) & (steps > 0))
        for x, y in sorted(zip(xs.tolist(), ys.tolist())):
            if not _open(state, unit, (x, y)):
                continue
            gain = here - int(field[y, x])
            score = gain * 2 + self._cover_score(state, (x, y), hostiles)
            if gain > 0 and (best is None or score > best[0]):
                best = (score, (x, y))
        if best is None:
            return None
        path = tuple(grid.path(unit.pos, best[1], blocked))
        if not path:
            return None
        if len(path) > moves and combo >= len(path):
            return Combo(unit=unit.id, path=path)
        return Move(unit=unit.id, path=path[:moves])


    def _explore_target(self, state: State, unit: Unit, blocked: list[Pos]) -> Pos | None:
        """The nearest cell the side cannot see, kept until it comes into view (no dithering)."""
        target = self._explore.get(unit.id)
        if target is not None and not self._seen[target[1], target[0]]:
            return target
        steps = state.grid.distances(unit.pos, blocked)
        candidates = ~self._seen & state.grid.walkable & (steps < UNREACHABLE)
        if not candidates.any():
            return None
        masked = np.where(candidates, steps, UNREACHABLE)
        y, x = np.unravel_index(int(np.argmin(masked)), masked.shape)
        self._explore[unit.id] = (int(x), int(y))
        return self._explore[unit.id]


def _score(preview: ShotPreview, target: Unit) -> float:
    """Expected damage, weighted towards finishing the wounded."""
    finish = 1.0 + 2.0 * max(0.0, 1.0 - target.hp / max(1, target.hp_max))
    return preview.expected_damage * finish + preview.p_headshot * 20 + preview.p_hit * 5


def _open(state: State, unit: Unit, cell: Pos) -> bool:
    grid = state.grid
    if not grid.inside(cell) or not grid.walkable[cell[1], cell[0]]:
        return False
    return not any(u.side != unit.side for u in state.units_at(cell))


def _moved_copy(state: State, unit: Unit, cell: Pos) -> State:
    units = dict(state.units)
    units[unit.id] = attrs.evolve(unit, pos=cell)
    return attrs.evolve(state, units=units)


def _goal_field(grid: Grid, goals: list[Pos], blocked: list[Pos]) -> np.ndarray:
    """Steps from every cell to the nearest goal."""
    cost = (grid.cost > 0).astype(np.int8)
    for x, y in blocked:
        cost[y, x] = 1  # goals may be occupied by the hostiles we walk towards
    dist = tcod.path.maxarray(cost.shape, dtype=np.int32)
    for x, y in goals:
        dist[y, x] = 0
    tcod.path.dijkstra2d(dist, cost, 1, 1, out=dist)
    return np.minimum(dist, UNREACHABLE)
