"""`xenotac replay`: open a log in the viewer, verify it, or print its story."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tui.cli.common import load_content, log_ruleset, log_sides, player_view, positive, print_lines, readable


def add_parser(sub) -> None:
    rep = sub.add_parser("replay", help="open a mission log in the replay viewer, verify it, or print its story")
    rep.add_argument("log")
    how = rep.add_mutually_exclusive_group()
    how.add_argument("--verify", action="store_true", help="recompute every event and compare")
    how.add_argument("--story", action="store_true", help="print the story as text instead of opening the viewer")
    rep.add_argument("--seed-file", metavar="F", help="the seed, if the log has not revealed it yet")
    rep.add_argument("--jobs", type=positive, default=1, metavar="N",
                     help="with --verify: worker processes for the log's checkpoint segments")
    rep.add_argument("--keys", metavar="FILE", default=argparse.SUPPRESS, help="key map TOML")



def run(args: argparse.Namespace) -> int:
    from engine.play import verify

    path = Path(args.log)
    readable(path)
    content = load_content(args.content, log_ruleset(path))
    if args.story:
        from engine.log.story import story

        print_lines(story(path, content.terrain, _ground(content, path), player_view(content, path),
                          log_sides(content, path)))
        return 0
    if not args.verify:
        from tui import launch

        return launch.view(args, content, path)
    report = verify.verify(content, path, Path(args.seed_file) if args.seed_file else None, jobs=args.jobs)
    if report.failure is not None:
        print(f"FAILED at {report.failure}", file=sys.stderr)
        return 1
    print(f"verified {report.records} records")
    for note in (report.seed_note, report.unfinished):
        if note:
            print(note)
    return 0


def _ground(content, path: Path):
    """The map the log was played on, cell by cell, so the story tells a door opening or smoke clearing; None
    when this content cannot rebuild it (another content version), and the story says what cells became."""
    from engine.log import writer as log
    from engine.play.game import build, check_header

    try:
        header = log.read_header(path)
        check_header(content, header)
    except log.LogError:
        return None
    return build(content, header)[1].grid.tile
