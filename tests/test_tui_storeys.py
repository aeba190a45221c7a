"""The battle screen on a map with storeys, at 80×24 through Textual's Pilot: one level shown at a time, the level
keys, the level in the top bar, markers for the squad below, and the help naming the keys."""

from __future__ import annotations

import asyncio

from engine.core.dice import seed_from_int
from tui.app import XenotacApp
from tui.screens.battle import BattleScreen
from tui.session import Session
from tui.textshot import screen_text


def test_the_level_keys_look_up_and_down_and_the_view_follows_the_soldier(content, tmp_path):
    session = Session.new(content, "annihilation", "eliminate", seed_from_int(4), tmp_path / "a.jsonl")
    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, BattleScreen)
            first = screen_text(app)
            assert first.splitlines()[0].startswith("L0/2 ·") and "1" in first  # the squad stands on the ground
            await pilot.press("greater_than_sign")
            up = screen_text(app)
            assert up.splitlines()[0].startswith("L1/2 ·") and screen.level == 1
            assert "▼" in up and "Open air" in up  # the squad marked below; the cursor's square is air up here
            await pilot.press("greater_than_sign", "greater_than_sign")
            assert screen.level == 2 and "No level above" in screen_text(app)
            await pilot.press("less_than_sign", "less_than_sign", "less_than_sign")
            assert screen.level == 0 and "No level below" in screen_text(app)
            await pilot.press("greater_than_sign", "tab")  # another soldier selected: the view goes to its level
            assert screen.level == 0
            await pilot.press("question_mark")
            await pilot.pause()
            help_text = screen_text(app)
            assert ">/<           level up/down" in help_text  # the two level keys, one cell
            return True

    assert asyncio.run(main())


def test_enter_walks_up_the_stairs_to_the_level_shown_and_the_view_follows(content, tmp_path):
    """Laura, four squares from the stairs: the cursor on the top of the stairs (known from the stairs seen below),
    one level up, and Enter walks her there for the path's TU (4+4+... and 8 for the stair)."""
    session = Session.new(content, "annihilation", "eliminate", seed_from_int(3), tmp_path / "b.jsonl")
    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)
    stair = (27, 29)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            screen.selected = "laura"
            session.chronicle.explored_levels[0][stair[1], stair[0]] = True  # the squad has seen the stairs
            screen.cursor = stair
            screen.update_view()  # as Tab would: the view goes to her level first
            await pilot.press("greater_than_sign")
            route = screen._route()
            assert route[-1] == (*stair, 1) and (*stair, 0) in route
            before = session.state.units["laura"].record.fighter.tu_left
            assert "Laura Human · L0" in screen_text(app)
            await pilot.press("enter")
            await pilot.pause()
            laura = session.state.units["laura"]
            assert (laura.pos, laura.z) == (stair, 1) and laura.record.fighter.tu_left == before - 50
            assert screen.level == 1 and screen_text(app).splitlines()[0].startswith("L1/2")
            assert "Laura Human · L1" in screen_text(app)  # the unit panel names the storey she stands on
            return True

    assert asyncio.run(main())


def test_a_door_upstairs_changed_out_of_sight_looks_as_the_squad_last_saw_it(content, tmp_path):
    import numpy as np

    from engine.core.events import TileChanged
    from engine.core.reducer import fold
    from tui import scene

    session = Session.new(content, "annihilation", "terror", seed_from_int(4), tmp_path / "c.jsonl")
    chron, before = session.chronicle, session.state
    upper = before.grid.level(1)
    door = next((x, y) for y in range(upper.height) for x in range(upper.width) if upper.tile((x, y)) == "door")
    chron.explored_levels[1][door[1], door[0]] = True  # seen once, out of sight now
    chron._changed_unseen(before, door, 1)
    after = fold(before, [TileChanged(pos=door, tile="door_open", z=1)])
    assert chron.remembered == {(*door, 1): "door"}
    hidden = np.zeros_like(chron.explored_levels[1])
    frame = scene.draw(scene.Palette(content), after, session.side, hidden, chron.explored_levels[1], {},
                       scene.Overlay(), chron.remembered, (), 1)
    assert chr(frame.console.rgb["ch"][door[1], door[0]]) == "+"  # still shut, as last seen
    session.close()
