"""How a stealth mission's squad creeps while nobody has spotted it (`Orders.sneaking`, the budget's `dash_prefer`).
A spot check comes at the end of an action and at the start of the watcher's turn, so what counts is where the
sneak stops: it prefers cells the hostiles it knows of (seen, remembered or heard) are unlikely to spot it in, by the
ruleset's own chance from each (`Ruleset.spot_chance`: xxxzone's range fall-off and facing arcs), and, all else
equal, the straightest line to its goal (a walk counted in steps has many cells equally near the goal; the first in
the map's order would draw it sideways, along the building into the view of guards it does not know of)."""

from __future__ import annotations

import math
from typing import Iterable

from engine.ai.tactics import Knowledge
from engine.core.model import State, Unit
from engine.core.ruleset import Ruleset
from engine.map.grid import Pos

RISK = 0.08  # score lost per percent of chance to be spotted: a sure spot outweighs eight steps of progress
STRAIGHT = 0.01  # per square off the straight line: only ever a tie-break between otherwise equal cells


def watchers(k: Knowledge) -> list[tuple[Pos, Unit | None]]:
    """The hostiles it knows of: those in sight (their facing seen) and the cells it remembers or heard them at."""
    seen = [(t.pos, t) for t in k.live_targets()]
    at = {pos for pos, _t in seen}
    return seen + [(pos, None) for pos in k.threats if pos not in at]


def score(ruleset: Ruleset, state: State, unit: Unit, cell: Pos, seen_by: list[tuple[Pos, Unit | None]],
          goals: Iterable[Pos]) -> float:
    """What a stop at `cell` costs the sneak: its chances of being spotted there, and how far it strays."""
    risk = sum(ruleset.spot_chance(state, unit, cell, pos, who) for pos, who in seen_by)
    stray = min((math.hypot(cell[0] - g[0], cell[1] - g[1]) for g in goals), default=0.0)
    return -RISK * risk - STRAIGHT * stray
