"""A-9.1's additive step prices through the kernel's `Walk`: the price of a step, the path search the AI and the
client's preview use, and what `decide` then charges, all the same number of TU."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core import ruleset
from engine.core.commands import Move
from engine.core.dice import seed_from_int
from engine.core.ruleset import Walk
from engine.map.grid import Grid
from engine.play.game import Game
from engine.rules.annihilation import ground
from engine.rules.annihilation.deploy_schema import Ground

ID = "annihilation"


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.make(ID, content, None)


def test_a_diagonal_step_into_rough_ground_with_a_door_costs_6_plus_1_plus_4(rs, content):
    grid = Grid.from_ids([["floor", "floor", "floor"], ["floor", "door", "rubble"]], content.terrain)
    rough_door = {**rs.ground, "door": Ground(terrain="rough", opens=True)}
    walk = ground.walk(rs.book, rough_door, grid, {})
    assert (walk.cardinal, walk.diagonal, walk.currency) == (4, 6, "TU")
    assert walk.cost((0, 0), [(1, 1)]) == 6 + 1 + 4  # diagonal 6, rough +1, the door opened on the way +4
    assert walk.cost((0, 0), [(1, 0), (2, 1)]) == 4 + 6 + 1  # a side step onto floor, a diagonal into rubble
    crawling = ground.walk(rs.book, rough_door, grid, {}, factor=2)  # (6 + 1) × 2, the door still 4
    assert crawling.cost((0, 0), [(1, 1)]) == (6 + 1) * 2 + 4
    assert ground.walk(rs.book, rs.ground, grid, {}).cost((0, 0), [(1, 1)]) == 6 + 0 + 4  # the shared door: level


def test_the_search_finds_the_cheapest_tu_not_the_fewest_cells(content):
    """Three rows: the straight middle row is rough (+3 a cell); the way round it is cheaper in TU."""
    grid = Grid.from_ids([["floor"] * 5 for _ in range(3)], content.terrain)
    extra = np.array([[0] * 5, [0, 3, 3, 3, 0], [0] * 5], dtype=np.int16)
    walk = Walk(cardinal=4, diagonal=6, currency="TU", extra=extra)
    straight = [(1, 1), (2, 1), (3, 1), (4, 1)]
    around = [(1, 0), (2, 0), (3, 0), (4, 1)]
    assert walk.cost((0, 1), straight) == 4 * 4 + 9 and walk.cost((0, 1), around) == 6 + 4 + 4 + 6
    assert grid.distances((0, 1), walk=walk)[1, 4] == 20
    path = grid.paths_within((0, 1), 20, walk=walk)[(4, 1)]
    assert walk.cost((0, 1), path) == 20 and len(path) == 4 and (2, 1) not in path
    assert (4, 1) not in grid.paths_within((0, 1), 19, walk=walk)
    assert walk.cost((0, 1), grid.path((0, 1), (4, 1), walk=walk)) == 20
    assert (2, 0) not in grid.paths_within((0, 1), 20, [(1, 0), (1, 1), (1, 2)], walk)  # a blocked column


def test_the_ai_and_the_preview_walk_what_decide_charges(content, tmp_path):
    game = Game.new(content, ID, "eliminate", seed_from_int(4), tmp_path / "g.jsonl")
    state = game.state
    unit = state.units["anton"]
    walk = game.ruleset.budget(state, unit).walk
    budget = game.ruleset.budget(state, unit).moves_left
    paths = state.grid.paths_within(unit.pos, budget, (), walk)
    steps = state.grid.distances(unit.pos, (), walk)
    assert len(paths) > 20
    for cell, path in paths.items():  # every path the AI may pick is the cheapest in TU
        assert walk.cost(unit.pos, path) == steps[cell[1], cell[0]] <= budget
    goal = max(paths, key=lambda c: (walk.cost(unit.pos, paths[c]), c))
    preview = tuple(state.grid.path(unit.pos, goal, (), walk))
    assert walk.cost(unit.pos, preview) == walk.cost(unit.pos, paths[goal])
    before = unit.record.fighter.tu_left
    result = game.submit(Move(unit=unit.id, path=preview))
    assert not hasattr(result, "code"), result
    moved = game.state.units[unit.id]
    assert moved.pos == goal and before - moved.record.fighter.tu_left == walk.cost(unit.pos, preview)
    game.close()
