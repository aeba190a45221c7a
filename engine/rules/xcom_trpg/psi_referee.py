"""`xenotac resolve` for the human initiation (7.1): the roster's own roll (psionics.initiation), on the described
character. Psi abilities themselves are resolved on the play path (arena.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.content.models import Content
from engine.rules.xcom_trpg.models import RulesetDef
from engine.content.scenario import Verdict
from engine.rules.xcom_trpg.record import soldier
from engine.core.dice import Dice
from engine.core.model import Unit
from engine.rules.xcom_trpg import psionics
from engine.rules.xcom_trpg.damage import Ledger
from engine.rules.xcom_trpg.psi_effects import set_counter
from engine.rules.xcom_trpg.tables import xcom

if TYPE_CHECKING:
    from engine.rules.xcom_trpg.scenario import Action


def initiation(content: Content, rules: RulesetDef, units: dict[str, Unit], action: Action, dice: Dice) -> Verdict:
    unit = units[action.actor]
    if not xcom(content).races[unit.race].psi_locked:
        return Verdict([], units, {}, f"{unit.name}: a {unit.race}'s psionics need no initiation (7.1)")
    if soldier(unit).stats.get("psionics", 0) < 1:
        return Verdict([], units, {}, f"{unit.name}: initiation needs at least 1 point in Psionics (7.1)")
    result = psionics.initiation(dice, rules, unit.id, soldier(unit).stats)
    ledger = Ledger(units)
    ledger.set(unit.id, result.text, stats=result.stats)
    if result.awakened:
        set_counter(ledger, unit.id, "psionics awakened", psi_active=1)
    return Verdict([result.roll], units, ledger.changes, f"{unit.name}: {result.text}")
