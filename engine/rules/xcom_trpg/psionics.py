"""xcom-trpg 7: psionic attack and defence, the sigurdsen pool, the mind-control saving throw.

Psi rolls are never critical and never luck-checked (3.2, 7.2); a tie goes to 3.3, where a side
without a luck check rolls Luck*1d100 for the tie-break only.
"""

from __future__ import annotations

import attrs

from engine.rules.xcom_trpg.models import RulesetDef
from engine.core.dice import Dice, Roll
from engine.rules.xcom_trpg.checks import tie_break
from engine.rules.xcom_trpg.record import soldier


@attrs.frozen
class Mind:
    """What a psi contest needs of a unit."""

    id: str
    psionics: int
    luck: int
    intelligence: int
    bravery: int
    active: bool  # awakened: aliens always, humans after initiation (7.1)


@attrs.frozen
class PsiContest:
    attacker_wins: bool
    rolls: list[Roll]


def _d100(dice: Dice, actor: str, purpose: str, base: int, shown: str, bonus: int = 0) -> Roll:
    face, index = dice.d(100, actor, purpose)
    total = base + face + bonus
    text = f"{shown}+{face}" + (f"{bonus:+d}" if bonus else "") + f"={total}"
    return Roll(actor=actor, purpose=purpose, expr="1d100", faces=(face,), formula=text, total=total, index=index)


def attack(dice: Dice, a: Mind, bonus: int = 0) -> Roll:
    """(Psi + Luck) * Int + 1d100; overload that lowers the defence adds `bonus` (7.5 #9, #14)."""
    return _d100(dice, a.id, "psi attack", (a.psionics + a.luck) * a.intelligence,
                 f"psi ({a.psionics}+{a.luck})*{a.intelligence}", bonus)


def defence(dice: Dice, d: Mind) -> Roll:
    """Bravery² + (Psi + Luck) * Int + 1d100 when active; Bravery² + Luck * Int + 1d100 when not."""
    if d.active:
        base = d.bravery ** 2 + (d.psionics + d.luck) * d.intelligence
        shown = f"psi defence {d.bravery}^2+({d.psionics}+{d.luck})*{d.intelligence}"
    else:
        base = d.bravery ** 2 + d.luck * d.intelligence
        shown = f"psi defence (inactive) {d.bravery}^2+{d.luck}*{d.intelligence}"
    return _d100(dice, d.id, "psi defence", base, shown)


def contest(dice: Dice, rules: RulesetDef, a: Mind, d: Mind, bonus: int = 0) -> PsiContest:
    atk = attack(dice, a, bonus)
    dfn = defence(dice, d)
    rolls = [atk, dfn]
    if atk.total != dfn.total:
        return PsiContest(atk.total > dfn.total, rolls)
    won, extra = tie_break(dice, rules, a.id, a.luck, None, d.id, d.luck, None)
    return PsiContest(won, rolls + extra)


def defend(dice: Dice, rules: RulesetDef, atk: Roll, a: Mind, d: Mind) -> tuple[bool, list[Roll]]:
    """One defence against an attack already rolled (mass abilities: one attack, each its own defence)."""
    dfn = defence(dice, d)
    if atk.total != dfn.total:
        return atk.total > dfn.total, [dfn]
    won, extra = tie_break(dice, rules, a.id, a.luck, None, d.id, d.luck, None)
    return won, [dfn, *extra]


def pool(dice: Dice, unit_id: str, psionics: int, stream: str = "main") -> Roll:
    """7.3: the sigurdsen pool, Psi*10 + 1d50, rolled once by the game master."""
    face, index = dice.d(50, unit_id, "psi pool", stream)
    total = psionics * 10 + face
    return Roll(actor=unit_id, purpose="psi pool", expr="1d50", faces=(face,),
                formula=f"sigurdsens {psionics}*10+{face}={total}", total=total, index=index, stream=stream)


def is_active(unit) -> bool:
    """In play, `psi_active` is set at deployment (aliens; humans with psi_awakened, 7.1)."""
    return bool(soldier(unit).psi_active)


def mind(unit) -> Mind:
    s = soldier(unit).stats
    return Mind(unit.id, s.get("psionics", 0), s.get("luck", 0), s.get("intelligence", 0), s.get("bravery", 0),
                is_active(unit))


def saving_throw(dice: Dice, controlled: str, psi_a: int, psi_b: int) -> tuple[bool, Roll]:
    """7.7: 50 + PsiA*5 - PsiB*4 - 1d100; at or below 0 the controlled unit is freed. No crits."""
    face, index = dice.d(100, controlled, "mind-control save")
    total = 50 + psi_a * 5 - psi_b * 4 - face
    roll = Roll(actor=controlled, purpose="mind-control save", expr="1d100", faces=(face,),
                formula=f"save 50+{psi_a}*5-{psi_b}*4-{face}={total}" + (" ≤0: freed" if total <= 0 else " >0: held"),
                total=total, index=index)
    return total <= 0, roll


def stun(bravery: int, overload: int) -> int:
    """7.5 #11: X = (10 - Bravery) * 6, the multiplier +1 per 10 extra SS."""
    return max(0, 10 - bravery) * (6 + overload // 10)


def mind_strike(intelligence: int, overload: int) -> int:
    """7.5 #15: X = Int*3, plus Int for +10 SS."""
    return intelligence * 3 + (intelligence if overload >= 10 else 0)


@attrs.frozen
class Initiation:
    awakened: bool
    stats: dict[str, int]  # the character's stats after it
    roll: Roll
    text: str


def initiation(dice: Dice, rules: RulesetDef, unit_id: str, stats: dict[str, int]) -> Initiation:
    """7.1: Luck*1d100 >= 100 unlocks; crit success (raw 96-100) unlocks and +1 Psionics (may pass the
    race cap); crit failure (1-5) -1 Intelligence and no gift. Any failure loses the psi points."""
    face, index = dice.d(100, unit_id, "psi initiation")
    luck, psi, new = stats.get("luck", 0), stats.get("psionics", 0), dict(stats)
    if face >= rules.crit_success_min:
        crit, awake = "success", True
        new["psionics"] = psi + 1
        text = f"initiation {face} → critical success: unlocked, +1 Psionics ({psi}→{psi + 1})"
    elif face <= rules.crit_failure_max:
        crit, awake = "failure", False
        new["psionics"], new["intelligence"] = 0, max(0, stats.get("intelligence", 0) - 1)
        text = f"initiation {face} → critical failure: −1 Intelligence, not unlocked, psionics lost"
    else:
        crit, awake = None, luck * face >= rules.luck_threshold
        if not awake:
            new["psionics"] = 0
        mark = "≥" if awake else "<"
        text = (f"initiation luck {luck}*{face}={luck * face}{mark}{rules.luck_threshold} → "
                + ("unlocked" if awake else "no gift, psionics lost"))
    roll = Roll(actor=unit_id, purpose="psi initiation", expr="1d100", faces=(face,), formula=text,
                total=face if crit else luck * face, crit=crit, index=index)
    return Initiation(awake, new, roll, text)


def odds(a: Mind, d: Mind, bonus: int = 0) -> float:
    """The chance the attack beats the defence (a tie counted as half): for the AI and the menu."""
    atk = (a.psionics + a.luck) * a.intelligence + bonus
    dfn = d.bravery ** 2 + ((d.psionics if d.active else 0) + d.luck) * d.intelligence
    gap = atk - dfn  # wins when gap + x > y, x and y in 1..100
    wins = sum(min(100, max(0, gap + x - 1)) for x in range(1, 101))
    ties = sum(1 for x in range(1, 101) if 1 <= gap + x <= 100)
    return (wins + ties / 2) / 10000
