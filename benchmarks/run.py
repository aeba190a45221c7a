"""Print every performance figure the issues name, each with its goal, its ratio to a reference measured
in the same run (interleaved, medians) and its verdict. A group that crashes is a failure, and the groups
after it still run.

    python benchmarks/run.py            # everything
    python benchmarks/run.py engine     # one group
"""

from __future__ import annotations

import importlib
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GROUPS = ["engine", "audit", "tui", "viewer", "missions", "serve"]


def main(argv: list[str]) -> int:
    wanted = argv or GROUPS
    failed = 0
    for group in wanted:
        try:
            module = importlib.import_module(f"benchmarks.bench_{group}")
        except ModuleNotFoundError as exc:
            print(f"{group}: not available ({exc})")
            continue
        print(f"== {group}", flush=True)
        try:
            for figure in module.figures():
                print(figure.line(), flush=True)
                failed += not figure.ok
        except Exception:  # noqa: BLE001 - one broken group must not hide the others
            print(f"FAIL {group}: the group crashed\n{traceback.format_exc()}", flush=True)
            failed += 1
    print(f"{failed} figure(s) missed their target" if failed else "all figures met their targets")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
