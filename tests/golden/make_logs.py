"""Writes the golden logs: one AI-vs-AI mission per mission type, seed 11, at most 15 phases.

Run it only when a rule or the content changes on purpose (say so in the CHANGELOG): the golden logs pin the
order in which rules run and draw their dice, so an accidental change fails `tests/test_golden.py`.

    python tests/golden/make_logs.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "logs"
MISSIONS = ("eliminate", "crash", "terror", "vip", "defend", "infiltrate")


def main() -> int:
    sys.path.insert(0, str(HERE.parents[2]))
    from tui.cli import main as xenotac

    HERE.mkdir(exist_ok=True)
    for mission in MISSIONS:
        out = HERE / f"{mission}.jsonl"
        for stale in HERE.glob(f"{mission}.jsonl*"):
            stale.unlink()
        code = xenotac(["simulate", "--mission", mission, "--seed", "11", "--max-turns", "15", "--out", str(out)])
        if code:
            return code
        for companion in HERE.glob(f"{mission}.jsonl.*"):  # the seed is revealed in the log; the lock is transient
            companion.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
