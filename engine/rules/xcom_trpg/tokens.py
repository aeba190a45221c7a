"""xcom-trpg 3.5: the third "+" or "-" crit token of an episode rolls a buff (buffs.py), and
the buff's actions per turn (4.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.dice import Dice, Roll
from engine.core.events import Event, Resolved, UnitChanged
from engine.core.model import State
from engine.core.reducer import fold
from engine.rules.xcom_trpg import buffs
from engine.rules.xcom_trpg.damage import Ledger
from engine.rules.xcom_trpg.record import counted, soldier

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg

TOKENS_FOR_BUFF = 3
KINDS = (("crit_plus", buffs.PLUS, "heroic inspiration", buffs.INSPIRATION),
         ("crit_minus", buffs.MINUS, "depression", buffs.DEPRESSION))


def roll_buff(dice: Dice, uid: str, name: str) -> tuple[Roll, int]:
    """1.1 and 3.5: 1d100 mod 4; remainder 1/2/3/0 -> effect 1/2/3/4."""
    face, index = dice.d(100, uid, name)
    effect = face % 4 or 4
    return Roll(actor=uid, purpose=name, expr="1d100", faces=(face,),
                formula=f"{name} 1d100={face}, mod 4 = {face % 4} → effect {effect}", total=effect,
                index=index), effect


def grant(ledger: Ledger, dice: Dice, uid: str) -> list[Event]:
    """The buff of the first kind with 3 tokens, if the unit has none yet (they exclude each other)."""
    if ledger.get(uid, buffs.PLUS) or ledger.get(uid, buffs.MINUS):
        return []
    for token, counter, name, effects in KINDS:
        if ledger.get(uid, token) < TOKENS_FOR_BUFF:
            continue
        roll, effect = roll_buff(dice, uid, name)
        dice.note(roll, f"the third \"{'+' if counter == buffs.PLUS else '-'}\" crit token of the episode (3.5); "
                        "the god of random picks the effect by 1d100 mod 4 (1.1)")
        unit = ledger.unit(uid)
        ledger.set(uid, f"{name}: {effects[effect]}", **{counter: ledger.get(uid, counter) + effect})
        if counter == buffs.MINUS and effect == buffs.MORALE_HALF:
            cap = buffs.DEPRESSED_MORALE_MAX
            ledger.set(uid, f"depression: maximum morale {cap}", morale_max=cap, morale=min(soldier(unit).morale, cap))
        text = f"{unit.name}: {name.upper()} for the rest of the episode: {effects[effect]}"
        return [Resolved(actor=uid, action=name.replace(" ", "_"), rolls=(roll,), outcome=f"effect {effect}",
                         text=text)]
    return []


def after(rs: "XcomTrpg", before: State, events: list[Event], dice: Dice) -> list[Event]:
    touched = [e.unit for e in events if isinstance(e, UnitChanged) and counted(e.changes)]
    if not touched:
        return []
    now = fold(before, events)
    ledger = Ledger(now.units)
    out: list[Event] = []
    for uid in dict.fromkeys(touched):
        if uid in now.units and now.units[uid].status != "dead":
            out += grant(ledger, dice, uid)
            out += ledger.take()
    return out


def actions(rs: "XcomTrpg", ledger: Ledger, uid: str, dice: Dice) -> list[Event]:
    """Inspiration 2: 3 actions; depression 4: 1. A 1-action restriction (concussion) wins (4.2)."""
    normal = rs.rules.actions_per_turn
    if ledger.get(uid, "actions") != normal:
        return []
    if not ledger.get(uid, buffs.PLUS) and not ledger.get(uid, buffs.MINUS):
        return []  # no buff, no change: asked before the unit is built (this runs for every unit every turn)
    wanted = buffs.actions_per_turn(ledger.unit(uid), normal)
    if wanted != normal:
        why = "heroic inspiration: 3 actions" if wanted > normal else "depression: 1 action"
        ledger.set(uid, why, actions=wanted)
    return []
