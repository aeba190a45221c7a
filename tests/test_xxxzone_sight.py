"""xxxzone section 10: spot chances, arcs, conspicuous targets and alerts; vectors 49 and 50."""

from __future__ import annotations

import pytest

from engine.core.dice import Dice
from engine.rules.xxxzone import sight
from engine.rules.xxxzone.character import derive, pregen

from test_xxxzone_content import load_book


@pytest.fixture
def book():
    return load_book()


def test_v49_cautious_target(book):
    johnny = derive(pregen(book, "johnny"), book)
    assert johnny.sight == 10
    assert sight.spot_chance(book, 10, 8, 25, front=True) == 75
    assert sight.spot_chance(book, 10, 14, 25, front=True) == 55
    assert sight.spot_chance(book, 10, 14, 25, front=False) == 27


def test_v50_marcel_and_a_conspicuous_target(book):
    marcel = derive(pregen(book, "marcel"), book)
    assert sight.spot_chance(book, 10, 12, marcel.sneak, front=True) == 25
    assert sight.spot_chance(book, 10, 30, marcel.sneak, front=True, conspicuous=True) == 100
    assert sight.spot_chance(book, 10, 30, marcel.sneak, front=True, conspicuous=True, line_of_sight=False) == 0
    assert sight.spot_chance(book, 10, 10, marcel.sneak, front=False, conspicuous=True) == 100  # rear, within Sight
    assert sight.spot_chance(book, 10, 11, 0, front=False, conspicuous=True) == 47  # rear, beyond: a normal check


def test_adjacent_is_always_seen_and_smoke_hides(book):
    assert sight.spot_chance(book, 5, 1, 100, front=False) == 100
    assert sight.spot_chance(book, 10, 5, 25, front=True, concealed=True) == 55
    assert sight.spot_chance(book, 10, 5, 25, front=True, hidden=True) == 0
    assert sight.spot_chance(book, 5, 40, 10, front=True) == 0  # clamped


def test_the_spot_roll(book):
    seen = sight.spot(Dice.scripted([76]), book, "johnny", "marcel", 25)
    assert seen.passed and seen.roll.formula == "d100 76 + spot 25 = 101 > 100: pass"
    assert not sight.spot(Dice.scripted([75]), book, "johnny", "marcel", 25).passed
    assert sight.sure(100) is True and sight.sure(0) is False and sight.sure(40) is None


def test_facing_arcs(book):
    east = sight.facing((0, 0), (5, 2))
    assert east == (1, 1)
    assert sight.sees(book, (0, 0), (1, 0), 10, (14, 0), 25) == 55
    assert sight.sees(book, (0, 0), (1, 0), 10, (-14, 0), 25) == 27
    assert sight.sees(book, (0, 0), (1, 0), 10, (0, 14), 25) == 55  # the half-plane's edge counts as front


def test_alert_radius(book):
    enemies = [("near", (20, 0)), ("far", (21, 0))]
    assert sight.alerted(book, (0, 0), enemies, suppressed=False) == ("near",)
    assert sight.alerted(book, (0, 0), enemies, suppressed=True) == ()
    assert sight.conspicuous(False, False, True) and not sight.conspicuous(False, False, False)


def test_turning_costs_nothing_moves_the_front_arc_and_the_spot_check_looks_again(content):
    import attrs

    from engine.core import ruleset
    from engine.core.commands import Act
    from engine.core.reducer import fold
    from engine.rules.xxxzone import seen
    from engine.rules.xxxzone.units import battle
    from tests.test_xxxzone_field import stage

    rs = ruleset.make("xxxzone", content, None)
    state = stage(rs, {"johnny": ("johnny", "xcom", (5, 3)), "zhetan": ("zhetan", "aliens", (5, 15))}, size=20)
    state = attrs.evolve(state, record=attrs.evolve(battle(state), seen=()))  # nobody spotted yet
    johnny, zhetan = state.units["johnny"], state.units["zhetan"]
    # Johnny (Sight 10) faces north; the Zhetan (Sneak 20) stands D 12 south: 100 − 5·2 − 20 = 70, halved behind
    assert johnny.record.facing == (0, -1) and seen.chance(rs.book, johnny, zhetan, state) == 35
    turns = [o for o in rs.options(state, johnny) if o.command.action == "turn"]
    assert len(turns) == 7 and turns[3].label == "Turn to face s (0 AP)"
    events = rs.decide(state, Act(unit="johnny", action="turn", option="s"), Dice.scripted([31, 99]))
    assert events[0].cause == "turns to face s (0 AP)" and events[0].changes["facing"] == 4
    spot = events[-1]
    assert spot.cause == "spot checks" and spot.rolls[0].formula == "d100 31 + spot 70 = 101 > 100: pass"
    after = fold(state, events)
    assert after.units["johnny"].record.turn.ap == johnny.record.turn.ap and after.units["johnny"].facing == 4
    assert "zhetan" in battle(after).sightings("xcom")
    assert rs.decide(after, Act(unit="johnny", action="turn", option="s"), None).reason == \
        "Johnny Miller already faces s"
    assert rs.decide(state, Act(unit="johnny", action="turn", option="up"), None).reason == \
        "Turn needs a direction: one of n, ne, e, se, s, sw, w, nw"
