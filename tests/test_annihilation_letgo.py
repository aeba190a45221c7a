"""A-19.5, A-19.10 in play: an unconscious character's hands, and the hand of an arm blown off, drop what they held
to the unit's square, whatever put it down (settings `drops_held`; older bundles kept the weapon in hand)."""

from __future__ import annotations

import attrs

from engine.core.commands import Shoot
from engine.core.dice import Dice, seed_from_int
from engine.core.events import UnitChanged
from engine.core.reducer import fold
from engine.play.game import Game
from engine.rules.annihilation import letgo
from engine.rules.annihilation.soldier import gun
from test_annihilation_play import _face_off
from annihilation_book import BOOK


def _knocked_out(content):
    """Anton snaps at a Sectoid with 5 Health left: d100 1 hits, d20 10 the torso, 3d4 wounds; it falls."""
    g = Game.new(content, "annihilation", "eliminate", seed_from_int(4), None)
    rs = g.ruleset
    state, _col = _face_off(g, sectoid_tu=0)
    g.close()
    s = state.units["sectoid_1"]
    state = attrs.evolve(state, units={**state.units, "sectoid_1": attrs.evolve(s, record=attrs.evolve(
        s.record, fighter=attrs.evolve(s.record.fighter, health=5)))})
    events = rs.decide(state, Shoot(unit="anton", target="sectoid_1", mode="snap"), Dice.scripted([1, 10, 1, 1, 1]))
    return rs, state, events


def test_a_unit_knocked_out_drops_its_weapon_to_its_square(content):
    rs, state, events = _knocked_out(content)
    let = [e for e in events if isinstance(e, UnitChanged) and e.cause.startswith("lets go")]
    assert [(e.unit, e.cause) for e in let] == [("sectoid_1", "lets go of what it held (unconscious)")]
    after = fold(state, events).units["sectoid_1"]
    assert after.record.fighter.status == "unconscious" and gun(after.record, BOOK) is None
    assert all(c.id != "plasma_pistol" for c in after.record.kit)
    ground = fold(state, events).record.ground  # settings `ground_items`: it lies on the Sectoid's square
    assert [(d.cell, d.item.id, d.item.place) for d in ground] == [(after.pos, "plasma_pistol", "floor")]


def test_a_lost_arm_lets_go_and_older_content_keeps_the_weapon_in_hand(content):
    rs, state, _events = _knocked_out(content)
    a = state.units["anton"]
    f = attrs.evolve(a.record.fighter, lost=("left_arm",))
    armless = attrs.evolve(state, units={**state.units, "anton": attrs.evolve(a, record=attrs.evolve(a.record,
                                                                                                      fighter=f))})
    touch = [UnitChanged(unit="anton", changes={"record": armless.units["anton"].record}, cause="hit")]
    out = letgo.settle(rs, state, touch)
    assert out[0].cause == "lets go of what it held (its arm lost)"
    assert out[0].changes["record"].kit[0].place == "floor"  # the rifle was in both hands
    rs.book = attrs.evolve(rs.book, settings=attrs.evolve(rs.book.settings, drops_held=False))
    assert letgo.settle(rs, state, touch) == []


def test_bled_unconscious_at_its_phase_start_it_lets_go(content):
    """Section 22 with A-19.4 and A-19.10: the Sectoid, Health 5 and 7 open torso wounds, bleeds to −2 when the
    aliens' phase starts, falls unconscious and, in the same command, drops its plasma pistol to its square."""
    from engine.core.commands import EndTurn
    from engine.rules.annihilation.wounds import Part

    rs, state, _events = _knocked_out(content)
    s = state.units["sectoid_1"]
    f = attrs.evolve(s.record.fighter.with_part("torso", Part(7, 7)), health=5)
    state = attrs.evolve(state, units={**state.units, "sectoid_1": attrs.evolve(s, record=attrs.evolve(
        s.record, fighter=f))})
    events = rs.decide(state, EndTurn(side=state.side), Dice.scripted([]))
    assert isinstance(events, list), events
    mine = [e.cause for e in events if isinstance(e, UnitChanged) and e.unit == "sectoid_1"]
    assert mine[0].startswith("start of phase (bleeding: Health −7 → -2") and "faints" in mine[0]
    assert "lets go of what it held (unconscious)" in mine
    after = fold(state, events)
    assert gun(after.units["sectoid_1"].record, BOOK) is None
    assert [(d.cell, d.item.id) for d in after.record.ground] == [(after.units["sectoid_1"].pos, "plasma_pistol")]
