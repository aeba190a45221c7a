"""Moving between storeys beyond stairs and ladders (section 9): jumping through a window or over a fence (30 TU and
Energy), out of an upper window down to the ground with the fall (docs/rules-notes.md, Falls), flying and hovering
in flying armour (9.2, TV-A8 on the map), a flyer put down in the air falling, and no one ever in a wall or on open
air but a conscious flyer."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from engine.core.commands import Move, Wait
from engine.core.dice import Dice, seed_from_int
from engine.core.events import Moved, Resolved
from engine.core.reducer import fold
from engine.map import levels
from engine.play.game import Game
from engine.rules.annihilation import falls, moves
from engine.rules.annihilation.armour import ArmourState

ID = "annihilation"


@pytest.fixture(scope="module")
def game(content, tmp_path_factory):
    g = Game.new(content, ID, "eliminate", seed_from_int(4), tmp_path_factory.mktemp("s") / "g.jsonl")
    yield g
    g.close()


def _put(state, **places):
    """Units moved to (x, y, z), the aliens' TUs spent (no reaction fire) and far away."""
    units = dict(state.units)
    for uid, u in units.items():
        if u.side == "aliens":
            units[uid] = attrs.evolve(u, record=attrs.evolve(u.record, fighter=attrs.evolve(
                u.record.fighter, tu_left=0)), pos=(0, 0))
    for uid, (x, y, z) in places.items():
        units[uid] = attrs.evolve(units[uid], pos=(x, y), z=z, facing=0)
    return attrs.evolve(state, units=units)


def _suit(state, uid, armour, book, **fighter):
    """The unit in another suit (and other fighter values), as if it had deployed in it."""
    u = state.units[uid]
    f = u.record.fighter
    f = attrs.evolve(f, character=attrs.evolve(f.character, armour=armour), armour=ArmourState.of(book.armour[armour]),
                     **fighter)
    return attrs.evolve(state, units={**state.units, uid: attrs.evolve(u, record=attrs.evolve(u.record, fighter=f))})


def _hop(walk, offset):
    """A place a hop of that offset arrives at, and the place it leaves from."""
    cost = dict(walk.hops)[offset]
    z, y, x = (int(v[0]) for v in np.nonzero(cost))
    return (x - offset[2], y - offset[1], z - offset[0]), (x, y, z)


def test_a_jump_over_a_fence_costs_30_tu_and_30_energy(game):
    rs = game.ruleset
    walk = rs.walk(game.state, game.state.units["anton"])
    offset = next(o for o, _a in walk.hops if o[0] == 0)
    start, end = _hop(walk, offset)
    middle = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
    assert game.state.grid.tile(middle) == "fence" and end[2] == start[2] == 0
    state = _put(game.state, anton=start)
    f = state.units["anton"].record.fighter
    events = rs.decide(state, Move(unit="anton", path=(end[:2],)), Dice.scripted([99] * 20))
    after = fold(state, events).units["anton"].record.fighter
    assert fold(state, events).units["anton"].pos == end[:2]
    assert (f.tu_left - after.tu_left, f.energy - after.energy) == (30, 30)  # 9.1: jump 30, replacing the step
    assert levels.cost(state.grid, walk, start, [end]) == 30  # the search prices it as decide does
    assert rs.decide(state, Move(unit="anton", path=(middle,)), None).code == "blocked"  # nobody stands on a fence


def test_out_of_an_upper_window_it_lands_on_the_ground_and_takes_the_fall(game):
    rs = game.ruleset
    walk = rs.walk(game.state, game.state.units["anton"])
    start, end = _hop(walk, next(o for o, _a in walk.hops if o[0] == -1))
    grid = game.state.grid
    middle = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
    assert grid.level(1).tile(middle) == "window" and levels.open_air(grid, 1)[end[1], end[0]]
    state = _suit(_put(game.state, anton=start), "anton", "none", rs.book)  # no armour: the fall goes through
    f = state.units["anton"].record.fighter
    # 10 damage through: 1 wound die, so a hit location d20 (19: a leg? whatever it rolls) and a d4 of 2 wounds
    events = rs.decide(state, Move(unit="anton", path=(end[:2],), levels=(0,)), Dice.scripted([19, 2] + [99] * 20))
    after = fold(state, events).units["anton"]
    assert (after.pos, after.z) == (end[:2], 0)
    fall = next(e for e in events if isinstance(e, Resolved) and e.action == "fall")
    assert "falls 1 level" in fall.text and "10 on the under armour" in fall.text
    assert after.record.fighter.health == f.health - 10  # fall_damage 10 a level, no armour to stop it
    assert f.tu_left - after.record.fighter.tu_left == 30
    assert sum(p.open for _k, p in after.record.fighter.wounds) == 2  # 1d4 wounds per 10 damage
    assert levels.cost(grid, walk, start, [end]) == 30
    # it cannot stop in the air outside the window: that place is no standing place
    assert rs.decide(state, Move(unit="anton", path=(end[:2],), levels=(1,)), None).code in ("no_way_up", "blocked",
                                                                                             "not_adjacent")


def test_flying_armour_hovers_and_flies_at_the_costs_of_9_2_draining_no_energy(game):
    """TV-A8 on the map: hover up 2 levels (2 × 8) and 3 diagonal fly steps (3 × 6) = 34 TU, Energy unchanged."""
    rs = game.ruleset
    grid = game.state.grid
    air = levels.sky(grid, 0, 2)
    start = next((x, y) for y in range(2, grid.height - 4) for x in range(2, grid.width - 4)
                 if all(levels.standing(grid, (x + k, y + k, 0)) and air[y + k, x + k] for k in range(4)))
    state = _suit(_put(game.state, anton=(*start, 0)), "anton", "light_flying_armor", rs.book)
    f = state.units["anton"].record.fighter
    route = [(*start, 1), (*start, 2)] + [(start[0] + k, start[1] + k, 2) for k in (1, 2, 3)]
    cells, zs = levels.split(route)
    events = rs.decide(state, Move(unit="anton", path=cells, levels=zs), Dice.scripted([99] * 20))
    after = fold(state, events).units["anton"]
    assert (after.pos, after.z) == (route[-1][:2], 2)  # up in the air, and it stays there
    assert f.tu_left - after.record.fighter.tu_left == 34 and after.record.fighter.energy == f.energy
    walk = rs.walk(state, state.units["anton"])
    assert levels.cost(grid, walk, (*start, 0), route) == 34
    assert levels.path(grid, (*start, 0), route[-1], (), walk)[-1] == route[-1]  # the search flies there too
    grounded = _suit(state, "anton", "light_body_armor", rs.book)
    assert rs.decide(grounded, Move(unit="anton", path=cells[:1], levels=zs[:1]), None).code == "no_way_up"
    assert levels.path(grid, (*start, 0), route[-1], (), rs.walk(grounded, grounded.units["anton"])) == []


def test_a_flyer_put_down_in_the_air_falls_to_the_ground(game):
    rs = game.ruleset
    grid = game.state.grid
    air = levels.sky(grid, 0, 2)
    x, y = next((x, y) for y in range(grid.height) for x in range(grid.width)
                if air[y, x] and levels.standing(grid, (x, y, 0)))
    state = _suit(_put(game.state, anton=(x, y, 2)), "anton", "light_flying_armor", rs.book)
    assert falls.settle(rs, state, [], Dice.scripted([99] * 10)) == []  # awake, it hovers
    out = _suit(state, "anton", "light_flying_armor", rs.book, status="unconscious")
    out = attrs.evolve(out, units={**out.units, "anton": attrs.evolve(out.units["anton"], status="unconscious")})
    events = rs.decide(out, Wait(unit="julia"), Dice.scripted([99] * 20))
    drop = next(e for e in events if isinstance(e, Moved) and e.unit == "anton")
    assert drop.levels == (0,)
    line = next(e for e in events if isinstance(e, Resolved) and e.action == "fall")
    assert "falls 2 levels" in line.text and "20 on the under armour" in line.text  # 10 a level fallen
    assert fold(out, events).units["anton"].z == 0


def test_nobody_stands_in_a_wall_or_on_open_air_unless_a_conscious_flyer(game):
    """Property: every place the search offers, walker or flyer, walked to by decide, is one the unit may be in;
    a walker always stands on a floor."""
    rs = game.ruleset
    grid = game.state.grid
    stairs, _ladders = levels.links(grid)
    z, y, x = (int(v[0]) for v in np.nonzero(stairs[:1]))
    for armour in ("light_body_armor", "light_flying_armor"):
        state = _suit(_put(game.state, anton=(x + 1, y, 0)), "anton", armour, rs.book)
        unit = state.units["anton"]
        flying = moves.flies(rs.book, unit.record.fighter)
        walk = rs.walk(state, unit)
        reach = levels.paths_within(grid, (*unit.pos, 0), unit.record.fighter.tu_left, (), walk)
        assert any(p[2] >= 1 for p in reach)
        assert flying == any(not levels.standing(grid, p) for p in reach)
        for place, path in sorted(reach.items())[::11]:
            cells, zs = levels.split(path)
            events = rs.decide(state, Move(unit="anton", path=cells, levels=zs), Dice.scripted([99] * 60))
            assert not isinstance(events, type(rs.decide(state, Move(unit="anton", path=()), None))), place
            after = fold(state, events).units["anton"]
            assert levels.holds(grid, (*after.pos, after.z), flying), place
            assert flying or levels.standing(grid, (*after.pos, after.z)), place


@pytest.fixture(scope="module")
def terror(content):
    return Game.new(content, ID, "terror", seed_from_int(4), None)


def _upper_door(state):
    grid = state.grid
    up = grid.level(1)
    for y in range(grid.height):
        for x in range(grid.width):
            if up.tile((x, y)) == "door" and up.walkable[y, x - 1] and up.walkable[y, x + 1]:
                return (x - 1, y), (x, y), (x + 1, y)
    raise AssertionError("no door on the upper floor")


def test_a_door_upstairs_opens_and_closes_on_its_storey_and_blocks_sight_while_shut(terror):
    from engine.core import codec
    from engine.core.commands import Act
    from engine.rules.annihilation import clouds

    rs = terror.ruleset
    state = _put(terror.state, anton=(0, 0, 0))
    west, door, east = _upper_door(state)
    state = _put(state, anton=(*west, 1), julia=(*east, 1))
    assert not clouds.sees(rs, state, west, east, 1, 1)  # a shut door stops sight up there as on the ground
    menu = [o.command for o in rs.options(state, state.units["anton"]) if o.group == "Doors"]
    assert Act(unit="anton", action="open", cell=door) in menu
    f = state.units["anton"].record.fighter
    events = rs.decide(state, Act(unit="anton", action="open", cell=door), Dice.scripted([99] * 20))
    tile = next(e for e in events if e.kind == "tile")
    assert (tile.pos, tile.z, tile.tile) == (door, 1, "door_open")
    assert codec.dump_event(tile)["z"] == 1 and codec.load_event(codec.dump_event(tile)) == tile
    opened = fold(state, events)
    assert opened.grid.level(1).tile(door) == "door_open" and opened.grid.tile(door) == state.grid.tile(door)
    assert opened.units["anton"].record.fighter.tu_left == f.tu_left - rs.book.costs["open_door"].tu  # 4 TU
    assert clouds.sees(rs, opened, west, east, 1, 1)
    back = codec.load_state(codec.dump_state(opened), state.grid)  # a checkpoint keeps the storey's door open
    assert back.grid.level(1).tile(door) == "door_open" and codec.state_hash(back) == codec.state_hash(opened)
    shut = rs.decide(fold(opened, []), Act(unit="anton", action="close", cell=door), Dice.scripted([99] * 20))
    assert fold(opened, shut).grid.level(1).tile(door) == "door"
    assert "z" not in codec.dump_event(attrs.evolve(tile, z=0))  # a ground tile's bytes as before storeys


def test_walking_through_a_shut_door_upstairs_opens_it_on_the_way(terror):
    rs = terror.ruleset
    state = _put(terror.state, anton=(0, 0, 0))
    west, door, east = _upper_door(state)
    state = _put(state, anton=(*west, 1))
    f = state.units["anton"].record.fighter
    events = rs.decide(state, Move(unit="anton", path=(door, east), levels=(1, 1)), Dice.scripted([99] * 20))
    after = fold(state, events)
    assert after.grid.level(1).tile(door) == "door_open" and (after.units["anton"].pos, after.units["anton"].z) == \
        (east, 1)
    assert f.tu_left - after.units["anton"].record.fighter.tu_left == 4 + 4 + 4  # two steps and the door's 4


def _aliens_phase(state, uid):
    s = state.units[uid]
    return attrs.evolve(state, side="aliens", units={**state.units, uid: attrs.evolve(s, record=attrs.evolve(
        s.record, fighter=attrs.evolve(s.record.fighter, tu_left=s.record.fighter.tu_turn,
                                       energy=s.record.fighter.tu_turn)))})


def test_an_alien_with_no_shot_climbs_to_the_upper_floor_that_gives_it_one(game):
    """AI across levels: a hostile in sight of an upper window but not of the alien downstairs; the alien takes the
    stairs to a square up there it can still fire from this phase, by the preview's search and prices."""
    from engine.rules.annihilation import clouds

    rs, grid = game.ruleset, game.state.grid
    stairs, _ladders = levels.links(grid)
    z, sy, sx = (int(v[0]) for v in np.nonzero(stairs[:1]))
    start = next((sx + dx, sy + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                 if levels.standing(grid, (sx + dx, sy + dy, 0)) and grid.tile((sx + dx, sy + dy)) != "stairs")
    state = _aliens_phase(_put(game.state, sectoid_1=(*start, 0)), "sectoid_1")
    budget = rs.budget(state, state.units["sectoid_1"])
    reach = levels.paths_within(grid, (*start, 0), budget.moves_left - 20, (), budget.walk)  # and a snap shot left
    upper = sorted(p for p in reach if p[2] == 1)
    _near, target = min((max(abs(p[0] - x), abs(p[1] - y)), (x, y)) for y in range(grid.height)
                        for x in range(grid.width) for p in upper
                        if levels.standing(grid, (x, y, 0)) and levels.sky(grid, 0, 1)[y, x]
                        and not grid.level(0).sees(start, (x, y), 20) and levels.sees(grid, p, (x, y, 0), 20))
    state = _aliens_phase(_put(game.state, sectoid_1=(*start, 0), anton=(*target, 0)), "sectoid_1")
    s, anton = state.units["sectoid_1"], state.units["anton"]
    assert rs.preview_shot(state, "sectoid_1", "anton", "snap").__class__.__name__ == "Rejected"  # no shot below
    move = rs.ai_special(state, s, [anton], False)
    assert isinstance(move, Move) and move.levels and move.levels[-1] == 1
    assert rs.ai_special(state, s, [anton], False) == move  # deterministic
    after = fold(state, rs.decide(state, move, Dice.scripted([99] * 60)))
    up = after.units["sectoid_1"]
    assert up.z == 1 and clouds.sees(rs, after, up.pos, anton.pos, 1, 0)
    assert not isinstance(rs.preview_shot(after, "sectoid_1", "anton", "snap"), type(None))
    assert rs.preview_shot(after, "sectoid_1", "anton", "snap").__class__.__name__ != "Rejected"  # TU left to fire
    # what its side has not seen it does not climb for: with Anton unseen it goes to watch, or waits
    blind = rs.ai_special(state, s, [], False)
    assert blind is None or blind.levels[-1] == 1 and blind.path[-1] == (sx, sy)


def test_an_alien_upstairs_with_no_shot_comes_down_and_a_watcher_keeps_its_perch(game):
    rs, grid = game.ruleset, game.state.grid
    stairs, _ladders = levels.links(grid)
    z, sy, sx = (int(v[0]) for v in np.nonzero(stairs[:1]))
    state = _aliens_phase(_put(game.state, sectoid_1=(sx, sy, 1), anton=(1, 1, 0)), "sectoid_1")
    s, anton = state.units["sectoid_1"], state.units["anton"]
    assert rs.ai_special(state, s, [], False) == Wait(unit="sectoid_1")  # nobody in sight: it watches
    down = rs.ai_special(state, s, [anton], False)  # Anton far off and out of sight of the upper floor
    assert isinstance(down, Move) and down.levels[-1] == 0 and down.path[-1] == (sx, sy)


def test_the_action_menu_next_to_a_ladder_upstairs_lists_what_is_there(game):
    """The storeys' own tiles (ladder, roof, open air) are no content terrain: the menu reads them off the grid."""
    rs, grid = game.ruleset, game.state.grid
    _stairs, ladders = levels.links(grid)
    z, y, x = (int(v[0]) for v in np.nonzero(ladders[1:2]))
    for place in ((x, y, 1), (x, y, 2)):
        state = _put(game.state, anton=place)
        labels = [o.label for o in rs.options(state, state.units["anton"])]
        assert any(label.startswith("Kneel") for label in labels)


def test_a_fence_on_a_map_of_one_level_is_jumped_and_the_search_offers_the_jump(game):
    """9.1 without storeys: a fence row across a field of grass with no gap; the walk's hop over it is the
    only way, priced 30 TU as decide charges it."""
    from engine.map.grid import Grid

    rs = game.ruleset
    rows = [["grass"] * 9 for _ in range(9)]
    rows[4] = ["fence"] * 9
    others = {uid: (i % 9, 8 * (i // 9), 0) for i, uid in enumerate(u for u in game.state.units if u != "anton")}
    state = _put(attrs.evolve(game.state, grid=Grid.from_ids(rows, game.state.grid.terrain)), anton=(4, 3, 0),
                 **others)
    assert state.grid.levels == 1
    walk = rs.walk(state, state.units["anton"])
    assert {o for o, _a in walk.hops} == {(0, 2, 0), (0, -2, 0)}  # across the row, north or south
    route = levels.path(state.grid, (4, 3, 0), (4, 6, 0), [], walk)
    assert route == [(4, 5, 0), (4, 6, 0)] and levels.cost(state.grid, walk, (4, 3, 0), route) == 30 + 4
    f = state.units["anton"].record.fighter
    events = rs.decide(state, Move(unit="anton", path=tuple(p[:2] for p in route)), Dice.scripted([99] * 20))
    after = fold(state, events).units["anton"]
    assert after.pos == (4, 6) and f.tu_left - after.record.fighter.tu_left == 34
    assert state.grid.path((4, 3), (4, 6), (), walk) == []  # cell by cell there is no way across
