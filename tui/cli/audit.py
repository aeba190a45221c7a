"""`xenotac audit`: every roll of a log as a player would write it, one roll explained, or dice statistics."""

from __future__ import annotations

import argparse
from pathlib import Path

from tui.cli.common import BadInput, load_content, log_ruleset, log_sides, player_view, positive, print_lines, readable


def add_parser(sub) -> None:
    aud = sub.add_parser("audit", help="every roll of a log, as a player would write it")
    aud.add_argument("log")
    aud.add_argument("--record", type=positive, metavar="N", help="only line N of the log")
    aud.add_argument("--unit", metavar="ID", help="only this unit's rolls")
    aud.add_argument("--explain", action="store_true", help="with --record N: each roll's whole derivation")
    aud.add_argument("--stats", action="store_true", help="dice distribution, χ² test and luck-check rates")
    aud.add_argument("--seed-file", metavar="F", help="the seed, if the log has not revealed it yet")



def run(args: argparse.Namespace) -> int:
    from engine.log import audit

    path = Path(args.log)
    readable(path)
    if args.explain:
        from engine.play.timeline import Timeline

        if args.record is None:
            raise BadInput("--explain needs --record N: the line whose rolls to explain")
        from tui.replay import Replay

        timeline = Timeline(load_content(args.content, log_ruleset(path)), path, Path(args.seed_file) if args.seed_file else None)
        lines = Replay(timeline).explained(args.record)  # until the mission ends, the rolls the squad saw
        if timeline.broken:  # the record is explained; the damage after it is still said, as by every audit
            lines = [*lines, f"warning: {timeline.broken}; the records after it are not read"]
    elif args.stats:
        lines = audit.stats(path, log_sides(load_content(args.content, log_ruleset(path)), path))
    else:
        content = load_content(args.content, log_ruleset(path))
        lines = audit.render(path, args.record, args.unit, player_view(content, path), log_sides(content, path))
    print_lines(lines)
    return 0
