"""Annihilation's AI keeps TU back for opportunity fire when its profile says so (units.toml `reserve`), and kneels
next to cover before it ends its phase when the kneel bonus is on (kneeling.py), on a flat field of grass."""

from __future__ import annotations

import copy

import attrs
import pytest

from engine.ai.planner import Ai
from engine.core.commands import Act, EndTurn, Move, Wait
from engine.core.dice import Dice
from engine.core.reducer import fold
from engine.map.grid import Grid
from engine.rules.annihilation import fire
from engine.rules.annihilation.soldier import gun, stamp
from annihilation_book import BOOK

SIZE = 60


@pytest.fixture
def game(annihilation_game):
    return annihilation_game


def _aliens_phase(game, places, crate=None, tu=None, fired=()):
    """Grass (a crate at `crate`); the units named in `places` there, everyone else far off in the corners, the
    units in `fired` having fired this phase; then the aliens' phase, with no TU for those far off (and `tu` for
    whom it names)."""
    state = game.state
    rows = [["grass"] * SIZE for _ in range(SIZE)]
    if crate is not None:
        rows[crate[1]][crate[0]] = "crate"
    grid = Grid.from_ids(rows, state.grid.terrain)
    units = {uid: attrs.evolve(u, pos=places.get(uid, (SIZE - 1, SIZE - 1 - i) if u.side == "aliens"
                                               else (0, SIZE - 1 - i)))
             for i, (uid, u) in enumerate(state.units.items())}
    for uid in fired:
        u = units[uid]
        units[uid] = attrs.evolve(u, record=attrs.evolve(u.record, fired=(stamp(state, "xcom"), *u.pos, 0)))
    state = attrs.evolve(state, grid=grid, units=units)
    state = fold(state, game.ruleset.decide(state, EndTurn(side="xcom"), Dice.scripted([])))
    left = {uid: 0 for uid in state.units if uid not in places} | (tu or {})
    for uid, n in left.items():
        u = state.units[uid]
        f = attrs.evolve(u.record.fighter, tu_left=n)
        state = attrs.evolve(state, units={**state.units, uid: attrs.evolve(u, record=attrs.evolve(u.record,
                                                                                                fighter=f))})
    return state


def _kneeling(rs, bonus=20):
    on = copy.copy(rs)
    on.book = attrs.evolve(rs.book, settings=attrs.evolve(rs.book.settings, kneel_bonus=bonus))
    return on


def _snap(rs, unit):
    return fire.shot_tu(rs.book, unit.record.fighter, gun(unit.record, BOOK).id, "snap")


def test_a_leader_whose_profile_reserves_a_snap_keeps_its_tu_and_a_plain_sectoid_keeps_none(game):
    rs = game.ruleset
    state = _aliens_phase(game, {"sectoid_leader_1": (30, 10), "sectoid_1": (32, 10), "anton": (30, 50)})
    leader, plain = state.units["sectoid_leader_1"], state.units["sectoid_1"]
    b = rs.budget(state, leader)
    snap = _snap(rs, leader)
    assert rs.units["sectoid_leader"].reserve == "snap" and snap == leader.record.fighter.tu_turn * 30 // 100
    assert b.reserve == snap and b.moves_left == leader.record.fighter.tu_left
    assert b.step == b.moves_left - 2 * snap  # a snap to fire this phase, and one kept for the enemy's
    assert rs.budget(state, plain).reserve == 0


def test_the_planner_walks_a_reserving_alien_no_further_than_its_reserve_allows(game):
    rs = game.ruleset
    state = _aliens_phase(game, {"sectoid_leader_1": (30, 10), "anton": (30, 50)})
    leader = state.units["sectoid_leader_1"]
    ai = Ai(rs, "aliens")
    move = ai.next_command(state)
    assert isinstance(move, Move) and move.unit == "sectoid_leader_1"
    b = rs.budget(state, leader)
    cost = b.walk.cost(leader.pos, move.path)
    assert 0 < cost <= b.moves_left - b.reserve
    after = fold(state, rs.decide(state, move, Dice.scripted([100] * 40)))
    assert after.units["sectoid_leader_1"].record.fighter.tu_left >= _snap(rs, leader)


def test_with_the_kneel_bonus_an_alien_ending_its_phase_next_to_cover_kneels_first(game):
    rs = _kneeling(game.ruleset)
    state = _aliens_phase(game, {"sectoid_1": (30, 20), "anton": (30, 34)}, crate=(30, 21))
    s1, anton = state.units["sectoid_1"], state.units["anton"]
    assert rs.ai_rest(state, s1, [anton]) == Act(unit="sectoid_1", action="stance", option="kneeling")
    assert game.ruleset.ai_rest(state, s1, [anton]) is None  # the spec's kneel bonus 0: kneeling only costs TU
    assert rs.ai_rest(state, s1, []) is None  # nobody in sight nor heard: nothing to react to
    bare = _aliens_phase(game, {"sectoid_1": (30, 20), "anton": (30, 34)})
    assert rs.ai_rest(bare, bare.units["sectoid_1"], [anton]) is None  # no cover next to it
    short = _aliens_phase(game, {"sectoid_1": (30, 20), "anton": (30, 34)}, crate=(30, 21),
                          tu={"sectoid_1": 4 + _snap(rs, s1) - 1})
    assert rs.ai_rest(short, short.units["sectoid_1"], [anton]) is None  # a kneel would leave no snap shot


def test_the_planner_kneels_a_unit_before_its_wait_and_stands_it_up_when_it_has_no_shot(game):
    """Anton fired from out of the Sectoid's sight (it heard where from) and the Sectoid has no Energy to walk: the
    planner would end its phase, and kneels it first."""
    rs = _kneeling(game.ruleset)
    state = _aliens_phase(game, {"sectoid_1": (30, 20), "anton": (30, 45)}, crate=(30, 21), fired=("anton",))
    s1 = state.units["sectoid_1"]
    s1 = attrs.evolve(s1, record=attrs.evolve(s1.record, fighter=attrs.evolve(s1.record.fighter, energy=0)))
    state = attrs.evolve(state, units={**state.units, "sectoid_1": s1})
    assert rs.heard(state, "aliens") == ((30, 45),) and "anton" not in rs.spotted(state, "aliens")
    ai = Ai(rs, "aliens")
    kneel = ai.next_command(state)
    assert kneel == Act(unit="sectoid_1", action="stance", option="kneeling")
    state = fold(state, rs.decide(state, kneel, Dice.scripted([])))
    down = state.units["sectoid_1"].record.fighter
    assert down.stance == "kneeling" and down.tu_left == s1.record.fighter.tu_left - 4
    assert ai.next_command(state) == Wait(unit="sectoid_1")  # then its phase ends, the rest kept
    up = rs.ai_chore(state, state.units["sectoid_1"], [], "first")
    assert up == Act(unit="sectoid_1", action="stance", option="standing")  # no shot from here: up to walk
    near = attrs.evolve(state.units["anton"], pos=(30, 30))
    seen = attrs.evolve(state, units={**state.units, "anton": near})
    assert rs.ai_chore(seen, seen.units["sectoid_1"], [near], "first") is None  # a shot from the kneel: stays down
