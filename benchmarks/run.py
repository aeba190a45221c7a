"""Print every performance figure the issues name, each with its goal, its ratio to a reference measured
in the same run (interleaved, medians) and its verdict. A group that crashes is a failure, and the groups
after it still run.

    python benchmarks/run.py            # everything
    python benchmarks/run.py engine     # one group, or several: engine tui
    python benchmarks/run.py --quick    # logs a fifth as long, fewer rounds: for iterating, rougher figures

Groups: engine (trials, verify, resume and undo, simulate), audit, tui (first frames, bytes and latency in a
pseudo-terminal), viewer, missions (maps and the AI), serve (the SSH host). The machine's other load is
shared by both sides of every comparison; absolute rates still fall with it, so read them with the ratios.
Exit 0 when every figure met its goal, 1 when one did not, 2 for an unknown group.
"""

from __future__ import annotations

import importlib
import os
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GROUPS = ["engine", "audit", "tui", "viewer", "missions", "serve"]


def main(argv: list[str]) -> int:
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__.strip())
        return 0
    if "--quick" in argv:
        from benchmarks import common

        common.QUICK = True
        argv = [a for a in argv if a != "--quick"]
    unknown = [g for g in argv if g not in GROUPS]
    if unknown:
        print(f"run.py: no group {unknown[0]!r}; the groups are {', '.join(GROUPS)} (--help says more)",
              file=sys.stderr)
        return 2
    wanted = argv or GROUPS
    failed = 0
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start "
          "(other processes slow both sides of each comparison)", flush=True)
    for group in wanted:
        try:
            module = importlib.import_module(f"benchmarks.bench_{group}")
        except ModuleNotFoundError as exc:  # a group whose extra is not installed (serve: asyncssh) is a miss
            print(f"FAIL {group}: not available ({exc})", flush=True)
            failed += 1
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
