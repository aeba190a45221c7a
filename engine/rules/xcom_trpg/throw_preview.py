"""The odds of a throw before it is made (8.10), for the client's throw panel: the same checks as the throw
itself, the chance the Strength roll and the luck check land it on the aimed cell, where it goes if not, and
the damage each unit in the blast would take after armour."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from engine.core.commands import Rejected
from engine.core.model import State, Unit
from engine.map.grid import Pos, distance
from engine.core.ruleset import Row, ThrowPreview
from engine.rules.xcom_trpg import scale
from engine.rules.xcom_trpg.combat import armour_damage, crit_floor, effective_stat
from engine.rules.xcom_trpg.record import soldier
from engine.rules.xcom_trpg.tables import xcom

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg

FACES = np.arange(1, 101)


def problem(rs: XcomTrpg, state: State, unit: Unit, item: str, cell: Pos) -> Rejected | None:
    """Why `unit` cannot throw `item` at `cell`: the throw itself and its preview ask the same."""
    weapon = xcom(rs.content).weapons.get(item)
    if weapon is None or not weapon.thrown:
        return Rejected("not_throwable", f"{item!r} is not something to throw")
    if unit.items.get(item, 0) <= 0:
        return Rejected("no_item", f"{unit.name} carries no {weapon.name.lower()}")
    if weapon.alien and not xcom(rs.content).races[unit.race].alien:
        return Rejected("biometric_lock", f"The {weapon.name.lower()} refuses {unit.name}'s hands (8.4)")
    reach, d = rs.throw_range(state, unit, item), distance(unit.pos, cell)
    if not state.grid.inside(cell):
        return Rejected("off_map", f"{cell} is off the map")
    if d > reach:
        return Rejected("out_of_range", f"Target is {d} cells away; {unit.name} throws {reach} (Strength×2)")
    if not state.grid.sees(unit.pos, cell, rs.rules.vision_radius):
        return Rejected("no_line_of_sight", f"{unit.name} cannot see {cell}")
    return None


def preview(rs: XcomTrpg, state: State, thrower: str, item: str, cell: Pos) -> ThrowPreview | Rejected:
    unit = state.units.get(thrower)
    if unit is None:
        return Rejected("unknown_unit", f"There is no unit {thrower!r}")
    if soldier(unit).actions < 1:
        return Rejected("no_actions", f"{unit.name} has no actions left this turn")
    found = problem(rs, state, unit, item, cell)
    if found is not None:
        return found
    weapon = xcom(rs.content).weapons[item]
    reach, d = rs.throw_range(state, unit, item), distance(unit.pos, cell)
    seen = rs.visible(state, unit.side)
    declared = next((u for u in state.units_at(cell) if u.side != unit.side and u.status != "dead"
                     and seen[cell[1], cell[0]]), None)
    low = crit_floor(rs.content, rs.rules, declared)
    luck = float(np.mean(effective_stat(unit, "luck") * FACES >= rs.rules.luck_threshold))
    p_crit = float(np.mean(FACES >= low))
    p_normal = float(np.mean((FACES > rs.rules.crit_failure_max) & (FACES < low)))
    p_land = p_crit + p_normal * luck
    lines = (Row("Lands", f"{100 * p_land:.0f}% on {cell[0]},{cell[1]} · range {d}/{reach}"),
             Row("Astray", f"{100 * (1 - p_land):.0f}%: to one of the 8 cells round it"))
    hits = []
    for target in (u for c in rs.blast(state, item, cell) for u in state.units_at(c) if u.status != "dead"):
        damage = armour_damage(rs.content, weapon, target)
        dodge = (scale.between(rs.rules, distance(unit.pos, target.pos)) >= 2 and target.conscious
                 and rs.target_sees(state, target, unit))
        hits.append((target.id, Row(target.name, f"{damage} dmg" + (", may dodge" if dodge else ""))))
    return ThrowPreview(p_land=p_land, lines=lines, hits=tuple(hits))
