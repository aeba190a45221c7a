"""Issue 14: a resumed simulation is the uninterrupted one, byte for byte.

What the AI decides must follow from the log alone. It used to keep what its side had seen in memory
only, so a resumed mission played on differently (24 of 29 resumes; another winner in one). Now each
checkpoint carries the AIs' memory and a resume retraces their decisions since it (engine.play.minds).
An interrupted run is the uninterrupted log's first lines, as a kill leaves it (test_crash kills for real).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.core.dice import seed_from_int
from engine.log import writer as log
from engine.play.game import CHECKPOINT_EVERY, Game
from engine.play.simulate import run
from engine.play.verify import verify


def reference(content, folder: Path, seed: int, mission: str = "eliminate", max_phases: int | None = None) -> Path:
    path = folder / f"ref-{mission}-{seed}.jsonl"
    run(content, "xcom-trpg", mission, seed_from_int(seed), path, max_phases=max_phases, public=seed).close()
    return path


def interrupted(ref: Path, folder: Path, keep: int, torn: bytes = b"") -> Path:
    """The log a process killed after writing line `keep` leaves (and, at worst, a torn next line)."""
    lines = ref.read_bytes().splitlines(keepends=True)
    path = folder / f"cut-{ref.stem}-{keep}-{len(torn)}.jsonl"
    path.write_bytes(b"".join(lines[:keep]) + torn)
    companion = log.read_companion(log.seed_path(ref))
    log.write_seed(path, companion.seed, companion.header)
    return path


def resumed_to_the_end(content, path: Path, stops: list[int] = ()) -> bytes:
    """Resume and play on; stop again after each line number in `stops` and resume once more."""
    for stop in [*stops, None]:
        game = Game.resume(content, path)
        while game.state.winner is None and (stop is None or game.writer.next_line <= stop):
            game.ai_step()
        game.close()
    return path.read_bytes()


def test_ai_commands_and_memories_are_in_the_log(content, tmp_path):
    ref = reference(content, tmp_path, 6, max_phases=5)
    recs = [json.loads(line) for line in ref.read_bytes().splitlines()]
    assert all(r.get("ai") is True for r in recs if r["kind"] == "command" and r["command"]["kind"] != "start")
    checkpoints = [r for r in recs if r["kind"] == "checkpoint"]
    assert checkpoints and all(set(c["ai"]) == {"xcom", "aliens"} for c in checkpoints)
    assert any(c["ai"]["aliens"]["memory"] or c["ai"]["aliens"]["explore"] for c in checkpoints)


def test_a_resumed_simulation_is_the_uninterrupted_one(content, tmp_path):
    """Cut just before and after a checkpoint, and mid-way, with and without a torn record."""
    ref = reference(content, tmp_path, 6, max_phases=5)
    whole = ref.read_bytes()
    lines = whole.splitlines(keepends=True)
    checkpoint = next(n for n, line in enumerate(lines, 1) if b'"kind":"checkpoint"' in line)
    assert checkpoint == CHECKPOINT_EVERY + 2
    for keep, torn in [(checkpoint - 1, b""), (checkpoint, b""), (checkpoint + 1, lines[checkpoint + 1][:30]),
                       (len(lines) * 2 // 3, b""), (2, b"")]:
        path = interrupted(ref, tmp_path, keep, torn)
        assert resumed_to_the_end(content, path) == whole, (keep, len(torn))
    assert verify(content, path).failure is None


def test_a_simulation_interrupted_twice_is_the_uninterrupted_one(content, tmp_path):
    ref = reference(content, tmp_path, 6, max_phases=5)
    path = interrupted(ref, tmp_path, 20)
    assert resumed_to_the_end(content, path, stops=[70, 71]) == ref.read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("mission", ["eliminate", "crash", "terror", "vip", "defend"])
def test_many_seeds_interrupted_at_random_records_resume_byte_for_byte(content, tmp_path, mission):
    rng = random.Random(mission)
    for seed in range(1, 7):
        ref = reference(content, tmp_path, seed, mission)
        whole = ref.read_bytes()
        lines = whole.splitlines(keepends=True)
        for keep in sorted(rng.sample(range(2, len(lines)), 3)):
            torn = lines[keep][: rng.randrange(len(lines[keep]))] if rng.random() < 0.3 else b""
            path = interrupted(ref, tmp_path, keep, torn)
            assert resumed_to_the_end(content, path) == whole, (mission, seed, keep, len(torn))
