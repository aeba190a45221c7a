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
def reference_log(tmp_path_factory, content) -> Path:
    path = tmp_path_factory.mktemp("ref") / "ref.jsonl"
    run(content, "xcom-trpg", "eliminate", seed_from_int(SEED), path).close()
    assert verify(content, path).failure is None  # a killed log carried on to these bytes has this verdict too
    return path


@pytest.fixture(scope="module")
def reference(reference_log) -> bytes:
    return reference_log.read_bytes()


@pytest.fixture(scope="module")
def reference_seed(reference_log) -> bytes:
    return log.seed_path(reference_log).read_bytes()


def killed_run(path: Path, lines: int, play) -> None:
    """`play()` in a forked child, killed once the log holds `lines` lines (or it ends)."""
    pid = os.fork()
    if pid == 0:  # the child plays until it is killed
        try:
            play()
        finally:
            os._exit(0)
    deadline = time.monotonic() + 30  # a safety net only: the kill point is the line count
    seen = offset = 0
    while time.monotonic() < deadline:
        if path.exists():  # count only what was written since the last look: the child has the other core
            with open(path, "rb") as f:
                if f.seek(0, os.SEEK_END) < offset:  # a torn record set aside by the resume: count again
                    seen = offset = 0
                f.seek(offset)
                new = f.read()
            seen, offset = seen + new.count(b"\n"), offset + len(new)
            if seen >= lines:
                break
        if os.waitpid(pid, os.WNOHANG)[0]:
            return
        time.sleep(0.002)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def check_killed(content, reference: bytes, path: Path, i: int) -> None:
    """A killed log is a byte prefix of the uninterrupted run plus at most one torn record, and verifies as such."""
    data = path.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]
    assert reference.startswith(complete), f"kill {i}: a complete record differs from the uninterrupted run"
    report = verify(content, path)
    if data[len(complete):]:
        assert report.failure is not None and "torn record" in report.failure.message
    else:
        assert report.failure is None, f"kill {i}: {report.failure}"


def carry_on(content, path: Path) -> None:
    game = Game.resume(content, path)
    play_out(game)
    assert game.state.winner is not None
    game.close()


@pytest.mark.slow
def test_killed_fifty_times_nothing_complete_is_lost(content, reference, reference_seed, tmp_path):
    """One mission killed at 50 moments, each time carried on from its log in a new child that is killed in turn
    (a resumed game dies as a fresh one does); the last carries on to the end, the uninterrupted run's bytes."""
    total = reference.count(b"\n")
    path = tmp_path / "killed.jsonl"
    for i in range(KILLS):
        if i == 0:
            play = lambda: run(content, "xcom-trpg", "eliminate", seed_from_int(SEED), path)  # noqa: E731
        else:
            play = lambda: carry_on(content, path)  # noqa: E731
        killed_run(path, 2 + i * (total - 2) // KILLS, play)
        check_killed(content, reference, path, i)
    carry_on(content, path)
    assert path.read_bytes() == reference, "the resumed mission went another way"
    assert log.seed_path(path).read_bytes() == reference_seed  # the same bytes: the reference's verdict, verified


@pytest.mark.slow
@pytest.mark.parametrize("kill", [3, 25, 47])
def test_a_killed_run_carried_on_straight_to_the_end_is_the_uninterrupted_one(content, reference, reference_seed,
                                                                              tmp_path, kill):
    total = reference.count(b"\n")
    path = tmp_path / "kill.jsonl"
    killed_run(path, 2 + kill * (total - 2) // KILLS,
               lambda: run(content, "xcom-trpg", "eliminate", seed_from_int(SEED), path))
    check_killed(content, reference, path, kill)
    carry_on(content, path)
    assert path.read_bytes() == reference and log.seed_path(path).read_bytes() == reference_seed


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
