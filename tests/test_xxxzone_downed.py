"""Issue 11's property: a unit never acts while stunned, unconscious or dead. Through `decide` itself: every
command of every kind this ruleset takes, from a unit knocked out, killed, or whose turn began Stunned (0 AP), is
refused; only Wait (ending its turn, no action) stands."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import ruleset
from engine.core.commands import Act, Combo, Move, Reload, Rejected, Shoot, Throw
from engine.core.dice import Dice
from engine.core.reducer import fold
from engine.rules.xxxzone import turns
from engine.rules.xxxzone.acts import ACTIONS
from engine.rules.xxxzone.units import status
from tests.test_xxxzone_field import stage


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.make("xxxzone", content, None)


def downed(rs, how: str):
    """Dane (Hacker, C4, grenades) beside Helmut (med-kits), a Zhetan 6 squares off, Dane `how`."""
    state = stage(rs, {"dane": ("dane", "xcom", (5, 5)), "helmut": ("helmut", "xcom", (6, 5)),
                       "zhetan": ("zhetan", "aliens", (5, 11))})
    d = state.units["dane"]
    cond = attrs.evolve(d.record.condition, **{"unconscious": {"unconscious": True}, "dead": {"dead": True},
                                               "stunned": {"stunned": 1}}[how])
    rec = attrs.evolve(d.record, condition=cond)
    state = attrs.evolve(state, units={**state.units, "dane": attrs.evolve(d, record=rec, status=status(rec))})
    state = fold(state, [e for e in turns.begin_side(rs, state, "xcom", Dice.scripted([50] * 40))])
    return state


COMMANDS = st.one_of(
    st.builds(Move, unit=st.just("dane"), path=st.sampled_from([((5, 6),), ((4, 4), (3, 3))])),
    st.builds(Combo, unit=st.just("dane"), path=st.sampled_from([((5, 6),), ((4, 5),)])),
    st.builds(Shoot, unit=st.just("dane"), target=st.sampled_from(["zhetan", "helmut"]),
              mode=st.sampled_from(["battle_shotgun:shoot", "shoot", ""])),
    st.builds(Throw, unit=st.just("dane"), item=st.sampled_from(["frag", "smoke_bomb", "flashbang"]),
              cell=st.sampled_from([(5, 11), (5, 8)]), target=st.sampled_from([None, "zhetan"])),
    st.builds(Reload, unit=st.just("dane")),
    st.builds(Act, unit=st.just("dane"), action=st.sampled_from(ACTIONS),
              target=st.sampled_from([None, "zhetan", "helmut", "dane"]),
              option=st.sampled_from([None, "frag", "battle_shotgun:shoot", "minor", "pistol_9mm", "n"]),
              cell=st.sampled_from([None, (5, 6), (6, 5), (5, 5)])),
)


@pytest.mark.parametrize("how", ["unconscious", "dead", "stunned"])
def test_a_unit_that_is_down_or_stunned_never_acts(rs, how):
    state = downed(rs, how)
    dane = state.units["dane"]
    assert dane.status == {"stunned": "active"}.get(how, how)
    assert how == "dead" or dane.record.turn.ap == 0  # the dead get no turn at all

    @settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(cmd=COMMANDS)
    def refused(cmd):
        assert isinstance(rs.decide(state, cmd, Dice.scripted([50] * 60)), Rejected), cmd

    refused()
