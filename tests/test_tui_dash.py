"""The second kind of move (the `Combo` command, key `c`) is named by the ruleset: xcom-trpg's combo, xxxzone's
cautious walk; a ruleset without one has no such key in the footer, and the help says so."""

from __future__ import annotations

import asyncio

from engine.core.dice import seed_from_int
from client_walk import players_turn


def _screens(content, folder, ruleset_id: str) -> tuple[str, str, object]:
    """(the battle screen with the cursor one cell north of the first soldier, the help over it, the session)."""
    from tui.app import XenotacApp
    from tui.session import Session
    from tui.textshot import screen_text

    session = Session.new(content, ruleset_id, "eliminate", seed_from_int(2), folder / f"{ruleset_id}.jsonl")
    app = XenotacApp(content, folder, session=session, alien_delay=0)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await players_turn(pilot, app, session)
            await pilot.press("k", "k")
            await pilot.pause()
            battle = screen_text(app)
            await pilot.press("question_mark")
            await pilot.pause()
            return battle, screen_text(app)

    battle, help_text = asyncio.run(main())
    session.close()
    return battle, help_text, session


def test_xxxzone_calls_it_cautious_in_the_panel_the_readout_the_footer_and_the_help(content, tmp_path):
    battle, help_text, session = _screens(content, tmp_path, "xxxzone")
    unit = session.state.units["johnny"]
    budget = session.ruleset.budget(session.state, unit)
    assert (budget.dash_label, budget.dash_moves) == ("cautious", 5)
    assert "AP       10/10 " in battle and "Move 10 AP cautious 5" in battle  # the unit panel: AP said once
    assert "AP 10/10  move" not in battle
    assert "Path 2/10 AP: ⏎ move, c cautious" in battle  # the path readout
    assert "c:cautious" in battle and "combo" not in battle  # the footer
    assert "• c             cautious" in help_text and "combo" not in help_text


def test_xcom_keeps_its_combo(content, tmp_path):
    battle, help_text, _session = _screens(content, tmp_path, "xcom-trpg")
    assert "c:combo" in battle and " combo 10" in battle and "c             combo" in help_text


def test_neo_troops_has_no_second_move_key(content, tmp_path):
    battle, help_text, _session = _screens(content, tmp_path, "neo-troops")
    assert "c:" not in battle and "cautious" not in battle and "combo" not in battle
    assert "c             no second move" in help_text
