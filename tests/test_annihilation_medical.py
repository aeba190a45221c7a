"""annihilation's medical kits in play (section 20, A-13.2): Laura, the squad's medic, carries a Medi Kit; a dose is
an `Act("treat")` offered in the action menu, paid (TV-A36), rolled when it heals, and refused with codes."""

from __future__ import annotations

import attrs
import pytest

from engine.core.commands import Act, Rejected
from engine.core.dice import Dice, seed_from_int
from engine.core.events import Resolved, UnitChanged
from engine.core.reducer import fold
from engine.play.game import Game
from engine.rules.annihilation.fighter import Part

ID = "annihilation"


@pytest.fixture
def game(content, tmp_path):
    g = Game.new(content, ID, "eliminate", seed_from_int(4), tmp_path / "g.jsonl")
    yield g
    g.close()


def _fighter(unit, **changes):
    return attrs.evolve(unit, record=attrs.evolve(unit.record, fighter=attrs.evolve(unit.record.fighter, **changes)))


def _side_by_side(game, **anton):
    """Laura with Anton next to her (east), Anton's left leg with two open wounds, Health 30 of 48."""
    state = game.state
    grid = state.grid
    for y in range(2, grid.height - 2):
        for x in range(2, grid.width - 3):
            pair = [(x, y), (x + 1, y)]
            if all(grid.walkable[c[1], c[0]] and not state.units_at(c) for c in pair):
                a = state.units["anton"]
                hurt = a.record.fighter.with_part("left_leg", Part(open=2, total=2))
                a = attrs.evolve(a, pos=pair[1], record=attrs.evolve(a.record, fighter=attrs.evolve(
                    hurt, **({"health": 30} | anton))))
                units = {**state.units, "laura": attrs.evolve(state.units["laura"], pos=pair[0]), "anton": a}
                for uid, u in units.items():  # no alien may react
                    if u.side == "aliens":
                        units[uid] = _fighter(u, tu_left=0)
                return attrs.evolve(state, units=units)
    raise AssertionError("no free pair of squares")


def test_tv_a36_a_medic_gives_a_dose_for_5_tu_and_brings_the_kit_out_for_4(game):
    rs = game.ruleset
    state = _side_by_side(game)
    laura = state.units["laura"]
    before = laura.record.fighter.tu_left
    events = rs.decide(state, Act(unit="laura", action="treat", target="anton", option="bandage:left_leg"),
                       Dice.scripted([]))
    told, mine, his = events
    assert isinstance(told, Resolved) and told.action == "treat" and told.rolls == ()
    assert told.text == ("Laura gives Anton a spray bandage dose from the Medi Kit (9 TU, 9 left): Left leg: one wound "
                         "closed (1 open)")
    assert mine.changes["record"].fighter.tu_left == before - 4 - 5  # 10 / 2 for a medic
    assert dict(mine.changes["record"].kit[-1].doses) == {"bandage": 9, "heal": 10, "pain_killer": 10,
                                                           "stimulant": 10}
    assert his.changes["record"].fighter.part("left_leg") == Part(open=1, total=2)  # still counts for


def test_tv_a36_a_non_medic_pays_10_tu_a_dose(game):
    rs = game.ruleset
    state = _side_by_side(game)
    laura = state.units["laura"]
    c = laura.record.fighter.character
    plain = attrs.evolve(c, skills=tuple((k, 0 if k == "medic" else v) for k, v in c.skills))
    state = attrs.evolve(state, units={**state.units, "laura": _fighter(laura, character=plain)})
    spent = 0
    for _ in range(2):  # two doses: 2 × (4 + 10) in play, 2 × 10 of them the doses themselves
        events = rs.decide(state, Act(unit="laura", action="treat", target="anton", option="bandage:left_leg"),
                           Dice.scripted([]))
        now = fold(state, events)
        spent += state.units["laura"].record.fighter.tu_left - now.units["laura"].record.fighter.tu_left
        state = now
    assert spent == 2 * (4 + 10) and state.units["anton"].record.fighter.part("left_leg").open == 0


def test_a_heal_dose_rolls_1d4_and_does_nothing_beyond_saving(game):
    rs = game.ruleset
    state = _side_by_side(game)
    heal = Act(unit="laura", action="treat", target="anton", option="heal")
    dice = Dice.scripted([3])
    told, _mine, his = rs.decide(state, heal, dice)
    assert dice.scripted_left == 0 and told.rolls[0].formula == "d4 3: Health 30 → 33"
    assert his.changes["hp"] == 33 and his.changes["record"].fighter.health == 33
    lost = attrs.evolve(state, units={**state.units, "anton": _fighter(state.units["anton"], beyond_saving=True)})
    told, *_ = rs.decide(lost, heal, Dice.scripted([]))  # TV-A35: eight torso wounds, no roll, no effect
    assert told.rolls == () and told.text.endswith("no effect: eight torso wounds (A-19.5)")


def test_a_stimulant_wakes_an_unconscious_friend(game):
    rs = game.ruleset
    state = _side_by_side(game)
    down = attrs.evolve(_fighter(state.units["anton"], status="unconscious", stun=40), status="unconscious")
    state = attrs.evolve(state, units={**state.units, "anton": down})
    labels = [o.label for o in rs.options(state, state.units["laura"]) if o.group == "Medical"]
    assert "Stimulant → Anton (9 TU, 10 left)" in labels and "Spray bandage → Anton Left leg (9 TU, 10 left)" in labels
    *_, his = rs.decide(state, Act(unit="laura", action="treat", target="anton", option="stimulant"), Dice.scripted([]))
    assert his.changes["status"] == "active" and his.changes["record"].fighter.stun == 0


def test_treating_is_refused_with_codes(game):
    rs = game.ruleset
    state = _side_by_side(game)

    def treat(**kw):
        return rs.decide(state, Act(unit=kw.pop("unit", "laura"), action="treat", **kw), Dice.scripted([]))

    assert treat(target="anton", option="whisky").code == "bad_dose"
    assert treat(target="nobody", option="heal").code == "no_target"
    assert treat(target="sectoid_1", option="heal") == Rejected("hostile", "Sectoid 1 is an enemy")
    assert treat(target="anton", option="bandage:head").code == "no_wound"
    assert treat(target="julia", option="heal").code == "too_far"
    assert treat(unit="anton", target="laura", option="heal") == Rejected("no_kit", "Anton carries no medical kit")
    laura = state.units["laura"]
    empty = attrs.evolve(laura.record.kit[-1], doses=(("bandage", 0), ("heal", 10)))
    state = attrs.evolve(state, units={**state.units, "laura": attrs.evolve(laura, record=attrs.evolve(
        laura.record, kit=laura.record.kit[:-1] + (empty,)))})
    assert treat(target="anton", option="bandage:left_leg").code == "no_dose"
    state = attrs.evolve(state, units={**state.units, "laura": _fighter(state.units["laura"], tu_left=8)})
    assert treat(target="anton", option="heal") == Rejected(
        "no_tu", "A heal dose costs 9 TU (4 to bring out the Medi Kit, 5 the dose); Laura has 8 left")


def test_the_medic_treats_herself_and_the_menu_says_so(game):
    rs = game.ruleset
    state = _side_by_side(game)
    laura = state.units["laura"]
    hurt = _fighter(laura, health=20)
    state = attrs.evolve(state, units={**state.units, "laura": hurt})
    option = next(o for o in rs.options(state, hurt) if o.group == "Medical")
    assert option.label == "Heal → self (9 TU, 10 left)" and option.command.target == "laura"
    told, mine = rs.decide(state, option.command, Dice.scripted([4]))
    assert told.text == "Laura takes a heal dose from the Medi Kit (9 TU, 9 left): Health 20 → 24"
    assert mine.changes["hp"] == 24 and isinstance(mine, UnitChanged)


def test_the_ai_with_no_shot_wakes_a_friend_first_then_bandages(game):
    rs = game.ruleset
    state = _side_by_side(game)
    laura = state.units["laura"]
    assert rs.ai_special(state, laura, [], True) is None  # a shot first: the planner takes it
    assert rs.ai_special(state, laura, [], False) == Act(unit="laura", action="treat", target="anton",
                                                         option="bandage:left_leg")
    down = attrs.evolve(_fighter(state.units["anton"], status="unconscious"), status="unconscious")
    state = attrs.evolve(state, units={**state.units, "anton": down})
    assert rs.ai_special(state, laura, [], False) == Act(unit="laura", action="treat", target="anton",
                                                         option="stimulant")
    assert rs.ai_special(game.state, game.state.units["julia"], [], False) is None  # no kit, nobody hurt
