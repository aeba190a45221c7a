"""What every benchmark reports: a figure, its goal, and a reference measured in the same run.

Every timed comparison runs its sides interleaved (A, B, A, B, ...) and reports medians, so both see the
same machine load; a figure whose goal is a ratio carries that ratio as its value, so every goal printed
is a goal checked.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Callable

QUICK = False  # `run.py --quick`: shorter logs and fewer rounds, for iterating; the figures are then rougher


def rounds(full: int) -> int:
    return min(full, 3) if QUICK else full


@dataclass
class Figure:
    name: str
    value: float
    unit: str
    goal: str  # the goal, as text: "<= 4096 bytes", ">= 20000/s", "<= 10×"
    ok: bool  # the value meets the goal
    reference: str = ""  # what the ratio means: "× json.loads of the same lines (98,000/s)"
    ratio: float | None = None  # value against the reference, measured in the same run (information)

    def line(self) -> str:
        ratio = f"\n     ratio {self.ratio:.2f}{self.reference}" if self.ratio is not None else ""
        mark = "ok  " if self.ok else "FAIL"
        return f"{mark} {self.name:<52} {self.value:>12.2f} {self.unit:<10} (goal {self.goal}){ratio}"


@dataclass
class Note:
    """A line with no goal: why a figure does not apply (a ruleset with no `resolve`)."""

    name: str
    why: str
    ok: bool = True

    def line(self) -> str:
        return f"n/a  {self.name:<52} {self.why}"


def at_most(name: str, value: float, unit: str, limit: float, **kw) -> Figure:
    return Figure(name, value, unit, f"<= {limit:g}{unit if unit == '×' else ' ' + unit}", value <= limit, **kw)


def at_least(name: str, value: float, unit: str, limit: float, **kw) -> Figure:
    return Figure(name, value, unit, f">= {limit:g} {unit}", value >= limit, **kw)


def interleaved(runs: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Median wall time of each run, the runs taken in turn `rounds` times."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, fn in runs.items():
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
    return {name: statistics.median(v) for name, v in times.items()}


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """Best wall time of a few runs: for a figure with a fixed goal and no reference."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


# A child's own peak memory in KiB, as that child measures it (print it last). Linux's `ru_maxrss` is no good
# here: a child forked from the benchmark starts with the benchmark's whole high-water mark and keeps it across
# exec, so it reported the parent's hundreds of MB. `VmHWM` belongs to the child's own address space.
PEAK_KIB = ("import resource as _r\n"
            "def _peak_kib():\n"
            "    try:\n"
            "        with open('/proc/self/status') as f:\n"
            "            return int(next(l for l in f if l.startswith('VmHWM:')).split()[1])\n"
            "    except (OSError, StopIteration):\n"
            "        return _r.getrusage(_r.RUSAGE_SELF).ru_maxrss  # no /proc: the best there is\n")
