"""The neo-troops AI's covering fire (§11, watch.py) on staged open fields: a spray at a cluster it can hit now, a
standing area where the spray's dice are few and the foes hold their ground, and an area over the cell a hostile
known to be near must come from."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest

from engine.core.commands import Act
from engine.rules.neo_troops import views, watch
from test_neo_troops_actions import clues, field

GOONS = {"g1": ("goon", "aliens", (2, 8)), "g2": ("goon", "aliens", (3, 9)), "g3": ("goon", "aliens", (2, 9))}


@pytest.fixture(scope="module")
def played(content, tmp_path_factory):
    from engine.core.dice import seed_from_int
    from engine.play.game import Game

    game = Game.new(content, "neo-troops", "eliminate", seed_from_int(4), tmp_path_factory.mktemp("neo") / "g.jsonl",
                    public=4)
    yield game.ruleset
    game.close()


def _anna(played, **record):
    state = field(played, {"anna": ("anna", "xcom", (2, 2)), **GOONS}, "anna", anna=record)
    return state, state.units["anna"], [state.units[g] for g in GOONS]


def test_a_healthy_varan_sprays_three_goons_it_can_hit_now(played):
    state, anna, goons = _anna(played)
    # the spray: 4 + accuracy 1 + still 1 = 6 dice, keep 4, each die kept that reaches AV 4 hits one of them
    assert watch.spray_value(played, state, anna, ("g1", "g2", "g3")) == Fraction(23, 8)
    # the area: a die at each of the three now (3 × 1/2) and half a die later at each holding its ground (3 × 1/4)
    assert watch.cover_value(played, state, anna, (2, 8)) == (Fraction(9, 4), 3)
    assert views.ai_special(played, state, anna, goons, True) == Act(unit="anna", action="spray",
                                                                      targets=("g1", "g2", "g3"))


def test_a_varan_with_head_damage_lays_covering_fire_on_goons_holding_their_ground(played):
    state, anna, goons = _anna(played, head_hits=1)
    # head damage: no accuracy and −1 die, so the spray throws 4 + still 1 − 1 = 4 dice: 4 × 1/2 = 2 hits
    assert watch.spray_value(played, state, anna, ("g1", "g2", "g3")) == 2
    assert watch.cover_value(played, state, anna, (2, 8)) == (Fraction(9, 4), 3)  # n = min(4, 4): a die each
    assert views.ai_special(played, state, anna, goons, True) == Act(unit="anna", action="cover", cell=(2, 8))
    # goons on the move will not stay in the area: only the volley counts, and the spray is worth more
    moving = attrs.evolve(state, units={**state.units, **{g: attrs.evolve(state.units[g], record=attrs.evolve(
        state.units[g].record, moved=True)) for g in GOONS}})
    assert watch.cover_value(played, moving, moving.units["anna"], (2, 8)) == (Fraction(3, 2), 3)
    assert views.ai_special(played, moving, moving.units["anna"], [moving.units[g] for g in GOONS], True).action \
        == "spray"


def _brute(played, template="brute", at=(2, 2)):
    state = field(played, {"brute": (template, "aliens", at), "anna": ("anna", "xcom", (12, 12))}, "brute")
    return attrs.evolve(state, phase=3)


def test_an_armoured_goon_covers_where_a_varan_was_last_seen_while_the_lead_is_fresh(played):
    state = _brute(played)
    brute = state.units["brute"]  # the cloaked varan stands unnoticed: nothing in sight
    hunt = views.ai_hunt(played, state, brute, clues(state, leads=[((10, 10), 2)]))
    assert hunt.command == Act(unit="brute", action="cover", cell=(10, 10))
    assert watch.ai_approach(played, state, brute, clues(state, leads=[((10, 10), 1)])) is None  # stale: 2 phases
    goon = _brute(played, "goon")  # an aggressive goon goes after the lead instead of waiting for it
    assert watch.ai_approach(played, goon, goon.units["brute"], clues(goon, leads=[((10, 10), 2)])) is None
    late = attrs.evolve(state, phase=int(played.setup.max_phases * watch.LATE) + 1)  # late: everyone presses on
    assert watch.ai_approach(played, late, late.units["brute"], clues(late, leads=[((10, 10), 2)])) is None



def test_a_varan_holding_the_farmyard_covers_the_approach_and_one_outside_it_does_not(content, tmp_path):
    from engine.core.dice import seed_from_int
    from engine.play.game import Game

    game = Game.new(content, "neo-troops", "defend", seed_from_int(4), tmp_path / "g.jsonl", public=4)
    rs = game.ruleset
    try:
        yard = sorted(rs.setup.spawns["hold"])[0]  # (11, 16): the squad holds the farmyard it deploys in
        for at, said in ((yard, Act(unit="anna", action="cover", cell=(17, 22))), ((0, 0), None)):
            state = attrs.evolve(field(rs, {"anna": ("anna", "xcom", at), "goon": ("goon", "aliens", (40, 40))},
                                       "anna"), phase=3)
            lead = (at[0] + 6, at[1] + 6)
            assert watch.ai_approach(rs, state, state.units["anna"], clues(state, leads=[(lead, 2)])) == said
    finally:
        game.close()
