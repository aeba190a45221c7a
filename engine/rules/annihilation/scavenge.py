"""The AI picks up what lies on the ground (A-12.2, settings `ground_items`; floor.py): a unit with no weapon it can
fire (it let go of it, or has none) goes for a loaded weapon or a grenade, and an armed unit with no shot for a
grenade, on a square its side sees, if its TUs pay the walk and the pick-up (floor → hand); an armed unit's walk
keeps a snap shot's TUs and its reserve (`Budget.step`). It walks there, then picks it up with the player's own
command, `Act("pick_up")`. Deterministic: the cheapest walk, ties to the lower place, then the first thing there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.commands import Act, Command, Move, Rejected
from engine.core.model import State, Unit
from engine.map import levels
from engine.rules.annihilation.board import Dropped, field_of
from engine.rules.annihilation.floor import PICK, _hold, here
from engine.rules.annihilation.soldier import gun, loads

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation


def armed(rs: Annihilation, unit: Unit) -> bool:
    """It holds a weapon with rounds in it, or one it carries the rounds for."""
    g = gun(unit.record, rs.book)
    return g is not None and g.id in rs.book.weapons and (g.rounds > 0 or bool(loads(rs.book, unit.record, g)))


def _useful(rs: Annihilation, unit: Unit, d: Dropped, unarmed: bool) -> bool:
    item = d.item
    if item.id in rs.book.explosives:
        return rs.book.explosives[item.id].trigger != "mine"
    return unarmed and item.id in rs.book.weapons and item.rounds > 0


def grab(rs: Annihilation, state: State, unit: Unit, stage: str) -> Command | None:
    """The unarmed at the AI's "first" stage, the armed with no shot at "idle": a pick-up here, or a walk to one."""
    if not rs.book.settings.ground_items or not field_of(state).ground:
        return None
    unarmed = not armed(rs, unit)
    if unarmed != (stage == "first"):
        return None
    f = unit.record.fighter
    pick = rs.book.costs["floor_to_hand"].tu
    for k, d in here(state, unit):
        if _useful(rs, unit, d, unarmed) and not isinstance(_hold(rs, unit, d.item), Rejected) and f.tu_left >= pick:
            return Act(unit=unit.id, action=PICK, option=str(k))
    budget = rs.budget(state, unit)
    reach = min((budget.moves_left if unarmed else budget.step), f.tu_left - pick)
    if reach <= 0:
        return None
    seen = rs.sight_levels(state, unit.side)  # it goes only for what its side sees lying there
    taken = {(*u.pos, u.z) for u in state.units.values() if u.id != unit.id and u.status != "dead"}
    goals = sorted({(*d.cell, d.z) for d in field_of(state).ground
                    if _useful(rs, unit, d, unarmed) and seen[d.z][d.cell[1], d.cell[0]]
                    and (*d.cell, d.z) not in taken and not isinstance(_hold(rs, unit, d.item), Rejected)})
    if not goals:
        return None
    start = (*unit.pos, unit.z)
    paths = levels.paths_within(state.grid, start, reach, taken, budget.walk)
    found = [(levels.cost(state.grid, budget.walk, start, paths[g]), g) for g in goals if g in paths and paths[g]]
    found = [(c, g) for c, g in found if c <= reach]
    if not found:
        return None
    path = paths[min(found)[1]]
    cells, zs = levels.split(list(path))
    return Move(unit=unit.id, path=cells, levels=zs if state.grid.storeys else ())
