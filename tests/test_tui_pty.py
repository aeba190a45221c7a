"""`xenotac play` and `xenotac resume` in a real pseudo-terminal at 80×24, read back through pyte.

TERM=xterm-256color and no COLORTERM, as over SSH; the saves go to a temporary XENOTAC_SAVES.
"""

from __future__ import annotations

import signal

import pytest

from engine.log import writer as log
from engine.play import verify
from tui.ptyterm import KEYS, Terminal, env_for_terminal, xenotac

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs a POSIX pseudo-terminal")


def start(args, saves, **extra):
    return Terminal(xenotac(*args), env=env_for_terminal({"XENOTAC_SAVES": str(saves), **extra}))


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGKILL], ids=["hangup", "kill"])
def test_play_move_kill_and_resume_in_a_pseudo_terminal(content, tmp_path, sig):
    term = start(["play", "--seed", "1"], tmp_path)
    try:
        assert term.wait_for("Phase 1/40", "X-COM turn", "save+quit"), term.text()
        assert "[1] Anton" in term.text()
        term.send("k")
        term.send(KEYS["enter"])
        assert term.wait_for("Anton moves to 13,37"), term.text()
        assert "Actions 1/2" in term.text()
        term.send("z")
        assert term.wait_for("z does nothing here"), term.text()
    finally:
        term.kill(sig)  # the SSH session drops mid-mission: nothing but the command in flight is lost

    [path] = log.list_logs(tmp_path)
    assert not log.is_finished(path)
    term = start(["resume"], tmp_path)
    try:
        assert term.wait_for("Phase 1/40", "Anton moves to 13,37"), term.text()
        assert "5/6 ready" in term.text() or "6/6 ready" in term.text()
        term.send("q")
        assert term.wait(10) == 0
    finally:
        term.kill()
    assert verify.verify(content, path, None).failure is None


def test_below_80x24_says_the_terminal_is_too_small_and_recovers(tmp_path):
    term = Terminal(xenotac("play", "--seed", "1"), cols=60, rows=20,
                    env=env_for_terminal({"XENOTAC_SAVES": str(tmp_path)}))
    try:
        assert term.wait_for("Terminal too small: 60×20"), term.text()
        assert "Phase 1/40" not in term.text()
        term.settle()
        term.resize(80, 24)
        assert term.wait_for("Phase 1/40", "save+quit"), term.text()
        assert "too small" not in term.text()
    finally:
        term.kill()


def test_no_color_still_shows_the_squad_by_glyph(tmp_path):
    term = start(["play", "--seed", "1"], tmp_path, NO_COLOR="1")
    try:
        assert term.wait_for("Phase 1/40", "save+quit"), term.text()
        assert "234" in term.text()  # soldiers are digits, hostiles letters
    finally:
        term.kill()


def test_bad_command_line_is_one_line_and_no_terminal_garbage(tmp_path):
    term = start(["play", "--mission", "nope"], tmp_path)
    try:
        assert term.wait(20) == 2
        assert "unknown mission 'nope'" in term.text()
        shown = [ln for ln in term.text().splitlines() if ln.strip()]  # one message, wrapped at 80 columns
        assert "".join(shown).startswith("xenotac: unknown mission 'nope'; one of crash,") and \
            all(len(ln) == 80 for ln in shown[:-1]) and "".join(shown).endswith(", vip")
    finally:
        term.kill()


def test_the_action_menu_in_a_pseudo_terminal_gives_a_speech(tmp_path):
    """The squad leader's free speech, picked from the action menu by keys alone."""
    term = start(["play", "--seed", "1"], tmp_path)
    try:
        assert term.wait_for("Phase 1/40", "a:actions"), term.text()
        term.send("a")
        assert term.wait_for("Anton: actions", "Encouraging speech"), term.text()
        for _ in range(30):
            if "▶ Encouraging speech" in term.text():
                break
            term.send("j")
            term.settle()
        assert "▶ Encouraging speech" in term.text(), term.text()
        term.send(KEYS["enter"])
        assert term.wait_for("Anton gives an encouraging speech: +8 morale (Charisma 4×2)"), term.text()
        assert "Actions 2/2" in term.text()  # the leader's speech is free once a phase
        term.send("q")
        assert term.wait(10) == 0
    finally:
        term.kill()
