"""Exact odds of an attack before it is made (the targeting panel, `resolve`): every d100 face is followed
through the seven steps, so no sampling. A volley carries armour and cover HP from roll to roll exactly."""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from engine.core.dice import Dice
from engine.rules.xxxzone.attack import Attack, Defence
from engine.rules.xxxzone.attack import volley as roll_all

def single(a: Attack, d: Defence) -> dict[str, Fraction]:
    """The chance of each outcome of one roll; the outcomes that cannot happen are left out."""
    return volley([a], d)[0]


def volley(attacks: Sequence[Attack], d: Defence) -> list[dict[str, Fraction]]:
    """The chance of each outcome of each roll of a burst, spray or blast, armour and cover worn down by the
    rolls before it."""
    states: dict[Defence, Fraction] = {d: Fraction(1)}
    per_roll: list[dict[str, Fraction]] = []
    for a in attacks:
        seen: dict[str, Fraction] = {}
        after: dict[Defence, Fraction] = {}
        for state, p in states.items():
            for face in range(1, 101):
                (hit,), nxt = roll_all(Dice.scripted([face]), [a], state)
                q = p / 100
                seen[hit.outcome] = seen.get(hit.outcome, Fraction(0)) + q
                after[nxt] = after.get(nxt, Fraction(0)) + q
        per_roll.append(seen)
        states = after
    return per_roll
