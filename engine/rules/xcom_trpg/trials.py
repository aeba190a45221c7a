"""`resolve --trials` without building what no one reads: a plain shot decided on bare faces.

The full referee builds a Roll with its formula text for every die, a summary line and a ledger of
events for each trial; the trials only count what happened to each unit. Here everything that does
not depend on the dice (stats, crit ranges, damage) is worked out once, each trial follows
combat.resolve_shot on the faces alone to the shot's hits and crits, and what those do to the units
is decided once per distinct outcome by the full referee (the game's own decision, arena.py) on the
faces of the first trial that ended so. A trial this plan does not follow (a tie broken by luck) is
handed to the full referee from the same die on.
tests/test_trials.py holds the plan to the full referee on many seeds and scenarios.
"""

from __future__ import annotations

import hmac
import struct
from typing import Any, Callable

from engine.content.formula import div_round
from engine.content.models import COVER_LEVEL, Content
from engine.rules.xcom_trpg.record import soldier
from engine.rules.xcom_trpg.scenario import Action
from engine.core.dice import Dice, Faces, derive
from engine.core.model import Unit
from engine.rules.xcom_trpg import combat
from engine.rules.xcom_trpg.tables import xcom

STREAM = "main"
_LIMIT100 = (1 << 32) - (1 << 32) % 100


class Words:
    """Faces of the main stream from a given index: the derivation of engine.core.dice, eight per HMAC."""

    def __init__(self, faces: Faces, index: int) -> None:
        self.seed = faces.seed
        self.index = index
        self._buffer: tuple[int, ...] = ()
        self._at = 8
        block, skip = divmod(index, 8)
        self._block = block
        if skip:
            self._fill()
            self._at = skip

    def _fill(self) -> None:
        self._buffer = struct.unpack(">8I", hmac.digest(self.seed, f"{STREAM}:{self._block}".encode(), "sha256"))
        self._block += 1
        self._at = 0

    def d100(self) -> int:
        if self._at == 8:
            self._fill()
        word = self._buffer[self._at]
        self._at += 1
        self.index += 1
        return word % 100 + 1 if word < _LIMIT100 else derive(self.seed, STREAM, self.index - 1, 100).face


class ShotPlan:
    """One plain shot (one projectile, no sniper mode, no darts) between two fixed units."""

    def __init__(self, content: Content, rules, units: dict[str, Unit], action: Action, referee: Callable) -> None:
        shooter, target = units[action.actor], units[action.target or ""]
        weapon = xcom(content).weapons[soldier(shooter).weapon]
        mode = weapon.modes[action.mode]
        self.units, self.action, self.referee = units, action, referee
        stat = combat.attack_stat(shooter, weapon)
        self.value = combat.effective_stat(shooter, stat) + mode.stat_modifier + combat.owner_bonus(shooter, weapon, stat)
        self.low = combat.crit_floor(content, rules, target)
        self.fail_max = rules.crit_failure_max
        self.dodge_low = rules.crit_success_min
        self.penalty = combat.penalty(shooter, weapon)
        self.halve = COVER_LEVEL[action.cover] == combat.PARTIAL
        self.threshold = rules.luck_threshold
        self.luck = combat.shooter_luck(shooter, weapon)
        self.down = target.status == "dead"
        self.dodging = action.sectors_between >= 2 and action.target_sees_actor and target.status == "active"
        self.agility = combat.effective_stat(target, "agility", dodge=True)
        self.target_luck = combat.effective_stat(target, "luck", dodge=True)
        self.shooter, self.target = shooter.id, target.id
        self.drawn = 0
        full = combat.armour_damage(content, weapon, target)
        conc = combat.concussion_taken(content, 0, target)
        self.hit = (combat.Hit(target.id, full, conc, "hit"),)
        self.glancing = (combat.Hit(target.id, div_round(full, 2), div_round(conc, 2), "glancing"),)
        boosted = combat.armour_damage(content, weapon, target, unarmoured_if_light=True)
        self.crit120 = (combat.Hit(target.id, div_round(boosted * 6, 5), conc, "crit120"),)
        self.head = ((combat.Hit(target.id, 0, 0, "kill"),) if soldier(target).armor in weapon.headshot_kills
                     else (combat.Hit(target.id, weapon.damage * weapon.headshot_multiplier, 0, "headshot"),))

    def outcome(self, words: Words) -> tuple | None:
        """The shot's (hits, crits) on the next faces, as resolve_shot would find them; None for a tie."""
        face = words.d100()
        if face >= self.low:
            return ((), ((self.shooter, "success"),)) if self.down else (self.head, ((self.shooter, "success"),))
        if face <= self.fail_max:
            return (), ((self.shooter, "failure"),)
        atk = self.value * face - self.penalty
        if self.halve:
            atk = div_round(atk, 2)
        if self.luck * words.d100() < self.threshold or self.down:
            return (), ()
        if not self.dodging:
            return self.hit, ()
        face = words.d100()
        if face >= self.dodge_low:
            return (), ((self.target, "success"),)
        if face <= self.fail_max:
            return self.crit120, ((self.target, "failure"),)
        dodge = self.agility * face
        if dodge < atk:
            return self.hit, ()
        if self.target_luck * words.d100() < self.threshold:
            return self.glancing, ()
        if dodge > atk:
            return (), ()
        return None  # a tie: luck checks and rerolls, left to the full referee

    def run(self, faces: Faces, n: int) -> list[tuple[Any, int]]:
        """(verdict, how many trials ended so) for n trials from die 0 of the main stream."""
        counts: dict[tuple, int] = {}
        first: dict[tuple, int] = {}  # each outcome's first trial: its faces decide what the outcome changes
        slow: list[Any] = []
        words = Words(faces, 0)
        outcome = self.outcome
        for _ in range(n):
            start = words.index
            key = outcome(words)
            if key is None:  # the full referee, from the trial's first die
                dice = Dice(faces, {STREAM: start})
                slow.append(self.referee(self.units, self.action, dice))
                words = Words(faces, dice.counters[STREAM])
                continue
            counts[key] = counts.get(key, 0) + 1
            first.setdefault(key, start)
        self.drawn = words.index  # dice used, for the test that holds this plan to the referee
        out = [(self.referee(self.units, self.action, Dice(faces, {STREAM: first[key]})), k)
               for key, k in counts.items()]
        return out + [(verdict, 1) for verdict in slow]


def plan(content: Content, ruleset_id: str, units: dict[str, Unit], action: Action, referee: Callable) -> ShotPlan | None:
    """The fast plan for this action, or None when only the full referee decides it."""
    if action.type != "shoot" or action.cover == "full":
        return None
    weapon = xcom(content).weapons[soldier(units[action.actor]).weapon]
    mode = weapon.modes.get(action.mode)
    if mode is None or mode.sniper or weapon.darts or mode.shots != 1 or weapon.pellets != 1:
        return None
    if weapon.max_between is not None and action.sectors_between > weapon.max_between:
        return None
    return ShotPlan(content, xcom(content).rulesets[ruleset_id], units, action, referee)
