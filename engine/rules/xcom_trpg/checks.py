"""xcom-trpg section 3: stat*1d100 rolls, luck checks, crits and ties, written as a player writes them."""

from __future__ import annotations

from engine.rules.xcom_trpg.models import RulesetDef
from engine.core.dice import Dice, Roll
from engine.content.formula import div_round

D100 = "1d100"


def stat_roll(dice: Dice, rules: RulesetDef, actor: str, purpose: str, stat: str, value: int, *,
              crit_min: int | None = None, can_crit: bool = True, halve: bool = False,
              penalty: int = 0, bonus: int = 0, crit_note: str = "") -> Roll:
    """`agility 4*88=352`; halved for partial cover; crit ranges per target (3.4)."""
    face, index = dice.d(100, actor, purpose)
    product = value * face
    shown = f"{value}*{face}"
    total = product
    if penalty:
        total -= penalty
        shown += f"-{penalty}"
    if bonus:
        total += bonus
        shown += f"+{bonus}" if bonus > 0 else f"{bonus}"
    if halve:
        shown = f"({shown})/2" if penalty or bonus else f"{shown}/2"
        total = div_round(total, 2)
    formula = f"{stat} {shown}={total}"
    crit = None
    if can_crit:
        low = crit_min if crit_min is not None else rules.crit_success_min
        if face >= low:
            crit = "success"
            formula += f" → critical success ({low}-100{crit_note})"
        elif face <= rules.crit_failure_max:
            crit = "failure"
            formula += f" → critical failure (1-{rules.crit_failure_max})"
    return Roll(actor=actor, purpose=purpose, expr=D100, faces=(face,), formula=formula,
                total=total, crit=crit, index=index)


def luck_check(dice: Dice, rules: RulesetDef, actor: str, luck: int, purpose: str = "luck check") -> Roll:
    """3.2: `luck 6*93=558>=100 ✓`. Never critical."""
    face, index = dice.d(100, actor, purpose)
    total = luck * face
    ok = total >= rules.luck_threshold
    mark = f">={rules.luck_threshold} ✓" if ok else f"<{rules.luck_threshold} ✗"
    return Roll(actor=actor, purpose=purpose, expr=D100, faces=(face,), formula=f"luck {luck}*{face}={total}{mark}",
                total=total, index=index)


def passed(roll: Roll, rules: RulesetDef) -> bool:
    return roll.total >= rules.luck_threshold


def plain_roll(dice: Dice, actor: str, purpose: str, sides: int, label: str) -> Roll:
    """A die with no formula around it: panic checks, scatter, selections."""
    face, index = dice.d(sides, actor, purpose)
    return Roll(actor=actor, purpose=purpose, expr=f"1d{sides}", faces=(face,), formula=f"{label} 1d{sides}={face}",
                total=face, index=index)


def tie_break(dice: Dice, rules: RulesetDef, a: str, a_luck: int, a_check: Roll | None,
              b: str, b_luck: int, b_check: Roll | None) -> tuple[bool, list[Roll]]:
    """3.3: higher luck-check result, then higher Luck, then reroll. True if `a` wins."""
    rolls: list[Roll] = []
    if a_check is None:
        a_check = luck_check(dice, rules, a, a_luck, "tie-break luck")
        rolls.append(a_check)
    if b_check is None:
        b_check = luck_check(dice, rules, b, b_luck, "tie-break luck")
        rolls.append(b_check)
    if a_check.total != b_check.total:
        return a_check.total > b_check.total, rolls
    if a_luck != b_luck:
        return a_luck > b_luck, rolls
    while True:
        ra = luck_check(dice, rules, a, a_luck, "tie-break reroll")
        rb = luck_check(dice, rules, b, b_luck, "tie-break reroll")
        rolls += [ra, rb]
        if ra.total != rb.total:
            return ra.total > rb.total, rolls


def per_bravery(k: int, bravery: int) -> int:
    """6.5 and 1.2: the `k/Bravery` unit is rounded first (60/7 -> 9)."""
    return div_round(k, max(1, bravery))
