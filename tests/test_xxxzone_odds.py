"""xxxzone exact odds and the properties the issue asks for: AP never negative nor above the maximum plus the
pools, armour HP never negative, overwatch never spends more than it stored, a disabled unit never acts."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.rules.xxxzone import actions, odds
from engine.rules.xxxzone.attack import Attack, CoverPiece, Defence, volley
from engine.rules.xxxzone.wounds import Condition, Wounds, turn_ap

T = Defence(id="t", agility=5, endurance=5, armour_dr=35, armour_hp=2)


def test_single_roll_odds_are_exact():
    # vector 17's shot: R = face + 85; miss up to 15, glancing to 50, then DT 40 per tier
    got = odds.single(Attack(attacker="s", adj_acc=90, dt=35), T)
    assert got == {"miss": Fraction(15, 100), "glancing": Fraction(35, 100), "minor": Fraction(40, 100),
                   "severe": Fraction(10, 100)}
    assert sum(got.values()) == 1


def test_cover_odds():
    wall = CoverPiece(label="wall", value=40, hp=8, adjacent=True)
    got = odds.single(Attack(attacker="s", adj_acc=90, dt=35), Defence(id="t", agility=5, endurance=5, armour_dr=35,
                                                                       armour_hp=2, cover=(wall,)))
    assert got["cover"] == Fraction(40, 100) and got["miss"] == Fraction(15, 100)


def test_volley_odds_wear_the_armour_down():
    a = Attack(attacker="s", adj_acc=90, dt=35)
    first, second, third = odds.volley([a, a, a], T)
    assert first == odds.single(a, T)
    assert sum(second.values()) == 1 and sum(third.values()) == 1
    # after two hits the armour is gone: the third roll is more dangerous than the first
    assert third.get("glancing", 0) < first["glancing"]


KINDS = st.sampled_from(["move", "gun", "melee", "draw", "reload", "other"])
ABILITIES = st.frozensets(st.sampled_from(["run_and_gun", "walking_shooting", "quick_draw", "action_reload",
                                           "akimbo", "grim_reapers_sprint"]))


@settings(max_examples=200, deadline=None)
@given(ap=st.integers(0, 20), abilities=ABILITIES,
       steps=st.lists(st.tuples(KINDS, st.integers(0, 9), st.sampled_from(["", "left", "right"])), max_size=25))
def test_ap_never_negative_nor_above_maximum_plus_pools(ap, abilities, steps):
    turn = actions.start(ap, ap)[0]
    granted = 0
    for kind, cost, hand in steps:
        before = turn
        got = actions.spend(turn, cost, kind, abilities, hand=hand if kind in ("gun", "melee") else "")
        if isinstance(got, Rejected):
            assert got.code == "no_ap" and actions.available(turn, kind, hand if kind in ("gun", "melee") else "") < cost
            continue
        turn = got
        granted += max(0, turn.restricted - before.restricted)
        assert turn.ap >= 0 and min(turn.move, turn.gun, turn.draw, turn.reload, turn.left, turn.right) >= 0
        assert turn.ap + turn.restricted <= ap + granted


@settings(max_examples=100, deadline=None)
@given(stored=st.integers(0, 15), costs=st.lists(st.integers(1, 9), max_size=6))
def test_overwatch_never_spends_more_than_stored(stored, costs):
    turn = actions.TurnAp(ap=0, maximum=15, overwatch=stored)
    spent = 0
    for cost in costs:
        got = actions.reaction(turn, cost)
        if isinstance(got, Rejected):
            assert cost > turn.overwatch
            continue
        spent += cost
        turn = got
    assert spent <= stored and turn.overwatch == stored - spent


@settings(max_examples=100, deadline=None)
@given(faces=st.lists(st.integers(1, 100), min_size=1, max_size=8), hp=st.integers(0, 3), acc=st.integers(0, 200))
def test_armour_hp_never_negative(faces, hp, acc):
    d = Defence(id="t", agility=5, endurance=5, armour_dr=35, armour_hp=hp)
    hits, after = volley(Dice.scripted(faces), [Attack(attacker="s", adj_acc=acc, dt=35)] * len(faces), d)
    assert after.armour_hp >= 0 and all(h.armour_hp >= 0 for h in hits)
    assert after.armour_hp == max(0, hp - sum(h.outcome not in ("miss", "cover") for h in hits))


def test_a_unit_that_cannot_act_gets_no_ap():
    for c in (Condition(dead=True), Condition(unconscious=True), Condition(stunned=1),
              Condition(wounds=Wounds(mortal=3), disabled=True, unconscious=True)):
        assert turn_ap(c, 10) == 0
    assert turn_ap(Condition(), 10) == 10
