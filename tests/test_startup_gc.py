"""The client starts with the garbage collector off and turns it on again after its first frame; a command that
stops before Textual starts leaves the collector as it found it."""

from __future__ import annotations

import asyncio
import gc

import pytest

from tui.app import XenotacApp
from tui.cli import main


@pytest.fixture
def collecting():
    was = gc.isenabled()
    gc.enable()
    yield
    gc.unfreeze()
    (gc.enable if was else gc.disable)()


def test_a_client_command_refused_before_textual_leaves_the_collector_on(collecting, tmp_path, capsys):
    assert main(["--saves", str(tmp_path), "play", "--ruleset", "no-such-ruleset"]) == 2
    assert "no-such-ruleset" in capsys.readouterr().err
    assert gc.isenabled()


def test_a_headless_command_runs_with_the_collector_on(collecting, monkeypatch):
    import tui.cli as cli

    seen = []
    monkeypatch.setattr(cli, "_dispatch", lambda args: seen.append(gc.isenabled()) or 0)
    assert main(["content", "check"]) == 0 and main(["play"]) == 0
    assert seen == [True, False] and gc.isenabled()  # play: off until the client's first frame


def test_the_client_collects_again_after_its_first_frame(collecting, content, tmp_path):
    gc.disable()
    app = XenotacApp(content, tmp_path)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return gc.isenabled(), gc.get_freeze_count()

    enabled, frozen = asyncio.run(go())
    assert enabled and frozen > 0
