"""`resolve --trials` for annihilation without the rolls' texts: a shot's rounds and hits followed on bare faces.

The shot is set up as `combat.shoot` sets it up (the mode, the checks, the turn to face the target, the to-hit
of `fire.to_hit`); opportunity fire is asked on no dice, and a shot that someone would answer is left to the full
referee, as are blast rounds (their scatter). Each trial then rolls every round through `fire.rounds` and every
hit as `hits.strike` does (`armour.hit`, then `wounds.damage`'s parts: Health, `location`, `wound_roll`,
`wounded`), the dice memoised over the faces they draw (engine.core.bare.Steps), in the order `actions.shoot`
draws them; the full referee decides each distinct outcome once on the faces of its first trial. tests/test_trials_rulesets.py holds the plan to the full referee.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.core.bare import Steps, Words, count
from engine.core.commands import Rejected
from engine.core.dice import Dice, DiceExhausted, Faces
from engine.core.model import Unit
from engine.rules.annihilation import armour, combat, fire, hits, referee, sights, wounds
from engine.rules.annihilation.wounds import wound_roll
from engine.rules.annihilation.inventory import ARM_OF, hands_holding
from engine.rules.annihilation.soldier import fighter_of, gun
from engine.rules.annihilation.space import between, facing_towards, side_on


class _Struck:
    """One target state meeting a hit: armour and Health worked out once (`armour.hit`, `wounds.opened`); the
    fighter after each location and wound count once (`wounds.wounded`), each with the links of the next hit."""

    __slots__ = ("fighter", "count", "after")

    def __init__(self, fighter, count: int) -> None:
        self.fighter, self.count = fighter, count
        self.after: dict[tuple[str, int], tuple[int, Any, dict]] = {}


class ShotPlan:
    def __init__(self, rs, units: dict[str, Unit], action, odds, mode: str, fired: int, target, amount: int,
                 side, shooter: str) -> None:
        self.rs, self.units, self.action, self.fired = rs, units, action, fired
        self.amount, self.side, self.target = amount, side, target
        book = rs.book
        self.rounds = Steps(lambda key, dice: fire.rounds(book, dice, shooter, mode, odds, 1).hits)
        self.places = Steps(lambda key, dice: wounds.location(book, dice, key)[0])
        self.counts = Steps(lambda key, dice: wound_roll(book, dice, "", 0, key)[0])
        self.first = self.rounds.root("round")
        self.place = self.places.root(target.character.id)
        self.states: dict[Any, int] = {}
        self.drawn: dict[str, int] = {}

    def _struck(self, target) -> _Struck:
        through = armour.hit(target.armour, self.side, self.amount)
        f, n = wounds.opened(self.rs.book, attrs.evolve(target, armour=through.armour), through.through)
        return _Struck(f if n else wounds.settle(self.rs.book, f), n)

    def _after(self, struck: _Struck, part: str, n: int) -> tuple[int, Any, dict]:
        f = wounds.wounded(self.rs.book, struck.fighter, part, n, ()).fighter if struck.count else struck.fighter
        got = struck.after[(part, n)] = (self.states.setdefault(f, len(self.states)), f, {})
        return got

    def outcome(self, words: Words) -> tuple:
        """Each round's hit or miss, then each hit's fighter after it, in the order `actions.shoot` draws:
        the rounds, then per hit its location and wound dice (`wounds.damage`)."""
        walk, first = self.rounds.walk, self.first
        rounds = [walk(first, words) for _ in range(self.fired)]
        key = [leaf.rid for leaf in rounds]
        links, target = self.then, self.target
        for leaf in rounds:
            if not leaf.result or target.status == "dead":
                continue
            struck = links.get("hit")
            if struck is None:
                struck = links["hit"] = self._struck(target)
            part, n = "", 0
            if struck.count:
                part = self.places.walk(self.place, words).result
                node = self.count_roots.get(struck.count)
                if node is None:
                    node = self.count_roots[struck.count] = self.counts.root(struck.count)
                n = self.counts.walk(node, words).result
            got = struck.after.get((part, n)) or self._after(struck, part, n)
            key.append(got[0])
            target, links = got[1], got[2]
        return tuple(key)

    then: dict  # the first hit's state, on the target as it stands
    count_roots: dict

    def run(self, faces: Faces, n: int) -> list[tuple[Any, int]]:
        self.then, self.count_roots = {}, {}
        out, self.drawn = count(lambda dice: self.rs.referee(self.units, self.action, dice), faces, n, self.outcome)
        return out


def plan(rs, units: dict[str, Unit], a) -> ShotPlan | None:
    """The fast plan for a shot no one answers and with no blast, or None for the full referee."""
    if a.type != "shoot":
        return None
    state = referee.stage(rs, units, a)
    unit = rs._actor(state, a.actor)
    if isinstance(unit, Rejected):
        return None
    mode = rs.mode_id(unit, sights.joined(a.mode, a.sights))
    target = combat.check_shot(rs, state, unit, a.target, mode)
    if isinstance(target, Rejected):
        return None
    book, g = rs.book, gun(unit.record, rs.book)
    rnd = hits.round_of(book, g.id, g.loaded)
    if isinstance(rnd, Rejected) or rnd.radius >= 0:
        return None
    turn, tu = combat.shot_cost(rs, unit, target, mode)
    f = attrs.evolve(fighter_of(unit), facing=facing_towards(unit.pos, target.pos, rs.book.settings.grid),
                     tu_left=unit.record.fighter.tu_left - turn)
    try:  # opportunity fire: a shot that draws no die was answered by no one
        _, pre = combat.react(rs, state, Dice.scripted([]), unit, attrs.evolve(f, tu_left=f.tu_left - tu), unit.pos,
                              "taking aim")
    except DiceExhausted:
        return None
    if pre or f.status != "awake":
        return None
    arms = tuple(ARM_OF[h] for h in hands_holding(g))[:book.weapons[g.id].hands]
    spaces = between(book.settings.grid, unit.pos, target.pos, 0, book.settings.height_adds_to_range)
    mode, used = sights.split(mode)
    odds = fire.to_hit(book, f, g.id, mode, spaces, sights=used, one_handed=len(arms) == 1, arms=arms)
    if isinstance(odds, Rejected) or not arms:
        return None
    fired = min(book.modes[mode].rounds, g.rounds)
    hit = fighter_of(target)
    side = side_on(book.settings.grid, hit.facing, target.pos, unit.pos)
    return ShotPlan(rs, units, a, odds, mode, fired, hit, rnd.damage, side, f.character.id)
