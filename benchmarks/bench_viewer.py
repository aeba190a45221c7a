"""Replay viewer figures (issue: audit and replay viewer, Performance), on a 10,000-record log.

A jump in the viewer is everything a key press to another turn costs before the repaint: the state
from the log's checkpoints, each side's fog from the viewer's snapshots, the map frame and the
panels. It is compared with the engine's own jump (Timeline.state_at) measured in the same run.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from benchmarks import logs
from benchmarks.bench_engine import sizes
from benchmarks.common import Figure
from engine.content import loader
from engine.play.timeline import Timeline
from tui.fog import Fog

JUMPS = 50


def figures() -> list[Figure]:
    from tui.app import XenotacApp

    content = loader.load()
    with tempfile.TemporaryDirectory() as d:
        path = logs.shared(content, "xcom-trpg", sizes()[2], sizes()[-1])
        t = time.perf_counter()
        timeline = Timeline(content, path)
        opened = time.perf_counter() - t
        t = time.perf_counter()
        Fog(timeline).fill()  # what the viewer's worker does once the screen is up
        fill = time.perf_counter() - t
        app = XenotacApp(content, Path(d), replay=timeline)
        result: dict[str, float] = {}

        async def run() -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                viewer = app.screen
                for worker in list(viewer.workers):
                    await worker.wait()
                turns = viewer.replay.turns
                picks = [turns[(i * 7919) % len(turns)] for i in range(JUMPS)]
                worst = total = engine = 0.0
                for view, turn in zip(["xcom", "aliens"] * JUMPS, picks):
                    viewer.view = view
                    timeline._states, timeline._events = {1: timeline.initial}, {}  # no help from earlier jumps
                    t1 = time.perf_counter()
                    timeline.state_at(turn.n)
                    engine += time.perf_counter() - t1
                    timeline._states, timeline._events = {1: timeline.initial}, {}
                    t1 = time.perf_counter()
                    viewer.go(turn.n)
                    took = time.perf_counter() - t1
                    worst, total = max(worst, took), total + took
                    await pilot.pause()
                result.update(worst=worst, mean=total / JUMPS, engine=engine / JUMPS)

        asyncio.run(run())
    worst, mean, engine = result["worst"], result["mean"], result["engine"]
    return [Figure("viewer: jump to a turn, 10,000 records (worst of 50)", worst * 1000, "ms", "< 100 ms",
                   worst < 0.1, f"× the engine's state_at jump alone (mean {engine * 1000:.1f} ms)",
                   mean / engine),
            Figure("viewer: fog pass over the final branch (a worker)", fill, "s", "none: off the UI", True,
                   f"× reading the log into a Timeline ({opened:.2f} s)", fill / opened)]
