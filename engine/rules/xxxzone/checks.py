"""Section 7 and the dice every other module rolls: `d100 + Score > 100` tests, formula rolls, exploding dice.

Each returns the Roll a player would write down: `Will 28 + d100 73 = 101 > 100: pass`.
"""

from __future__ import annotations

from typing import Mapping

import attrs

from engine.content.formula import Formula, Rounding
from engine.core.dice import Dice, Roll


ROUNDING: Rounding = "down"  # section 0: round down unless a rule says otherwise


def value(formula: Formula, env: Mapping[str, int] | None = None) -> int:
    """A content formula without dice, rounded down once at the end."""
    return formula.evaluate(env or {}, rounding=ROUNDING)[0]


@attrs.frozen
class Check:
    roll: Roll
    passed: bool


def signed(label: str, amount: int) -> str:
    """` − wounds 10`, ` + aim 20`: one modifier as a player writes it; nothing for 0."""
    if amount == 0:
        return ""
    return f" {'+' if amount > 0 else '−'} {label} {abs(amount)}"


def check(dice: Dice, actor: str, purpose: str, label: str, score: int,
         modifiers: tuple[tuple[str, int], ...] = (), over: int = 100) -> Check:
    """`d100 + Score + modifiers > over` (7): the chance is Score % clamped to 0-100."""
    face, index = dice.d(100, actor, purpose)
    total = face + score + sum(v for _, v in modifiers)
    ok = total > over
    shown = f"{label} {score}" + "".join(signed(name, v) for name, v in modifiers)
    formula = f"d100 {face} + {shown} = {total} {'>' if ok else '≤'} {over}: {'pass' if ok else 'fail'}"
    return Check(Roll(actor=actor, purpose=purpose, expr="1d100", faces=(face,), formula=formula, total=total,
                     index=index), ok)


def roll_formula(dice: Dice, actor: str, purpose: str, formula: Formula,
                 env: Mapping[str, int] | None = None) -> Roll:
    """A content formula with dice in it (`1d4+1`, `4d6`), written out: `1d4+1: 3+1=4`."""
    start = dice.counters.get("main", 0)
    first: list[int] = []

    def die(sides: int) -> int:
        face, index = dice.d(sides, actor, purpose)
        first.append(index)
        return face

    total, shown, faces = formula.evaluate(env or {}, die, rounding=ROUNDING)
    return Roll(actor=actor, purpose=purpose, expr=formula.text, faces=tuple(faces),
                formula=f"{formula.text}: {shown}", total=total, index=first[0] if first else start)


def exploding(dice: Dice, actor: str, purpose: str, count: int, sides: int) -> Roll:
    """`XdY!` (0): a die showing its maximum is rolled again and added, while it keeps showing it."""
    faces: list[int] = []
    parts: list[str] = []
    first = -1
    for _ in range(count):
        chain: list[int] = []
        while True:
            face, index = dice.d(sides, actor, purpose)
            first = index if first == -1 else first
            chain.append(face)
            if face < sides:
                break
        faces += chain
        parts.append("+".join(map(str, chain)) if len(chain) == 1 else f"({'+'.join(map(str, chain))})")
    total = sum(faces)
    return Roll(actor=actor, purpose=purpose, expr=f"{count}d{sides}!", faces=tuple(faces),
                formula=f"{count}d{sides}!: {'+'.join(parts)}={total}", total=total, index=first)
