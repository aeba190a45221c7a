"""annihilation's physical attack in play (A-14.10): TV-A39 through `decide`, its refusals with codes, the action
menu's entry, opportunity fire before it, and the AI striking when it has no shot."""

from __future__ import annotations

import attrs
import pytest

from engine.core.commands import Act, Rejected
from engine.core.dice import Dice, seed_from_int
from engine.core.events import Resolved, UnitChanged
from engine.play.game import Game
from engine.rules.annihilation.fighter import deploy

ID = "annihilation"


@pytest.fixture
def game(content, tmp_path):
    g = Game.new(content, ID, "eliminate", seed_from_int(4), tmp_path / "g.jsonl")
    yield g
    g.close()


def _fighter(book, f, armour="none", **stats):
    c = attrs.evolve(f.character, stats=attrs.evolve(f.character.stats, **stats), armour=armour)
    return attrs.evolve(deploy(book, c, facing=f.facing), tu_turn=55, tu_left=55)


def _adjacent(game, *, anton_facing=0, sectoid_tu=0, **anton_stats):
    """Anton (TV-A39: Str 50, Acc 50, TU 55) on open ground, Sectoid 1 in light body armour (Health 100) just north of it
    facing south; the other aliens' TUs spent, so only Sectoid 1 could react."""
    state, rs = game.state, game.ruleset
    grid = state.grid
    for x in range(2, grid.width - 2):
        for y in range(2, grid.height - 3):
            col = [(x, y), (x, y + 1)]
            if all(grid.walkable[c[1], c[0]] and grid.transparent[c[1], c[0]] and not state.units_at(c) for c in col):
                units = dict(state.units)
                a = units["anton"]
                fa = attrs.evolve(_fighter(rs.book, a.record.fighter, **({"strength": 50, "accuracy": 50} | anton_stats)),
                                  facing=anton_facing)
                units["anton"] = attrs.evolve(a, pos=col[1], facing=anton_facing,
                                              record=attrs.evolve(a.record, fighter=fa))
                s = units["sectoid_1"]
                fs = attrs.evolve(_fighter(rs.book, s.record.fighter, "light_body_armor", health=100), facing=4,
                                  tu_left=sectoid_tu)
                units["sectoid_1"] = attrs.evolve(s, pos=col[0], facing=4, hp=100,
                                                  record=attrs.evolve(s.record, fighter=fs))
                for uid, u in units.items():
                    if u.side == "aliens" and uid != "sectoid_1":
                        units[uid] = attrs.evolve(u, record=attrs.evolve(u.record, fighter=attrs.evolve(
                            u.record.fighter, tu_left=0)))
                return attrs.evolve(state, units=units)
    raise AssertionError("no open pair of squares")


def test_tv_a39_a_physical_attack_through_decide(game):
    rs = game.ruleset
    state = _adjacent(game)
    dice = Dice.scripted([50, 5, 1, 1, 1])  # d100 50 ≤ 50 hit; d20 5 torso; 3 × 1d4 wounds (35 through)
    events = rs.decide(state, Act(unit="anton", action="melee", target="sectoid_1"), dice)
    assert dice.scripted_left == 0
    told = next(e for e in events if isinstance(e, Resolved))
    assert told.action == "melee" and told.outcome == "hit" and told.target == "sectoid_1"
    assert told.rolls[0].formula == "d100 50 ≤ to-hit 50 (Acc 50 + skill 0; damage Str 50 + Wp 0 = 50) hit"
    assert told.text.startswith("Anton strikes at Sectoid 1 (11 TU): hit: 50 on front")
    mine, hit, use = [e for e in events if isinstance(e, UnitChanged)]
    assert use.cause == "uses (A-6.1): physical attack, 1 hit on an enemy"  # Acc and Str (practice.py)
    assert mine.changes["record"].fighter.tu_left == 55 - 11  # 20% of 55, no turn: it already faces north
    f = hit.changes["record"].fighter
    assert (f.health, f.armour.front, f.armour.av10) == (65, 40, 140)  # 35 to the character, side −10, AV10 −10
    assert hit.changes["hp"] == 65


def test_a_strike_turns_the_attacker_first_and_a_miss_rolls_once(game):
    state = _adjacent(game, anton_facing=4)  # its back to the sectoid: 4 facing steps, 1 TU each
    events = game.ruleset.decide(state, Act(unit="anton", action="melee", target="sectoid_1"), Dice.scripted([51]))
    (told,) = [e for e in events if isinstance(e, Resolved)]
    assert told.outcome == "miss" and len(told.rolls) == 1 and "(15 TU)" in told.text
    mine = events[-2]  # the last: its uses
    assert events[-1].cause == "uses (A-6.1): physical attack"
    assert mine.changes["record"].fighter.tu_left == 55 - 4 - 11 and mine.changes["facing"] == 0


def test_melee_refusals_have_codes(game):
    rs = game.ruleset
    state = _adjacent(game)
    strike = Act(unit="anton", action="melee", target="sectoid_1")
    assert rs.decide(state, Act(unit="anton", action="melee", target="nobody"), None).code == "no_target"
    assert rs.decide(state, Act(unit="anton", action="melee", target="julia"), None) == Rejected(
        "friendly", "Julia is on Anton's side")
    far = game.state  # as deployed: the sectoid far off and unseen
    assert rs.decide(far, strike, None).code == "no_line_of_sight"
    units = dict(state.units)
    s = units["sectoid_1"]
    units["sectoid_1"] = attrs.evolve(s, pos=(s.pos[0], s.pos[1] - 1))  # two squares off, still in sight
    got = rs.decide(attrs.evolve(state, units=units), strike, None)
    assert got.code == "out_of_reach" and got.reason.endswith("Sectoid 1 is 2 spaces away")
    a = state.units["anton"]
    tired = attrs.evolve(a, record=attrs.evolve(a.record, fighter=attrs.evolve(a.record.fighter, tu_left=10)))
    got = rs.decide(attrs.evolve(state, units={**state.units, "anton": tired}), strike, None)
    assert got.code == "no_tu" and got.reason == "A physical attack costs 11 TU; Anton has 10 left"


def test_the_action_menu_offers_the_strike_with_its_odds(game):
    rs = game.ruleset
    state = _adjacent(game)
    (option,) = [o for o in rs.options(state, state.units["anton"]) if o.group == "Melee"]
    assert option.label == "Strike Sectoid 1 (11 TU, 50%)"
    assert option.command == Act(unit="anton", action="melee", target="sectoid_1")
    assert not [o for o in rs.options(game.state, game.state.units["anton"]) if o.group == "Melee"]


def test_observers_fire_before_the_strike_and_can_cancel_it(game):
    state = _adjacent(game, sectoid_tu=40)  # the sectoid kept TUs: reaction 40+ beats Anton's after paying
    a = state.units["anton"]
    weak = attrs.evolve(a, record=attrs.evolve(a.record, fighter=attrs.evolve(a.record.fighter, health=10)))
    state = attrs.evolve(state, units={**state.units, "anton": weak})
    dice = Dice.scripted([1, 5] + [1] * 10)  # the snap hits the torso: Anton is down before he strikes
    events = game.ruleset.decide(state, Act(unit="anton", action="melee", target="sectoid_1"), dice)
    told = [e for e in events if isinstance(e, Resolved)]
    assert [e.action for e in told] == ["reaction fire"] and "reacts to Anton striking" in told[0].text
    assert events[-5].cause == "attack cancelled: put down by opportunity fire"
    assert events[-5].changes["record"].fighter.tu_left == 0
    assert events[-4].cause == "lets go of what it held (unconscious)"
    assert [e.cause for e in events[-3:-1]] == ["leaves it on the ground", "on the ground: Mk. IIV Assault Rifle"]
    assert events[-1].cause.startswith("uses (A-6.1): wounded")  # no attack made: only its wounds are uses


def test_the_ai_strikes_an_enemy_next_to_it_when_it_has_no_shot(game):
    rs = game.ruleset
    state = _adjacent(game)
    anton = state.units["anton"]
    seen = [state.units["sectoid_1"]]
    assert rs.ai_special(state, anton, seen, True) is None  # a shot is better: the planner takes it
    assert rs.ai_special(state, anton, seen, False) == Act(unit="anton", action="melee", target="sectoid_1")
    assert rs.ai_special(state, anton, [], False) is None  # it strikes only at what its side has seen
