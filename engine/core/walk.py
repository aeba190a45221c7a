"""How a ruleset prices a walk (`Budget.walk`): the path preview, the reach overlay and the AI's search all walk
by it (engine.map.grid, engine.map.levels), so what a step costs is the ruleset's word everywhere."""

from __future__ import annotations

import attrs
import numpy as np

from engine.core.geometry import Pos


@attrs.frozen
class Walk:
    """How a ruleset prices a walk, for the path preview, the reach overlay and the AI's search: a step into a cell
    costs `cardinal` or `diagonal` times the [y, x] `price` of that cell, plus its [y, x] `extra`, in the ruleset's
    own currency (xcom-trpg: cells; annihilation: TU; neo-troops: metres). `price` None: 1 everywhere the map is
    walkable; 0: impassable. `extra` None: nothing added; neo-troops multiplies (3 m × 2 on difficult ground),
    annihilation adds (A-9.1: 4 or 6 TU + the terrain's modifier + 4 TU for a door on the way)."""

    cardinal: int = 1
    diagonal: int = 1
    price: np.ndarray | None = attrs.field(default=None, eq=False, repr=False)
    currency: str = "cells"
    extra: np.ndarray | None = attrs.field(default=None, eq=False, repr=False)
    # On a map with storeys (engine.map.levels): the walk on each storey above the ground, and [z, y, x] what going
    # up from storey z to z + 1 (`up`) or down from z + 1 to z (`down`) costs at (x, y); 0: no way there.
    layers: tuple["Walk", ...] = attrs.field(default=(), eq=False, repr=False)
    up: np.ndarray | None = attrs.field(default=None, eq=False, repr=False)
    down: np.ndarray | None = attrs.field(default=None, eq=False, repr=False)
    # Swimming: [y, x] what a step into each water cell (the ruleset says which tiles: xxxzone's `swim_tiles`)
    # costs, side step or diagonal alike, instead of the walking price; 0 where nobody swims. None (every ruleset
    # but xxxzone): water stays impassable, as its terrain is not walkable.
    water: np.ndarray | None = attrs.field(default=None, eq=False, repr=False)
    # Steps that are no side step, stair or ladder (annihilation: a jump through a window, a drop from one): each an
    # offset (dz, dy, dx) and the [z, y, x] cost of arriving at a place by it; 0: no such step there.
    hops: tuple[tuple[tuple[int, int, int], np.ndarray], ...] = attrs.field(default=(), eq=False, repr=False)

    @property
    def by_edges(self) -> bool:
        """Priced cell by cell per kind of step (additive prices, swimming), not as one multiplier per cell."""
        return self.extra is not None or self.water is not None

    def edges(self, open_: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """[y, x] what entering each cell costs by a side step and by a diagonal (0: closed); `open_` is where the
        map lets anyone walk, used where this walk has no `price`."""
        price = open_.astype(np.int32) if self.price is None else np.asarray(self.price, dtype=np.int32)
        extra = 0 if self.extra is None else np.asarray(self.extra, dtype=np.int32)
        side = np.where(price > 0, self.cardinal * price + extra, 0)
        corner = np.where(price > 0, self.diagonal * price + extra, 0)
        if self.water is not None:
            water = np.asarray(self.water, dtype=np.int32)
            side, corner = np.where(water > 0, water, side), np.where(water > 0, water, corner)
        return side, corner

    def cost(self, start: Pos, path) -> int:
        """What walking `path` from `start` costs (the ruleset's `decide` still has the last word)."""
        total, here = 0, start
        for cell in path:
            if self.water is not None and self.water[cell[1], cell[0]] > 0:
                total, here = total + int(self.water[cell[1], cell[0]]), cell
                continue
            step = self.cardinal if here[0] == cell[0] or here[1] == cell[1] else self.diagonal
            total += step * (1 if self.price is None else int(self.price[cell[1], cell[0]]))
            if self.extra is not None:
                total += int(self.extra[cell[1], cell[0]])
            here = cell
        return total
