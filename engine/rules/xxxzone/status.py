"""Section 9: statuses over turns (start and end of an entity's own turn, a new round) and the med-kit.

End of an own turn, in order: poison or toxin (an automatic wound, then a Fort check that ends it), fire (a Minor
wound, armour ignored), the Disoriented count, the Dying countdown. Start of an own turn: the AP it gets.
"""

from __future__ import annotations

from typing import Literal

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.core.geometry import Pos, distance
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.checks import roll_formula
from engine.rules.xxxzone.wounds import Condition, Vitals, Wounding, fort_check, penalty, turn_ap, will_test, wound

Treatment = Literal["minor", "severe", "mortal", "lethal", "stabilise", "cure"]


# A condition that does not change is handed on as the same object, not copied: most units start and end their
# turns unhurt, and the state hash and the unit's derived fields reuse what they found for an unchanged one.

def new_round(c: Condition) -> Condition:
    """A second failed Minor test counts only within the same round."""
    return attrs.evolve(c, minor_fails=0) if c.minor_fails else c


def start_turn(c: Condition, max_ap: int) -> tuple[Condition, int]:
    ap = turn_ap(c, max_ap)
    if c.ap_next == "full" and not c.stunned and all(gone for *_, gone in c.will_failed):
        return c, ap
    failed = tuple((caused, pen, True) for caused, pen, _ in c.will_failed)  # their AP are gone from this turn
    return attrs.evolve(c, ap_next="full", stunned=max(0, c.stunned - 1), will_failed=failed), ap


def end_turn(dice: Dice, book: Book, v: Vitals, c: Condition) -> Wounding:
    rolls: list[Roll] = []
    notes: list[str] = []
    if c.will_failed:  # "within the past turn": Inspire Allies comes too late after this
        c = attrs.evolve(c, will_failed=())

    def take(tier: str, why: str, poison: bool = False) -> None:
        nonlocal c
        got = wound(dice, book, v, c, tier, own_turn=True, poison_wound=poison)  # type: ignore[arg-type]
        c = got.condition
        rolls.extend(got.rolls)
        notes.extend([f"{why}: {tier} wound", *got.notes])

    if c.poison and not c.dead:
        toxic = c.poison in ("toxified", "lethal_toxic")
        take("severe" if toxic else "minor", c.poison.replace("_", " "), poison=True)
        if not c.dead:
            extra = -book.settings.toxin_fortitude_penalty if toxic else 0
            f = fort_check(dice, book, v, f"{c.poison.replace('_', ' ')}: Fort to end it", penalty(book, c.wounds),
                           poison=True, extra=extra)
            rolls.append(f.roll)
            if f.passed:
                c = attrs.evolve(c, poison="")
                notes.append("the poison wears off")
    if c.on_fire and not c.dead:
        take("minor", "on fire")
        c = attrs.evolve(c, on_fire=c.on_fire - 1)
        if not c.on_fire:
            notes.append("the fire goes out")
    if c.disoriented:
        c = attrs.evolve(c, disoriented=max(0, c.disoriented - 1))
    if c.dying and not c.dead:
        c = attrs.evolve(c, dying=c.dying - 1, dead=c.dying == 1)
        if c.dead:
            notes.append("Dead: the Dying countdown ran out")
    return Wounding(condition=c, rolls=tuple(rolls), notes=tuple(notes))


def set_on_fire(dice: Dice, book: Book, who: str, c: Condition) -> tuple[Condition, Roll | None]:
    """Burns for 1d4 of its own turns; already burning: no new count."""
    if c.on_fire:
        return c, None
    roll = roll_formula(dice, who, "on fire: turns", book.settings.on_fire_turns)
    return attrs.evolve(c, on_fire=roll.total), roll


def put_out(c: Condition) -> Condition:
    """Spending 2 AP (put_out_fire) ends the fire."""
    return attrs.evolve(c, on_fire=0)


def disorient(c: Condition, turns: int) -> Condition:
    return attrs.evolve(c, disoriented=max(c.disoriented, turns))


def medkit_cost(dice: Dice, book: Book, user: str, abilities: frozenset[str]) -> Roll:
    """4d6 AP, 3d6 with MEDIC!, rolled per attempt."""
    act = book.actions["use_medkit"]
    formula = next((f for a, f in act.cost_with.items() if a in abilities), act.cost)
    return roll_formula(dice, user, "med-kit AP", formula)


def can_treat(user: Pos, patient: Pos) -> Rejected | None:
    """A med-kit is used on an adjacent entity, or on oneself (Interpretation)."""
    if distance(user, patient) > 1:
        return Rejected("not_adjacent", "a med-kit is used on an adjacent entity or on yourself")
    return None


def treat(book: Book, c: Condition, choice: Treatment) -> Condition | Rejected:
    """One use of a med-kit: the penalty of one wound, a Dying entity stabilised, or the poison removed."""
    if c.dead:
        return Rejected("dead", "a med-kit cannot help the dead")
    if choice == "stabilise":
        if not c.dying:
            return Rejected("not_dying", "the patient is not dying")
        return attrs.evolve(c, dying=0)
    if choice == "cure":
        if not c.poison:
            return Rejected("not_poisoned", "the patient is not poisoned")
        return attrs.evolve(c, poison="")
    if not c.wounds.count(choice):
        return Rejected("no_wound", f"the patient has no {choice} wound to treat")
    w = attrs.evolve(c.wounds, **{choice: c.wounds.count(choice) - 1})
    disabled = c.disabled and penalty(book, w) >= book.settings.unconscious_penalty
    return attrs.evolve(c, wounds=w, disabled=disabled)


def wake(dice: Dice, book: Book, v: Vitals, c: Condition) -> tuple[Condition, Roll | None]:
    """After treatment an Unconscious entity wakes on a Will test, only while its penalty is under 100."""
    if not c.unconscious or c.dead or c.disabled:
        return c, None
    pen = penalty(book, c.wounds)
    t = will_test(dice, book, v, c, "waking: Will", pen)
    if t.passed:
        return attrs.evolve(c, unconscious=False), t.roll
    if book.settings.inspire_wake and v.notes_fails:  # Inspire Allies may re-roll it (13): the latest one counts
        kept = tuple(f for f in c.will_failed if f[0] != "unconscious")
        c = attrs.evolve(c, will_failed=kept + (("unconscious", pen, False),))
    return c, t.roll


def uses_left(kits: int, used: int, per_kit: int) -> int:
    """Med-kit uses carried: each kit has `per_kit` uses (1, or 3+floor(Int/2) with MEDIC!)."""
    return max(0, kits * per_kit - used)
