"""What every benchmark reports: a figure, its limit, and a reference measured in the same run."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable


@dataclass
class Figure:
    name: str
    value: float
    unit: str
    limit: str  # the target, as text: "<= 4096 bytes", ">= 20000/s"
    ok: bool
    reference: str = ""  # what the ratio means: "× the speed of json.loads alone (26,000/s)"
    ratio: float | None = None  # value / reference value, measured in the same run

    def line(self) -> str:
        ratio = f"\n     ratio {self.ratio:.2f}{self.reference}" if self.ratio is not None else ""
        mark = "ok  " if self.ok else "FAIL"
        return f"{mark} {self.name:<46} {self.value:>12.2f} {self.unit:<10} (target {self.limit}){ratio}"


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """Best wall time of a few runs: the least disturbed by the other core's work."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best
