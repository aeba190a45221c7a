"""The replay viewer's fog on a map with storeys (tui/fog.py): each storey has its own fog, and a door upstairs
opened out of a side's sight still looks shut to it until it sees that square again, as the live client's
chronicle keeps it."""

from __future__ import annotations

import attrs
import numpy as np

from engine.core.dice import seed_from_int
from engine.core.events import Moved, TileChanged
from engine.core.reducer import fold
from engine.play.game import Game
from tui.fog import Fog


class _Timeline:
    """The three records the fog reads: the start, a record that changes nothing, then `last`."""

    def __init__(self, rs, initial, last):
        self.ruleset, self.initial, self.base = rs, initial, {2: 1, 3: 2}
        self._events = {2: [], 3: last}

    def events(self, n):
        return self._events[n]


def _door_upstairs(state):
    """A door on the upper floor with a floor square beside it (east or west), and that square."""
    level = state.grid.level(1)
    for y in range(level.height):
        for x in range(1, level.width - 1):
            if level.tile((x, y)) == "door":
                for side in ((x + 1, y), (x - 1, y)):
                    if level.walkable[side[1], side[0]] and level.tile(side) != "door":
                        return (x, y), side
    raise AssertionError("no door upstairs")


def test_a_door_opened_upstairs_out_of_sight_stays_shut_in_that_sides_memory(content):
    g = Game.new(content, "annihilation", "defend", seed_from_int(4), None)  # its farmhouse has inner doors upstairs
    rs, state = g.ruleset, g.state
    door, beside = _door_upstairs(state)
    alien = next(u for u in state.units.values() if u.side == "aliens")
    units = {uid: attrs.evolve(u, pos=(0, 0), z=0) if u.side == "aliens" and uid != alien.id else u
             for uid, u in state.units.items()}
    units[alien.id] = attrs.evolve(alien, pos=beside, z=1)
    start = attrs.evolve(state, units=units)
    far = next((x, y) for y in range(start.grid.height) for x in range(start.grid.width)
               if start.grid.level(0).walkable[y, x] and abs(x - door[0]) + abs(y - door[1]) > 40)
    assert rs.sight_levels(start, "aliens")[1, door[1], door[0]]  # it sees the door beside it
    away = [Moved(unit=alien.id, path=(far,), facing=0, levels=(0,)), TileChanged(pos=door, tile="door_open", z=1)]
    after = fold(start, away)
    assert not rs.sight_levels(after, "aliens")[1, door[1], door[0]]
    fog = Fog(_Timeline(rs, start, away))
    sight = fog.at(3, "aliens")
    assert sight.remembered == {(*door, 1): "door"}  # shut, as it last saw it, under (x, y, z)
    seen, explored = sight.level(1)
    assert explored[door[1], door[0]] and not seen[door[1], door[0]]
    assert np.array_equal(sight.explored_levels.any(axis=0) | sight.explored, sight.explored)  # the union holds all
    assert fog.at(2, "aliens").remembered == {}


def test_the_viewer_looks_up_and_down_the_storeys_with_their_own_fog(content, tmp_path):
    """At 80×24: > and < change the storey drawn, the top bar names it, and past the top or the ground is refused."""
    import asyncio

    from engine.core.commands import EndTurn
    from tui.session import Session
    from engine.play.timeline import Timeline
    from tui.app import XenotacApp
    from tui.textshot import screen_text

    path = tmp_path / "a.jsonl"
    s = Session.new(content, "annihilation", "defend", seed_from_int(4), path)
    s.submit(EndTurn(side="xcom"))
    s.close()
    app = XenotacApp(content, tmp_path, replay=Timeline(content, path))

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            first = screen_text(app).splitlines()[0]
            await pilot.press("greater_than_sign")
            up = screen_text(app)
            await pilot.press("greater_than_sign", "greater_than_sign")
            top = screen_text(app)
            await pilot.press("less_than_sign", "less_than_sign", "less_than_sign")
            ground = screen_text(app)
            return first, up, top, ground, app.screen.level

    first, up, top, ground, level = asyncio.run(go())
    assert first.endswith("X-COM's fog · level 0")
    assert up.splitlines()[0].endswith("level 1") and "Level 1" in up
    assert top.splitlines()[0].endswith("level 2") and "✗ No level above: this is the top" in top
    assert "✗ No level below: this is the ground" in ground and level == 0
