"""Replay viewer and audit figures (issue: audit and replay viewer), on a 10,000-record log of every ruleset."""

from __future__ import annotations

import time

from benchmarks import logs
from benchmarks.bench_engine import _parse, sizes
from benchmarks.common import Figure, interleaved, rounds
from engine.content import loader
from engine.core.ruleset import available
from engine.log import audit
from engine.play.timeline import Timeline


def figures() -> list[Figure]:
    content = loader.load()
    out = []
    mid = sizes()[2]
    for ruleset in available():
        path = logs.shared(content, ruleset, mid, sizes()[-1])
        timeline = Timeline(content, path)
        worst, total = 0.0, 0.0
        picks = [timeline.turns[(i * 7919) % len(timeline.turns)] for i in range(50)]
        for turn in picks:
            timeline._states, timeline._events = {1: timeline.initial}, {}  # no help from earlier jumps
            t = time.perf_counter()
            timeline.state_at(turn.n)
            took = time.perf_counter() - t
            worst, total = max(worst, took), total + took
        lines = path.read_bytes().splitlines()
        t = interleaved({"stats": lambda: list(audit.stats(path)), "parse": lambda: _parse(lines)}, rounds=rounds(3))
        stats, parse = t["stats"], t["parse"]
        out += [Figure(f"jump to a turn of a {mid:,}-record log (worst of 50, {ruleset})", worst * 1000, "ms",
                       "< 100 ms", worst < 0.1, f"× the mean jump ({total / len(picks) * 1000:.1f} ms)",
                       worst * len(picks) / total),
                Figure(f"audit --stats on {mid:,} records ({ruleset})", stats, "s", "< 2 s", stats < 2,
                       f"× json.loads of the same lines alone ({parse:.2f} s)", stats / parse)]
    return out
