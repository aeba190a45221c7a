"""xcom-trpg 3.5: what an episode buff does to a unit's stats. Pure: no rolls, no events.

The buff a unit holds is in its record: `buff_plus` (heroic inspiration, effect 1-4) or
`buff_minus` (depression, effect 1-4), set once per episode by `tokens.py`. Every stat a rule
reads goes through `combat.effective_stat`, which calls `adjust` here.
"""

from __future__ import annotations

from engine.core.model import Unit
from engine.rules.xcom_trpg.record import soldier

PLUS, MINUS = "buff_plus", "buff_minus"
LUCK_DOUBLED, THREE_ACTIONS, DODGER, UNSHAKEABLE = 1, 2, 3, 4  # heroic inspiration, by roll mod 4
LUCK_ONE, CHARISMA_ONE, MORALE_HALF, ONE_ACTION = 1, 2, 3, 4  # depression
INSPIRATION = {LUCK_DOUBLED: "Luck doubled", THREE_ACTIONS: "3 actions per turn and the ultracombo",
               DODGER: "+3 Agility and +1 Luck on every dodge",
               UNSHAKEABLE: "immune to charisma compulsion and psi attacks"}
DEPRESSION = {LUCK_ONE: "Luck is 1", CHARISMA_ONE: "Charisma is 1", MORALE_HALF: "maximum morale 50",
              ONE_ACTION: "1 action per turn"}
DEPRESSED_MORALE_MAX = 50


def plus(unit: Unit) -> int:
    return soldier(unit).buff_plus


def minus(unit: Unit) -> int:
    return soldier(unit).buff_minus


def adjust(unit: Unit, stat: str, value: int, *, dodge: bool = False) -> int:
    """The stat as the buff makes it; `dodge` for a dodge roll and its luck check (inspiration 3)."""
    up, down = plus(unit), minus(unit)
    if not (up or down):
        return value
    if stat == "luck":
        if down == LUCK_ONE:
            return 1
        if up == LUCK_DOUBLED:
            value *= 2
        if up == DODGER and dodge:
            value += 1
    elif stat == "charisma" and down == CHARISMA_ONE:
        return 1
    elif stat == "agility" and up == DODGER and dodge:
        value += 3
    return value


def immune_to_minds(unit: Unit) -> bool:
    """Inspiration 4: charisma compulsion and psi attacks fail against it (psi speech is still heard)."""
    return plus(unit) == UNSHAKEABLE


def actions_per_turn(unit: Unit, normal: int) -> int:
    """Inspiration 2 gives 3; depression 4 gives 1 (4.2)."""
    if minus(unit) == ONE_ACTION:
        return 1
    if plus(unit) == THREE_ACTIONS:
        return normal + 1
    return normal
