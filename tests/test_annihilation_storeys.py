"""Storeys under annihilation (A-7.1, section 9, A-7.4, A-7.5): stairs and ladders at their exact TU and Energy, the
path search that sees them, range with the height, reaction fire at a unit on a roof, and no standing on air."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from engine.core import codec
from engine.core.commands import Move, Shoot
from engine.core.dice import Dice, seed_from_int
from engine.core.events import Moved, Resolved
from engine.core.reducer import fold
from engine.map import levels
from engine.play.game import Game
from engine.rules.annihilation.space import range_distance
from annihilation_book import BOOK

ID = "annihilation"


@pytest.fixture(scope="module")
def game(content, tmp_path_factory):
    g = Game.new(content, ID, "eliminate", seed_from_int(4), tmp_path_factory.mktemp("s") / "g.jsonl")
    yield g
    g.close()


def _stairs(grid):
    stairs, ladders = levels.links(grid)
    z, y, x = (int(v[0]) for v in np.nonzero(stairs[:1]))
    lz, ly, lx = (int(v[0]) for v in np.nonzero(ladders[1:2]))
    return (x, y), (lx, ly)


def _put(state, **places):
    """Units moved to (x, y, z), the aliens' TUs spent (no reaction fire) unless named with their TU."""
    units = dict(state.units)
    for uid, u in units.items():
        if u.side == "aliens":
            units[uid] = attrs.evolve(u, record=attrs.evolve(u.record, fighter=attrs.evolve(
                u.record.fighter, tu_left=0)), pos=(0, 0))
    for uid, (x, y, z) in places.items():
        units[uid] = attrs.evolve(units[uid], pos=(x, y), z=z, facing=0)
    return attrs.evolve(state, units=units)


def _next_to(grid, cell, z=0):
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        n = (cell[0] + dx, cell[1] + dy)
        if levels.standing(grid, (*n, z)) and grid.level(z).tile(n) != levels.STAIRS:
            return n
    raise AssertionError("no square beside the stairs")


def test_every_map_of_annihilation_has_storeys_with_stairs_and_a_ladder(content):
    for mission in ("eliminate", "terror", "crash", "defend"):
        g = Game.new(content, ID, mission, seed_from_int(9), None)
        grid = g.state.grid
        stairs, ladders = levels.links(grid)
        assert grid.levels == 3 and stairs[0].any() and ladders[1].any(), mission
        assert grid.level(2).walkable.any()  # a roof to walk on


def test_a_ground_unit_dumps_and_hashes_as_before_storeys(game):
    unit = game.state.units["anton"]
    assert "z" not in codec.dump_state(game.state)["units"][0]
    up = attrs.evolve(unit, z=1)
    assert codec.dump_state(attrs.evolve(game.state, units={**game.state.units, "anton": up}))["units"][0]["z"] == 1
    assert codec.state_hash(attrs.evolve(game.state, units={**game.state.units, "anton": up})) != \
        codec.state_hash(game.state)
    assert "levels" not in codec.dump_command(Move(unit="anton", path=((1, 1),)))


def test_up_the_stairs_costs_a_walk_then_8_tu_and_8_energy(game):
    rs, grid = game.ruleset, game.state.grid
    stair, _ladder = _stairs(grid)
    start = _next_to(grid, stair)
    state = _put(game.state, anton=(*start, 0))
    f = state.units["anton"].record.fighter
    events = rs.decide(state, Move(unit="anton", path=(stair, stair), levels=(0, 1)), Dice.scripted([99] * 20))
    assert isinstance(events[0], Moved) and events[0].levels == (0, 1)
    after = fold(state, events).units["anton"]
    walk = rs.book.costs["walk"].tu  # the stair square entered on the ground: level ground, a side step
    assert (after.pos, after.z) == (stair, 1)
    assert after.record.fighter.tu_left == f.tu_left - walk - 8  # walk up stairs 8
    assert after.record.fighter.energy == f.energy - walk - 8  # it drains Energy as it costs TU
    down = rs.decide(fold(state, events), Move(unit="anton", path=(stair,), levels=(0,)), Dice.scripted([99] * 20))
    assert fold(fold(state, events), down).units["anton"].record.fighter.tu_left == f.tu_left - walk - 8 - 6


def test_the_ladder_to_the_roof_is_a_50_tu_climb_paid_whole(game):
    rs, grid = game.ruleset, game.state.grid
    _stair, ladder = _stairs(grid)
    state = _put(game.state, anton=(*ladder, 1))
    f = state.units["anton"].record.fighter
    climb = Move(unit="anton", path=(ladder,), levels=(2,))
    if f.tu_left >= 50:
        after = fold(state, rs.decide(state, climb, Dice.scripted([99] * 20))).units["anton"]
        assert after.z == 2 and after.record.fighter.tu_left == f.tu_left - 50
    poor = attrs.evolve(state, units={**state.units, "anton": attrs.evolve(state.units["anton"], record=attrs.evolve(
        state.units["anton"].record, fighter=attrs.evolve(f, tu_left=49)))})
    assert rs.decide(poor, climb, Dice.scripted([99] * 20)).code == "no_tu"  # a climb is paid in full
    assert rs.decide(state, Move(unit="anton", path=(ladder,), levels=(0,)), None).code == "no_way_up"


def test_the_search_climbs_the_stairs_and_prices_them_as_decide_charges(game):
    rs, grid = game.ruleset, game.state.grid
    stair, ladder = _stairs(grid)
    start = _next_to(grid, stair)
    state = _put(game.state, anton=(*start, 0))
    unit = state.units["anton"]
    walk = rs.budget(state, unit).walk
    goal = _next_to(grid, stair, 1)
    path = levels.path(grid, (*start, 0), (*goal, 1), (), walk)
    assert (*stair, 0) in path and (*stair, 1) in path and path[-1] == (*goal, 1)
    cells, zs = levels.split(path)
    after = fold(state, rs.decide(state, Move(unit="anton", path=cells, levels=zs), Dice.scripted([99] * 20)))
    spent = unit.record.fighter.tu_left - after.units["anton"].record.fighter.tu_left
    assert spent == levels.cost(grid, walk, (*start, 0), path)
    assert levels.paths_within(grid, (*start, 0), spent, (), walk)[(*goal, 1)] == tuple(path)


def _roof_face_off(game):
    """Anton on the roof's edge, the sectoid on open ground in sight below: (state, roof square, ground square)."""
    grid = game.state.grid
    roof = grid.level(2)
    for y in range(grid.height):
        for x in range(grid.width):
            if not roof.walkable[y, x] or grid.level(1).tile((x, y)) not in ("wall", "window"):
                continue
            for d in range(3, 8):
                for gx, gy in ((x + d, y), (x - d, y), (x, y + d), (x, y - d)):
                    if levels.standing(grid, (gx, gy, 0)) and levels.sky(grid, 0, 2)[gy, gx] and \
                            levels.sees(grid, (x, y, 2), (gx, gy, 0), 20) and levels.standing(grid, (x, y, 2)):
                        step = next(((x + a, y + b) for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))
                                     if levels.standing(grid, (x + a, y + b, 2))
                                     and levels.sees(grid, (x + a, y + b, 2), (gx, gy, 0), 20)), None)
                        if step is not None:
                            return (x, y), step, (gx, gy)
    raise AssertionError("no roof in sight of open ground")


def test_range_adds_the_height_and_sight_reaches_a_roof_only_from_open_ground(game):
    rs = game.ruleset
    roof, _step, below = _roof_face_off(game)
    state = _put(game.state, anton=(*roof, 2), sectoid_1=(*below, 0))
    preview = rs.preview_shot(state, "anton", "sectoid_1", "snap")
    assert preview.distance == range_distance(roof, below) + 2  # two levels down
    assert "(-2 lvl)" in preview.lines[-1].text  # the Side row, last
    assert "sectoid_1" in rs.spotted(state, "xcom") and "anton" in rs.spotted(state, "aliens")
    seen = rs.sight_levels(state, "aliens")
    assert seen.shape[0] == 3 and seen[2, roof[1], roof[0]]
    inside = next((x, y) for y in range(state.grid.height) for x in range(state.grid.width)
                  if state.grid.level(1).tile((x, y)) == "loft")
    hidden = _put(game.state, anton=(*inside, 0), sectoid_1=(*below, 0))
    assert not levels.sees(state.grid, (*inside, 0), (*roof, 2), 20)  # under the roof: no sky above it
    assert rs.decide(hidden, Shoot(unit="anton", target="sectoid_1", mode="snap"), None).code in (
        "no_line_of_sight",) or levels.sees(state.grid, (*inside, 0), (*below, 0), 20)


def test_a_sectoid_below_reacts_to_a_step_on_the_roof_and_says_why(game):
    """A-14.9 with A-7.4: the sectoid on the ground, full TU, snaps at Anton's step on the roof; the log gives both
    scores and the height, and the to-hit formula's range counts the two levels."""
    rs = game.ruleset
    roof, step, below = _roof_face_off(game)
    state = _put(game.state, anton=(*roof, 2), sectoid_1=(*below, 0))
    s = state.units["sectoid_1"]
    full = attrs.evolve(s.record.fighter, tu_left=s.record.fighter.tu_turn)
    state = attrs.evolve(state, units={**state.units, "sectoid_1": attrs.evolve(s, record=attrs.evolve(
        s.record, fighter=full))})
    events = rs.decide(state, Move(unit="anton", path=(step,), levels=(2,)), Dice.scripted([99] * 40))
    assert isinstance(events[0], Moved) and events[0].levels == ()  # a walk on its own storey keeps its bytes
    shot = next(e for e in events if isinstance(e, Resolved) and e.action == "reaction fire")
    assert "-2 levels from it" not in shot.text and "+2 levels from it" in shot.text
    assert "(reaction " in shot.text and " > " in shot.text
    from engine.rules.annihilation import actions
    from engine.rules.annihilation.soldier import gun
    from engine.rules.annihilation.space import facing_towards

    f = attrs.evolve(full, facing=facing_towards(below, step))
    anton = fold(state, events[:1]).units["anton"].record.fighter
    odds = {o.mode: o for o in actions.preview(rs.book, f, gun(s.record, BOOK), anton, below, step, dz=2)}["snap"]
    flat = {o.mode: o for o in actions.preview(rs.book, f, gun(s.record, BOOK), anton, below, step)}["snap"]
    assert f"to-hit {odds.chance} ({odds.text})" in shot.rolls[0].formula  # the range counts the two levels
    assert odds.chance < flat.chance


def test_a_unit_never_stands_in_a_wall_or_on_empty_air(game):
    """Property: every place the search offers, walked to by decide, is a floor of its storey; every step into
    air or a wall is refused."""
    rs, grid = game.ruleset, game.state.grid
    stair, _ladder = _stairs(grid)
    state = _put(game.state, anton=(*_next_to(grid, stair), 0))
    unit = state.units["anton"]
    walk = rs.budget(state, unit).walk
    reach = levels.paths_within(grid, (*unit.pos, 0), unit.record.fighter.tu_left, (), walk)
    assert any(p[2] == 1 for p in reach)
    for place, path in sorted(reach.items())[::7]:
        cells, zs = levels.split(path)
        events = rs.decide(state, Move(unit="anton", path=cells, levels=zs), Dice.scripted([99] * 40))
        after = fold(state, events).units["anton"]
        assert levels.standing(grid, (*after.pos, after.z)), place
    for z in range(grid.levels):
        for cell in ((unit.pos[0] + 1, unit.pos[1]), (unit.pos[0], unit.pos[1] + 1)):
            if not levels.standing(grid, (*cell, z)):
                got = rs.decide(state, Move(unit="anton", path=(cell,), levels=(z,)), None)
                assert got.code in ("blocked", "no_way_up", "not_adjacent")


def test_a_blast_on_the_ground_leaves_the_roof_above_it_alone(game):
    from engine.rules.annihilation import hits
    from engine.rules.annihilation.combat import blast

    rs = game.ruleset
    roof, _step, below = _roof_face_off(game)
    state = _put(game.state, anton=(*roof, 2), julia=(*roof, 0))
    events = blast(rs, state, Dice.scripted([1] * 40), "sectoid_1", roof, hits.Round(50, 2, "HE", "grenade"), None,
                   "Test", z=0)
    hurt = {e.unit for e in events if hasattr(e, "changes")}
    assert "anton" not in hurt  # a blast stays on its own level (multi_level_blasts = false)


def test_the_ai_takes_the_stairs_it_can_pay_for_by_the_previews_search(game):
    """With no shot, one alien at a time climbs to an upper floor along the path the preview would show."""
    rs, grid = game.ruleset, game.state.grid
    stair, _ladder = _stairs(grid)
    start = _next_to(grid, stair)
    state = _put(game.state, sectoid_1=(*start, 0))
    s = state.units["sectoid_1"]
    state = attrs.evolve(state, side="aliens", units={**state.units, "sectoid_1": attrs.evolve(s, record=attrs.evolve(
        s.record, fighter=attrs.evolve(s.record.fighter, tu_left=s.record.fighter.tu_turn)))})
    s = state.units["sectoid_1"]
    move = rs.ai_special(state, s, [], False)
    assert isinstance(move, Move) and move.levels[-1] == 1 and move.path[-1] == stair
    walk = rs.budget(state, s).walk
    assert list(zip(move.path, move.levels)) == [((x, y), z) for x, y, z in
                                                 levels.path(grid, (*start, 0), (*stair, 1), [], walk)]
    after = fold(state, rs.decide(state, move, Dice.scripted([99] * 40)))
    assert after.units["sectoid_1"].z == 1
    assert not isinstance(rs.ai_special(after, after.units["sectoid_3"], [], False), Move)  # one at a time
    up = after.units["sectoid_1"]
    down = rs.ai_special(after, up, [after.units["anton"]], False)  # an enemy known, no shot: down to the fight
    assert isinstance(down, Move) and down.path == (stair,) and down.levels == (0,)
