"""The med-kit on the map (9): `Act(action="medkit", target=patient, option=treatment)` on an adjacent entity
or oneself, for one of: the penalty of one wound (`minor`, `severe`, `mortal`, `lethal`), `stabilise` a Dying
entity, `cure` its poison. The cost, 4d6 AP (3d6 with MEDIC!), is rolled when it starts; what the user cannot
pay now carries into its next turns as a continuing action, and the treatment is given when it is paid. A kit
has 1 use, `3 + floor(Int/2)` with MEDIC!; the belt loses the kit when its uses are spent."""

from __future__ import annotations

import attrs

from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved
from engine.core.geometry import distance
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.rules.xxxzone import actions, battle, hacking, status
from engine.rules.xxxzone.character import derive
from engine.rules.xxxzone.units import changed
from engine.rules.xxxzone.wounds import penalty

TREATMENTS = ("stabilise", "lethal", "mortal", "severe", "minor", "cure")
WORDS = {"stabilise": "stabilise the Dying", "cure": "cure the poison", "minor": "treat a Minor wound",
         "severe": "treat a Severe wound", "mortal": "treat a Mortal wound", "lethal": "treat a Lethal wound"}


def uses(book, c) -> int:
    """Med-kit uses carried: the kit in use's left, then the others'."""
    per = derive(c.op, book).medkit_uses
    kits = c.belt.count("medkit")
    return max(0, kits * per - c.medkit_used) if kits else 0


def _cost_words(book, c) -> str:
    a = book.actions["use_medkit"]
    return next((f for ab, f in a.cost_with.items() if ab in c.op.abilities), a.cost).text


def _refused(rs, state: State, unit: Unit, patient: Unit | None, choice: str) -> Rejected | None:
    book, c = rs.book, unit.record
    if "medkit" not in c.belt:
        return Rejected("no_medkit", f"{unit.name} carries no med-kit")
    if patient is None:
        return Rejected("no_target", "No such patient")
    near = status.can_treat(unit.pos, patient.pos)
    if near is not None:
        return near
    if choice not in TREATMENTS:
        return Rejected("no_treatment", f"A med-kit does one of: {', '.join(TREATMENTS)}")
    got = status.treat(book, patient.record.condition, choice)  # type: ignore[arg-type]
    return got if isinstance(got, Rejected) else None


def use(rs, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    patient = state.units.get(cmd.target or unit.id)
    choice = cmd.option or ""
    bad = _refused(rs, state, unit, patient, choice)
    if bad is not None:
        return bad
    got = actions.begin(dice, book, c.turn, unit.id, "use_medkit", frozenset(c.op.abilities), target=patient.id,
                        option=choice)
    if isinstance(got, Rejected):
        return got
    turn, cost, done = got
    user = attrs.evolve(c, turn=turn)
    head = f"{unit.name} uses a med-kit on {patient.name if patient.id != unit.id else 'itself'}: {cost.formula} AP"
    if not done:
        text = f"{head}; {turn.continuing.remaining} AP to go next turn ({WORDS[choice]})"
        return [Resolved(actor=unit.id, action="medkit", target=patient.id, rolls=(cost,), outcome="continuing",
                         text=text), changed(book, unit, user, "starts a med-kit")]
    return _treat(rs, state, unit, user, patient, choice, dice, head, (cost,))


def complete(rs, state: State, unit: Unit, c, cont, dice: Dice) -> list[Event]:
    """A continuing action paid for at the start of the user's turn: a med-kit's treatment, if the patient is
    still in reach, or a hack's or a lock-picking's attempt."""
    if cont.action in hacking.JOBS:
        return hacking.complete(rs, state, unit, c, cont, dice)
    if cont.action != "use_medkit":
        return []
    patient = state.units.get(cont.target)
    bad = _refused(rs, state, attrs.evolve(unit, record=c), patient, cont.option)
    head = f"{unit.name} finishes the med-kit on {patient.name if patient is not None else cont.target}"
    if bad is not None:
        return [Resolved(actor=unit.id, action="medkit", target=cont.target, outcome="failure",
                         text=f"{head}: {bad.reason[0].lower()}{bad.reason[1:]}")]
    return _treat(rs, state, unit, c, patient, cont.option, dice, head, ())


def _treat(rs, state: State, unit: Unit, user, patient: Unit, choice: str, dice: Dice, head: str,
           rolls) -> list[Event]:
    book = rs.book
    per = derive(user.op, book).medkit_uses
    used = user.medkit_used + 1
    belt = list(user.belt)
    if used >= per:
        belt.remove("medkit")
        used = 0
    user = attrs.evolve(user, belt=tuple(belt), medkit_used=used)
    rec = user if patient.id == unit.id else patient.record
    before = penalty(book, rec.condition.wounds)
    cond = status.treat(book, rec.condition, choice)  # type: ignore[arg-type]
    cond, woke = status.wake(dice, book, battle.vitals(book, rec), cond)
    words = [WORDS[choice]]
    if choice in ("minor", "severe", "mortal", "lethal"):
        words.append(f"penalty {before} → {penalty(book, cond.wounds)}")
    if woke is not None:
        words.append("wakes" if not cond.unconscious else "stays unconscious")
        rolls = tuple(rolls) + (woke,)
    rec = attrs.evolve(rec, condition=cond)
    if patient.id == unit.id:
        user = rec
    left = uses(book, user)
    text = f"{head}; {', '.join(words)}; {left} med-kit use{'s' if left != 1 else ''} left"
    out: list[Event] = [Resolved(actor=unit.id, action="medkit", target=patient.id, rolls=tuple(rolls),
                                 outcome="success", text=text), changed(book, unit, user, "uses a med-kit")]
    if patient.id != unit.id:
        out.append(changed(book, patient, rec, "treated"))
    return out


def options(rs, state: State, unit: Unit) -> list[Option]:
    book, c = rs.book, unit.record
    if "medkit" not in c.belt:
        return []
    out = []
    cost = _cost_words(book, c)
    for p in sorted(state.units.values(), key=lambda u: (u.id != unit.id, u.id)):
        if p.record is None or p.status == "dead" or distance(unit.pos, p.pos) > 1:
            continue
        for choice in TREATMENTS:
            if not isinstance(status.treat(book, p.record.condition, choice), Rejected):  # type: ignore[arg-type]
                who = "self" if p.id == unit.id else p.name
                out.append(Option("Med-kit", f"Med-kit → {who}: {WORDS[choice]} ({cost} AP)",
                                  Act(unit=unit.id, action="medkit", target=p.id, option=choice),
                                  note=f"{uses(book, c)} uses left · rolled when it starts"))
    return out
