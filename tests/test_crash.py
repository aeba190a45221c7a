"""Crash safety, tested: a simulation SIGKILLed at 50 moments never loses a complete record.

The same seed always writes the same log, so a killed run's file must be a byte prefix of an
uninterrupted run's file (plus, at worst, one torn record), and carrying it on must verify.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from engine.log import writer as log
from engine.core.dice import seed_from_int
from engine.play.game import Game
from engine.play.simulate import play_out, run
from engine.play.verify import verify

SEED = 3
KILLS = 50


@pytest.fixture(scope="module")
def reference(tmp_path_factory, content) -> bytes:
    path = tmp_path_factory.mktemp("ref") / "ref.jsonl"
    run(content, "xcom-trpg", "eliminate", seed_from_int(SEED), path).close()
    return path.read_bytes()


def killed_run(content, path: Path, lines: int) -> None:
    """A simulation in a forked child, killed once its log holds `lines` lines (or it ends)."""
    pid = os.fork()
    if pid == 0:  # the child plays until it is killed
        try:
            run(content, "xcom-trpg", "eliminate", seed_from_int(SEED), path)
        finally:
            os._exit(0)
    deadline = time.monotonic() + 30  # a safety net only: the kill point is the line count
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= lines:
            break
        if os.waitpid(pid, os.WNOHANG)[0]:
            return
        time.sleep(0.002)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


@pytest.mark.slow
def test_killed_fifty_times_nothing_complete_is_lost(content, reference, tmp_path):
    total = reference.count(b"\n")
    for i in range(KILLS):
        path = tmp_path / f"kill-{i}.jsonl"
        killed_run(content, path, 2 + i * (total - 2) // KILLS)
        data = path.read_bytes()
        complete = data[: data.rfind(b"\n") + 1]
        assert reference.startswith(complete), f"kill {i}: a complete record differs from the uninterrupted run"
        report = verify(content, path)
        torn = data[len(complete):]
        if torn:
            assert report.failure is not None and "torn record" in report.failure.message
        else:
            assert report.failure is None, f"kill {i}: {report.failure}"
        game = Game.resume(content, path)  # and every killed log carries on to the end...
        play_out(game)
        assert game.state.winner is not None
        game.close()
        assert verify(content, path).failure is None
        assert path.read_bytes() == reference, f"kill {i}: the resumed mission went another way"  # ...the same one


@pytest.mark.parametrize("cut", [1, 17, 200])
def test_a_torn_record_is_reported_set_aside_and_carried_on(content, reference, tmp_path, cut):
    path = tmp_path / "torn.jsonl"
    lines = reference.split(b"\n")
    keep = 120
    path.write_bytes(b"\n".join(lines[:keep]) + b"\n" + lines[keep][:cut])  # died writing line keep + 1
    log.write_seed(path, seed_from_int(SEED))
    failure = verify(content, path).failure
    assert failure.line == keep + 1 and f"the {keep} records before it are complete" in failure.message
    game = Game.resume(content, path)
    assert "set aside" in game.notes[0]
    assert game.history[-1].n <= keep
    play_out(game)
    game.close()
    assert verify(content, path).failure is None
    assert path.with_name("torn.jsonl.torn").read_bytes() == lines[keep][:cut] + b"\n"
