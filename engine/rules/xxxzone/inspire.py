"""Inspire Allies (13, CHA 4): 4 AP, and every ally within D <= 4 re-rolls one Will test it failed within the
past turn, the worst first (the one that left it Unconscious, then Stunned, then a Minor wound's). On a pass what
the failure did is undone: it wakes (unless a penalty of 100 keeps it down), it is no longer Stunned, or a Minor
wound's AP loss is lifted; AP its own turn has already lost are given back now. A failed re-roll changes
nothing. "Within the past turn" (Interpretation): since the end of the ally's last own turn, so a test failed in
the enemy's turn can be re-rolled in the ally's next one (wounds.Condition.will_failed)."""

from __future__ import annotations

import attrs

from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved
from engine.core.geometry import distance
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.rules.xxxzone import actions, battle
from engine.rules.xxxzone.units import changed
from engine.rules.xxxzone.wounds import Condition, turn_ap, will_test

ABILITY = "inspire_allies"
WORST = ("unconscious", "severe", "minor")
UNDONE = {"unconscious": "wakes", "severe": "is no longer Stunned", "minor": "keeps its AP"}

Failure = tuple[str, int, bool]


def pick(c: Condition) -> Failure | None:
    """The failed test it re-rolls: the worst, the latest of that kind."""
    for caused in WORST:
        found = [f for f in c.will_failed if f[0] == caused]
        if found:
            return found[-1]
    return None


def allies(rs, state: State, unit: Unit) -> list[Unit]:
    """The allies within reach that have a failed Will test to re-roll, nearest first."""
    reach = rs.book.settings.inspire_reach
    return sorted((u for u in state.side_units(unit.side) if u.id != unit.id and u.record is not None
                   and not u.record.condition.dead and distance(unit.pos, u.pos) <= reach
                   and pick(u.record.condition) is not None), key=lambda u: (distance(unit.pos, u.pos), u.id))


def _lost(failures: list[Failure], max_ap: int) -> int:
    """AP an own turn loses to these failures (as turn_ap counts them)."""
    minors = sum(f[0] == "minor" for f in failures)
    c = Condition(ap_next="none" if minors > 1 else "half" if minors else "full",
                  stunned=int(any(f[0] == "severe" for f in failures)),
                  unconscious=any(f[0] == "unconscious" for f in failures))
    return max_ap - turn_ap(c, max_ap)


def undo(c: Condition, failure: Failure, max_ap: int) -> tuple[Condition, int]:
    """The condition with the failure's consequence undone, and the AP to give back to this turn."""
    caused, _, begun = failure
    rest = list(c.will_failed)
    rest.remove(failure)
    if caused == "minor" and not begun:
        fails = max(0, c.minor_fails - 1)
        c = attrs.evolve(c, minor_fails=fails, ap_next="full" if fails == 0 else "half")
    if caused == "severe" and not begun:
        c = attrs.evolve(c, stunned=0 if c.stunned == 1 else c.stunned)  # a longer stun (Chi Strike Palm) stays
    if caused == "unconscious":
        c = attrs.evolve(c, unconscious=c.disabled)
    gain = _lost([f for f in c.will_failed if f[2]], max_ap) - _lost([f for f in rest if f[2]], max_ap) if begun else 0
    return attrs.evolve(c, will_failed=tuple(rest)), gain


def act(rs, state: State, unit: Unit, dice: Dice) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    paid = actions.do(book, c.turn, ABILITY, frozenset(c.op.abilities), bool(c.condition.disoriented))
    if isinstance(paid, Rejected):
        return paid
    them = allies(rs, state, unit)
    if not them:
        return Rejected("nobody_to_inspire", f"No ally within {book.settings.inspire_reach} squares failed a Will "
                                             f"test since its last turn")
    events: list[Event] = [changed(book, unit, attrs.evolve(c, turn=paid), "inspires its allies (4 AP)")]
    rolls, words = [], []
    for ally in them:
        a = ally.record
        failure = pick(a.condition)
        caused, pen, _ = failure
        t = will_test(dice, book, battle.vitals(book, a), a.condition, f"Inspire Allies: Will re-roll ({caused})",
                      pen)
        rolls.append(t.roll)
        if t.passed:
            cond, gain = undo(a.condition, failure, a.turn.maximum)
            after = attrs.evolve(a, condition=cond, turn=attrs.evolve(a.turn, ap=a.turn.ap + gain))
            words.append(f"{ally.name} {UNDONE[caused]}" + (f" (+{gain} AP)" if gain else ""))
        else:
            rest = list(a.condition.will_failed)
            rest.remove(failure)
            after = attrs.evolve(a, condition=attrs.evolve(a.condition, will_failed=tuple(rest)))
            words.append(f"{ally.name} fails again")
        events.append(changed(book, ally, after, f"re-rolls a Will test ({caused})", (t.roll,)))
    text = f"{unit.name} inspires {len(them)} all{'y' if len(them) == 1 else 'ies'}: " + "; ".join(words)
    return [Resolved(actor=unit.id, action=ABILITY, rolls=tuple(rolls), outcome="success", text=text), *events]


def options(rs, state: State, unit: Unit) -> list[Option]:
    if ABILITY not in unit.record.op.abilities:
        return []
    them = allies(rs, state, unit)
    if not them:
        return []
    names = ", ".join(u.name for u in them)
    return [Option("Abilities", f"Inspire Allies (4 AP): {names} re-roll a failed Will test",
                   Act(unit=unit.id, action=ABILITY), note=f"allies within {rs.book.settings.inspire_reach} squares")]
