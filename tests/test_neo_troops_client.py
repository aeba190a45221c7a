"""neo-troops in the client at 80×24: firing at a cell picked with the cursor (N-3.3's AV 6, `d`), its odds in the
panel, its refusals, and the key left out under a ruleset that has no such shot; the side panel's 30 columns."""

from __future__ import annotations

import asyncio
import json

import pytest

from client_walk import VI_KEYS, free
from engine.core.dice import seed_from_int
from engine.rules.neo_troops import battle
from tui.app import XenotacApp
from tui.screens import readout
from tui.screens.battle import BattleScreen
from tui.session import Session
from tui.textshot import screen_text


def _battle(content, tmp_path, ruleset_id: str, seed: int = 4, mission: str = "crash"):
    session = Session.new(content, ruleset_id, mission, seed_from_int(seed), tmp_path / f"{ruleset_id}.jsonl")
    return session, XenotacApp(content, tmp_path, session=session, alien_delay=0)


def _logged(session, unit, action: str, cell) -> None:
    """⏎ was pressed: the log holds the command the mode returned."""
    session.close()
    fired = [json.loads(line) for line in session.path.read_text().splitlines()]
    command = next(r["command"] for r in fired if r["kind"] == "command" and r["command"].get("action") == action)
    assert command["unit"] == unit.id and tuple(command["cell"]) == cell


async def _ready(pilot, app, session) -> None:
    for _ in range(30):
        await pilot.pause()
        if isinstance(app.screen, BattleScreen) and session.players_turn:
            return
    raise AssertionError("the squad's slot never came up")


def test_the_cursor_fires_at_a_cell_in_the_dark_with_its_odds(content, tmp_path):
    session, app = _battle(content, tmp_path, "neo-troops")

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await _ready(pilot, app, session)
            unit = app.screen.unit
            await pilot.press("d")
            await pilot.pause()
            assert app.screen.mode == "cell"
            here = screen_text(app)
            assert f"{unit.name} → cell {unit.pos[0]},{unit.pos[1]}" in here
            assert "✗ Nobody could stand at" in here  # the cursor starts on the unit: a clear refusal
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen.mode == "cell"  # refused, still picking
            state = session.state
            key = next(k for k, (dx, dy) in VI_KEYS.items()
                       if free(state, (unit.pos[0] + 2 * dx, unit.pos[1] + 2 * dy))
                       and state.grid.sees(unit.pos, (unit.pos[0] + 2 * dx, unit.pos[1] + 2 * dy), battle.SIGHT))
            dx, dy = VI_KEYS[key]
            cell = (unit.pos[0] + 2 * dx, unit.pos[1] + 2 * dy)
            await pilot.press(key, key)
            await pilot.pause()
            text = screen_text(app)
            preview = session.ruleset.preview_cell_shot(state, unit.id, cell, app.screen.fire_mode)
            dice, hits = (readout.odds_line(r).strip() for r in preview.preview.lines)
            assert f"→ cell {cell[0]},{cell[1]}" in text and dice in text and "vs AV 6" in dice
            assert hits.startswith("Hits  0–") and hits in text  # the distribution, whole in the 30 columns
            await pilot.press("enter")
            await pilot.pause()
            return unit, cell

    unit, cell = asyncio.run(main())
    _logged(session, unit, "fire_at", cell)


def test_a_ruleset_without_shots_in_the_dark_refuses_the_key_and_the_help_leaves_it_out(content, tmp_path):
    session, app = _battle(content, tmp_path, "xcom-trpg")

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await _ready(pilot, app, session)
            assert app.screen.availability("fire_cell") == "X-COM TRPG fires only at a target in sight"
            assert "fire_cell" in app.screen.hidden_keys()
            await pilot.press("d")
            await pilot.pause()
            assert app.screen.mode == "move"

    asyncio.run(main())
    session.close()
    neo, app = _battle(content, tmp_path, "neo-troops")

    async def help_text():
        async with app.run_test(size=(80, 24)) as pilot:
            await _ready(pilot, app, neo)
            assert "fire_cell" not in app.screen.hidden_keys()
            await pilot.press("question_mark")
            await pilot.pause()
            return screen_text(app)

    assert "fire at cell" in asyncio.run(help_text())
    neo.close()


@pytest.mark.parametrize("mission, objective", [("eliminate", ["· Kill or stun every hostile:", "  0/31 down"]),
                                                ("crash", ["· Shut down the power source:", "  running"])])
def test_the_side_panel_lines_fit_30_columns_and_an_objective_breaks_between_words(content, tmp_path, mission,
                                                                                   objective):
    session, app = _battle(content, tmp_path, "neo-troops", seed=5, mission=mission)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await _ready(pilot, app, session)
            return screen_text(app)

    text = asyncio.run(main())
    session.close()
    side = [line.split("▏", 1)[1] for line in text.splitlines()[1:16] if "▏" in line]
    assert all(len(line.rstrip()) <= 31 for line in side)  # a space, then 30 columns
    lines = [line.strip() for line in side]
    at = lines.index(objective[0].strip())
    assert side[at + 1].rstrip() == " " + objective[1]  # indented under the mark, the counter whole


def test_the_cursor_lays_covering_fire_round_any_cell_in_sight(content, tmp_path):
    session, app = _battle(content, tmp_path, "neo-troops")

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await _ready(pilot, app, session)
            unit = app.screen.unit
            state = session.state
            key = next(k for k, (dx, dy) in VI_KEYS.items()
                       if free(state, (unit.pos[0] + 3 * dx, unit.pos[1] + 3 * dy))
                       and state.grid.sees(unit.pos, (unit.pos[0] + 3 * dx, unit.pos[1] + 3 * dy), battle.SIGHT))
            dx, dy = VI_KEYS[key]
            await pilot.press("d", key, key, key)
            await pilot.pause()
            modes = app.screen._modes()
            assert modes == ["snap", "spray", "cover"]
            while app.screen.fire_mode != "cover":
                await pilot.press("m")
                await pilot.pause()
            text = screen_text(app)
            cell = (unit.pos[0] + 3 * dx, unit.pos[1] + 3 * dy)
            assert "Covering fire (m: 3 modes)" in text
            assert "Dice  n=4, ROF 4 at most" in text  # min(4, 4 + Accuracy 1 + still 1): the log spells it out
            assert f"Area  3×3 at {cell[0]},{cell[1]}: 0 foes" in text
            await pilot.press("enter")
            await pilot.pause()
            return unit, cell

    unit, cell = asyncio.run(main())
    _logged(session, unit, "cover", cell)


def test_the_top_bar_keeps_80_columns_and_the_count_in_sight_whole(content, tmp_path):
    from types import SimpleNamespace

    from engine.core.ruleset import Turn
    from tui.screens.readout import top_line

    session, _app = _battle(content, tmp_path, "neo-troops")
    state = session.state
    asked = "Kira may strike as Attack hound 2 runs past the corner of the old barn"
    fake = SimpleNamespace(state=state, content=session.content, game=session.game, players_turn=True,
                           ready=lambda: [], squad=lambda: [], chronicle=session.chronicle, side="xcom",
                           ruleset=SimpleNamespace(turn=lambda s: Turn(side="xcom", units=(), label=asked)))
    line = top_line(fake, 3, 80)
    assert len(line) <= 80 and line.endswith(" · in sight 3") and "Kira may strike as" in line and "…" in line
    session.close()
