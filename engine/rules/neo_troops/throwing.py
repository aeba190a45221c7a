"""N-3.5 in play: a grenade thrown with the kernel's `Throw(unit, item, cell)`, the attack of a Move action. It needs
no to-hit roll: it lands in the aimed cell, in the thrower's sight and within 2 × its long range, and its blast
throws one die at the AV of every creature in the 3 × 3 (friends too), with the cover between each and the blast
centre; past long range each die is rolled as two, the lower kept. A carried grenade is thrown without a weapon
switch (N-13.2: drawing a grenade beside a main weapon costs nothing)."""

from __future__ import annotations

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, UnitChanged
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core.ruleset import Row, ThrowPreview
from engine.rules.neo_troops import actions, battle, damage, falling, ground, loadout, odds, shooting
from engine.rules.neo_troops.movement import range_cells
from engine.rules.neo_troops.unit import Trooper


def carried(rs, t: Trooper) -> list[str]:
    """The explosives the unit may throw now: carried, not destroyed, not thrown yet."""
    return [p.id for p in t.parts if p.kind == "weapon" and p.state != "destroyed" and rs.weapons[p.id].blast
            and loadout.shots_left(t, p.id) > 0]


def _aim(rs, state: State, unit: Unit, item: str, cell: Pos) -> tuple[bool, list[Unit]] | Rejected:
    """Whether the throw may be made now, and then (past long range, the creatures in the blast)."""
    t: Trooper = unit.record
    if t.attacked:
        return Rejected("acted", f"{unit.name} has attacked: the action is over")
    if t.ran:
        return Rejected("ran", "A Run allows no attack but a melee at its end (N-8.1)")
    if item not in carried(rs, t):
        return Rejected("not_throwable", f"{unit.name} carries no {rs.name(item).lower()} to throw")
    if not state.grid.inside(cell):
        return Rejected("no_cell", f"{cell[0]},{cell[1]} is off the map")
    w = rs.weapons[item]
    far = shooting.throw_at(w, range_cells(unit.pos, cell), state.grid.sees(unit.pos, cell, battle.SIGHT),
                            rs.settings)
    if isinstance(far, Rejected):
        return far
    cells = shooting.blast_cells(cell, w)
    inside = sorted((u for u in state.units.values() if u.pos in cells and u.status != "dead"),
                    key=lambda u: (range_cells(u.pos, cell), u.id))
    return far, inside


def _target(rs, state: State, u: Unit, cell: Pos) -> shooting.Target:
    return ground.target_of(state.grid, cell, u.record, u.pos, rs.tables, stationary=battle.stationary(u))


def throw(rs, state: State, unit: Unit, item: str, cell: Pos, dice: Dice) -> Rejected | list[Event]:
    found = _aim(rs, state, unit, item, cell)
    if isinstance(found, Rejected):
        return found
    far, inside = found
    w = rs.weapons[item]
    thrown = attrs.evolve(loadout.spend(unit.record, item, 1), attacked=True)
    records = {u.id: u.record for u in inside} | {unit.id: thrown}
    attacks = shooting.explosion(dice, unit.id, [_target(rs, state, u, cell) for u in inside], far)
    hit_rolls, said, struck = [], [], 0
    for u, a in zip(inside, attacks):
        if not a.hits:
            continue
        struck += 1
        after, hits = damage.apply(dice, {u.id: a.hits * w.hits}, records, w.save_mod, rs.tables)
        records[u.id] = after[u.id]
        hit_rolls += [r for h in hits for r in h.rolls]
        said += [f"{u.name}: {e}" for h in hits for e in h.effects]
    text = (f"{unit.name} throws a {w.name.lower()} at {cell[0]},{cell[1]}: {struck} of {len(inside)} hit"
            + (f" ({'; '.join(said)})" if said else ""))
    fall = falling.collapse(rs, state, unit.id, shooting.blast_cells(cell, w), records, dice)  # N-3.5
    records = fall.records
    near = {u.id for u in inside}  # the blast's in its order (as before falls), then those only a fall reached
    hurt = [u for u in inside if u.id != unit.id and records[u.id] != u.record] + [
        u for u in state.units.values() if u.id not in near and u.id != unit.id and u.id in records
        and records[u.id] != u.record]
    events: list[Event] = [
        Resolved(actor=unit.id, action="throw", cell=cell, weapon=item,
                 rolls=(*(a.roll for a in attacks), *hit_rolls), outcome=f"{struck} hit", text=text),
        *fall.events,
        UnitChanged(unit=unit.id, changes=actions.frame_changes(unit, records[unit.id]), cause="throws"),
        *[UnitChanged(unit=u.id, changes=actions.frame_changes(u, records[u.id]), cause="blast") for u in hurt]]
    return events + battle.end_slot(rs, state, events, dice)


def preview(rs, state: State, thrower: str, item: str, cell: Pos) -> ThrowPreview | Rejected:
    """Exact odds: it lands where aimed; each creature in the blast, its chance of a hit and of an unsaved one."""
    unit = state.units.get(thrower)
    if unit is None:
        return Rejected("no_unit", f"No unit {thrower!r}")
    found = _aim(rs, state, unit, item, cell)
    if isinstance(found, Rejected):
        return found
    far, inside = found
    w = rs.weapons[item]
    hits = []
    for u in inside:
        av = _target(rs, state, u, cell).av
        hit = odds.hits(1, 0 if far else 1, av)
        through = odds.unsaved(hit, u.record.save_now, w.save_mod, w.hits)
        hits.append((u.id, Row(u.name, f" AV {av}: hit {float(hit.get(1, 0)) * 100:.0f}% · "
                                       f"unsaved {float(1 - through.get(0, 0)) * 100:.0f}% ")))
    lines = (Row("Lands", " where aimed: no roll (N-3.5) "),
             Row("Blast", f" 3×3 · a die each{' (2, the lower: past long range)' if far else ''} "))
    fall = falling.falls(rs, state, shooting.blast_cells(cell, w))
    if fall:  # what comes down throws its own die at everyone round it (N-3.5)
        lines += (Row("Falls", f" {len(fall)}, a die round each "),)  # 30 columns
    return ThrowPreview(p_land=1.0, lines=lines, hits=tuple(hits))

