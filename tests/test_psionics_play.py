"""Psionics in play (xcom-trpg 7): the abilities through the real `Act` path with scripted dice,
their checks, cooldowns, lasting effects, the referee, and the AI's use of them."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.commands import Act, EndTurn, Rejected, Shoot
from engine.core.dice import Dice, Faces, seed_from_int
from engine.core.events import Resolved, UnitChanged
from engine.map.grid import Grid
from engine.core.model import State
from engine.core.reducer import fold
from engine.core.ruleset import make
from engine.rules.xcom_trpg.units import spawn
from engine.rules.xcom_trpg import tables
from engine.rules.xcom_trpg.tables import xcom
from tests.xcom_record import counters, evolved, flags
from engine.rules.xcom_trpg.record import soldier as sheet

SECTOID = {"strength": 4, "agility": 7, "intelligence": 8, "bravery": 4, "charisma": 3, "luck": 6, "psionics": 7}
ANTON = {"strength": 7, "agility": 4, "intelligence": 6, "bravery": 6, "charisma": 4, "luck": 6, "psionics": 3}
JULIA = {"strength": 5, "agility": 10, "intelligence": 6, "bravery": 5, "charisma": 7, "luck": 2, "psionics": 1}


def soldier(content, template, uid, side, pos, stats=None, ss=None, hp=40, **changes):
    u, _ = spawn(content, xcom(content).rulesets["xcom-trpg"], template, uid, uid.replace("_", " ").title(), side, pos,
                 0, Dice(None, script=[]), hp=hp)
    pool = {"psi_active": 1, "psi_ss": ss, "psi_ss_max": max(ss, 60)} if ss is not None else {}
    changes.setdefault("actions", 2 if side == "aliens" else 0)
    return evolved(u, stats=dict(stats or sheet(u).stats), counters=pool, **changes)


def table(content, *units, side="aliens", width=24):
    grid = Grid.from_ids([["grass"] * width for _ in range(20)], content.terrain)
    state = State(ruleset="xcom-trpg", mission="test", grid=grid, units={u.id: u for u in units}, phase=1, side=side,
                  sides=("xcom", "aliens"))
    return make("xcom-trpg", content, None), state


def act(rs, state, script, **kw):
    dice = Dice(None, script=list(script))
    events = rs.decide(state, Act(action="psi", **kw), dice)
    if isinstance(events, Rejected):
        return events, state
    assert dice.scripted_left == 0, "every scripted die must be used"
    return events, fold(state, events)


def end_turn(rs, state, seed=3):
    events = rs.decide(state, EndTurn(side=state.side), Dice(Faces(seed_from_int(seed)), state.dice))
    assert not isinstance(events, Rejected), events
    return fold(state, events)


def psi_roll_text(events):
    resolved = [e for e in events if isinstance(e, Resolved) and e.action == "psi"]
    assert len(resolved) == 1
    return resolved[0]


@pytest.fixture
def duel(content):
    """TV-09/10: a sectoid (Psi 7, Luck 6, Int 8) and Anton with inactive psionics, 5 cells apart."""
    sectoid = soldier(content, "sectoid", "sectoid_1", "aliens", (5, 10), SECTOID, ss=60)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON)
    return table(content, sectoid, anton)


# -- TV-09, TV-10, TV-11 through Act -----------------------------------------------------------------


def test_tv09_undeclared_type_is_psi_communication_for_1_ss(duel):
    rs, state = duel
    events, after = act(rs, state, [61, 80], unit="sectoid_1", target="anton")
    r = psi_roll_text(events)
    assert [x.formula for x in r.rolls] == ["psi (7+6)*8+61=165", "psi defence (inactive) 6^2+6*6+80=152"]
    assert r.outcome == "success" and "Psi-communication" in r.text and "Anton hears" in r.text
    assert counters(after.units["sectoid_1"])["psi_ss"] == 59
    assert sheet(after.units["sectoid_1"]).actions == 1
    assert after.units["anton"].side == "xcom"


def test_tv10_mind_control_costs_40_and_takes_anton(duel):
    rs, state = duel
    events, after = act(rs, state, [61, 80], unit="sectoid_1", target="anton", option="mind_control")
    r = psi_roll_text(events)
    assert [x.total for x in r.rolls] == [165, 152] and "Mind control" in r.text
    assert counters(after.units["sectoid_1"])["psi_ss"] == 20
    assert after.units["anton"].side == "aliens"
    assert any(isinstance(e, UnitChanged) and "40 SS" in e.cause for e in events)


def test_tv11_compulsion_between_psionics_defends_with_the_active_formula(content):
    anton = soldier(content, "anton", "anton", "xcom", (3, 3), ANTON, ss=30, actions=2)
    julia = soldier(content, "julia", "julia", "aliens", (3, 8), JULIA, ss=20)
    rs, state = table(content, anton, julia, side="xcom")
    events, after = act(rs, state, [87, 68], unit="anton", target="julia", option="compulsion")
    r = psi_roll_text(events)
    assert [x.formula for x in r.rolls] == ["psi (3+6)*6+87=141", "psi defence 5^2+(1+2)*6+68=111"]
    assert counters(after.units["anton"])["psi_ss"] == 20
    assert counters(after.units["julia"])["psi_order"] == 1  # hold
    assert counters(after.units["anton"])["psi_cd_compulsion"] == 3  # CD 2: usable again on turn T+3


def test_failed_attack_still_spends_the_ss(duel):
    rs, state = duel
    events, after = act(rs, state, [1, 100], unit="sectoid_1", target="anton", option="panic", amount=3)
    r = psi_roll_text(events)
    assert r.outcome == "failure" and "resists" in r.text
    assert counters(after.units["sectoid_1"])["psi_ss"] == 50
    assert after.units["anton"].record.morale == 100


# -- checks ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("changes, option, code", [
    ({"psi_ss": 6}, "panic", "no_ss"),
    ({"psi_cd_panic": 2}, "panic", "cooldown"),
    ({}, "mass_sleep", "min_psi"),
    ({}, "psychokinesis", "not_implemented"),
    ({}, "buff", "not_friendly"),
    ({}, "nonsense", "unknown_ability"),
])
def test_rejections(duel, changes, option, code):
    rs, state = duel
    s = state.units["sectoid_1"]
    state = evolved(state, units=dict(state.units, sectoid_1=evolved(
        s, counters=dict(counters(s), **changes))))
    got = rs.decide(state, Act(unit="sectoid_1", action="psi", option=option, target="anton"), Dice(None, script=[]))
    assert isinstance(got, Rejected) and got.code == code, got


def test_range_and_sight(content):
    sectoid = soldier(content, "sectoid", "sectoid_1", "aliens", (0, 0), SECTOID, ss=60)
    anton = soldier(content, "anton", "anton", "xcom", (16, 0), ANTON)
    rs, state = table(content, sectoid, anton)
    got = rs.decide(state, Act(unit="sectoid_1", action="psi", option="panic", target="anton"), Dice(None, script=[]))
    assert got.code == "out_of_range" and "16 cells" in got.reason
    wall = Grid.from_ids([["grass"] * 24 if y != 2 else ["wall"] * 24 for y in range(20)], content.terrain)
    anton = evolved(anton, pos=(0, 5))
    state = evolved(state, grid=wall, units=dict(state.units, anton=anton))
    got = rs.decide(state, Act(unit="sectoid_1", action="psi", option="panic", target="anton"), Dice(None, script=[]))
    assert got.code == "unseen"


def test_race_restrictions(content):
    muton = soldier(content, "muton", "muton_1", "aliens", (5, 10), dict(SECTOID), ss=60)
    chrys = soldier(content, "chryssalid", "chrys_1", "aliens", (6, 10), dict(SECTOID), ss=60)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON)
    rs, state = table(content, muton, chrys, anton)
    got = rs.decide(state, Act(unit="muton_1", action="psi", option="compulsion", target="anton"), Dice(None, script=[]))
    assert got.code == "wrong_race"
    got = rs.decide(state, Act(unit="chrys_1", action="psi", option="stun", target="anton"), Dice(None, script=[]))
    assert got.code == "wrong_race"
    events, _ = act(rs, state, [61, 80], unit="chrys_1", option="panic", target="anton")
    assert psi_roll_text(events).outcome == "success"


def test_inactive_humans_cannot_cast(duel):
    rs, state = duel
    state = evolved(state, side="xcom", units=dict(state.units, anton=evolved(state.units["anton"], actions=2)))
    got = rs.decide(state, Act(unit="anton", action="psi", target="sectoid_1"), Dice(None, script=[]))
    assert got.code == "psi_inactive"


# -- cooldowns count the caster's own turns --------------------------------------------------------------


def test_cooldown_two_used_on_turn_t_is_usable_on_t_plus_3(duel):
    rs, state = duel
    _, state = act(rs, state, [61, 80], unit="sectoid_1", target="anton", option="panic")
    usable = []
    for turn in (1, 2, 3):
        state = end_turn(rs, end_turn(rs, state))  # xcom's turn, then the aliens' next one
        got = rs.decide(state, Act(unit="sectoid_1", action="psi", option="panic", target="anton"),
                        Dice(None, script=[50, 50]))
        usable.append(not isinstance(got, Rejected))
    assert usable == [False, False, True]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cd=st.integers(min_value=0, max_value=7))
def test_cooldowns_count_the_users_own_turns(content, cd):
    """A CD n ability used on turn T is next usable on turn T+n+1 (T itself when n = 0)."""
    sectoid = soldier(content, "sectoid", "sectoid_1", "aliens", (5, 10), SECTOID, ss=500)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON)
    rs, state = table(content, sectoid, anton)
    psi = dict(xcom(rs.content).psionics, panic=evolved(xcom(rs.content).psionics["panic"], cooldown=cd))
    rs.content = tables.evolve(rs.content, psionics=psi)
    _, state = act(rs, state, [90, 10], unit="sectoid_1", target="anton", option="panic")
    turns = 0
    while isinstance(rs.decide(state, Act(unit="sectoid_1", action="psi", option="panic", target="anton"),
                               Dice(None, script=[50, 50])), Rejected):
        state = end_turn(rs, end_turn(rs, state))
        turns += 1
        assert turns <= 10
    assert turns == (cd + 1 if cd else 0)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.integers(min_value=0, max_value=60), waits=st.integers(min_value=1, max_value=4))
def test_sigurdsens_never_exceed_the_pool(content, start, waits):
    sectoid = soldier(content, "sectoid", "sectoid_1", "aliens", (5, 10), SECTOID, ss=start)
    sectoid = evolved(sectoid, counters=dict(counters(sectoid), psi_ss_max=60))
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON)
    rs, state = table(content, sectoid, anton)
    for _ in range(waits):
        got = rs.decide(state, Act(unit="sectoid_1", action="gather_thoughts"), Dice(None, script=[]))
        if not isinstance(got, Rejected):
            state = fold(state, got)
        state = end_turn(rs, end_turn(rs, state))
        c = counters(state.units["sectoid_1"])
        assert 0 <= c["psi_ss"] <= c["psi_ss_max"]
    assert counters(state.units["sectoid_1"])["psi_ss"] == min(60, start + 10 * waits)


# -- lasting effects -----------------------------------------------------------------------------------


def test_panic_inspire_and_overload(content):
    sectoid = soldier(content, "sectoid", "sectoid_1", "aliens", (5, 10), SECTOID, ss=60)
    friend = soldier(content, "sectoid", "sectoid_2", "aliens", (6, 10), SECTOID, ss=10, morale=50)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON)
    rs, state = table(content, sectoid, friend, anton)
    events, state = act(rs, state, [61, 80], unit="sectoid_1", target="anton", option="panic", amount=5)
    assert state.units["anton"].record.morale == 85 and counters(state.units["sectoid_1"])["psi_ss"] == 48
    assert any(isinstance(e, UnitChanged) and e.cause == "psi panic from Sectoid 1" for e in events)
    events, state = act(rs, state, [], unit="sectoid_1", target="sectoid_2", option="inspire", amount=4)
    assert "willing: no roll" in psi_roll_text(events).text
    assert state.units["sectoid_2"].record.morale == 64 and counters(state.units["sectoid_1"])["psi_ss"] == 39


def test_stun_knocks_out_when_concussion_passes_hp(content):
    sectoid = soldier(content, "sectoid", "sectoid_1", "aliens", (5, 10), SECTOID, ss=60)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON, hp=20)
    rs, state = table(content, sectoid, anton)
    events, state = act(rs, state, [61, 80], unit="sectoid_1", target="anton", option="stun", amount=10)
    a = state.units["anton"]
    assert a.record.concussion == 28 and a.status == "unconscious"  # D-4: (10-6)*(6+1)
    assert a.record.morale == 95 and "concussed" in flags(a)  # -30/6
    assert state.units["sectoid_1"].record.morale == 100  # +5 for the knock-out, capped


def test_sleep_skips_turns_and_damage_wakes(content):
    sectoid = soldier(content, "sectoid", "sectoid_1", "aliens", (5, 10), SECTOID, ss=60)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON)
    rs, state = table(content, sectoid, anton)
    _, state = act(rs, state, [61, 80], unit="sectoid_1", target="anton", option="sleep")
    assert counters(state.units["anton"])["psi_sleep"] == 2
    state = end_turn(rs, state)  # the squad's turn: Anton sleeps
    assert sheet(state.units["anton"]).actions == 0 and counters(state.units["anton"])["psi_sleep"] == 1
    state = end_turn(rs, state)
    for seed in range(1, 60):
        events = rs.decide(state, Shoot(unit="sectoid_1", target="anton"), Dice(Faces(seed_from_int(seed)), state.dice))
        after = fold(state, events)
        if after.units["anton"].hp < 40:
            assert "psi_sleep" not in counters(after.units["anton"])
            assert any(isinstance(e, UnitChanged) and e.cause == "woken by damage" for e in events)
            break
        assert counters(after.units["anton"])["psi_sleep"] == 1  # a miss does not wake him
    else:
        pytest.fail("no seed hit")


def test_mind_strike_ignores_armour_and_hurts_morale(content):
    sectoid = soldier(content, "sectoid", "sectoid_1", "aliens", (5, 10), dict(SECTOID, psionics=7), ss=60)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON)
    rs, state = table(content, sectoid, anton)
    _, state = act(rs, state, [61, 80], unit="sectoid_1", target="anton", option="mind_strike", amount=10)
    a = state.units["anton"]
    assert a.hp == 40 - 24 and a.record.morale == 90  # Int 6: 6*3+6; wound -60/6


def test_mind_control_save_return_and_backlash(content):
    sectoid = soldier(content, "sectoid", "sectoid_1", "aliens", (5, 10), SECTOID, ss=60)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON)
    julia = soldier(content, "julia", "julia", "xcom", (8, 5), JULIA)
    rs, state = table(content, sectoid, anton, julia)
    _, state = act(rs, state, [61, 80], unit="sectoid_1", target="anton", option="mind_control")
    state = end_turn(rs, state)  # squad: Anton is not theirs
    assert sheet(state.units["anton"]).actions == 0
    state = end_turn(rs, state)  # aliens: Anton's first controlled turn
    assert state.units["anton"].side == "aliens" and sheet(state.units["anton"]).actions == 2
    # Julia shoots the controlled Anton: the HP he loses comes back on the sectoid
    state = end_turn(rs, state)
    state = evolved(state, units=dict(state.units, anton=evolved(state.units["anton"], hp=40)))
    for seed in range(1, 40):
        events = rs.decide(state, Shoot(unit="julia", target="anton"), Dice(Faces(seed_from_int(seed)), state.dice))
        after = fold(state, events)
        lost = 40 - after.units["anton"].hp
        if lost > 0:
            assert after.units["sectoid_1"].hp == state.units["sectoid_1"].hp - lost
            assert any(isinstance(e, UnitChanged) and "backlash" in e.cause for e in events)
            break
    else:
        pytest.fail("no seed hit")
    # the save after the first controlled turn: 50+7*5-0*4-1d100; 85 frees (0), 84 holds (1)
    for face, side in ((85, "xcom"), (84, "aliens")):
        events = rs.decide(state, EndTurn(side="xcom"), Dice(None, script=[face]))
        s2 = fold(state, events)
        save = [r for e in events if isinstance(e, Resolved) for r in e.rolls if r.purpose == "mind-control save"]
        assert save[0].total == 85 - face
        assert s2.units["anton"].side == side


def test_mind_control_returns_after_the_second_turn(content):
    sectoid = soldier(content, "sectoid", "sectoid_1", "aliens", (5, 10), SECTOID, ss=60)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON)
    rs, state = table(content, sectoid, anton)
    _, state = act(rs, state, [61, 80], unit="sectoid_1", target="anton", option="mind_control")
    state = end_turn(rs, end_turn(rs, state))  # first controlled turn
    state = end_turn(rs, state)
    state = fold(state, rs.decide(state, EndTurn(side="xcom"), Dice(None, script=[1])))  # save 84: held
    assert state.units["anton"].side == "aliens" and sheet(state.units["anton"]).actions == 2
    state = end_turn(rs, end_turn(rs, state))
    assert state.units["anton"].side == "xcom" and "psi_mc_by" not in counters(state.units["anton"])


def test_revenant_rises_on_the_casters_side(content):
    ethereal = soldier(content, "ethereal", "ethereal_1", "aliens", (5, 10), dict(SECTOID, psionics=9), ss=60)
    corpse = soldier(content, "stephen", "stephen", "xcom", (5, 6), status="dead", hp=-8)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON)
    rs, state = table(content, ethereal, corpse, anton)
    events, state = act(rs, state, [], unit="ethereal_1", target="stephen", option="psionic_revenant", amount=10)
    s = state.units["stephen"]
    assert s.status == "active" and s.side == "aliens" and counters(s)["psi_revenant"] == 3
    assert (sheet(s).stats["intelligence"], sheet(s).stats["charisma"], sheet(s).stats["luck"]) == (0, 0, 0)
    assert counters(state.units["ethereal_1"])["psi_ss"] == 20


def test_mass_sleep_one_attack_each_its_own_defence(content):
    ethereal = soldier(content, "ethereal", "ethereal_1", "aliens", (5, 10), dict(SECTOID, psionics=9), ss=60)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON)
    julia = soldier(content, "julia", "julia", "xcom", (6, 5), JULIA)
    rs, state = table(content, ethereal, anton, julia)
    events, state = act(rs, state, [50, 100, 1], unit="ethereal_1", targets=("anton", "julia"), option="mass_sleep")
    r = psi_roll_text(events)
    assert [x.purpose for x in r.rolls] == ["psi attack", "psi defence", "psi defence"]
    assert r.rolls[0].total == (9 + 6) * 8 + 50
    assert [x.total for x in r.rolls] == [170, 172, 38]
    assert "psi_sleep" not in counters(state.units["anton"])
    assert counters(state.units["julia"])["psi_sleep"] == 2


def test_psi_location_against_the_god_of_random(duel):
    rs, state = duel
    events, after = act(rs, state, [40, 9], unit="sectoid_1", option="psi_location", amount=5)
    r = psi_roll_text(events)
    assert [x.formula for x in r.rolls] == ["psi (7+6)*8+40=144", "god 10*9=90"]
    assert "Anton at 5,5 (foe)" in r.text and counters(after.units["sectoid_1"])["psi_ss"] == 53  # 2+5
    events, _ = act(rs, state, [40, 20], unit="sectoid_1", option="psi_location", amount=1)
    assert "nothing sensed" in psi_roll_text(events).text


def test_illusion_overload_skips_a_turn_and_checks_bravery(duel):
    rs, state = duel
    events, state = act(rs, state, [61, 80, 10, 50], unit="sectoid_1", target="anton", option="illusion", amount=10)
    r = psi_roll_text(events)
    assert [x.formula for x in r.rolls][2:] == ["bravery 6*10=60", "god 10*50=500"]
    assert state.units["anton"].record.morale == 80 and counters(state.units["sectoid_1"])["psi_ss"] == 40
    state = end_turn(rs, state)
    assert sheet(state.units["anton"]).actions == 0


def test_fatigue_mind_reading_and_buff(content):
    sectoid = soldier(content, "sectoid", "sectoid_1", "aliens", (5, 10), SECTOID, ss=60)
    friend = soldier(content, "sectoid", "sectoid_2", "aliens", (6, 10), SECTOID)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON)
    rs, state = table(content, sectoid, friend, anton)
    _, state = act(rs, state, [61, 80], unit="sectoid_1", target="anton", option="fatigue", amount=10)
    assert state.units["anton"].record.stamina == 3  # 7 - light armour 1 = 6, -2 -1 for 10 SS
    events, state = act(rs, state, [31, 40], unit="sectoid_1", target="anton", option="mind_reading", amount=5)
    r = psi_roll_text(events)
    assert r.rolls[0].formula == "psi (7+6)*8+31+10=145" and "strength 7" in r.text and "HP 40/40" in r.text
    state = evolved(state, units=dict(state.units, sectoid_1=evolved(state.units["sectoid_1"], actions=2)))
    _, state = act(rs, state, [], unit="sectoid_1", target="sectoid_2", option="buff:strength", amount=3)
    assert sheet(state.units["sectoid_2"]).stats["strength"] == 5
    for expected in (5, 5, 5, 4):  # its next 3 turns (2 + 1 for 3 SS), then gone
        state = end_turn(rs, end_turn(rs, state))
        assert sheet(state.units["sectoid_2"]).stats["strength"] == expected


def test_compulsion_hold_retreat_and_oblivion(content):
    sectoid = soldier(content, "sectoid", "sectoid_1", "aliens", (5, 10), dict(SECTOID, psionics=7), ss=90)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON)
    julia = soldier(content, "julia", "julia", "xcom", (8, 5), JULIA)
    rs, state = table(content, sectoid, anton, julia)
    _, state = act(rs, state, [61, 80], unit="sectoid_1", target="anton", option="compulsion:retreat")
    _, state = act(rs, state, [61, 10], unit="sectoid_1", target="julia", option="oblivion")
    state = end_turn(rs, state)
    a = state.units["anton"]
    assert sheet(a).actions == 0 and a.pos[1] == 3 and "psi_order" not in counters(a)  # 2 steps away from the sectoid
    assert sheet(state.units["julia"]).actions == 2


def test_compulsion_plus_oblivion_costs_5_more_and_starts_both_cooldowns(duel):
    rs, state = duel
    events, state = act(rs, state, [61, 80], unit="sectoid_1", target="anton", option="compulsion+oblivion")
    c = counters(state.units["sectoid_1"])
    assert c["psi_ss"] == 45 and c["psi_cd_compulsion"] == 3 and c["psi_cd_oblivion"] == 3
    assert counters(state.units["anton"])["psi_order"] == 1 and "forgets" in psi_roll_text(events).text


def test_gather_thoughts_is_cancelled_by_damage_and_meditation_fills_the_pool(content):
    sectoid = soldier(content, "sectoid", "sectoid_1", "aliens", (5, 10), SECTOID, ss=5)
    julia = soldier(content, "julia", "julia", "xcom", (5, 5), JULIA)  # with a rifle
    rs, state = table(content, sectoid, julia)
    state = fold(state, rs.decide(state, Act(unit="sectoid_1", action="meditate"), Dice(None, script=[])))
    seen = []
    for _ in range(3):
        state = end_turn(rs, end_turn(rs, state))
        seen.append((sheet(state.units["sectoid_1"]).actions, counters(state.units["sectoid_1"])["psi_ss"]))
    assert seen == [(0, 5), (0, 60), (2, 60)]
    sectoid = evolved(state.units["sectoid_1"], counters=dict(counters(state.units["sectoid_1"]), psi_ss=5))
    state = evolved(state, units=dict(state.units, sectoid_1=sectoid))
    state = fold(state, rs.decide(state, Act(unit="sectoid_1", action="gather_thoughts"), Dice(None, script=[])))
    state = end_turn(rs, state)
    state = evolved(state, units=dict(state.units, julia=evolved(state.units["julia"], actions=2)))
    for seed in range(1, 60):
        events = rs.decide(state, Shoot(unit="julia", target="sectoid_1"), Dice(Faces(seed_from_int(seed)), state.dice))
        after = fold(state, events)
        if after.units["sectoid_1"].hp < 40:
            break
    else:
        pytest.fail("no seed hit")
    assert "psi_gather" not in counters(after.units["sectoid_1"])
    assert any(isinstance(e, UnitChanged) and e.cause == "concentration broken by damage" for e in events)
    after = end_turn(rs, after)
    assert counters(after.units["sectoid_1"])["psi_ss"] == 5


def test_esp_027_lifts_psionics_for_two_turns(content):
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), dict(ANTON, psionics=1), ss=60, actions=2,
                    items={"esp_027": 1})
    sectoid = soldier(content, "sectoid", "sectoid_1", "aliens", (5, 10), SECTOID)
    rs, state = table(content, anton, sectoid, side="xcom")
    got = rs.decide(state, Act(unit="anton", action="psi", option="mind_control", target="sectoid_1"),
                    Dice(None, script=[]))
    assert got.code == "min_psi"
    state = fold(state, rs.decide(state, Act(unit="anton", action="esp_027"), Dice(None, script=[])))
    assert sheet(state.units["anton"]).stats["psionics"] == 6 and "esp_027" not in state.units["anton"].items
    events, _ = act(rs, state, [100, 1], unit="anton", option="mind_control", target="sectoid_1")
    assert psi_roll_text(events).outcome == "success"
    for expected in (6, 6, 1):
        state = end_turn(rs, end_turn(rs, state))
        assert sheet(state.units["anton"]).stats["psionics"] == expected


def test_menu_lists_each_ability_and_target_with_its_cost(duel):
    rs, state = duel
    labels = [o.label for o in rs.options(state, state.units["sectoid_1"]) if o.group == "Psionics"]
    assert "Panic → Anton (7 SS)" in labels and "Mind control → Anton (40 SS)" in labels
    assert "Gather thoughts (+10 SS next turn)" in labels and "Meditate (3 turns: full pool)" in labels
    assert not any(label.startswith("Mass") for label in labels)  # min psi 8+
    panic = next(o for o in rs.options(state, state.units["sectoid_1"]) if o.label == "Panic → Anton (7 SS)")
    assert panic.overload == 53 and panic.command == Act(unit="sectoid_1", action="psi", option="panic", target="anton")


def test_deployment_rolls_pools_for_awake_minds(content, tmp_path):
    from engine.play.game import Game

    game = Game.new(content, "xcom-trpg", "eliminate", seed_from_int(4), None)
    spawned = {u.id: u for u in game.state.units.values()}
    aliens = [u for u in spawned.values() if u.side == "aliens" and not xcom(content).races[u.race].robot]
    assert aliens and all(counters(u)["psi_ss"] == counters(u)["psi_ss_max"] for u in aliens)
    for u in aliens:
        assert sheet(u).stats["psionics"] * 10 + 1 <= counters(u)["psi_ss_max"] <= sheet(u).stats["psionics"] * 10 + 50
    humans = [u for u in spawned.values() if u.race == "human"]
    assert humans and all("psi_ss" not in counters(u) for u in humans)


# -- the referee -----------------------------------------------------------------------------------------


def test_resolve_psi_and_initiation(content):
    from engine.rules.xcom_trpg.scenario import Action, Scenario, ScenarioUnit, make_units

    sc = Scenario(ruleset="xcom-trpg", units={
        "sectoid": ScenarioUnit(race="sectoid", stats=SECTOID, hp=30, ss=60),
        "anton": ScenarioUnit(race="human", stats=ANTON, hp=40)}, action=Action(type="psi", actor="sectoid",
                                                                             target="anton", ability="mind_control"))
    units, _ = make_units(content, sc, Dice(None, script=[]))
    rs = make("xcom-trpg", content, None)
    verdict = rs.referee(units, sc.action, Dice(None, script=[61, 80]))
    assert [r.total for r in verdict.rolls] == [165, 152] and "Mind control (40 SS)" in verdict.summary
    assert verdict.before["anton"].side != verdict.before["sectoid"].side  # the game's sides, as in play
    assert verdict.after["anton"].side == verdict.after["sectoid"].side and counters(verdict.after["sectoid"])["psi_ss"] == 20
    plain = rs.referee(units, evolved(sc.action, ability=None), Dice(None, script=[61, 80]))
    assert "Psi-communication (1 SS)" in plain.summary and "hears" in plain.summary
    init = evolved(sc.action, type="initiation", actor="anton", target=None)
    for face, awake, psi, intel in ((20, True, 3, 6), (10, False, 0, 6), (97, True, 4, 6), (3, False, 0, 5)):
        v = rs.referee(units, init, Dice(None, script=[face]))
        after = v.after["anton"]
        assert (bool(counters(after).get("psi_active")), sheet(after).stats["psionics"], sheet(after).stats["intelligence"]) \
            == (awake, psi, intel), v.summary


# -- the AI ----------------------------------------------------------------------------------------------


def test_ai_panics_a_shaken_soldier_it_sees_and_never_an_unseen_one(content):
    from engine.ai.planner import Ai

    sectoid = soldier(content, "sectoid", "sectoid_1", "aliens", (5, 10), SECTOID, ss=60)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON, morale=30)
    hidden = soldier(content, "julia", "julia", "xcom", (5, 1), JULIA, morale=10)
    wall = Grid.from_ids([["grass"] * 24 if y != 3 else ["wall"] * 24 for y in range(20)], content.terrain)
    rs, state = table(content, sectoid, anton, hidden)
    state = evolved(state, grid=wall)
    assert not rs.visible(state, "aliens")[1, 5]
    command = Ai(rs, "aliens").next_command(state)
    assert command == Act(unit="sectoid_1", action="psi", option="panic", target="anton")


def test_ai_muton_never_uses_psi_and_chryssalid_only_panics(content):
    from engine.ai.planner import Ai

    muton = soldier(content, "muton", "muton_1", "aliens", (5, 10), dict(SECTOID), ss=60)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON, morale=30)
    rs, state = table(content, muton, anton)
    command = Ai(rs, "aliens").next_command(state)
    assert not (isinstance(command, Act) and command.action == "psi")
    chrys = soldier(content, "chryssalid", "chrys_1", "aliens", (5, 10), dict(SECTOID), ss=60)
    rs, state = table(content, chrys, anton)
    command = Ai(rs, "aliens").next_command(state)
    assert command == Act(unit="chrys_1", action="psi", option="panic", target="anton")


def test_ai_takes_the_strongest_mind_when_the_pool_allows(content):
    from engine.ai.planner import Ai

    ethereal = soldier(content, "ethereal", "ethereal_1", "aliens", (5, 10), dict(SECTOID, psionics=9), ss=60)
    anton = soldier(content, "anton", "anton", "xcom", (5, 5), ANTON)
    julia = soldier(content, "julia", "julia", "xcom", (7, 5), JULIA, hp=20)
    rs, state = table(content, ethereal, anton, julia)
    command = Ai(rs, "aliens").next_command(state)
    assert command == Act(unit="ethereal_1", action="psi", option="mind_control", target="anton")


def test_compelled_to_hold_cannot_move_or_shoot_but_may_reload(duel):
    from engine.core.commands import Move, Reload

    rs, state = duel
    _, state = act(rs, state, [61, 80], unit="sectoid_1", target="anton", option="compulsion:hold")
    state = end_turn(rs, state)
    anton = state.units["anton"]
    assert sheet(anton).actions == 2 and ("compelled_hold" in flags(anton))
    assert rs.decide(state, Move(unit="anton", path=((5, 4),)), Dice(None, script=[])).code == "compelled"
    assert rs.decide(state, Shoot(unit="anton", target="sectoid_1"), Dice(None, script=[])).code == "compelled"
    state = evolved(state, units=dict(state.units, anton=evolved(anton, ammo=0)))
    assert not isinstance(rs.decide(state, Reload(unit="anton"), Dice(None, script=[])), Rejected)
    state = end_turn(rs, end_turn(rs, state))
    assert not ("compelled_hold" in flags(state.units["anton"]))  # one turn only


def test_a_revenant_makes_no_combo_and_falls_for_good(content):
    from engine.core.commands import Combo

    ethereal = soldier(content, "ethereal", "ethereal_1", "aliens", (5, 10), dict(SECTOID, psionics=9), ss=60)
    corpse = soldier(content, "stephen", "stephen", "xcom", (5, 6), status="dead", hp=-8)
    anton = soldier(content, "anton", "anton", "xcom", (5, 3), ANTON, actions=2)
    rs, state = table(content, ethereal, corpse, anton)
    _, state = act(rs, state, [], unit="ethereal_1", target="stephen", option="psionic_revenant")
    state = end_turn(rs, end_turn(rs, state))
    assert sheet(state.units["stephen"]).actions == 2
    got = rs.decide(state, Combo(unit="stephen", path=((5, 7), (5, 8))), Dice(None, script=[]))
    assert got.code == "revenant_speed"
    state = end_turn(rs, state)
    stephen = evolved(state.units["stephen"], hp=4)
    state = evolved(state, units=dict(state.units, stephen=stephen))
    for seed in range(1, 60):
        events = rs.decide(state, Shoot(unit="anton", target="stephen"), Dice(Faces(seed_from_int(seed)), state.dice))
        after = fold(state, events)
        if -5 <= after.units["stephen"].hp <= 0:  # unconscious for anyone else (6.2)
            assert after.units["stephen"].status == "dead"
            assert any(isinstance(e, UnitChanged) and e.cause == "a revenant that falls stays dead" for e in events)
            break
    else:
        pytest.fail("no seed hit")


@pytest.mark.parametrize("name, dice, expected", [
    ("psi.toml", "61,80", "Sectoid: Mind control (40 SS) → 165 > Anton 152; Anton is under Sectoid's control"),
    ("initiation.toml", "20", "initiation luck 6*20=120≥100 → unlocked"),
    ("initiation.toml", "3", "critical failure: −1 Intelligence"),
])
def test_resolve_example_scenarios(name, dice, expected, capsys):
    from pathlib import Path

    from tui.cli import main

    code = main(["resolve", str(Path(__file__).parent.parent / "docs" / "scenarios" / name), "--dice", dice])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "") and expected in out, out


# -- content/psionics.toml -------------------------------------------------------------------------------


@pytest.mark.parametrize("mistake, expected", [
    (("panic", "cots", "7"), "xcom-trpg/psionics.toml: [panic]: unknown key 'cots' (did you mean 'cost'?)"),
    (("panic", "cost", '"seven"'), 'xcom-trpg/psionics.toml: [panic].cost: expected integer, got "seven"'),
    (("illusion", "casters", '["human", "sectiod"]'),
     "xcom-trpg/psionics.toml: [illusion].casters[1]: unknown race 'sectiod' (did you mean 'sectoid'?)"),
    (("oblivion", "combines_with", '"panic"'),
     "xcom-trpg/psionics.toml: [oblivion].combines_with: [panic] does not combine with 'oblivion'"),
    (("stun", "target", '"enemy"'),
     'xcom-trpg/psionics.toml: [stun].target: expected one of friendly, hostile, any, self, area, corpse, got "enemy"'),
    (("panic", "overload_ss", "0"), "xcom-trpg/psionics.toml: [panic].overload_ss: a steps overload needs a positive number of SS"),
])
def test_psionics_toml_mistakes_are_located(mistake, expected, tmp_path):
    from test_content import Set, broken_bundle, messages

    folder = broken_bundle(tmp_path, [Set("xcom-trpg/psionics.toml", *mistake)])
    assert expected in messages(folder)


def test_a_bundle_without_psionics_has_no_psi_in_play(content, tmp_path):
    from test_content import Remove, broken_bundle

    from engine.content import loader

    bare = loader.load(broken_bundle(tmp_path, [Remove("xcom-trpg/psionics.toml")]))
    assert xcom(bare).psionics == {}
    sectoid = soldier(bare, "sectoid", "sectoid_1", "aliens", (5, 10), SECTOID, ss=60)
    anton = soldier(bare, "anton", "anton", "xcom", (5, 5), ANTON)
    rs, state = table(bare, sectoid, anton)
    got = rs.decide(state, Act(unit="sectoid_1", action="psi", target="anton"), Dice(None, script=[]))
    assert got.code == "unknown_ability"
    assert all(o.group != "Psionics" for o in rs.options(state, state.units["sectoid_1"]))


def test_heroic_immunity_turns_a_psi_attack_away(duel):
    rs, state = duel
    anton = state.units["anton"]
    state = evolved(state, units=dict(state.units, anton=evolved(anton, counters={"buff_plus": 4})))
    events, after = act(rs, state, [61], unit="sectoid_1", target="anton", option="panic")
    r = psi_roll_text(events)
    assert r.outcome == "failure" and "immune" in r.text and after.units["anton"].record.morale == 100
    assert counters(after.units["sectoid_1"])["psi_ss"] == 53


def test_a_psi_sleeper_cannot_dodge(duel):
    rs, state = duel
    _, state = act(rs, state, [61, 80], unit="sectoid_1", target="anton", option="sleep")
    sectoid, anton = state.units["sectoid_1"], evolved(state.units["anton"], facing=4)  # facing the sectoid
    assert not rs.target_sees(state, anton, sectoid)
    awake = evolved(anton, counters={})
    assert rs.target_sees(evolved(state, units=dict(state.units, anton=awake)), awake, sectoid)


def test_an_awakened_soldier_gets_a_pool_and_the_active_defence(content):
    rules = xcom(content).rulesets["xcom-trpg"]
    awake = tables.evolve(content, units=dict(xcom(content).units, anton=evolved(xcom(content).units["anton"],
                                                                               psi_awakened=True)))
    dice = Dice(None, script=[20])
    anton, rolls = spawn(awake, rules, "anton", "anton", "Anton", "xcom", (0, 0), 0, dice, hp=61, psi=True)
    assert [r.formula for r in rolls] == ["sigurdsens 3*10+20=50"] and rolls[0].stream == "psi"
    assert counters(anton) == {"psi_active": 1, "psi_ss": 50, "psi_ss_max": 50}
    plain, rolls = spawn(content, rules, "anton", "anton", "Anton", "xcom", (0, 0), 0, Dice(None, script=[]), hp=61,
                         psi=True)
    assert rolls == [] and counters(plain) == {}


def test_a_drugged_sectoid_adds_the_dart_to_its_next_psi_attacks_and_counts_them_down(duel):
    """8.12.4: thioridazine −80 to a sectoid's next psi actions (the tranquilizer sets, psionics reads)."""
    rs, state = duel
    drugged = evolved(state.units["sectoid_1"], counters={**counters(state.units["sectoid_1"]),
                                                                "tranq_psi_bonus": -80, "tranq_psi_left": 2})
    state = evolved(state, units={**state.units, "sectoid_1": drugged})
    events, after = act(rs, state, [61, 80], unit="sectoid_1", target="anton", option="panic")
    r = psi_roll_text(events)
    assert r.rolls[0].formula == "psi (7+6)*8+61-80=85" and r.outcome == "failure"
    left = counters(after.units["sectoid_1"])
    assert left["tranq_psi_left"] == 1 and left["tranq_psi_bonus"] == -80
    last = evolved(after.units["sectoid_1"], actions=2, counters={**left, "psi_cd_panic": 0})
    after = evolved(after, units={**after.units, "sectoid_1": last})
    _events, done = act(rs, after, [61, 80], unit="sectoid_1", target="anton", option="panic")
    assert "tranq_psi_left" not in counters(done.units["sectoid_1"])
    assert "tranq_psi_bonus" not in counters(done.units["sectoid_1"])
