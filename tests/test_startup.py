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


def test_aside_gives_what_its_function_gave_or_raised():
    from tui.launch import aside

    assert aside(lambda: 42)() == 42
    wait = aside(lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        wait()


SPLIT = """
import sys, threading
import tui.launch as launch
from tui.cli import build_parser

found = {}  # thread name -> the modules it imported first


class Watch:
    def find_spec(self, name, path=None, target=None):
        found.setdefault(threading.current_thread().name, []).append(name)
        return None  # the usual finders load it


sys.meta_path.insert(0, Watch())


def run(app):  # the client waits for its session, as it does when it mounts, and stops there
    app.first_session
    raise SystemExit(0)


import tui.app
tui.app.XenotacApp.run = run
try:
    launch.run(build_parser().parse_args(["--saves", sys.argv[1], "play", "--seed", "1", "--ruleset", sys.argv[2]]))
except SystemExit:
    pass
assert any(m.startswith("textual.") for m in found["MainThread"]), found  # Textual is still loading meanwhile
print(sorted(found.get("xenotac-start", [])))
"""


@pytest.mark.parametrize("ruleset", ["xcom-trpg", "annihilation"])
def test_a_new_session_imports_nothing_while_the_main_thread_imports_textual(tmp_path, ruleset):
    """`play` makes its session in a thread while the main thread imports Textual's app and starts it: two threads
    importing modules that import each other could deadlock, so the session's thread must find every module it needs
    loaded."""
    import subprocess
    import sys

    child = subprocess.run([sys.executable, "-c", SPLIT, str(tmp_path), ruleset], capture_output=True, text=True,
                           timeout=120)
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "[]"


TITLE = """
import sys
from tui.app import XenotacApp
from tui.cli import main
from tui.screens.title import Title  # noqa: F401 - the menu's own modules count too

heavy = ("engine", "tcod", "numpy")
XenotacApp.run = lambda self: print(sorted(m for m in sys.modules if m.partition(".")[0] in heavy)) or None
sys.exit(main(["--saves", sys.argv[1]]))
"""


def test_the_title_menu_starts_without_the_engine_tcod_or_numpy(tmp_path):
    """The menu's first frame needs none of them: they load in its warm-up, after it is drawn."""
    import subprocess
    import sys

    child = subprocess.run([sys.executable, "-c", TITLE, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "[]"


def test_a_session_that_could_not_be_made_ends_the_client_with_its_error(content, tmp_path):
    """`play` hands the app the function that waits for its new session; a failure there opens no screen and comes
    back to tui.launch, which raises it once the terminal is restored (one line, exit 2)."""
    from engine.log.errors import LogError
    from tui.screens.battle import BattleScreen

    def made():
        raise LogError("cannot write a log in /nowhere")

    app = XenotacApp(content, tmp_path, session=made)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return [type(s) for s in app.screen_stack]

    screens = asyncio.run(go())
    assert BattleScreen not in screens
    assert app.return_code == 2 and isinstance(app.start_error, LogError)


def test_a_session_made_meanwhile_is_the_first_screen(content, tmp_path):
    from engine.core.dice import seed_from_int
    from tui.screens.battle import BattleScreen
    from tui.session import Session

    session = Session.new(content, "xcom-trpg", "eliminate", seed_from_int(1), tmp_path / "a.jsonl", public=1)
    app = XenotacApp(content, tmp_path, session=lambda: session)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return type(app.screen), app.first_session

    first, kept = asyncio.run(go())
    assert first is BattleScreen and kept is session
