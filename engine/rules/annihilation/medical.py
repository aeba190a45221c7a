"""Healing in play (section 20): `Act("treat", target=patient, option="bandage:left_leg" | "heal" | "stimulant" |
"pain_killer")` gives one dose from a kit the healer carries, to itself or a unit in one of the eight squares around
it (A-13.2). The kit must be in a hand: it is brought out from the belt (4 TU) and put back as part of the action,
as a grenade is brought out for a throw. Observers who beat the healer's reaction score fire first (A-14.9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.content import missions
from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, UnitChanged
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.rules.annihilation import healing
from engine.rules.annihilation.combat import react
from engine.rules.annihilation.inventory import Carried
from engine.rules.annihilation.soldier import Soldier, changes, fighter_of
from engine.rules.annihilation.space import between

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation

WORDS = {"bandage": "spray bandage", "heal": "heal", "stimulant": "stimulant", "pain_killer": "pain killer"}


@attrs.frozen
class Plan:
    patient: Unit
    dose: str
    part: str | None
    kit: Carried
    bring_out: int  # TU to bring the kit to a hand
    tu: int  # the dose's own TU


def kits(s: Soldier) -> list[Carried]:
    return [c for c in s.kit if c.doses and c.place != "floor"]


def _kit(rs: Annihilation, unit: Unit, dose: str) -> Carried | None:
    """The kit with a dose of that kind left that gives it fastest (a medi kit before an aid kit)."""
    f = unit.record.fighter
    have = [c for c in kits(unit.record) if dict(c.doses).get(dose, 0) > 0]
    return min(have, key=lambda c: (healing.dose_tu(rs.book, f, healing.Kit(c.id, c.doses)), c.id), default=None)


def plan(rs: Annihilation, state: State, unit: Unit, cmd: Act) -> Rejected | Plan:
    dose, _, part = (cmd.option or "").partition(":")
    if dose not in WORDS:
        return Rejected("bad_dose", f"A dose is one of {', '.join(WORDS)} (bandage:<body part>)")
    patient = state.units.get(cmd.target or unit.id)
    if patient is None or patient.record is None:
        return Rejected("no_target", "Nobody to treat there")
    if missions.hostile(unit.side, patient.side):
        return Rejected("hostile", f"{patient.name} is an enemy")
    if patient.status == "dead":
        return Rejected("dead", "No dose helps the dead")
    if between(rs.book.settings.grid, unit.pos, patient.pos) > 1:
        return Rejected("too_far", f"A dose reaches {unit.name}'s square and the eight around it")
    f = patient.record.fighter
    if dose == "bandage" and (part not in rs.book.body or f.part(part).open < 1):
        return Rejected("no_wound", f"{patient.name} has no open wound there: choose a wounded body part")
    if not kits(unit.record):
        return Rejected("no_kit", f"{unit.name} carries no medical kit")
    kit = _kit(rs, unit, dose)
    if kit is None:
        return Rejected("no_dose", f"No {WORDS[dose]} dose left in {unit.name}'s kits")
    out = Plan(patient, dose, part or None, kit, rs.book.costs["belt_to_hand"].tu,
               healing.dose_tu(rs.book, unit.record.fighter, healing.Kit(kit.id, kit.doses)))
    left = unit.record.fighter.tu_left
    if out.bring_out + out.tu > left:
        return Rejected("no_tu", f"A {WORDS[dose]} dose costs {out.bring_out + out.tu} TU ({out.bring_out} to bring "
                                 f"out the {rs.name(kit.id)}, {out.tu} the dose); {unit.name} has {left} left")
    return out


def treat(rs: Annihilation, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    p = plan(rs, state, unit, cmd)
    if isinstance(p, Rejected):
        return p
    f = fighter_of(unit)
    hurt, pre = react(rs, state, dice, unit, attrs.evolve(f, tu_left=f.tu_left - p.bring_out - p.tu), unit.pos,
                      "treating")
    if hurt.status != "awake":  # step 4: put down first, the treatment is cancelled and its TUs stay spent
        return pre + [UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(
            unit.record, fighter=attrs.evolve(hurt, tu_left=0))), cause="treatment cancelled: put down first")]
    now = fold(state, pre) if pre else state
    healer = attrs.evolve(hurt, tu_left=f.tu_left - p.bring_out)
    patient = now.units[p.patient.id]
    itself = patient.id == unit.id
    done = healing.treat(rs.book, dice, healer, healing.Kit(p.kit.id, p.kit.doses), p.dose,
                         patient=None if itself else fighter_of(patient), part=p.part, at=unit.pos,
                         patient_at=patient.pos)
    if isinstance(done, Rejected):
        return done
    kit = attrs.evolve(p.kit, doses=done.kit.doses)
    mine = attrs.evolve(unit.record, fighter=done.healer, kit=tuple(kit if c is p.kit else c for c in unit.record.kit))
    left = dict(kit.doses)[p.dose]
    gives = "takes" if itself else f"gives {patient.name}"
    events = pre + [Resolved(actor=unit.id, action="treat", target=patient.id, rolls=done.rolls, outcome="done",
                             text=f"{unit.name} {gives} a {WORDS[p.dose]} dose from the {rs.name(kit.id)} "
                                  f"({p.bring_out + p.tu} TU, {left} left): {done.text}"),
                    UnitChanged(unit=unit.id, changes=changes(unit, mine), cause=f"{WORDS[p.dose]} dose")]
    if not itself:
        events.append(UnitChanged(unit=patient.id, changes=changes(patient, attrs.evolve(
            patient.record, fighter=done.patient)), cause=f"treated: {WORDS[p.dose]}"))
    return events


def options(rs: Annihilation, state: State, unit: Unit) -> list[tuple[str, Act]]:
    """(label, command) for every dose the unit could give now, to itself first, then to those around it."""
    if not kits(unit.record):
        return []
    near = sorted((u for u in state.units.values() if u.id != unit.id and u.record is not None
                   and u.status != "dead" and not missions.hostile(unit.side, u.side)
                   and between(rs.book.settings.grid, unit.pos, u.pos) <= 1), key=lambda u: u.id)
    out = []
    for patient in [unit, *near]:
        f = patient.record.fighter
        wanted = [f"bandage:{k}" for k, part in f.wounds if part.open]
        if f.health < f.character.stats.health and not f.beyond_saving:
            wanted.append("heal")
        if f.stun or f.status == "unconscious":
            wanted.append("stimulant")
        if f.open_on(rs.book, "torso") > f.pain_killed:
            wanted.append("pain_killer")
        for option in wanted:
            cmd = Act(unit=unit.id, action="treat", target=patient.id, option=option)
            p = plan(rs, state, unit, cmd)
            if isinstance(p, Rejected):
                continue
            dose = WORDS[p.dose].capitalize()
            what = f"{rs.book.body[p.part].name}" if p.part else ""
            whom = "self" if patient.id == unit.id else patient.name
            out.append((f"{dose} → {whom}{' ' + what if what else ''} ({p.bring_out + p.tu} TU, "
                        f"{dict(p.kit.doses)[p.dose]} left)", cmd))
    return out
