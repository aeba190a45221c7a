"""A grenade's pin pulled on its own (4, Hands: pins.py), with scripted dice: 2 AP from the belt (draw 1, pin 1),
then the throw's 2 AP alone; a primed grenade still in hand at the end of the turn explodes in the holder's
square, rings 1-2-3 as a thrown one."""

from __future__ import annotations

import pytest

from engine.core import ruleset
from engine.core.commands import Act, Throw
from engine.core.dice import Dice
from engine.core.reducer import fold
from engine.rules.xxxzone import turns
from tests.test_xxxzone_field import record, stage


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.make("xxxzone", content, None)


def field(rs):
    """Dane (9 AP, Acc 110, Str 5, 3 Frags) with Johnny beside him; a Zhetan 7 squares south."""
    return stage(rs, {"dane": ("dane", "xcom", (5, 5)), "johnny": ("johnny", "xcom", (6, 5)),
                      "zhetan": ("zhetan", "aliens", (5, 12))})


def pulled(rs, state):
    events = rs.decide(state, Act(unit="dane", action="pin", option="frag"), Dice.scripted([]))
    return events, fold(state, events)


def test_pulling_the_pin_takes_the_grenade_in_the_off_hand_for_2_ap_and_the_throw_then_costs_2(rs):
    state = field(rs)
    assert [o.label for o in rs.options(state, state.units["dane"]) if o.command.action == "pin"] == [
        "Pull the pin: Frag Grenade (2 AP)", "Pull the pin: Incendiary Grenade (2 AP)",
        "Pull the pin: Flashbang Grenade (2 AP)"]
    events, now = pulled(rs, state)
    dane = record(events, "dane")
    assert dane.turn.ap == 9 - 2 and dane.belt.count("frag") == 2
    assert [(h.item, h.primed) for h in dane.hands] == [("battle_shotgun", False), ("frag", True)]
    assert events[0].cause == "pulls the Frag Grenade's pin (2 AP): it explodes in hand at the end of the turn " \
                              "unless thrown"
    assert rs.preview_throw(now, "dane", "frag", (5, 12)).lines[2].text == " 2 AP: throw (pin pulled)"
    thrown = rs.decide(now, Throw(unit="dane", item="frag", cell=(5, 12), target="zhetan"),
                       Dice.scripted([99] + [50] * 10))
    assert thrown[0].action == "throw" and thrown[0].outcome == "on_target"
    # AdjAcc 110 − 5·(6 − Str 5) = 105; d100 99 + 105 − Agi 4 = 200 > 100: on target
    assert thrown[0].rolls[0].formula.startswith("d100 99 + AdjAcc 105 − Agi 4 = 200")
    after = record(thrown, "dane")
    assert after.turn.ap == 7 - 2 and [h.item for h in after.hands] == ["battle_shotgun"]
    assert after.belt.count("frag") == 2  # the belt's two are still there


def test_a_primed_grenade_still_in_hand_at_the_end_of_the_turn_explodes_in_the_holders_square(rs):
    _, now = pulled(rs, field(rs))
    end = turns.end_turn(rs, now, "xcom", Dice.scripted([50] * 40))
    (head,) = [e for e in end if getattr(e, "action", "") == "throw"]
    assert head.outcome == "in_hand" and head.cell == (5, 5) and head.actor == "dane"
    # ring 1 (D <= 1): Dane (D 0) and Johnny (D 1) take 3 rolls each; Frag DT 25 + End 5 = 30; the armour's 2 HP
    # go on the first two rolls, so the third meets DR 0
    blasts = [r.formula for r in head.rolls if r.purpose == "Frag Grenade blast"]
    assert blasts[:3] == ["d100 50 + AdjAcc 110 − Agi 5 = 155, − DR 35 = 120, − DT 30 = 90 ≤ 100: minor wound"] * 2 + [
        "d100 50 + AdjAcc 110 − Agi 5 = 155, − DR 0 (armour broken) = 155, − DT 30 = 125, − DT 30 = 95 ≤ 100: "
        "severe wound"]
    assert blasts[3] == "d100 50 + AdjAcc 110 − Agi 7 = 153, − DR 35 = 118, − DT 30 = 88 ≤ 100: minor wound"
    assert len(blasts) == 6
    later = fold(now, end)
    dane = later.units["dane"].record
    assert [h.item for h in dane.hands] == ["battle_shotgun"] and dane.condition.wounds.severe == 1
    assert later.units["johnny"].record.condition.wounds.minor == 2


def test_pulling_a_pin_is_refused_with_its_reason(rs):
    state = field(rs)
    got = rs.decide(state, Act(unit="dane", action="pin", option="smoke_bomb"), None)
    assert (got.code, got.reason) == ("no_pin", "The Smoke Bomb has no pin to pull: a smoke bomb is thrown as it is")
    assert rs.decide(state, Act(unit="johnny", action="pin", option="flashbang"), None).code == "not_carried"
    _, now = pulled(rs, state)
    assert rs.decide(now, Act(unit="dane", action="stow", option="frag"), None).code == "primed"


def test_an_item_in_hand_is_handed_to_an_adjacent_ally_for_1_ap(rs):
    state = stage(rs, {"helmut": ("helmut", "xcom", (5, 5)), "dane": ("dane", "xcom", (6, 6)),
                       "zhetan": ("zhetan", "aliens", (5, 12))})
    state = fold(state, rs.decide(state, Act(unit="dane", action="stow", option="battle_shotgun"), None))
    state = fold(state, rs.decide(state, Act(unit="helmut", action="stow", option="machine_pistol_9mm"), None))
    state = fold(state, rs.decide(state, Act(unit="helmut", action="draw", option="medkit"), None))
    (option,) = [o for o in rs.options(state, state.units["helmut"]) if o.command.action == "give"]
    assert option.label == "Give Med-kit → Dane McKinnon (1 AP)"
    events = rs.decide(state, option.command, None)
    helmut, dane = record(events, "helmut"), record(events, "dane")
    assert helmut.turn.ap == 8 - 3 and helmut.hands == () and [h.item for h in dane.hands] == ["medkit"]
    assert events[0].cause == "hands the Med-kit to Dane McKinnon (1 AP)"
    now = fold(state, events)
    again = rs.decide(now, Act(unit="helmut", action="give", target="dane", option="medkit"), None)
    assert (again.code, again.reason) == ("not_in_hand", "Helmut Hartmann holds no Med-kit")
    back = rs.decide(now, Act(unit="dane", action="give", target="zhetan", option="medkit"), None)
    assert back.code == "not_adjacent"  # only to an adjacent ally


# -- items on the ground (4: pick up an item; ground.py) ------------------------------------------------------


def test_a_dropped_gun_lies_on_the_square_and_an_ally_next_to_it_picks_it_up_with_its_rounds(rs):
    from engine.rules.xxxzone.units import battle

    state = stage(rs, {"dane": ("dane", "xcom", (5, 5)), "helmut": ("helmut", "xcom", (6, 6)),
                       "zhetan": ("zhetan", "aliens", (5, 12))})
    state = fold(state, rs.decide(state, Act(unit="helmut", action="stow", option="machine_pistol_9mm"), None))
    dane = state.units["dane"]
    assert dane.record.hands[0].rounds == 6
    (drop,) = [o for o in rs.options(state, dane) if o.command.action == "drop"]
    assert drop.label == "Drop Battle Shotgun (0 AP)"
    dropped = rs.decide(state, drop.command, None)
    assert record(dropped, "dane").hands == () and record(dropped, "dane").turn.ap == 9
    now = fold(state, dropped)
    assert [(tuple(at), h.item, h.rounds) for at, h in battle(now).ground] == [((5, 5), "battle_shotgun", 6)]
    assert [m.label for m in rs.marks(now, "xcom") if m.pos == (5, 5)] == ["On the ground: Battle Shotgun"]
    (pick,) = [o for o in rs.options(now, now.units["helmut"]) if o.command.action == "pick_up"]
    assert pick.label == "Pick up Battle Shotgun at 5,5 (1 AP)"
    took = rs.decide(now, pick.command, None)
    helmut = record(took, "helmut")
    assert [(h.item, h.rounds) for h in helmut.hands] == [("battle_shotgun", 6)] and helmut.turn.ap == 8 - 1 - 1
    assert battle(fold(now, took)).ground == ()


def test_dropping_and_picking_up_are_refused_with_their_reasons(rs):
    state = field(rs)
    got = rs.decide(state, Act(unit="dane", action="drop", option="frag"), None)
    assert (got.code, got.reason) == ("not_in_hand", "Dane McKinnon holds no Frag Grenade")
    _, primed = pulled(rs, state)
    assert rs.decide(primed, Act(unit="dane", action="drop", option="frag"), None).reason == \
        "A primed grenade is thrown, not dropped"
    nothing = rs.decide(state, Act(unit="johnny", action="pick_up", option="frag", cell=(5, 5)), None)
    assert (nothing.code, nothing.reason) == ("nothing_there", "No Frag Grenade lies at 5,5")
    far = rs.decide(state, Act(unit="johnny", action="pick_up", option="frag", cell=(9, 9)), None)
    assert far.code == "not_adjacent"
    now = fold(state, rs.decide(state, Act(unit="dane", action="drop", option="battle_shotgun"), None))
    full = rs.decide(now, Act(unit="johnny", action="pick_up", option="battle_shotgun", cell=(5, 5)), None)
    assert full.code == "hands_full"  # Johnny holds his rifle


def test_what_is_dropped_lightens_the_load_and_what_is_picked_up_weighs(rs):
    """Section 2: encumbrance weighs what the unit carries now, the kit less what it put down plus what it took."""
    import attrs

    from engine.core.records import evolve
    from engine.rules.xxxzone.battle import burden
    from engine.rules.xxxzone.character import derive, load

    state = stage(rs, {"dane": ("dane", "xcom", (5, 5)), "helmut": ("helmut", "xcom", (6, 6)),
                       "zhetan": ("zhetan", "aliens", (5, 12))})
    book, dane = rs.book, state.units["dane"]
    shotgun = book.gear("battle_shotgun").weight
    assert shotgun > 0 and burden(book, dane.record) == "free"
    # Loaded up to just over Carry: burdened, so only cautious moves and no weapon.
    over = derive(dane.record.op, book).carry - load(dane.record.op, book) + shotgun / 2
    heavy = attrs.evolve(dane, record=evolve(dane.record, {"shed": over}))
    state = attrs.evolve(state, units={**state.units, "dane": heavy})
    assert burden(book, heavy.record) == "burdened"
    from engine.rules.xxxzone.moving import step_cost

    refused = step_cost(rs, heavy, "quickly")
    assert (refused.code, refused.reason) == ("burdened", "carrying more than Carry: only Move Cautiously")
    dropped = rs.decide(state, Act(unit="dane", action="drop", option="battle_shotgun"), None)
    assert record(dropped, "dane").shed == over - shotgun
    assert burden(book, record(dropped, "dane")) == "free"  # the shotgun's weight was what tipped it
    now = fold(state, dropped)
    took = rs.decide(now, Act(unit="helmut", action="pick_up", option="battle_shotgun", cell=(5, 5)), None)
    if isinstance(took, ruleset.Rejected):  # Helmut's hands are full: he stows first
        now = fold(now, rs.decide(now, Act(unit="helmut", action="stow", option="machine_pistol_9mm"), None))
        took = rs.decide(now, Act(unit="helmut", action="pick_up", option="battle_shotgun", cell=(5, 5)), None)
    assert record(took, "helmut").shed == shotgun
