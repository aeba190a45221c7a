"""The battle screen on a hex map (annihilation's hex mod, content/mods/hex): each hex two columns wide, odd rows a column
further east, the cursor moving by hex with the keypad keys the help lists, and the path preview hex by hex."""

from __future__ import annotations

import asyncio
from pathlib import Path


from engine.content import loader
from engine.core.dice import seed_from_int
from engine.map.grid import Grid
from tui import scene
from tui.app import XenotacApp
from tui.session import Session
from tui.textshot import screen_text

HEX_MOD = Path(__file__).resolve().parents[1] / "content" / "mods" / "hex"


def test_laid_out_hexes_are_two_columns_wide_and_odd_rows_shifted(content):
    grid = Grid.from_ids([["grass"] * 3 for _ in range(2)], content.terrain).as_hexes()
    frame = scene.Frame(3, 2)
    frame.console.ch[...] = ord(".")
    frame.console.ch[1, 2] = ord("1")
    frame.attrs[1, 2] = scene.REVERSE | scene.BOLD
    drawn = scene.laid_out(grid, frame)
    assert ["".join(map(chr, drawn.console.ch[y].tolist())) for y in range(2)] == [". . .  ", " . . 1 "]
    assert drawn.attrs[1, 5] == scene.REVERSE | scene.BOLD and drawn.attrs[1, 6] == scene.REVERSE  # the cursor: 2 wide
    assert scene.on_screen(grid, (2, 1)) == (5, 1) and scene.world(grid) == (7, 2)
    square = Grid.from_ids([["grass"] * 3 for _ in range(2)], content.terrain)
    assert scene.laid_out(square, frame) is frame and scene.on_screen(square, (2, 1)) == (2, 1)


def test_the_cursor_and_the_path_go_hex_by_hex_and_the_help_says_how(tmp_path):
    content = loader.load([HEX_MOD])
    session = Session.new(content, "annihilation", "eliminate", seed_from_int(5), tmp_path / "hex.jsonl")
    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            board = app.screen
            start = board.cursor
            seen = [start]
            for key in ("u", "u", "y", "k", "l"):
                await pilot.press(key)
                seen.append(board.cursor)
            path = board.path()
            await pilot.press("question_mark")
            await pilot.pause()
            return start, seen, path, board.session.state.grid, screen_text(app)

    start, seen, path, grid, help_text = asyncio.run(main())
    assert all(grid.steps(a, b) == 1 for a, b in zip(seen, seen[1:])), seen
    assert seen[-1][1] == start[1] - 4 and len(path) == grid.steps(start, seen[-1])
    assert all(grid.steps(a, b) == 1 for a, b in zip((start, *path), path))
    assert "On hexes" in help_text and "slanted sides" in help_text
