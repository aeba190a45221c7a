"""neo-troops' quicker answers held equal to the plain ones they stand for: one unit's sighting (`battle.spots`)
against the side's whole sight (`spotted`), and a path's metres against its steps summed."""

from __future__ import annotations

import attrs
import pytest

from engine.core.dice import seed_from_int
from engine.play.game import Game
from engine.rules.neo_troops import battle, movement

ID = "neo-troops"


@pytest.fixture(scope="module")
def game(content, tmp_path_factory):
    g = Game.new(content, ID, "eliminate", seed_from_int(4), tmp_path_factory.mktemp("neo") / "g.jsonl", public=4)
    yield g
    g.close()


def _staged(state):
    """The squad and the enemies moved about the map, some down or dead, a cloaked varan noticed by some."""
    grid, units = state.grid, list(state.units.values())
    cells = [(x, y) for y in range(0, grid.height, 3) for x in range(0, grid.width, 3) if grid.walkable[y, x]]
    b = battle.battle(state)
    for k in range(12):
        placed = {}
        for i, u in enumerate(units):
            status = ("unconscious", "dead", "active", "active")[(i + k) % 4] if i % 3 == 0 else u.status
            placed[u.id] = attrs.evolve(u, pos=cells[(i * 7 + k * 11) % len(cells)], status=status)
        noticed = tuple(sorted((o.id, t.id) for o in units for t in units
                               if o.side != t.side and (len(o.id) + len(t.id) + k) % 3 == 0))
        yield attrs.evolve(state, units=placed, record=attrs.evolve(b, noticed=noticed))


def test_one_units_sighting_is_its_place_in_the_sides_sight(game):
    rs = game.ruleset
    cloaked = [u for u in game.state.units.values() if u.record.cloaked]
    assert cloaked  # the squad's varans: the noticed ones and the unnoticed both asked
    asked = 0
    for state in _staged(game.state):
        for side in ("xcom", "aliens", "civilians"):
            seen = rs.spotted(state, side)
            for uid in state.units:
                assert battle.spots(state, side, uid) == (uid in seen), (side, uid)
                asked += bool(uid in seen)
        assert not battle.spots(state, "aliens", "nobody")
    assert asked  # some were seen, some not


def test_a_paths_metres_are_its_steps_summed(game):
    s = game.ruleset.settings
    path = [(5, 5), (6, 5), (7, 6), (7, 7), (6, 8), (5, 8)]
    rough = frozenset({(7, 6), (6, 8)})
    for cut in range(1, len(path) + 1):
        plain = sum(movement.step_m(a, b, s, b in rough) for a, b in zip(path[:cut], path[1:cut]))
        assert movement.path_m(path[:cut], s, rough) == plain
    assert movement.path_m(path, s) == 2 + 3 + 2 + 3 + 2  # nothing rough
    with pytest.raises(ValueError):
        movement.path_m([(1, 1), (3, 1)], s)
