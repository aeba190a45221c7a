"""Sections 7 and 8.2: Willpower tests, Fortitude checks, the revised wounds and what each one does at once.

A wound's tests use the penalty total from before it; the first wound of each tier carries no penalty (its cost
is the test); Toughness ignores the first `3+End` Minor wounds of a battle; Improved Toughness spares the first
`1+floor(End/2)` Severe wounds whose Will test passes; a total penalty of 100 or more disables.
"""

from __future__ import annotations

from typing import Literal

import attrs

from engine.core.dice import Dice, Roll
from engine.core.records import added, lean
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.character import Operative, derive
from engine.rules.xxxzone.checks import check, roll_formula

Tier = Literal["minor", "severe", "mortal", "lethal"]


@attrs.frozen(kw_only=True)
class Vitals:
    """What an entity's wounds are tested against."""

    id: str
    willpower: int
    fortitude: int
    fortitude_poison: int
    max_ap: int
    toughness: int = 0
    improved_toughness: int = 0
    notes_fails: bool = False  # its side has an Inspire Allies holder: a failed Will test is kept for the re-roll


def vitals_of(op: Operative, book: Book) -> Vitals:
    d = derive(op, book)
    return Vitals(id=op.id, willpower=d.willpower, fortitude=d.fortitude, fortitude_poison=d.fortitude_poison,
                  max_ap=d.action_points, toughness=d.toughness, improved_toughness=d.improved_toughness)


@attrs.frozen(kw_only=True)
class Wounds:
    """Counted wounds by tier (ignored and treated ones excluded) and what Toughness has used this battle."""

    minor: int = 0
    severe: int = 0
    mortal: int = 0
    lethal: int = 0
    ignored_minor: int = 0  # Toughness: ignored, heal in 1 day
    spared_severe: int = 0  # Improved Toughness: no penalty, heal normally

    def count(self, tier: str) -> int:
        return getattr(self, tier)

    @property
    def any(self) -> bool:
        """An un-ignored wound (Executioner)."""
        return bool(self.minor or self.severe or self.mortal or self.lethal or self.spared_severe)


def penalty(book: Book, w: Wounds) -> int:
    """8.2: `10*max(0,m-1) + 20*max(0,s-1) + 50*max(0,M-1) + 50*max(0,L-1)`."""
    return sum(t.penalty * max(0, w.count(tid) - 1) for tid, t in book.wounds.items())


@lean  # will_failed came later: left out of the dump while empty
@attrs.frozen(kw_only=True)
class Condition:
    """An entity's wounds and statuses in battle (section 9); counts of turns are its own turns."""

    wounds: Wounds = Wounds()
    minor_fails: int = 0  # failed Minor-wound tests this round
    ap_next: Literal["full", "half", "none"] = "full"
    stunned: int = 0  # own turns with all AP lost
    disoriented: int = 0
    poison: Literal["", "poisoned", "lethal_poison", "toxified", "lethal_toxic"] = ""
    on_fire: int = 0
    unconscious: bool = False
    disabled: bool = False  # penalty >= 100: out of combat until treated
    dying: int = 0  # own turns left before death (0: not dying)
    dead: bool = False
    # Will tests failed since the end of its last own turn, for Inspire Allies (13): (what it caused: "minor",
    # "severe" or "unconscious", the wound penalty it was taken with, whether its own turn has begun since, so
    # the AP it cost are gone from this turn); kept only when `Vitals.notes_fails`
    will_failed: tuple[tuple[str, int, bool], ...] = added(())

    @property
    def can_act(self) -> bool:
        return not (self.dead or self.unconscious or self.disabled)


@attrs.frozen(kw_only=True)
class Wounding:
    condition: Condition
    rolls: tuple[Roll, ...]
    notes: tuple[str, ...]  # what happened, in words, for the log


def will_test(dice: Dice, book: Book, v: Vitals, c: Condition, purpose: str, wound_penalty: int):
    mods = (("wounds", -wound_penalty),) + ((("disoriented", -book.settings.disoriented_penalty),)
                                            if c.disoriented else ())
    return check(dice, v.id, purpose, "Will", v.willpower, mods, book.settings.success_over)


def fort_check(dice: Dice, book: Book, v: Vitals, purpose: str, wound_penalty: int, poison: bool = False,
               extra: int = 0):
    score = v.fortitude_poison if poison else v.fortitude
    mods = (("wounds", -wound_penalty),) + ((("toxin", extra),) if extra else ())
    return check(dice, v.id, purpose, "Fort" + (" vs poison" if poison else ""), score, mods,
                 book.settings.success_over)


def wound(dice: Dice, book: Book, v: Vitals, c: Condition, tier: Tier, *, own_turn: bool = False,
          poison_wound: bool = False) -> Wounding:
    """One wound of `tier` and its immediate tests (8.2); the first post's tiers when revised_wounds is off."""
    before = penalty(book, c.wounds)
    w, rolls, notes = c.wounds, [], []
    if tier == "minor":
        if w.ignored_minor < v.toughness:
            w = attrs.evolve(w, ignored_minor=w.ignored_minor + 1)
            return Wounding(condition=attrs.evolve(c, wounds=w), rolls=(), notes=("Minor wound ignored (Toughness)",))
        t = will_test(dice, book, v, c, "Minor wound: Will", before)
        rolls.append(t.roll)
        w = attrs.evolve(w, minor=w.minor + 1)
        if not t.passed:
            fails = c.minor_fails + 1
            c = attrs.evolve(_failed(v, c, "minor", before), minor_fails=fails, ap_next="half" if fails == 1 else "none")
            notes.append("loses half its AP next turn" if fails == 1 else "loses all its AP next turn")
    elif tier == "severe":
        t = will_test(dice, book, v, c, "Severe wound: Will", before)
        rolls.append(t.roll)
        if not t.passed:
            c = attrs.evolve(_failed(v, c, "severe", before), stunned=max(c.stunned, 1))
            notes.append("Stunned: all AP lost next turn")
        if t.passed and w.spared_severe < v.improved_toughness:
            w = attrs.evolve(w, spared_severe=w.spared_severe + 1)
            notes.append("no penalty (Improved Toughness)")
        else:
            w = attrs.evolve(w, severe=w.severe + 1)
    elif tier == "mortal":
        t = will_test(dice, book, v, c, "Mortal wound: Will", before)
        rolls.append(t.roll)
        if not t.passed:
            c = attrs.evolve(_failed(v, c, "unconscious", before), unconscious=True)
            notes.append("Unconscious")
        f = fort_check(dice, book, v, "Mortal wound: Fort", before)
        rolls.append(f.roll)
        if not f.passed:
            c, more = start_dying(dice, book, v.id, c, own_turn)
            rolls += more
            notes.append(f"Dying: dies at the end of its own turn {c.dying - (1 if own_turn else 0)} from now")
        w = attrs.evolve(w, mortal=w.mortal + 1)
    else:
        f = fort_check(dice, book, v, "Lethal wound: Fort", before)
        rolls.append(f.roll)
        if not f.passed:
            return Wounding(condition=attrs.evolve(c, wounds=attrs.evolve(w, lethal=w.lethal + 1), dead=True),
                            rolls=tuple(rolls), notes=("Dead",))
        t = will_test(dice, book, v, c, "Lethal wound: Will", before)
        rolls.append(t.roll)
        if not t.passed:
            c = attrs.evolve(_failed(v, c, "unconscious", before), unconscious=True)
            notes.append("Unconscious")
        w = attrs.evolve(w, lethal=w.lethal + 1)
    c = attrs.evolve(c, wounds=w)
    if penalty(book, w) >= book.settings.unconscious_penalty and not c.disabled:
        c = attrs.evolve(c, unconscious=True, disabled=True)
        notes.append(f"penalty {penalty(book, w)}: Unconscious and disabled")
    if poison_wound and c.poison in ("lethal_poison", "lethal_toxic") and c.unconscious and not c.dying:
        f = fort_check(dice, book, v, "lethal poison: Fort", before, poison=True, extra=_toxin(book, c))
        rolls.append(f.roll)
        if not f.passed:
            c, more = start_dying(dice, book, v.id, c, own_turn)
            rolls += more
            notes.append("Dying (lethal poison)")
    return Wounding(condition=c, rolls=tuple(rolls), notes=tuple(notes))


def _failed(v: Vitals, c: Condition, caused: str, before: int) -> Condition:
    """A failed Will test noted for Inspire Allies' re-roll, where someone on its side could give one."""
    return attrs.evolve(c, will_failed=c.will_failed + ((caused, before, False),)) if v.notes_fails else c


def _toxin(book: Book, c: Condition) -> int:
    return -book.settings.toxin_fortitude_penalty if c.poison in ("toxified", "lethal_toxic") else 0


def start_dying(dice: Dice, book: Book, who: str, c: Condition, own_turn: bool) -> tuple[Condition, list[Roll]]:
    """Dies at the end of its N-th own turn after the failed check (N = 1d4); a check failed during its own
    turn leaves that turn out of the count."""
    roll = roll_formula(dice, who, "dying countdown", book.settings.dying_turns)
    turns = roll.total + (1 if own_turn else 0)
    return attrs.evolve(c, dying=min(c.dying, turns) if c.dying else turns), [roll]  # a new countdown never extends


def turn_ap(c: Condition, max_ap: int) -> int:
    """AP at the start of an own turn: stunned or a second failed Minor test gives 0, one failed Minor half
    (rounded up: it keeps `ceil(MaxAP/2)`)."""
    if not c.can_act or c.stunned or c.ap_next == "none":
        return 0
    return (max_ap + 1) // 2 if c.ap_next == "half" else max_ap
