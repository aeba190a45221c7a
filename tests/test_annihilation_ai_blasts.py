"""Annihilation's aliens fire and throw explosives at clusters (engine.ai.grenades): the Muton bombardier's grenade
launcher at the soldier whose square's blast takes in two or more of them and none of its own side, and never a
blast round onto its own side (`Ruleset.shot_blast`); the Sectoid leader's Old Alien Grenade likewise. A Floater
flies natively (its race's armour flies), and Julia's flying armour lets her hover. On a flat field of grass."""

from __future__ import annotations

import attrs
import pytest

from engine.ai import grenades
from engine.ai.planner import Ai
from engine.core.commands import EndTurn, Shoot, Throw
from engine.core.dice import Dice, seed_from_int
from engine.core.reducer import fold
from engine.map.grid import Grid
from engine.play.game import Game
from engine.rules.annihilation import moves

SIZE = 60


def _game(content, tmp_path, mission):
    return Game.new(content, "annihilation", mission, seed_from_int(4), tmp_path / f"{mission}.jsonl")


@pytest.fixture
def defend(content, tmp_path):
    g = _game(content, tmp_path, "defend")
    yield g
    g.close()


def _aliens_phase(game, places):
    """Grass; the units in `places` there, everyone else far off in the corners with no TU; the aliens' phase."""
    state = game.state
    grid = Grid.from_ids([["grass"] * SIZE for _ in range(SIZE)], state.grid.terrain)
    units = {uid: attrs.evolve(u, pos=places.get(uid, (SIZE - 1, SIZE - 1 - i) if u.side == "aliens"
                                               else (0, SIZE - 1 - i)), facing=4 if u.side == "aliens" else 0)
             for i, (uid, u) in enumerate(state.units.items())}
    state = attrs.evolve(state, grid=grid, units=units)
    state = fold(state, game.ruleset.decide(state, EndTurn(side="xcom"), Dice.scripted([])))
    for uid in [u for u in state.units if u not in places]:
        u = state.units[uid]
        f = attrs.evolve(u.record.fighter, tu_left=0)
        state = attrs.evolve(state, units={**state.units, uid: attrs.evolve(u, record=attrs.evolve(u.record,
                                                                                                fighter=f))})
    return state


def _knowledge(game, state, side="aliens"):
    return Ai(game.ruleset, side).knowledge(state)


def test_the_bombardiers_launcher_blasts_a_diamond_of_radius_7_and_a_rifle_none(defend):
    rs = defend.ruleset
    state = _aliens_phase(defend, {"muton_bombardier_1": (30, 10)})
    area = rs.shot_blast(state, state.units["muton_bombardier_1"], (30, 30))
    assert len(area) == 2 * 7 * 7 + 2 * 7 + 1 and (30, 37) in area and (31, 37) not in area  # 113 squares
    assert rs.shot_blast(state, state.units["sectoid_1"], (30, 30)) == ()


def test_the_bombardier_fires_at_two_soldiers_in_one_blast_and_not_at_a_lone_one_near_a_friend(defend):
    rs = defend.ruleset
    two = _aliens_phase(defend, {"muton_bombardier_1": (30, 10), "anton": (30, 24), "stephen": (32, 24)})
    bomb = two.units["muton_bombardier_1"]
    p = Ai(rs, "aliens").profile(bomb)
    shot = grenades.launch(rs, "aliens", two, bomb, _knowledge(defend, two), p)
    assert isinstance(shot, Shoot) and shot.unit == "muton_bombardier_1" and shot.target in ("anton", "stephen")
    lone = _aliens_phase(defend, {"muton_bombardier_1": (30, 10), "anton": (30, 24)})
    assert grenades.launch(rs, "aliens", lone, lone.units["muton_bombardier_1"], _knowledge(defend, lone), p) is None
    near = _aliens_phase(defend, {"muton_bombardier_1": (30, 10), "anton": (30, 24), "stephen": (32, 24),
                                  "sectoid_1": (30, 20)})
    assert grenades.launch(rs, "aliens", near, near.units["muton_bombardier_1"], _knowledge(defend, near), p) is None


def test_the_planner_never_fires_a_blast_round_onto_its_own_side(defend):
    rs = defend.ruleset
    close = _aliens_phase(defend, {"muton_bombardier_1": (30, 10), "anton": (30, 14)})  # itself inside the blast
    ai = Ai(rs, "aliens")
    k = ai.knowledge(close)
    bomb = close.units["muton_bombardier_1"]
    assert ai._best_shot(close, bomb, k, ai.profile(bomb)) is None
    far = _aliens_phase(defend, {"muton_bombardier_1": (30, 10), "anton": (30, 24)})
    shot = ai._best_shot(far, far.units["muton_bombardier_1"], ai.knowledge(far), ai.profile(bomb))
    assert shot is not None and shot[0].target == "anton"  # out of its own blast, a lone soldier is fair game


def test_the_sectoid_leader_throws_its_alien_grenade_at_a_cluster_beyond_its_own_blast(content, tmp_path):
    game = _game(content, tmp_path, "eliminate")
    try:
        rs = game.ruleset
        state = _aliens_phase(game, {"sectoid_leader_1": (30, 10), "anton": (30, 19), "stephen": (31, 19)})
        leader = state.units["sectoid_leader_1"]
        assert [t.item for t in rs.throwables(state, leader)] == ["old_alien_grenade"]
        reach = rs.throw_range(state, leader, "old_alien_grenade")
        ai = Ai(rs, "aliens")
        throw = grenades.choose(rs, "aliens", state, leader, ai.knowledge(state), ai.profile(leader), None)
        assert reach >= 9 and isinstance(throw, Throw) and throw.cell in ((30, 19), (31, 19))
        close = _aliens_phase(game, {"sectoid_leader_1": (30, 14), "anton": (30, 19), "stephen": (31, 19)})
        assert grenades.choose(rs, "aliens", close, close.units["sectoid_leader_1"], ai.knowledge(close),
                               ai.profile(leader), None) is None  # 5 squares: it would stand in its own blast
    finally:
        game.close()


def test_a_floater_flies_by_its_race_and_julia_by_her_armour(content, tmp_path):
    game = _game(content, tmp_path, "vip")
    try:
        rs, state = game.ruleset, game.state
        floater = state.units["floater_1"]
        assert floater.record.fighter.character.armour == "floater_body"
        assert moves.flies(rs.book, floater.record.fighter) and moves.flies(rs.book, state.units["julia"].record.fighter)
        assert not moves.flies(rs.book, state.units["anton"].record.fighter)
    finally:
        game.close()
