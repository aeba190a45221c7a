"""xcom-trpg 7.3-7.7 over time: cooldowns, boosts, gathered thoughts and meditation, sleep, orders and
mind control tick at the owner's turn start; damage wakes sleepers, breaks concentration, comes back
on a mind controller and ends a revenant."""

from __future__ import annotations

import operator

from typing import TYPE_CHECKING

from engine.core.dice import Dice
from engine.core.events import Event, Resolved
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.rules.xcom_trpg import combat, psionics
from engine.rules.xcom_trpg.checks import per_bravery
from engine.rules.xcom_trpg.damage import Ledger, fallen, touched
from engine.rules.xcom_trpg.psi_effects import GATHER_SS, ORDER_NAMES, SIDES, counter, set_counter
from engine.rules.xcom_trpg.record import EMPTY, Soldier, soldier

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg


# -- each turn of the affected unit ----------------------------------------------------------------


def turn_start(rs: "XcomTrpg", ledger: Ledger, uid: str, dice: Dice) -> list[Event]:
    events: list[Event] = []
    rec = ledger.get(uid, "record")  # as the turn begins (the record alone: no copy of the unit)
    c = rec if rec is not None else EMPTY
    if not ticks(c):
        return events
    if c.psi_cd:
        ledger.set(uid, "psi cooldowns", psi_cd={k: v - 1 for k, v in c.psi_cd.items() if v > 1})
    for stat, turns in c.psi_boost_turns.items():
        left = turns - 1
        if left > 0:
            ledger.set(uid, f"+{c.psi_boost[stat]} {stat} lasts",
                       psi_boost_turns={**ledger.get(uid, "psi_boost_turns"), stat: left})
        else:
            stats = dict(ledger.get(uid, "stats"))
            stats[stat] -= c.psi_boost[stat]
            ledger.set(uid, f"{stat} boost wears off", stats=stats)
            ledger.set(uid, f"{stat} boost wears off",
                       psi_boost_turns={k: v for k, v in ledger.get(uid, "psi_boost_turns").items() if k != stat},
                       psi_boost={k: v for k, v in ledger.get(uid, "psi_boost").items() if k != stat})
    if c.psi_gather:
        gained = _refill(ledger, uid, GATHER_SS, "gathered thoughts")
        set_counter(ledger, uid, "thoughts gathered", psi_gather=0)
        events.append(Resolved(actor=uid, action="psi", rolls=(), outcome="gathered",
                               text=f"{ledger.get(uid, 'name')}: gather thoughts, +{gained} SS"))
    if c.psi_meditate:
        left = c.psi_meditate - 1
        ledger.set(uid, "meditating", actions=0)
        set_counter(ledger, uid, "meditation", psi_meditate=left)
        if left == 0:
            gained = _refill(ledger, uid, c.psi_ss_max, "meditation complete: full pool")
            events.append(Resolved(actor=uid, action="psi", rolls=(), outcome="meditated",
                                   text=f"{ledger.get(uid, 'name')}: meditation ends, +{gained} SS (full pool)"))
    if c.psi_sleep:
        ledger.set(uid, "asleep (psi sleep)", actions=0)
        set_counter(ledger, uid, "sleeps on", psi_sleep=c.psi_sleep - 1)
    if c.psi_skip:
        ledger.set(uid, "illusory wound: skips the turn", actions=0)
        set_counter(ledger, uid, "illusory wound passes", psi_skip=0)
    if c.psi_order:
        _obey(ledger, uid, c.psi_order, c)
    if c.psi_mc_by:
        events += _controlled_turn(rs, ledger, uid, dice)
    return events


_TICKING = operator.attrgetter("psi_cd", "psi_boost_turns", "psi_gather", "psi_meditate", "psi_sleep", "psi_skip",
                               "psi_order", "psi_mc_by")


def ticks(rec: Soldier) -> bool:
    """Whether `turn_start` has work on the record: each of these fields is one of its rules (a psionic's pool
    alone has none)."""
    return any(_TICKING(rec))


def _refill(ledger: Ledger, uid: str, amount: int, cause: str) -> int:
    now, top = counter(ledger, uid, "psi_ss"), counter(ledger, uid, "psi_ss_max")
    new = max(now, min(top, now + amount))
    set_counter(ledger, uid, f"{cause}: {now} → {new} SS", psi_ss=new)
    return new - now


def _obey(ledger: Ledger, uid: str, order: int, c: Soldier) -> None:
    """Compulsion (7.6): hold = no move and no shot this turn; retreat and drop fill the turn."""
    name = ORDER_NAMES[order]
    if name == "retreat" and c.psi_order_x:
        cell = (c.psi_order_x - 1, c.psi_order_y - 1)
        side = ledger.get(uid, "side")
        if not any(ledger.get(o, "pos") == cell and ledger.get(o, "side") != side and ledger.get(o, "status") != "dead"
                   for o in ledger.ids()):
            ledger.set(uid, "compelled to retreat", pos=cell)
    if name == "drop" and ledger.get(uid, "items"):
        ledger.set(uid, "compelled to drop what it carries", items={})
    if name == "hold":
        ledger.set(uid, "compelled to hold: no moving or shooting this turn", compelled_hold=True)
    else:
        ledger.set(uid, f"compelled: {name}", actions=0)
    set_counter(ledger, uid, "the order is carried out", psi_order=0, psi_order_x=0, psi_order_y=0)


def _controlled_turn(rs: "XcomTrpg", ledger: Ledger, uid: str, dice: Dice) -> list[Event]:
    """7.7: after the first controlled turn the save; freed, or a second turn; then it returns."""
    played = ledger.get(uid, "psi_mc_turns")
    caster = list(ledger.ids())[ledger.get(uid, "psi_mc_by") - 1]
    events: list[Event] = []
    free = played >= 2
    if played == 1:
        psi_a = ledger.get(caster, "stats").get("psionics", 0)
        stats = ledger.get(uid, "stats")
        psi_b = stats.get("psionics", 0) if ledger.get(uid, "psi_active") else 0
        free, roll = psionics.saving_throw(dice, uid, psi_a, psi_b)
        dice.note(roll, "7.7: made after the first controlled turn; unawakened psionics count 0")
        name = ledger.get(uid, "name")
        events.append(Resolved(actor=uid, action="psi", target=caster, rolls=(roll,),
                               outcome="freed" if free else "held",
                               text=f"{name}: mind-control save (Mind control) — "
                                    + ("breaks free" if free else "stays controlled for a second turn")))
    if free:
        release(rs, ledger, uid, "mind control ends")
    else:
        set_counter(ledger, uid, "a controlled turn", psi_mc_turns=played + 1)
    return events


def release(rs: "XcomTrpg", ledger: Ledger, uid: str, cause: str) -> None:
    home = ledger.get(uid, "psi_mc_home")
    if home:
        ledger.set(uid, cause, side=SIDES[home - 1], actions=0)
    set_counter(ledger, uid, cause, psi_mc_home=0, psi_mc_by=0, psi_mc_turns=0)


# -- after every command: damage wakes, cancels, and comes back to the controller ---------------------


def after(rs: "XcomTrpg", before: State, events: list[Event], dice: Dice) -> list[Event]:
    hurt = touched(events)  # damage is a change of the unit: only these are asked
    watched = [u for uid, u in before.units.items()
               if uid in hurt and u.record is not None and any(_watched(u.record))] if hurt else []
    if not watched:
        return []
    now = fold(before, events)
    ledger = Ledger(now.units)
    for was in watched:
        cur = now.units[was.id]
        lost = max(0, was.hp - cur.hp)
        hurt = lost > 0 or soldier(cur).concussion > soldier(was).concussion
        c = soldier(cur)
        if hurt and c.psi_sleep:
            set_counter(ledger, was.id, "woken by damage", psi_sleep=0)
        if hurt and (c.psi_gather or c.psi_meditate):
            set_counter(ledger, was.id, "concentration broken by damage", psi_gather=0, psi_meditate=0)
        if lost and soldier(was).psi_mc_by:
            _backlash(rs, ledger, now, was, lost)
        if c.psi_revenant and cur.status == "unconscious":
            ledger.set(was.id, "a revenant that falls stays dead", status="dead")
    return ledger.take()


WATCHED = ("psi_sleep", "psi_gather", "psi_meditate", "psi_mc_by", "psi_revenant")
_watched = operator.attrgetter(*WATCHED)  # all at once: asked of every unit a command changed


def _backlash(rs: "XcomTrpg", ledger: Ledger, now: State, target: Unit, lost: int) -> None:
    """7.5 #14: HP the controlled target loses is lost by the psionic too, armour ignored."""
    caster_id = list(now.units)[soldier(target).psi_mc_by - 1]
    caster = ledger.unit(caster_id)
    if caster.status == "dead":
        return
    hp = caster.hp - lost
    status = combat.status_for(hp, soldier(caster).concussion)
    ledger.set(caster_id, f"mind-control backlash: {target.name} lost {lost} HP", hp=hp, status=status)
    ledger.morale(caster_id, -per_bravery(rs.rules.morale.wound, soldier(caster).stats["bravery"]), "backlash wound")
    if status != caster.status:
        fallen(ledger, rs.rules, None, caster, status)
