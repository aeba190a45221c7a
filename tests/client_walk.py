"""One ruleset's battle screen at 80×24, and a vi key that walks the first unit one free cell: the tests of every
ruleset prove the client draws its panel and plays its move through this one helper."""

from __future__ import annotations

import asyncio

VI_KEYS = {"k": (0, -1), "l": (1, 0), "h": (-1, 0), "j": (0, 1), "y": (-1, -1), "u": (1, -1), "b": (-1, 1), "n": (1, 1)}


def free(state, cell) -> bool:
    return state.grid.inside(cell) and bool(state.grid.walkable[cell[1], cell[0]]) and not state.units_at(cell)


async def players_turn(pilot, app, session) -> None:
    """Wait out the title frame and the battle's opening (an initiative may open with the aliens' slots)."""
    from tui.screens.battle import BattleScreen

    for _ in range(20):
        await pilot.pause()
        if isinstance(app.screen, BattleScreen) and session.players_turn:
            return


def draw_and_walk(content, ruleset_id: str, folder, mission: str = "eliminate", seed: int = 2):
    """(the first screen's text, the selected unit before, the step walked, the unit after, the session)."""
    from engine.core.dice import seed_from_int
    from tui.app import XenotacApp
    from tui.screens.battle import BattleScreen
    from tui.session import Session
    from tui.textshot import screen_text

    session = Session.new(content, ruleset_id, mission, seed_from_int(seed), folder / f"{ruleset_id}.jsonl")
    app = XenotacApp(content, folder, session=session, alien_delay=0)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await players_turn(pilot, app, session)
            first = screen_text(app)
            assert isinstance(app.screen, BattleScreen)
            top = first.splitlines()[0].rstrip()
            assert top[-1].isdigit(), f"the top bar is cut at 80 columns: {top!r}"  # "... in sight 0", whole
            unit = app.screen.unit
            key, step = next((k, s) for k, s in VI_KEYS.items()
                             if free(session.state, (unit.pos[0] + s[0], unit.pos[1] + s[1])))
            await pilot.press(key, "enter")  # one free cell on, walked
            await pilot.pause()
            return first, unit, step, session.state.units[unit.id]

    first, unit, step, moved = asyncio.run(main())
    session.close()
    return first, unit, step, moved, session
