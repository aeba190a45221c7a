"""xxxzone abilities in play, with scripted dice and every number: Chi Breath's DR in the targeting panel's odds
(the shot's own set-up, `shot.prepare`), Inspire Allies and Calming Aura."""

from __future__ import annotations

from collections import Counter

import attrs
import pytest

from engine.core import ruleset
from engine.core.commands import Act, Shoot
from engine.core.dice import Dice
from engine.core.reducer import fold
from tests.test_xxxzone_field import stage

RIFLE = "zhetan_plasma_rifle:shoot"


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.make("xxxzone", content, None)


def learn(state, uid, *abilities):
    u = state.units[uid]
    op = attrs.evolve(u.record.op, abilities=(*u.record.op.abilities, *abilities))
    return attrs.evolve(state, units={**state.units, uid: attrs.evolve(u, record=attrs.evolve(u.record, op=op))})


def test_chi_breaths_dr_is_in_the_preview_odds_exactly_as_the_shot_rolls_them(rs):
    state = learn(stage(rs, {"vadin": ("vadin", "xcom", (2, 2)), "zhetan": ("zhetan", "aliens", (2, 8))}),
                  "vadin", "chi_breath")
    plain = rs.preview_shot(state, "zhetan", "vadin", RIFLE)
    # AdjAcc 100 − Agi 5: faces 1-5 miss (≤ 100); DR 45 takes 6-50 to glancing; DT 40 + End 11 = 51 is past at 51
    assert [r.text for r in plain.lines[:2]] == [" miss 5.0% · glancing 45.0%", " minor 50.0%"]
    assert plain.p_hit == 0.5 and not any(r.label == "Ability DR" for r in plain.lines)
    now = fold(state, rs._command(state, state.units["vadin"], Act(unit="vadin", action="chi_breath"), None))
    now = attrs.evolve(now, side="aliens")
    iron = rs.preview_shot(now, "zhetan", "vadin", RIFLE)
    # + chi breath 20 DR: glancing up to face 70, a wound from 71
    assert [r.text for r in iron.lines[:2]] == [" miss 5.0% · glancing 65.0%", " minor 30.0%"]
    assert iron.p_hit == pytest.approx(0.3) and iron.p_headshot == 0.0
    assert next(r.text for r in iron.lines if r.label == "Ability DR") == " chi breath +20"
    rolled = Counter(rs._command(now, now.units["zhetan"], Shoot(unit="zhetan", target="vadin", mode=RIFLE),
                                 Dice.scripted([face] + [50] * 20))[0].outcome for face in range(1, 101))
    assert rolled == {"miss": 5, "glancing": 65, "minor": 30}
    face_70 = rs._command(now, now.units["zhetan"], Shoot(unit="zhetan", target="vadin", mode=RIFLE),
                          Dice.scripted([70] + [50] * 20))[0].rolls[0]
    assert face_70.formula == "d100 70 + AdjAcc 100 − Agi 5 = 165, − DR 45 + chi breath 20 = 100 ≤ 100: glancing hit"
