"""xcom-trpg 7.5-7.7: what each psi ability does to its target once the contest is won. Lasting
effects are record fields (`psi_*`) that psi_turns.py ticks at the owner's turn start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.content import missions
from engine.rules.xcom_trpg.models import PsiAbility
from engine.core.dice import Dice
from engine.content.formula import div_round
from engine.map.grid import Pos
from engine.core.model import State, Unit
from engine.rules.xcom_trpg import combat, psionics
from engine.rules.xcom_trpg.contest import Side, versus_god
from engine.rules.xcom_trpg.damage import Ledger, apply_crits, apply_hits
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg

SIDES = (missions.PLAYER, missions.ALIENS, missions.CIVILIANS)  # counters hold ints: a side by its place here
ORDERS = {"hold": 1, "retreat": 2, "drop": 3}
ORDER_NAMES = {v: k for k, v in ORDERS.items()}
BUFFABLE = ("agility", "strength")
GATHER_SS = 10  # 7.3


def steps(a: PsiAbility, overload: int) -> int:
    """How many overload steps the extra SS buy (7.5 Overload column)."""
    if a.overload == "steps":
        return overload // a.overload_ss
    if a.overload == "once":
        return 1 if overload >= a.overload_ss else 0
    return 0


def attack_bonus(a: PsiAbility, overload: int) -> int:
    return (overload // a.overload_ss) * int(a.overload_gain) if a.overload == "attack" else 0


def set_counter(ledger: Ledger, uid: str, cause: str, **values: int) -> None:
    """Psi fields of the record (`psi_sleep=2`), in one event; 0 is none."""
    ledger.set(uid, cause, **values)


def counter(ledger: Ledger, uid: str, name: str) -> int:
    return ledger.get(uid, name)


def boost(ledger: Ledger, uid: str, stat: str, by: int, turns: int, cause: str) -> None:
    """A stat raised for the unit's next `turns` turns (buff, ESP-027); the same boost is not stacked."""
    turns_left = {**ledger.get(uid, "psi_boost_turns"), stat: turns + 1}
    if ledger.get(uid, "psi_boost").get(stat):
        ledger.set(uid, cause, psi_boost_turns=turns_left)
        return
    stats = dict(ledger.get(uid, "stats"))
    stats[stat] = stats.get(stat, 0) + by
    ledger.set(uid, cause, stats=stats)
    ledger.set(uid, cause, psi_boost={**ledger.get(uid, "psi_boost"), stat: by}, psi_boost_turns=turns_left)


def apply(rs: "XcomTrpg", state: State, ledger: Ledger, caster: Unit, target: Unit, a: PsiAbility,
          overload: int, order: str, dice: Dice) -> tuple[str, list]:
    """The effect on one target that lost the contest (or a willing friend): a sentence and extra rolls."""
    n, rules, name = steps(a, overload), rs.rules, target.name
    if a.effect == "communication":
        return f"{name} hears {caster.name}'s thought", []
    if a.effect == "inspire":
        gain = 10 + n * int(a.overload_gain)
        ledger.morale(target.id, gain, f"inspired by {caster.name} ({a.name})")
        return f"{name} +{gain} morale", []
    if a.effect == "panic":
        loss = 10 + n * int(a.overload_gain)
        ledger.morale(target.id, -loss, f"psi panic from {caster.name}")
        return f"{name} -{loss} morale", []
    if a.effect == "illusion":
        if not n:
            set_counter(ledger, target.id, f"sees a phantom enemy ({a.name})", psi_phantom=1)
            return f"{name} sees a phantom enemy only it can see", []
        set_counter(ledger, target.id, f"illusory wound ({a.name}): skips its next turn", psi_skip=1)
        stats = soldier(target).stats
        check = versus_god(dice, rules, Side(target.id, "bravery", stats["bravery"], stats["luck"]),
                           luck=False)
        apply_crits(ledger, rules, check.crits)
        text = f"{name} feels an illusory wound and skips its next turn; bravery {'holds' if check.attacker_wins else 'fails'}"
        if not check.attacker_wins:
            ledger.morale(target.id, -20, "illusory wound: bravery check failed")
            text += ": -20 morale"
        return text, check.rolls
    if a.effect == "compulsion":
        values = {"psi_order": ORDERS[order]}
        if order == "retreat":
            x, y = retreat_cell(rs, state, target, caster.pos)
            values.update(psi_order_x=x + 1, psi_order_y=y + 1)
        set_counter(ledger, target.id, f"compelled by {caster.name}: {order}", **values)
        return f"{name} is compelled to {order} on its next turn", []
    if a.effect == "oblivion":
        had = counter(ledger, target.id, "psi_order")
        set_counter(ledger, target.id, "forgets its orders (Oblivion)", psi_order=0, psi_order_x=0, psi_order_y=0,
                    psi_phantom=0)
        return f"{name} forgets " + (f"the order to {ORDER_NAMES[had]}" if had else "what it was told"), []
    if a.effect == "fatigue":
        loss = 2 + n * int(a.overload_gain)
        ledger.set(target.id, f"psi fatigue from {caster.name}", stamina=max(0, ledger.get(target.id, "stamina") - loss))
        return f"{name} -{loss} stamina", []
    if a.effect == "mind_reading":
        return f"{name}'s mind: {frame(rs, target)}", []
    if a.effect == "buff":
        stat = order if order in BUFFABLE else "agility"
        turns = 2 + n * int(a.overload_gain)
        boost(ledger, target.id, stat, 1, turns, f"psi buff from {caster.name}: +1 {stat}")
        return f"{name} +1 {stat} for its next {turns} turns", []
    if a.effect == "stun":
        x = psionics.stun(soldier(target).stats["bravery"], overload if a.overload != "none" else 0)
        taken = combat.concussion_taken(rs.content, x, target)
        hit = combat.Hit(target=target.id, damage=0, concussion=taken)
        apply_hits(ledger, rules, caster.id, combat.Outcome([], [hit], "hit", "", {}), pellets=False)
        return f"{name} takes {taken} concussion" + (f" (X={x}, armour -20%)" if taken != x else ""), []
    if a.effect == "sleep":
        turns = 2 + n * int(a.overload_gain)
        set_counter(ledger, target.id, f"psi sleep from {caster.name}", psi_sleep=turns)
        return f"{name} falls asleep for its next {turns} turns", []
    if a.effect == "mind_strike":
        intel = soldier(target).stats["intelligence"]
        x = int(intel * a.power) + (div_round(int(intel * a.overload_gain * 10), 10) if n else 0)
        hit = combat.Hit(target=target.id, damage=x)
        apply_hits(ledger, rules, caster.id, combat.Outcome([], [hit], "hit", "", {}), pellets=False)
        return f"{name} takes {x} HP (armour ignored)", []
    if a.effect == "mind_control":
        home = SIDES.index(target.side) + 1 if target.side in SIDES else 0  # resolve's "a"/"b": no return
        by = list(state.units).index(caster.id) + 1
        set_counter(ledger, target.id, f"mind-controlled by {caster.name}", psi_mc_home=home, psi_mc_by=by,
                    psi_mc_turns=0)
        ledger.set(target.id, f"mind-controlled by {caster.name}", side=caster.side, actions=0)
        return f"{name} is under {caster.name}'s control", []
    raise ValueError(f"no psi effect {a.effect!r}")


def frame(rs: "XcomTrpg", u: Unit) -> str:
    stats = ", ".join(f"{k} {v}" for k, v in soldier(u).stats.items())
    order = ORDER_NAMES.get(soldier(u).psi_order)
    return (f"{stats}; HP {u.hp}/{u.hp_max}, morale {soldier(u).morale}, stamina {soldier(u).stamina}, "
            f"{xcom(rs.content).weapons[soldier(u).weapon].name}" + (f"; ordered to {order}" if order else ""))


def retreat_cell(rs: "XcomTrpg", state: State, unit: Unit, away_from: Pos) -> Pos:
    """Up to 2 steps that most increase the distance from the caster, through free cells."""
    here = unit.pos
    for _ in range(2):
        best = max(((here[0] + dx, here[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)),
                   key=lambda c: (rs._enterable(state, unit, c),  # noqa: SLF001
                                  max(abs(c[0] - away_from[0]), abs(c[1] - away_from[1])), -c[1], -c[0]))
        if not rs._enterable(state, unit, best) or best == here:  # noqa: SLF001
            break
        here = best
    return here


def revive(rs: "XcomTrpg", ledger: Ledger, caster: Unit, corpse: Unit, a: PsiAbility, overload: int) -> str:
    """7.5 #18: the corpse rises on the caster's side; Int, Cha, Luck 0; speed 2 (+1 for +10 SS)."""
    speed = 2 + steps(a, overload) * int(a.overload_gain)
    stats = dict(soldier(corpse).stats, intelligence=0, charisma=0, luck=0)
    ledger.set(corpse.id, f"raised by {caster.name} ({a.name})", status="active", side=caster.side, stats=stats,
               hp=corpse.hp_max, concussion=0, actions=0, morale=soldier(corpse).morale_max)
    set_counter(ledger, corpse.id, "psionic revenant", psi_revenant=speed, psi_active=0, psi_ss=0, psi_ss_max=0)
    return f"{corpse.name} rises as a revenant on {caster.name}'s side (speed {speed})"
