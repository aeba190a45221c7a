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


# -- the run is a quick move (panic_reacts: 10 and 6.8) ----------------------------------------------------------


def watching(state, uid, stored):
    """`uid` on overwatch with its drawn weapon's single shot and `stored` AP."""
    from engine.rules.xxxzone.battle import Watch

    u = state.units[uid]
    c = u.record
    c = attrs.evolve(c, watch=Watch(weapon=c.hands[0].item, mode="shoot"),
                     turn=attrs.evolve(c.turn, overwatch=stored, ended=True))
    return attrs.evolve(state, units={**state.units, uid: attrs.evolve(u, record=c)})


def test_a_panicking_run_draws_the_aliens_overwatch_square_by_square(rs):
    state = watching(town(rs), "zhetan", 5)  # enough for one plasma rifle shot
    events = end_squad_turn(rs, state, [3, 3, 1])  # runs east 3 squares; the reaction shot rolls 1
    moves = [e.path for e in events if type(e).__name__ == "Moved" and e.unit == "civ"]
    assert moves == [((6, 5),), ((7, 5),), ((8, 5),)]  # square by square: the watcher could fire after each
    (shot,) = [e for e in events if getattr(e, "action", "") == "shoot"]
    # after the first square: Acc 110 − 2·3 (D 4 from 5,9 to 6,5) − overwatch 20 = 84
    assert shot.actor == "zhetan" and shot.target == "civ"
    assert shot.rolls[0].formula == "d100 1 + AdjAcc 84 − Agi 4 = 81 ≤ 100: miss"
    assert shot.outcome == "miss" and events.index(shot) < len(events) - 1
    after = fold(state, events)
    civ = after.units["civ"]
    assert civ.pos == (8, 5) and civ.record.conspicuous and civ.record.panic == "panicking"
    assert after.units["zhetan"].record.turn.overwatch == 0


def test_xcoms_overwatch_never_fires_at_a_civilian_and_the_conspicuous_run_lasts_one_round(rs):
    state = watching(town(rs, alien_at=(12, 12)), "bruce", 9)  # the alien D 7 away: the civilian still panics
    events = end_squad_turn(rs, state, [2, 3])
    assert not [e for e in events if getattr(e, "action", "") == "shoot"]
    after = fold(state, events)
    assert after.units["civ"].pos == (7, 5) and after.units["civ"].record.conspicuous
    squad = turns.begin_side(rs, attrs.evolve(after, side="xcom"), "xcom", Dice.scripted([50] * 20))
    assert not fold(after, squad).units["civ"].record.conspicuous


def test_the_run_ends_with_a_spot_check_and_a_conspicuous_civilian_in_front_is_seen(rs):
    from engine.rules.xxxzone.units import battle

    state = town(rs)
    rec = battle(state)
    unseen = attrs.evolve(state, record=attrs.evolve(rec, seen=tuple(
        (side, tuple(u for u in ids if u != "civ")) for side, ids in rec.seen)))
    assert "civ" not in battle(unseen).sightings("aliens")
    events = end_squad_turn(rs, unseen, [1, 3])  # one square east, in the Zhetan's sight and front arc
    moved = next(i for i, e in enumerate(events) if type(e).__name__ == "Moved" and e.unit == "civ")
    spot = next(e for e in events[moved:] if getattr(e, "cause", "") == "spot checks")
    assert "civ" in spot.record.sightings("aliens") and spot.rolls == ()  # conspicuous in front: no roll


def test_older_content_runs_the_civilian_in_one_move_without_reactions(rs):
    import copy

    old = copy.copy(rs)
    old.book = attrs.evolve(rs.book, settings=attrs.evolve(rs.book.settings, panic_reacts=False))
    state = watching(town(old), "zhetan", 5)
    events = end_squad_turn(old, state, [3, 3])
    assert [e.path for e in events if type(e).__name__ == "Moved"] == [((6, 5), (7, 5), (8, 5))]
    assert not [e for e in events if getattr(e, "action", "") == "shoot"]
    assert not fold(state, events).units["civ"].record.conspicuous
