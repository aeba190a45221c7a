"""xxxzone's map marks (`Ruleset.marks`): the C4 a side placed (only for that side) and the smoke clouds it sees."""

from __future__ import annotations

import pytest

from engine.core import ruleset
from engine.core.commands import Act, Throw
from engine.core.dice import Dice
from engine.core.reducer import fold
from tests.test_xxxzone_field import stage


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.make("xxxzone", content, None)


def test_placed_c4_is_marked_for_the_placers_side_only(rs):
    state = stage(rs, {"dane": ("dane", "xcom", (5, 5)), "zhetan": ("zhetan", "aliens", (5, 9))}, size=20)
    assert rs.marks(state, "xcom") == ()
    now = fold(state, rs._command(state, state.units["dane"], Act(unit="dane", action="place_c4", cell=(5, 6)), None))
    (mark,) = rs.marks(now, "xcom")
    assert (mark.pos, mark.glyph, mark.color) == ((5, 6), "¤", "#ff5050")
    assert mark.label == "C4 placed by Dane McKinnon: its Detonator sets it off"
    assert rs.marks(now, "aliens") == ()  # the enemy saw nothing it could know of


def test_a_smoke_cloud_is_marked_whole_with_its_turns_left(rs):
    from engine.rules.xxxzone.smoke import cloud_cells

    state = stage(rs, {"dane": ("dane", "xcom", (2, 8)), "zhetan": ("zhetan", "aliens", (12, 8))}, size=20)
    events = rs._command(state, state.units["dane"], Throw(unit="dane", item="smoke_bomb", cell=(10, 8)),
                         Dice.scripted([99, 1, 2, 3]))
    now = fold(state, events)
    shown = rs.marks(now, "xcom")
    assert {m.pos for m in shown} == set(cloud_cells(now, (10, 8), 5)) and len(shown) == len(cloud_cells(now, (10, 8), 5))
    assert {(m.glyph, m.label, m.background) for m in shown} == {("▒", "Smoke: 6 more turns (concealment)", "#404040")}
    assert len(rs.marks(now, "aliens")) == len(shown)  # the Zhetan stands in it: the aliens see it too
