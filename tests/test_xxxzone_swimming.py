"""Swimming (xxxzone section 4, Interpretation): a water square costs 2 AP (1 with Aqualad) moving quickly or
cautiously, through the kernel's `Walk.water`; a swimmer cannot fight or work; the water puts a fire out. On a
staged field with a stream down column 5, with every number written out."""

from __future__ import annotations

import attrs
import pytest

from engine.core import ruleset
from engine.core.commands import Act, Combo, Move, Reload, Shoot, Throw
from engine.core.dice import Dice
from engine.core.reducer import fold
from tests.test_xxxzone_feats import learn
from tests.test_xxxzone_field import hurt, record, stage

STREAM = {(5, y): "water" for y in range(12)}


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.make("xxxzone", content, None)


def field(rs):
    return stage(rs, {"dane": ("dane", "xcom", (3, 5)), "zhetan": ("zhetan", "aliens", (10, 10))}, tiles=STREAM,
                 size=12)


def test_the_walk_prices_a_swim_square_at_2_ap_quickly_or_cautiously_and_1_with_aqualad(rs):
    state = field(rs)
    budget = rs.budget(state, state.units["dane"])
    path = ((4, 5), (5, 5), (6, 5), (7, 5))  # grass, water, grass, grass
    assert budget.walk.cost((3, 5), path) == 1 + 2 + 1 + 1
    assert budget.dash_walk.cost((3, 5), path) == 2 + 2 + 2 + 2
    assert budget.moves_left == 9 and budget.dash_fits((3, 5), path) and not budget.dash_fits((3, 5), path * 2)
    # the kernel's path crosses the stream where the map gives no way round, and the grid lets it stand in it
    crossing = state.grid.path((3, 5), (7, 5), walk=budget.walk)
    assert len(crossing) == 4 and budget.walk.cost((3, 5), crossing) == 5 and sum(c[0] == 5 for c in crossing) == 1
    assert state.grid.passable(budget.walk)[5, 5] and not state.grid.passable()[5, 5]
    fish = learn(state, "dane", "aqualad")
    assert rs.budget(fish, fish.units["dane"]).walk.cost((3, 5), path) == 1 + 1 + 1 + 1


def test_moving_quickly_across_the_stream_pays_2_for_the_water_and_says_so(rs):
    state = field(rs)
    events = rs._command(state, state.units["dane"], Move(unit="dane", path=((4, 5), (5, 5), (6, 5))), None)
    after = record(events, "dane")
    assert after.turn.ap == 9 - (1 + 2 + 1) and after.at == (6, 5) and after.conspicuous
    assert events[-1].cause == "moves quickly (3 squares, 1 swum)"


def test_moving_cautiously_in_the_water_pays_the_swim_price_not_twice_the_walk(rs):
    state = field(rs)
    events = rs._command(state, state.units["dane"], Combo(unit="dane", path=((4, 5), (5, 5))), None)
    assert record(events, "dane").turn.ap == 9 - (2 + 2) and not record(events, "dane").conspicuous


def test_a_swim_the_ap_cannot_pay_is_refused_with_its_prices(rs):
    state = field(rs)
    dane = state.units["dane"]
    tired = attrs.evolve(state, units={**state.units, "dane": attrs.evolve(dane, record=attrs.evolve(
        dane.record, turn=attrs.evolve(dane.record.turn, ap=2)))})
    got = rs._command(tired, tired.units["dane"], Move(unit="dane", path=((4, 5), (5, 5))), None)
    assert (got.code, got.reason) == ("no_ap", "Moving quickly 2 squares costs 3 AP (1 a square, 2 a square swum); "
                                               "Dane McKinnon has 2")


def swimmer(rs):
    state = field(rs)
    return fold(state, rs._command(state, state.units["dane"], Move(unit="dane", path=((4, 5), (5, 5))), None))


@pytest.mark.parametrize("command, doing", [
    (Shoot(unit="dane", target="zhetan", mode="shoot"), "shoot or strike"),
    (Throw(unit="dane", item="frag", cell=(9, 9)), "throw"),
    (Reload(unit="dane"), "reload"),
    (Act(unit="dane", action="hunker"), "hunker down"),
    (Act(unit="dane", action="aim", target="zhetan"), "aim"),
    (Act(unit="dane", action="place_c4"), "place C4"),
])
def test_a_swimmer_cannot_fight_or_work_and_is_told_why(rs, command, doing):
    state = swimmer(rs)
    got = rs.decide(state, command, Dice.scripted([50] * 10))
    assert (got.code, got.reason) == ("swimming", f"Swimming: cannot {doing}")


def test_the_menu_the_modes_and_the_sheet_know_the_swimmer(rs):
    state = swimmer(rs)
    dane = state.units["dane"]
    labels = [o.label for o in rs.options(state, dane)]
    assert not any(label.startswith(("Hunker", "Aim", "Overwatch", "Place C4")) for label in labels)
    assert any(label.startswith("Stow") for label in labels)  # drawing and stowing still work
    assert rs.shot_modes(state, dane) and not any(m.usable for m in rs.shot_modes(state, dane))
    assert "swimming" in rs.sheet(state, dane).effects
    thrown = rs.preview_throw(state, "dane", "frag", (9, 9))  # the throw cursor says why, before any key
    assert (thrown.code, thrown.reason) == ("swimming", "Swimming: cannot throw")
    out = rs._command(state, dane, Move(unit="dane", path=((6, 5),)), None)  # out of the water: all back
    ashore = fold(state, out)
    assert "swimming" not in rs.sheet(ashore, ashore.units["dane"]).effects
    assert any(o.label.startswith("Hunker") for o in rs.options(ashore, ashore.units["dane"]))


def test_the_water_puts_a_burning_unit_out(rs):
    state = hurt(field(rs), "dane", on_fire=3)
    events = rs._command(state, state.units["dane"], Move(unit="dane", path=((4, 5), (5, 5))), None)
    assert record(events, "dane").condition.on_fire == 0
    dry = rs._command(state, state.units["dane"], Move(unit="dane", path=((4, 5),)), None)
    assert record(dry, "dane").condition.on_fire == 3


def test_a_walk_without_water_keeps_the_stream_impassable_as_before(rs):
    """The kernel's default (xcom-trpg, annihilation, neo-troops price no swimming): no way across, no standing."""
    grid = field(rs).grid
    plain = ruleset.Walk(cardinal=1, diagonal=1, currency="AP")
    assert plain.water is None and not plain.by_edges
    assert grid.path((3, 5), (7, 5), walk=plain) == [] and grid.paths_within((3, 5), 20, walk=plain).keys().isdisjoint(
        set(STREAM) | {(7, 5)})
    assert not grid.passable(plain)[5, 5]


def test_a_one_square_move_reads_1_square_but_older_content_keeps_its_logged_words(rs):
    import copy

    state = field(rs)
    one = rs._command(state, state.units["dane"], Move(unit="dane", path=((4, 5),)), None)
    assert one[-1].cause == "moves quickly (1 square)"
    swum = rs._command(state, state.units["dane"], Combo(unit="dane", path=((4, 6), (5, 6))), None)
    assert swum[-1].cause == "moves cautiously (2 squares, 1 swum)"
    old = copy.copy(rs)
    old.book = attrs.evolve(rs.book, settings=attrs.evolve(rs.book.settings, singular_squares=False))
    # the words older logs hold (and hash): tests/fixtures/logs/v4-xxxzone.jsonl's "moves quickly (1 squares)"
    assert old._command(state, state.units["dane"], Move(unit="dane", path=((4, 5),)), None)[-1].cause == \
        "moves quickly (1 squares)"
