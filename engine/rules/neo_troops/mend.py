"""§19 in play: repairs and regeneration as Stationary actions (N-19.2, N-19.4), kept on the battle record.

`Act(unit, "repair", target=patient, option=system)` works on a damaged system (cloak, mapping, head, armour, or
a damaged item) of the unit itself or of an adjacent ally. The first action rolls how many it takes
(`repair_actions`, d6 × 10: d6 minutes of 6-second actions); they must be consecutive actions of one helper:
anything else the helper does sets the count back to 0 (the time rolled stays). `Act(unit, "rest")` is a quiet
action of a wounded varan that is not bleeding: every `regen_turns` (100) of them in a row give +1 HP; an
incapacitated varan rests at its slot, passed over, and is back in action with its first HP.
"""

from __future__ import annotations

import attrs

from engine.core.commands import Act, Command, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Noted, Resolved, UnitChanged
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.rules.neo_troops import actions, battle, care
from engine.rules.neo_troops.unit import Trooper

SYSTEMS = ("cloak", "mapping", "head", "armour")


def damaged(t: Trooper) -> list[str]:
    """What of it may be repaired now: damaged systems, then damaged items (destroyed ones wait, N-18.4)."""
    return [x for x in (*SYSTEMS, *(p.id for p in t.parts)) if care.is_damaged(t, x)]


def _check(unit: Unit, patient: Unit | None, system: str | None) -> Rejected | None:
    why = actions.stationary(unit)
    if why is not None:
        return why
    if patient is None:
        return Rejected("no_target", "Say whose system to repair")
    if patient.id != unit.id and (patient.side != unit.side
                                  or max(abs(unit.pos[0] - patient.pos[0]), abs(unit.pos[1] - patient.pos[1])) != 1):
        return Rejected("not_adjacent", "A repair is made by the unit itself or an adjacent ally (N-19.2)")
    if patient.status == "dead":
        return Rejected("no_target", f"{patient.name} is dead")
    if system not in damaged(patient.record):
        return Rejected("not_damaged", f"{patient.name}'s {system or 'system'} is not damaged "
                                       "(destroyed systems are replaced after the mission)")
    return None


def repair(rs, state: State, unit: Unit, target: str | None, system: str | None, dice: Dice) -> Rejected | list[Event]:
    patient = state.units.get(target or unit.id)
    why = _check(unit, patient, system)
    if why is not None:
        return why
    b = battle.battle(state)
    job = next((r for r in b.repairs if r.unit == patient.id and r.system == system), None)
    rolls = ()
    if job is None:
        started = care.start_repair(dice, patient.record, system, rs.settings)
        job, roll = started
        rolls = (roll,)
    if job.helper != unit.id:  # a new helper starts from nothing
        job = attrs.evolve(job, helper=unit.id, done=0)
    new, fixed = care.repair_action(job, patient.record)
    jobs = tuple(r for r in b.repairs if not (r.unit == patient.id and r.system == system))
    jobs += (new,) if new is not None else ()
    name = rs.name(system) if system not in SYSTEMS else system
    text = (f"{unit.name} repairs {patient.name}'s {name}: working again" if new is None
            else f"{unit.name} repairs {patient.name}'s {name} ({new.done}/{new.needed})")
    events: list[Event] = [
        Resolved(actor=unit.id, action="repair", target=patient.id, rolls=rolls,
                 outcome="repaired" if new is None else f"{new.done}/{new.needed}", text=text),
        Noted(record=attrs.evolve(b, repairs=jobs), cause="repair")]
    if fixed != patient.record:
        events.append(UnitChanged(unit=patient.id, changes=actions.frame_changes(patient, fixed), cause="repaired"))
    return events + battle.end_slot(rs, state, events, dice, cause="repairs")


def rest(rs, state: State, unit: Unit, dice: Dice) -> Rejected | list[Event]:
    why = actions.stationary(unit)
    if why is not None:
        return why
    t: Trooper = unit.record
    if not t.varan:
        return Rejected("no_regeneration", f"{unit.name} does not regenerate (varans do, N-19.1)")
    if t.bleeding is not None:
        return Rejected("bleeding", f"{unit.name} bleeds: regeneration waits for first aid (N-19.4)")
    if t.hp >= t.hp_max:
        return Rejected("unhurt", f"{unit.name} has all its HP")
    b = battle.battle(state)
    events = rested(rs, b, unit, "rests")
    return events + battle.end_slot(rs, state, events, dice, cause="rests")


def rested(rs, b: battle.Battle, unit: Unit, verb: str) -> list[Event]:
    """One more own turn of rest counted for `unit`: the count on the record and, at the last, its HP."""
    so_far = dict(b.rests).get(unit.id, 0)
    after, count = care.rest(unit.record, so_far, rs.settings)
    rests = tuple(r for r in b.rests if r[0] != unit.id) + (((unit.id, count),) if count else ())
    regen = after.hp > unit.record.hp
    text = (f"{unit.name} regenerates 1 HP ({after.hp}/{after.hp_max})" if regen
            else f"{unit.name} {verb} ({count}/{rs.settings.regen_turns} for 1 HP)")
    events: list[Event] = [Resolved(actor=unit.id, action="rest", rolls=(), outcome="regenerated" if regen
                                    else f"{count}/{rs.settings.regen_turns}", text=text),
                           Noted(record=attrs.evolve(b, rests=rests), cause="rest")]
    if regen:
        events.append(UnitChanged(unit=unit.id, changes=actions.frame_changes(unit, after), cause="regenerates"))
    return events


def passed_over(rs, b: battle.Battle, unit: Unit) -> list[Event]:
    """An incapacitated varan, not bleeding, rests at its slot (N-19.4: it must regenerate 1 HP to act)."""
    t: Trooper = unit.record
    if not t.varan or t.status != "incapacitated" or t.bleeding is not None:
        return []
    return rested(rs, b, unit, "lies still")


def interrupted(b: battle.Battle, unit: Unit, command: Command) -> tuple[tuple, tuple]:
    """The helper did anything else: its repair count goes back to 0, and its rest is broken (the battle
    record's `repairs` and `rests` after it)."""
    act = command.action if isinstance(command, Act) else ""
    jobs = tuple(attrs.evolve(r, done=0) if r.helper == unit.id and r.done and act != "repair" else r
                 for r in b.repairs)
    rests = b.rests if act == "rest" else tuple(r for r in b.rests if r[0] != unit.id)
    return jobs, rests


def options(rs, state: State, unit: Unit) -> list[Option]:
    out: list[Option] = []
    if actions.stationary(unit) is not None:
        return out
    b = battle.battle(state)
    for p in sorted(state.units.values(), key=lambda u: (u.id != unit.id, u.id)):
        if p.side != unit.side or p.record is None:
            continue
        for system in damaged(p.record):
            if _check(unit, p, system) is not None:
                continue
            job = next((r for r in b.repairs if r.unit == p.id and r.system == system), None)
            done = (f"{job.done if job.helper == unit.id else 0}/{job.needed}" if job
                    else rs.settings.repair_actions.text)
            name = rs.name(system) if system not in SYSTEMS else system
            out.append(Option("Care", f"Repair {p.name}'s {name} ({done})",
                              Act(unit=unit.id, action="repair", target=p.id, option=system),
                              "Stationary: consecutive actions by one helper (N-19.2)"))
    t: Trooper = unit.record
    if t.varan and t.bleeding is None and t.hp < t.hp_max:
        so_far = dict(b.rests).get(unit.id, 0)
        out.append(Option("Care", f"Rest ({so_far}/{rs.settings.regen_turns} for 1 HP)",
                          Act(unit=unit.id, action="rest"), "Stationary: uninterrupted rest regenerates (N-19.4)"))
    return out


def ai_mend(rs, state: State, unit: Unit, in_sight: list[Unit]) -> Act | None:
    """With no hostile in sight: repair a damaged cloak (its own first), then rest on the last HP."""
    if any(u.conscious and u.side in battle.SIDES for u in in_sight):
        return None
    for option in options(rs, state, unit):
        if option.command.action == "repair" and option.command.option == "cloak":
            return option.command
    t: Trooper = unit.record
    if t.hp == 1 < t.hp_max:
        return next((o.command for o in options(rs, state, unit) if o.command.action == "rest"), None)
    return None
