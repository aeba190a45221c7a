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
