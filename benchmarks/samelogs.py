"""Prove a change leaves every log byte for byte the same: write one ruleset's logs (every mission played AI
against AI, seeds 1-4, plus a 3,000-line log of cheap moves), then compare them with logs written before.

    python benchmarks/samelogs.py RULESET DIR                 # write the logs into DIR (before the change)
    python benchmarks/samelogs.py RULESET DIR --against OLD   # write them, then compare each with OLD's

Run it from the checkout whose code is to be proven (it imports the engine beside it). A performance change must
print "same" for every ruleset it touches. Exit 0 when all are the same, 1 naming the first that differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SEEDS = (1, 2, 3, 4)
LONG = 3_000


def write(ruleset: str, out: Path) -> list[Path]:
    from rich.progress import Progress

    from benchmarks import logs
    from engine.content import loader
    from engine.core.dice import seed_from_int
    from engine.play import catalog, simulate

    content = loader.load()
    missions = catalog.missions_for(content, ruleset)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with Progress(transient=True) as bar:
        task = bar.add_task(f"{ruleset}: logs", total=len(SEEDS) * len(missions) + 1)
        for seed in SEEDS:
            for mission in missions:
                path = out / f"{mission}-{seed}.jsonl"
                _clear(path)
                simulate.run(content, ruleset, mission, seed_from_int(seed), path).close()
                written.append(path)
                bar.advance(task)
        path = out / "long.jsonl"
        _clear(path)
        logs.long_log(content, path, LONG, "eliminate", ruleset)
        written.append(path)
        bar.advance(task)
    for lock in out.glob("*.lock"):
        lock.unlink()
    return written


def _clear(path: Path) -> None:
    for old in path.parent.glob(path.name + "*"):
        old.unlink()


def main(argv: list[str]) -> int:
    from engine.core.ruleset import available

    p = argparse.ArgumentParser(prog="samelogs.py", description=__doc__.splitlines()[0])
    p.add_argument("ruleset", choices=available())
    p.add_argument("dir", type=Path)
    p.add_argument("--against", type=Path, metavar="OLD", help="logs written before the change, to compare with")
    args = p.parse_args(argv)
    written = write(args.ruleset, args.dir)
    if args.against is None:
        print(f"wrote {len(written)} logs (and their seed files) to {args.dir}")
        return 0
    for path in written:
        for mine in (path, path.with_name(path.name + ".seed")):
            old = args.against / mine.name
            if not old.is_file():
                print(f"samelogs.py: {old} is missing: write the old logs with the same RULESET first", file=sys.stderr)
                return 1
            if old.read_bytes() != mine.read_bytes():
                print(f"DIFFERENT {mine.name}: {mine} is not byte for byte {old}")
                return 1
    print(f"same: {len(written)} logs of {args.ruleset} byte for byte as in {args.against}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
