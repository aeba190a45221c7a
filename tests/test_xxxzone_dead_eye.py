"""Dead Eye (6.7, 13): the shooter may Aim without the scope and keep the +20. On the map it is a mode of its own,
`<mode>+no_scope`, for each scoped weapon's aimed mode; play and the preview read it alike. Vector 22's Sam, with
Dead Eye given, Aimed at d 3: with the scope 140 + 20 − 5×(10−3) = 125, without it 140 + 20 − 2×3 = 154."""

from __future__ import annotations

import pytest

from engine.core import ruleset
from engine.core.commands import Act, Shoot
from engine.core.dice import Dice
from engine.core.reducer import fold
from tests.test_xxxzone_feats import learn
from tests.test_xxxzone_field import stage


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.make("xxxzone", content, None)


def aimed(rs, dead_eye=True):
    state = stage(rs, {"sam": ("sam", "xcom", (2, 2)), "drone": ("hover_drone", "aliens", (2, 6))})
    state = learn(state, "sam", "dead_eye") if dead_eye else state
    return fold(state, rs._command(state, state.units["sam"], Act(unit="sam", action="aim", target="drone"), None))


def test_dead_eye_lists_the_scoped_rifles_shot_without_the_scope_and_overwatch_does_not_store_it(rs):
    state = aimed(rs)
    modes = [(m.id, m.name) for m in rs.shot_modes(state, state.units["sam"])]
    assert modes == [("shoot", "7mm Anti-Infantry Rifle shoot (5 AP)"),
                     ("shoot+disabling", "7mm Anti-Infantry Rifle Disabling Shot (5 AP)"),
                     ("shoot+no_scope", "7mm Anti-Infantry Rifle shoot without the scope (5 AP)")]
    watch = [o.command.option for o in rs.options(state, state.units["sam"]) if o.group == "Overwatch"]
    assert watch == ["shoot"]


def test_the_preview_and_the_shot_without_the_scope_keep_the_aim_and_pay_two_per_square(rs):
    state = aimed(rs)
    rows = {m: dict((r.label, r.text) for r in rs.preview_shot(state, "sam", "drone", m).lines)
            for m in ("shoot", "shoot+no_scope")}
    assert rows["shoot"]["AdjAcc"] == " 125 − Agi 7" and rows["shoot+no_scope"]["AdjAcc"] == " 154 − Agi 7"
    # d100 + 154 − 7 − DR 25 − DT (25 + End 3): the 1 makes 123 − 28 = 95 minor ... the 100 makes 222: lethal
    assert rows["shoot+no_scope"]["Wound"] == " minor 6.0% · severe 28.0% · mortal 28.0% · lethal 38.0%"
    events = rs._command(state, state.units["sam"], Shoot(unit="sam", target="drone", mode="shoot+no_scope"),
                         Dice.scripted([5, 5]))
    assert "(AdjAcc = 140 − distance 6 + aim 20 = 154;" in events[0].text
    assert [r.formula for r in events[0].rolls] == [
        "d100 5 + AdjAcc 154 − Agi 7 = 152, − DR 25 = 127, − DT 28 = 99 ≤ 100: minor wound",
        "d100 5 + Will 17 = 22 ≤ 100: fail"]
    scoped = rs._command(state, state.units["sam"], Shoot(unit="sam", target="drone", mode="shoot"),
                         Dice.scripted([5, 5]))
    assert "(AdjAcc = 140 − scope too close 35 + aim 20 = 125)" in scoped[0].text


def test_without_dead_eye_the_choice_is_refused_with_the_modes_it_has(rs):
    state = aimed(rs, dead_eye=False)
    got = rs._command(state, state.units["sam"], Shoot(unit="sam", target="drone", mode="shoot+no_scope"), None)
    assert (got.code, got.reason) == ("no_mode", "Sam Jones has no shoot+no scope to fire; it has shoot, "
                                                 "shoot+disabling")
