"""The Flare Gun's untargeted shot (6.7, 11.1; Interpretation in flare.py): fired at a square with no attack roll,
for its shot's 3 AP and its one round; the enemies seen within D <= 3 of the square are spotted without a roll,
and the shot is heard. Scripted dice: every spot roll here is a 1, which fails."""

from __future__ import annotations

import attrs
import pytest

from engine.core import ruleset
from engine.core.commands import Act
from engine.core.dice import Dice
from engine.core.reducer import fold
from engine.rules.xxxzone.units import Battle
from tests.test_xxxzone_field import record, stage


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.make("xxxzone", content, None)


def decide(rs, state, cmd):
    return rs.decide(state, cmd, Dice.scripted([1] * 20))


def dark(rs):
    """Johnny at 2,2 facing south with the Flare Gun drawn; a Zhetan at 3,12 and a Hover drone at 12,12, neither
    spotted by the squad yet."""
    state = stage(rs, {"johnny": ("johnny", "xcom", (2, 2)), "zhetan": ("zhetan", "aliens", (3, 12)),
                       "drone": ("hover_drone", "aliens", (12, 12))}, size=20)
    state = attrs.evolve(state, record=Battle(seen=(("aliens", ("johnny",)),)))
    for cmd in (Act(unit="johnny", action="stow", option="assault_rifle"),
                Act(unit="johnny", action="draw", option="flare_gun")):
        state = fold(state, decide(rs, state, cmd))
    j = state.units["johnny"]
    return attrs.evolve(state, units={**state.units, "johnny": attrs.evolve(j, record=attrs.evolve(
        j.record, facing=(0, 1)))})


def test_a_flare_at_a_square_spots_the_enemy_seen_near_it_without_a_roll_for_3_ap_and_its_round(rs):
    state = dark(rs)
    assert rs.spotted(state, "xcom") == frozenset()
    johnny = state.units["johnny"]
    ap = johnny.record.turn.ap
    flares = [o for o in rs.options(state, johnny) if o.command.action == "flare"]
    assert [o.label for o in flares] == ["Flare 5 squares ahead, at 2,7 (3 AP)", "Flare 10 squares ahead, at 2,12 (3 AP)"]
    events = decide(rs, state, flares[1].command)
    head = events[0]
    assert (head.action, head.cell, head.rolls, head.outcome) == ("flare", (2, 12), (), "lit")
    assert head.text == "Johnny Miller fires a flare at 2,12 (3 AP): it lights Zhetan in Power Armour"
    after = record(events, "johnny")
    assert after.turn.ap == ap - 3 and after.hands[0].rounds == 1 - 1
    assert any(getattr(e, "cause", "") == "Johnny Miller's shot is heard" for e in events)
    # the Zhetan (D 1 from the square) is spotted; the drone (D 10 from it) failed its spot roll of 1
    assert rs.spotted(fold(state, events), "xcom") == frozenset({"zhetan"})


def test_a_flare_is_refused_with_its_reason(rs):
    state = dark(rs)
    far = decide(rs, state, Act(unit="johnny", action="flare", cell=(2, 12)))
    empty = fold(state, far)
    again = decide(rs, empty, Act(unit="johnny", action="flare", cell=(2, 12)))
    assert (again.code, again.reason) == ("no_ammo", "The Flare Gun is empty: reload it (5 AP)")
    assert decide(rs, state, Act(unit="johnny", action="flare")).reason == \
        "The Flare Gun fires a flare at a square on the map"
    plain = stage(rs, {"johnny": ("johnny", "xcom", (2, 2)), "zhetan": ("zhetan", "aliens", (3, 12))}, size=20)
    got = decide(rs, plain, Act(unit="johnny", action="flare", cell=(2, 12)))
    assert (got.code, got.reason) == ("not_drawn", "A flare needs the Flare Gun in hand (Draw Item, 1 AP)")
    assert [o for o in rs.options(plain, plain.units["johnny"]) if o.command.action == "flare"] == []
