"""The battle screen's turn keys (`[` `]`, issue 12): a step of facing in place, submitted as `Face` for the ruleset
to price or refuse; eight facings on squares, six on hexes; the unit panel shows the new facing and TU, and a
ruleset without facing says so in one line."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine.content import loader
from engine.core.dice import seed_from_int
from tui.app import XenotacApp
from tui.session import Session
from tui.textshot import screen_text

HEX_MOD = Path(__file__).resolve().parents[1] / "content" / "mods" / "hex"


def _press(content, tmp_path, ruleset_id: str, presses: tuple[str, ...]):
    """The selected soldier before and after each press, the screen at the end, and how many records they made."""
    session = Session.new(content, ruleset_id, "eliminate", seed_from_int(5), tmp_path / "turn.jsonl")
    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            seen, logged = [app.screen.unit], len(session.game.history)
            for key in presses:
                await pilot.press(key)
                await pilot.pause()
                seen.append(app.screen.unit)
            return seen, screen_text(app), len(session.game.history) - logged

    try:
        return asyncio.run(main())
    finally:
        session.close()


def test_the_turn_keys_step_the_facing_on_squares_and_the_panel_shows_it(content, tmp_path):
    seen, screen, records = _press(content, tmp_path, "annihilation", ("right_square_bracket", "left_square_bracket",
                                                                       "left_square_bracket"))
    tu0, *after = [u.record.fighter.tu_left for u in seen]
    assert [u.facing for u in seen] == [0, 1, 0, 7]  # NE, N, NW: a 45° step each, round past north
    assert [tu0 - tu for tu in after] == [1, 2, 3]  # 1 TU a step
    assert "facing NW" in screen and f"TU       {tu0 - 3}/" in screen
    assert "turns to face NW (1 TU)" in screen and "[/]:turn" in screen  # the message, the footer's one piece
    assert records == 3


def test_the_turn_keys_step_among_six_facings_on_hexes(tmp_path):
    content = loader.load([HEX_MOD])
    seen, screen, _ = _press(content, tmp_path, "annihilation", ("left_square_bracket", "left_square_bracket"))
    tu0, *after = [u.record.fighter.tu_left for u in seen]
    assert [u.facing for u in seen] == [0, 5, 4]  # NE to NW to W: 60° steps
    assert [tu0 - tu for tu in after] == [1, 2] and "facing W" in screen


@pytest.mark.parametrize("ruleset_id, word", [("xcom-trpg", "turns to face NE"), ("xxxzone", "turns to face ne")])
def test_rulesets_with_facing_turn_for_free(content, tmp_path, ruleset_id, word):
    seen, screen, _ = _press(content, tmp_path, ruleset_id, ("right_square_bracket",))
    assert [u.facing for u in seen] == [0, 1] and word in screen


def test_a_ruleset_without_facing_refuses_the_turn_in_one_line(content, tmp_path):
    seen, screen, records = _press(content, tmp_path, "neo-troops", ("right_square_bracket",))
    assert seen[0] == seen[1] and records == 0  # refused: nothing logged
    assert "✗ Neo-Troops has no facing: turning in place changes nothing, so it is no action" in screen
