"""`resolve --trials` for xxxzone without the rolls' texts: a shot (one roll or a burst) followed on bare faces.

The shot is set up as `shooting.attack` sets it up (the facing, the cover on the line, what the target knows) and
planned by `shooting.plan` (fire's own set-up: the attack rolls and the defence). Each trial then takes every
attack roll through `attack.volley` and every wound through `wounds.wound`, both memoised over the faces they
draw (engine.core.bare.Steps), so each step is the rule's own code; the rolls and the target's condition after
them are the trial's outcome, and the full referee decides each distinct outcome once on the faces of its first
trial. Riders (fire, poison, Chi Strike Palm, Disabling Shot) are left to the full referee.
tests/test_trials_rulesets.py holds the plan to the full referee.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.core.bare import Steps, Words, count
from engine.core.commands import Rejected
from engine.core.dice import Dice, Faces
from engine.core.model import Unit
from engine.rules.xxxzone import battle, referee, shooting, sight
from engine.rules.xxxzone.attack import volley
from engine.rules.xxxzone.wounds import wound


def _roll(key, dice: Dice):
    _i, a, d = key
    (hit,), after = volley(dice, [a], d)
    return (hit.outcome, hit.cover, hit.armour_hp, hit.cover_hp, hit.wound), after


class ShotPlan:
    def __init__(self, rs, units: dict[str, Unit], action, attacks, defence, vitals, condition) -> None:
        self.rs, self.units, self.action = rs, units, action
        self.attacks, self.vitals, self.condition = attacks, vitals, condition
        self.rolls = Steps(_roll)
        self.wounds = Steps(lambda key, dice: wound(dice, rs.book, key[0], key[1], key[2]).condition)
        self.first = self.rolls.root((0, attacks[0], defence))
        self.drawn: dict[str, int] = {}

    def outcome(self, words: Words) -> tuple:
        """Every attack roll's and every wound's result, in the order `shot.fire` draws their dice: the rolls'
        outcomes and the target's condition after them."""
        walk = self.rolls.walk
        leaf = walk(self.first, words)
        hits = [leaf]
        for i in range(1, len(self.attacks)):
            node = leaf.then.get("next")
            if node is None:
                node = leaf.then["next"] = self.rolls.root((i, self.attacks[i], leaf.result[1]))
            leaf = walk(node, words)
            hits.append(leaf)
        key = [hit.rid for hit in hits]
        links, cond = self.then, self.condition
        for hit in hits:
            tier = hit.result[0][4]
            if tier is None:
                continue
            node = links.get(tier)
            if node is None:
                node = links[tier] = self.wounds.root((self.vitals, cond, tier))
            leaf = self.wounds.walk(node, words)
            key.append(leaf.rid)
            links, cond = leaf.then, leaf.result
        return tuple(key)

    then: dict  # the wound steps that start from the target's own condition, by tier

    def run(self, faces: Faces, n: int) -> list[tuple[Any, int]]:
        self.then = {}
        out, self.drawn = count(lambda dice: self.rs.referee(self.units, self.action, dice), faces, n, self.outcome)
        return out


def plan(rs, units: dict[str, Unit], action, cover) -> ShotPlan | None:
    """The fast plan for a shot without riders, or None when only the full referee decides it."""
    book = rs.book
    if action.type != "shoot":  # throws, med-kits and blasts: the full referee
        return None
    state = referee.stage(rs, units, action, cover)
    ready = referee.paid(rs, state, action)
    if isinstance(ready, Rejected) or book.weapons[ready[0][0]].modes[ready[0][1]].cone:  # a spray: every unit
        return None
    (weapon, mode), turn = ready
    unit, target = units[action.actor], units[action.target]
    w = book.weapons[weapon]
    c = attrs.evolve(unit.record, turn=turn, facing=sight.facing(unit.pos, target.pos))
    held = next((h for h in c.hands if h.item == weapon), None)
    rider = w.rider or (book.items[held.ammo].rider if held is not None and held.ammo else "")
    if rider or (w.unarmed and c.op.has("chi_strike_palm")):
        return None
    pieces = shooting.cover(book, state, unit.pos, target.pos)
    shot = shooting.shot_for(rs, state, unit, target, weapon, mode, action.reaction)
    planned = shooting.plan(book, c, target.record, shot, pieces)
    if isinstance(planned, Rejected):
        return None
    attacks, defence = planned
    return ShotPlan(rs, units, action, attacks, defence, battle.vitals(book, target.record),
                    target.record.condition)
