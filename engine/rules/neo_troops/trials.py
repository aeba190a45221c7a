"""`resolve --trials` for neo-troops without the rolls' texts: a snap shot or spray fire at one target followed on
bare faces.

The shot is aimed as the game aims it (`actions.aim`: the pool's base and modifiers, the target's AV after cover).
Each trial throws the pool through `pools.attack` (its hits read the faces only as a multiset, so its step is
`orderless`) and takes every hit through `damage.hit` (the save, external equipment, the HP and the critical), both
memoised over the faces they draw (engine.core.bare.Steps), in the order `actions.shoot` draws them; the full
referee decides each distinct outcome once on the faces of its first trial, and a trial whose end of slot rolls more
(a new cycle, a perception test) is the referee's (engine.core.bare.count).
tests/test_trials_rulesets.py holds the plan to the full referee.
"""

from __future__ import annotations

from typing import Any

from engine.core.bare import Steps, Words, count
from engine.core.commands import Rejected
from engine.core.dice import Faces
from engine.core.model import Unit
from engine.rules.neo_troops import actions, damage, pools, referee


class ShotPlan:
    def __init__(self, rs, units: dict[str, Unit], action, found, hits: int, save_mod: int) -> None:
        self.rs, self.units, self.action, self.per_die = rs, units, action, hits
        self.pool = Steps(lambda key, dice: pools.attack(dice, action.actor, action.mode, found.base, found.mods,
                                                         found.av).hits, orderless=True)  # hits: the kept dice
        self.hits = Steps(lambda key, dice: damage.hit(dice, key, save_mod, rs.tables).target)
        self.first = self.pool.root("pool")
        self.target = found.target.record
        self.drawn: dict[str, int] = {}

    def outcome(self, words: Words) -> tuple:
        """The pool's hits, then the target after each hit in turn (`damage.apply`)."""
        leaf = self.pool.walk(self.first, words)
        key = [leaf.rid]
        links, target = self.then, self.target
        for _ in range(leaf.result * self.per_die):
            node = links.get("hit")
            if node is None:
                node = links["hit"] = self.hits.root(target)
            got = self.hits.walk(node, words)
            key.append(got.rid)
            links, target = got.then, got.result
        return tuple(key)

    then: dict  # the first hit's step, on the target as it stands

    def run(self, faces: Faces, n: int) -> list[tuple[Any, int]]:
        self.then = {}
        out, self.drawn = count(lambda dice: self.rs.referee(self.units, self.action, dice), faces, n, self.outcome)
        return out


def plan(rs, units: dict[str, Unit], action, cover, hidden) -> ShotPlan | None:
    """The fast plan for a shot at one target, or None for the full referee."""
    if action.type != "shoot" or action.also:
        return None
    state = referee.stage(rs, units, action, cover, hidden)
    found = actions.aim(rs, state, action.actor, action.target, action.mode)
    if isinstance(found, Rejected):
        return None
    w = rs.weapons[found.weapon_id]
    return ShotPlan(rs, units, action, found, w.hits, w.save_mod)
