"""6.4 on the map: every attack action after the first with the same weapon in the same turn takes an extra
`-RecEff × (earlier attack actions with it this turn)`, in play and in the shot preview alike (`repeat_recoil` in
settings.toml; older content, whose logs were decided without it, leaves it off). Scripted dice, every number."""

from __future__ import annotations

import copy

import attrs
import pytest

from engine.core import codec, ruleset
from engine.core.commands import Shoot
from engine.core.dice import Dice
from engine.core.reducer import fold
from engine.rules.xxxzone import actions, shooting
from tests.test_xxxzone_field import stage


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.make("xxxzone", content, None)


def shoot(rs, state, uid, mode, faces):
    events = rs._command(state, state.units[uid], Shoot(unit=uid, target="drone", mode=mode), Dice.scripted(faces))
    return events, fold(state, events)


def john_field(rs):
    # John (Str 3, Agi 2, 7 AP) and a Hover drone (Agi 7) 5 squares off (d 4); the 12mm Revolver: Str 5, Rec 20
    return stage(rs, {"john": ("john", "xcom", (2, 2)), "drone": ("hover_drone", "aliens", (2, 7))})


def test_a_second_revolver_shot_in_the_turn_takes_its_recoil_and_the_preview_counts_it_too(rs):
    state = john_field(rs)
    first, state = shoot(rs, state, "john", "shoot", [5])
    # 105 − distance 8 − strength 15 (5×(2+1)) = 82; no recoil on a single shot that is the turn's first
    assert [r.formula for r in first[0].rolls] == ["d100 5 + AdjAcc 82 − Agi 7 = 80 ≤ 100: miss"]
    turn = state.units["john"].record.turn
    assert (turn.ap, turn.fired, turn.attacks_with("revolver")) == (4, (("revolver", 1),), 1)
    second, state = shoot(rs, state, "john", "shoot", [5])
    # one earlier attack action with the revolver: − recoil 20 × 1
    assert second[0].text.endswith("(AdjAcc = 105 − distance 8 − strength 15 − recoil 20 = 62)")
    assert [r.formula for r in second[0].rolls] == ["d100 5 + AdjAcc 62 − Agi 7 = 60 ≤ 100: miss"]
    assert state.units["john"].record.turn.fired == (("revolver", 2),)
    # the preview of a third shot: 82 − 2×20 = 42 (what `fire` would use; John has 1 AP left, which it also says)
    got = rs.preview_shot(state, "john", "drone", "shoot")
    assert [r.text for r in got.lines if r.label == "AdjAcc"] == [" 42 − Agi 7"]
    # d100 + 42 − 7 − DR 25 ≤ 100 misses up to 65, glancing 66-90, a minor wound from 91
    assert got.lines[0].text == " miss 65.0% · glancing 25.0%" and got.p_hit == pytest.approx(0.10)
    third = rs._command(state, state.units["john"], Shoot(unit="john", target="drone", mode="shoot"), None)
    assert (third.code, third.reason) == ("no_ap", "The 12mm Revolver Pistol shoot costs 3 AP; 1 left")


def test_a_burst_after_a_single_shot_adds_the_earlier_action_to_every_rolls_recoil(rs):
    # Helmut (8 AP) and the 9mm Machine Pistol (Rec 12): shoot 3 AP, then burst 4 AP
    state = stage(rs, {"helmut": ("helmut", "xcom", (2, 2)), "drone": ("hover_drone", "aliens", (2, 7))})
    first, state = shoot(rs, state, "helmut", "shoot", [5])
    assert first[0].text.endswith("(AdjAcc = 105 − distance 8 = 97)")
    burst, state = shoot(rs, state, "helmut", "burst", [5, 5])
    # each roll: − RecEff 12 for the burst, − 12 × 1 for the earlier action = − recoil 24
    assert burst[0].text.endswith("(AdjAcc = 105 − distance 8 − recoil 24 = 73 (×2))")
    assert [r.formula for r in burst[0].rolls] == ["d100 5 + AdjAcc 73 − Agi 7 = 71 ≤ 100: miss"] * 2
    assert state.units["helmut"].record.turn.fired == (("machine_pistol_9mm", 2),)


def test_a_new_turn_and_reaction_fire_count_no_earlier_actions(rs):
    state = john_field(rs)
    _, state = shoot(rs, state, "john", "shoot", [5])
    john, drone = state.units["john"], state.units["drone"]
    assert shooting.shot_for(rs, state, john, drone, "revolver", "shoot").earlier_actions == 1
    assert shooting.shot_for(rs, state, john, drone, "revolver", "shoot", reaction=True).earlier_actions == 0
    fresh, _ = actions.start(7, 7)
    assert fresh.fired == () and fresh.attacks_with("revolver") == 0


def test_older_content_without_the_switch_decides_and_records_as_before(rs):
    off = copy.copy(rs)
    off.book = attrs.evolve(rs.book, settings=attrs.evolve(rs.book.settings, repeat_recoil=False))
    state = john_field(off)
    _, state = shoot(off, state, "john", "shoot", [5])
    second, state = shoot(off, state, "john", "shoot", [5])
    assert [r.formula for r in second[0].rolls] == ["d100 5 + AdjAcc 82 − Agi 7 = 80 ≤ 100: miss"]
    turn = state.units["john"].record.turn
    assert turn.fired == () and "fired" not in repr(turn) and "fired" not in codec._conv.unstructure(turn)
