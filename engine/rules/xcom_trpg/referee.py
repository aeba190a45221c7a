"""The xcom-trpg verdict on a described situation (`xenotac resolve`).

Actions with a command in play (shoot, throw, psi, persuade, grab, escape, shove) are staged on a small map and
decided by the game (arena.py), so resolve refuses what the game refuses, with the same code and reason. The
others have no map command and go to the rule module's own referee (hooks.REFEREES), which calls the functions
play calls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.content.scenario import Verdict
from engine.rules.xcom_trpg.scenario import Action
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.model import Unit
from engine.rules.xcom_trpg import arena

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg


def referee(rs: XcomTrpg, units: dict[str, Unit], action: Action, dice: Dice) -> Verdict | Rejected:
    from engine.rules.xcom_trpg.hooks import REFEREES  # the table imports the rule modules this one uses

    if action.type in arena.STAGED:
        return arena.decide(rs, units, action, dice)
    if action.type in REFEREES:
        return REFEREES[action.type](rs.content, rs.rules, units, action, dice)
    raise ValueError(f"no referee for {action.type!r}")
