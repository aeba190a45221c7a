"""The AI's memory of what it cannot see: where it last saw or suspected each hostile (a lead), and the phase it
last searched each cell in. A hostile that vanishes from a cell the side still sees (a cloaked varan whose notice
lapsed), or whose cell the ruleset says is known though unseen, leaves a lead there; seeing it again, or its corpse,
ends the lead, and so does age. The ruleset's `ai_hunt` reads them as `Clues` and says what a hunting command
searches. Both are in every checkpoint (engine.ai.memory), so a resumed mission hunts as the uninterrupted one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from engine.core.model import State, Unit
from engine.core.ruleset import Clues, Hunt
from engine.map.grid import Pos

if TYPE_CHECKING:
    from engine.ai.planner import Ai

LEAD_PHASES = 6  # a lead older than this many phases is forgotten: the hostile may be anywhere by then


def note(ai: "Ai", state: State, before: dict[str, Pos], seen: np.ndarray, in_sight: list[Unit]) -> None:
    """After the side has looked: a hostile it remembered and no longer sees where it stood leaves a lead there
    (unless the side sees it lie dead), a suspected cell is a lead, one seen again is no lead, old leads go."""
    for uid, cell in before.items():
        if uid in ai.memory or uid not in ai._armed:  # noqa: SLF001 - the AI's own memory
            continue
        body = state.units.get(uid)
        if body is not None and body.status == "dead" and seen[body.pos[1], body.pos[0]]:
            ai.leads.pop(uid, None)  # the side sees it dead
        else:
            ai.leads[uid] = (cell, state.phase)
    for unit in in_sight:
        ai.leads.pop(unit.id, None)
    for uid, cell in ai.ruleset.suspects(state, ai.side):
        ai.leads[uid] = (tuple(cell), state.phase)
    for uid in [u for u, (_, phase) in ai.leads.items() if phase < state.phase - LEAD_PHASES]:
        del ai.leads[uid]


def clues(ai: "Ai", state: State, in_sight: tuple[Unit, ...]) -> Clues:
    """The leads freshest first (ties by cell), the searched cells and the cells ever seen, for the ruleset's
    `ai_hunt`."""
    shape = (state.grid.height, state.grid.width)
    if ai.searched is not None and ai.searched.shape == shape:
        searched = ai.searched.view()
    else:
        searched = np.full(shape, -1, dtype=np.int32)  # nothing searched yet (made for good when it searches)
    searched.setflags(write=False)
    explored = ai._explored.view() if ai._explored is not None else None  # noqa: SLF001 - the AI's own memory
    if explored is not None:
        explored.setflags(write=False)
    leads = sorted(set(ai.leads.values()), key=lambda lead: (-lead[1], lead[0]))
    return Clues(leads=tuple(leads), searched=searched, in_sight=in_sight, explored=explored)


def hunted(ai: "Ai", state: State, hunt: Hunt) -> None:
    """The AI gives a hunting command: the cells it searches are searched this phase."""
    if hunt.searched is None:
        return
    shape = (state.grid.height, state.grid.width)
    if ai.searched is None or ai.searched.shape != shape:
        ai.searched = np.full(shape, -1, dtype=np.int32)
    ai.searched[hunt.searched] = state.phase
