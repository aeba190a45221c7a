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
