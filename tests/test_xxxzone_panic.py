"""Panicking civilians and Calming Aura (xxxzone 13, Interpretation: panic.py), on a staged field with scripted
dice: at the end of the squad's turn a civilian who sees a hostile within its Sight runs 1d4 squares in a 1d8
direction; Calming Aura (4 AP) calms it for good."""

from __future__ import annotations

import attrs
import pytest

from engine.core import ruleset
from engine.core.commands import Act
from engine.core.dice import Dice
from engine.core.reducer import fold
from engine.rules.xxxzone import turns
from tests.test_xxxzone_feats import learn, with_ap
from tests.test_xxxzone_field import record, stage


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.make("xxxzone", content, None)


def town(rs, alien_at=(5, 9)):
    state = stage(rs, {"bruce": ("bruce", "xcom", (2, 5)), "civ": ("civilian", "civilians", (5, 5)),
                       "zhetan": ("zhetan", "aliens", alien_at)}, size=16)
    return learn(state, "bruce", "calming_aura")


def end_squad_turn(rs, state, faces):
    return turns.end_turn(rs, state, "xcom", Dice.scripted(faces + [50] * 40))


def test_a_civilian_who_sees_a_hostile_panics_and_runs_1d4_squares_in_a_1d8_direction(rs):
    state = town(rs)
    events = end_squad_turn(rs, state, [3, 3])
    head = next(e for e in events if getattr(e, "action", "") == "panic")
    assert [r.formula for r in head.rolls] == ["1d4: 3 squares", "1d8: 3 (dx 1, dy 0)"]
    assert head.text == "Civilian panics and runs 3 squares to 8,5"
    after = fold(state, events)
    assert after.units["civ"].pos == (8, 5) and after.units["civ"].record.panic == "panicking"
    assert "panicking" in rs.sheet(after, after.units["civ"]).effects


def test_a_run_stops_before_a_wall_or_someone_and_a_civilian_seeing_nobody_calms_down(rs):
    state = town(rs)
    blocked = end_squad_turn(rs, state, [4, 7])  # west: Bruce stands at 2,5, so it stops at 3,5
    assert fold(state, blocked).units["civ"].pos == (3, 5)
    quiet = town(rs, alien_at=(15, 15))  # D 10 > its Sight
    assert [e for e in end_squad_turn(rs, quiet, []) if getattr(e, "action", "") == "panic"] == []
    c = quiet.units["civ"].record
    scared = attrs.evolve(quiet, units={**quiet.units, "civ": attrs.evolve(quiet.units["civ"], record=attrs.evolve(
        c, panic="panicking"))})
    assert fold(scared, end_squad_turn(rs, scared, [])).units["civ"].record.panic == ""


def test_calming_aura_costs_4_ap_and_the_civilian_keeps_its_head_for_good(rs):
    state = fold(town(rs), end_squad_turn(rs, town(rs), [1, 3]))  # runs 1 square east to 6,5
    state = with_ap(attrs.evolve(state, side="xcom"), "bruce", 9)  # the squad's next turn (staged)
    bruce = state.units["bruce"]
    ap = bruce.record.turn.ap
    (option,) = [o for o in rs.options(state, bruce) if o.command.action == "calming_aura"]
    assert option.label == "Calming Aura → Civilian (4 AP)" and state.units["civ"].pos == (6, 5)
    events = rs.decide(state, option.command, Dice.scripted([]))
    assert record(events, "bruce").turn.ap == ap - 4 and record(events, "civ").panic == "calm"
    calmed = fold(state, events)
    assert [e for e in end_squad_turn(rs, calmed, [4, 3]) if getattr(e, "action", "") == "panic"] == []


def test_calming_aura_is_refused_with_a_reason(rs):
    state = town(rs)
    got = rs.decide(state, Act(unit="bruce", action="calming_aura", target="civ"), None)
    assert (got.code, got.reason) == ("not_panicking", "Calming Aura needs a panicking civilian")
    plain = stage(rs, {"bruce": ("bruce", "xcom", (2, 5)), "zhetan": ("zhetan", "aliens", (5, 9))})
    assert rs.decide(plain, Act(unit="bruce", action="calming_aura", target="civ"), None).code == "needs_ability"


# -- Authority Aura (13): a panicking civilian sent running the way the player names ------------------------------


def directing(rs):
    """The civilian at 5,5 panicked one square east to 6,5 (the Zhetan at 5,9 in its sight); Bruce at 2,5 has
    Authority Aura and 9 AP in the squad's next turn."""
    state = learn(town(rs), "bruce", "authority_aura")
    state = fold(state, end_squad_turn(rs, state, [1, 3]))
    return with_ap(attrs.evolve(state, side="xcom"), "bruce", 9)


def test_authority_aura_sends_a_panicking_civilian_1d4_squares_away_from_the_danger_for_2_ap(rs):
    state = directing(rs)
    # the nearest hostile it sees is the Zhetan at 5,9: straight away from it is (+1, −1), north-east
    options = [o for o in rs.options(state, state.units["bruce"]) if o.command.action == "authority_aura"]
    (option,) = options
    assert option.label == "Authority Aura → Civilian: run ne (2 AP)"
    assert option.command == Act(unit="bruce", action="authority_aura", target="civ", option="ne")
    events = rs.decide(state, option.command, Dice.scripted([3]))
    head = next(e for e in events if getattr(e, "action", "") == "authority_aura")
    assert [r.formula for r in head.rolls] == ["1d4: 3 squares"]
    assert head.text == "Bruce Mitchel sends Civilian running 3 squares to 9,2" and head.target == "civ"
    assert record(events, "bruce").turn.ap == 9 - 2
    after = fold(state, events)
    assert after.units["civ"].pos == (9, 2) and after.units["civ"].record.panic == "panicking"


def test_a_directed_run_stops_before_someone_and_refusals_give_their_reason(rs):
    state = directing(rs)
    west = rs.decide(state, Act(unit="bruce", action="authority_aura", target="civ", option="w"), Dice.scripted([4]))
    assert fold(state, west).units["civ"].pos == (3, 5)  # Bruce stands at 2,5: 6,5 → 3,5, three of the 4 squares
    got = rs.decide(state, Act(unit="bruce", action="authority_aura", target="civ", option="up"), Dice.scripted([4]))
    assert (got.code, got.reason) == ("no_direction", "Authority Aura needs a direction: one of n, ne, e, se, s, sw, "
                                                      "w, nw")
    calm = learn(town(rs), "bruce", "authority_aura")
    got = rs.decide(calm, Act(unit="bruce", action="authority_aura", target="civ", option="n"), None)
    assert (got.code, got.reason) == ("not_panicking", "Authority Aura needs a panicking civilian")
    plain = town(rs)
    assert rs.decide(plain, Act(unit="bruce", action="authority_aura", target="civ", option="n"), None).code == \
        "needs_ability"
