"""Snapshots at 80×24 with fixed seeds: the battle screen, targeting, help and the summary.

After a deliberate change to the look, refresh them with `pytest tests/test_tui_snapshots.py --snapshot-update`
and look at the SVGs in tests/__snapshots__/ before committing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.play.simulate import play_out
from tui.app import XenotacApp
from tui.session import Session
from tui.testing import advance_to_contact, new_session
from client_walk import players_turn


@pytest.fixture
def saves(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)  # paths on screen are relative: the same on every machine
    folder = Path("saves")
    folder.mkdir()
    return folder


def app_for(content, session: Session) -> XenotacApp:
    return XenotacApp(content, session.path.parent, session=session, alien_delay=0)


def test_battle_screen(snap_compare, content, saves):
    session = new_session(content, saves, seed=1)
    assert snap_compare(app_for(content, session), press=["k", "k"], terminal_size=(80, 24))


def test_targeting_mode(snap_compare, content, saves):
    session = new_session(content, saves, seed=3)
    assert advance_to_contact(session)
    assert snap_compare(app_for(content, session), press=["f"], terminal_size=(80, 24))


def test_help(snap_compare, content, saves):
    session = new_session(content, saves, seed=1)
    assert snap_compare(app_for(content, session), press=["question_mark"], terminal_size=(80, 24))


def test_summary(snap_compare, content, saves):
    session = new_session(content, saves, seed=2)
    play_out(session.game, ("xcom", "aliens"))
    session.catch_up()
    assert session.over
    assert snap_compare(app_for(content, session), terminal_size=(80, 24))


def _help_box(content, session: Session, press: tuple[str, ...] = ()):
    """The help box over the session's battle screen at 80×24: (its text, how far it scrolls)."""
    import asyncio

    from tui.textshot import screen_text

    folder = session.path.parent
    app = XenotacApp(content, folder, session=session, alien_delay=0)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await players_turn(pilot, app, session)
            await pilot.press(*press, "question_mark")
            await pilot.pause()
            box = app.screen.query_one("#help-box")
            return screen_text(app), box.max_scroll_y

    try:
        return asyncio.run(main())
    finally:
        session.close()


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", ["annihilation", "neo-troops", "xcom-trpg", "xxxzone"])
def test_help_fits_80x24_under_every_ruleset(content, saves, ruleset_id):
    """The battle help shows the keys of the mode it was opened in, whole: nothing below the fold."""
    from engine.play import catalog

    from engine.core.dice import seed_from_int

    assert ruleset_id in catalog.rulesets(content)
    session = Session.new(content, ruleset_id, "eliminate", seed_from_int(2), saves / f"{ruleset_id}.jsonl")
    text, scroll = _help_box(content, session)
    assert scroll == 0, text
    assert "HELP — battle, now moving" in text and "closes" in text
    assert "FIRE" not in text  # the targeting keys are the targeting help's


def test_help_is_split_by_mode(content, saves):
    session = new_session(content, saves, seed=3)
    assert advance_to_contact(session)
    text, scroll = _help_box(content, session, press=("f",))
    assert scroll == 0 and "HELP — battle, now targeting" in text
    assert "FIRE" in text and "end turn" not in text
