"""xcom-trpg 3.6: an opposed stat*1d100 contest between two characters, or against the god of random."""

from __future__ import annotations

import attrs

from engine.rules.xcom_trpg.models import RulesetDef
from engine.core.dice import Dice, Roll
from engine.rules.xcom_trpg.checks import luck_check, passed, stat_roll, tie_break

GOD = "god"


@attrs.frozen
class Side:
    """One party to a contest: who, with which playing stat, and its Luck."""

    id: str
    stat: str
    value: int
    luck: int


@attrs.frozen
class Contest:
    attacker_wins: bool
    rolls: list[Roll]
    crits: dict[str, list[str]]  # for tokens and ±50 morale
    text: str


def opposed(dice: Dice, rules: RulesetDef, a: Side, d: Side, *, luck: bool = True,
            crit_min: int | None = None, a_bonus: int = 0, d_bonus: int = 0,
            purposes: tuple[str, str] = ("attack", "defence")) -> Contest:
    """The attacker needs a strictly higher total; crits end it at once; ties per 3.3.

    `a_bonus`/`d_bonus` are flat terms on the totals (charisma diminishing: -100 / +100, 5.5)."""
    rolls: list[Roll] = []
    atk = stat_roll(dice, rules, a.id, purposes[0], a.stat, a.value, crit_min=crit_min, bonus=a_bonus)
    rolls.append(atk)
    if atk.crit == "success":
        return Contest(True, rolls, {a.id: ["success"]}, f"{a.id}: critical success, no counter-roll")
    if atk.crit == "failure":
        return Contest(False, rolls, {a.id: ["failure"]}, f"{a.id}: critical failure, no counter-roll")
    a_luck = None
    if luck:
        a_luck = luck_check(dice, rules, a.id, a.luck)
        rolls.append(a_luck)
        if not passed(a_luck, rules):
            return Contest(False, rolls, {}, f"{a.id}: luck check failed, the action fails")
    dfn = stat_roll(dice, rules, d.id, purposes[1], d.stat, d.value, bonus=d_bonus)
    rolls.append(dfn)
    if dfn.crit == "success":
        return Contest(False, rolls, {d.id: ["success"]}, f"{d.id}: critical success")
    if dfn.crit == "failure":
        return Contest(True, rolls, {d.id: ["failure"]}, f"{d.id}: critical failure")
    if dfn.total < atk.total:
        return Contest(True, rolls, {}, f"{atk.total} > {dfn.total}: {a.id} wins")
    d_luck = None
    if luck:
        d_luck = luck_check(dice, rules, d.id, d.luck)
        rolls.append(d_luck)
        if not passed(d_luck, rules):
            return Contest(True, rolls, {}, f"{d.id}'s defence fails its luck check: {a.id} wins")
    if dfn.total > atk.total:
        return Contest(False, rolls, {}, f"{dfn.total} > {atk.total}: {d.id} wins")
    won, extra = tie_break(dice, rules, a.id, a.luck, a_luck, d.id, d.luck, d_luck)
    rolls.extend(extra)
    return Contest(won, rolls, {}, f"tie at {atk.total}: {a.id if won else d.id} wins the tie-break")


def versus_god(dice: Dice, rules: RulesetDef, a: Side, *, luck: bool = True) -> Contest:
    """1.4: the god of random rolls 10*1d100, never critical and never luck-checked; ties reroll."""
    rolls: list[Roll] = []
    atk = stat_roll(dice, rules, a.id, "attack", a.stat, a.value)
    rolls.append(atk)
    if atk.crit is not None:
        won = atk.crit == "success"
        return Contest(won, rolls, {a.id: [atk.crit]}, f"{a.id}: critical {atk.crit}")
    if luck:
        a_luck = luck_check(dice, rules, a.id, a.luck)
        rolls.append(a_luck)
        if not passed(a_luck, rules):
            return Contest(False, rolls, {}, f"{a.id}: luck check failed")
    while True:
        god = god_roll(dice, rules)
        rolls.append(god)
        if god.total != atk.total:
            won = atk.total > god.total
            return Contest(won, rolls, {}, f"{atk.total} {'>' if won else '<'} god {god.total}")


def god_roll(dice: Dice, rules: RulesetDef) -> Roll:
    """1.4: one roll of the god of random (`10*1d100`), never critical; a tie with it is rolled again."""
    indices: list[int] = []

    def die(sides: int) -> int:
        face, index = dice.d(sides, GOD, "god of random")
        indices.append(index)
        return face

    god, shown, faces = rules.god_of_random.evaluate({}, die)
    return Roll(actor=GOD, purpose="god of random", expr=rules.god_of_random.text, faces=tuple(faces),
                formula=f"god {shown}", total=god, index=indices[0] if indices else -1)
