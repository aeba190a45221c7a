"""The strap, gyro and pad system put on and taken off in battle (section 11, A-12.3): 18 full turns on, 2 off, the
whole allowance of each, through the inventory screen `I`; the turns done are kept on the soldier."""

from __future__ import annotations

import json

import attrs

from engine.core.commands import Act, Rejected, Shoot
from engine.core.dice import Dice
from engine.core.events import Resolved
from engine.core.reducer import fold
from test_annihilation_inventory_play import _gunner, inventory_keys

HARNESS = Act(unit="anton", action="harness")


def _turn(state):
    """A new turn's TUs for Anton (the start of his phase would give them)."""
    a = state.units["anton"]
    f = a.record.fighter
    return attrs.evolve(state, units={**state.units, "anton": attrs.evolve(a, record=attrs.evolve(
        a.record, fighter=attrs.evolve(f, tu_left=f.tu_turn)))})


def _work(rs, state):
    events = rs.decide(_turn(state), HARNESS, Dice.scripted([]))
    assert not isinstance(events, Rejected), events
    return events, fold(_turn(state), events)


def test_eighteen_full_turns_put_it_on_and_then_the_cannon_fires_from_it(content):
    rs, state = _gunner(content, harness=False)
    anton = state.units["anton"]
    allowance = anton.record.fighter.tu_turn
    events, state = _work(rs, state)
    said = next(e for e in events if isinstance(e, Resolved))
    assert said.text == f"Anton works at putting on the strap, gyro and pad system ({allowance} TU): turn 1 of 18"
    a = state.units["anton"]
    assert (a.record.harness_work, a.record.harness, a.record.fighter.tu_left) == (1, False, 0)
    assert rs.inventory(state, a).lines[2].text == " none · size I/J fire only from it · on: 1 of 18 turns done "
    for _ in range(16):
        _events, state = _work(rs, state)
    assert state.units["anton"].record.harness_work == 17 and not state.units["anton"].record.harness
    events, state = _work(rs, state)
    assert next(e for e in events if isinstance(e, Resolved)).text.endswith("turn 18 of 18; it is on")
    a = state.units["anton"]
    assert (a.record.harness, a.record.harness_work) == (True, 0)
    state = _turn(state)
    on = rs.decide(state, Act(unit="anton", action="stow", option="0:both_straps"), Dice.scripted([]))
    state = fold(state, on)  # hand → strap 6 TU, then grip it there, 1 TU
    state = fold(state, rs.decide(state, Act(unit="anton", action="grip", option="0"), Dice.scripted([])))
    x, y = state.units["anton"].pos
    near = attrs.evolve(state, units={**state.units, "sectoid_1": attrs.evolve(state.units["sectoid_1"],
                                                                                pos=(x, y - 2))})
    assert not isinstance(rs.preview_shot(near, "anton", "sectoid_1", "snap"), Rejected)
    fired = rs.decide(near, Shoot(unit="anton", target="sectoid_1", mode="snap"), Dice.scripted([100] * 9))
    assert [e.action for e in fired if isinstance(e, Resolved)] == ["shoot"]


def test_a_turn_at_it_needs_the_whole_allowance_and_free_straps(content):
    rs, state = _gunner(content, harness=False)
    a = state.units["anton"]
    spent = attrs.evolve(state, units={**state.units, "anton": attrs.evolve(a, record=attrs.evolve(
        a.record, fighter=attrs.evolve(a.record.fighter, tu_left=a.record.fighter.tu_turn - 1)))})
    got = rs.decide(spent, HARNESS, Dice.scripted([]))
    assert got.code == "not_a_full_turn" and f"whole {a.record.fighter.tu_turn} TU" in got.reason
    kit = tuple(attrs.evolve(c, place="strap_1") if c.id == "hand_grenade" else c for c in a.record.kit)
    strapped = attrs.evolve(state, units={**state.units, "anton": attrs.evolve(a, record=attrs.evolve(a.record,
                                                                                                     kit=kit))})
    got = rs.decide(strapped, HARNESS, Dice.scripted([]))
    assert got == Rejected("straps_taken", "The strap, gyro and pad system takes the place of both straps: free "
                                           "them first")


def test_two_full_turns_take_it_off_once_the_cannon_is_off_it(content):
    rs, state = _gunner(content, harness=True)
    got = rs.decide(state, HARNESS, Dice.scripted([]))
    assert got == Rejected("harness_loaded", "Take the Mk. 5 AC off the strap, gyro and pad system first")
    state = fold(state, rs.decide(state, Act(unit="anton", action="stow", option="0:both_hands"), Dice.scripted([])))
    assert state.units["anton"].record.kit[0].place == "both_hands"
    _events, state = _work(rs, state)
    events, state = _work(rs, state)
    assert next(e for e in events if isinstance(e, Resolved)).text.endswith("turn 2 of 2; it is off")
    assert not state.units["anton"].record.harness


def test_the_inventory_screen_puts_it_on_a_turn_at_a_time_at_80x24(content, tmp_path):
    """`I`, ↑ to the harness (the last thing listed), ⏎, ⏎: the battle screen submits a turn's work at it."""
    session, listed, picking = inventory_keys(content, tmp_path, ("up",), ("enter",))
    assert "Harness none · size I/J fire only from it · on: 18 turns" in listed
    assert "▶ Not worn   Strap, gyro and pad system" in listed
    assert "▶ Put it on: a turn's work, 1 of 18 (53 TU)" in picking and "18 full turns" in picking
    command = [json.loads(line) for line in session.path.read_text().splitlines()][-1]["command"]
    assert (command["kind"], command["action"]) == ("act", "harness")
    assert session.state.units["anton"].record.harness_work == 1
