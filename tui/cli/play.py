"""`xenotac play` and `xenotac resume`, and the title menu of a bare `xenotac`: the terminal client."""

from __future__ import annotations

import argparse

from tui.cli.common import seed


def add_parser(sub) -> None:
    play = sub.add_parser("play", help="start a new mission in the terminal client")
    play.add_argument("--ruleset", default="xcom-trpg")
    play.add_argument("--mission", default="eliminate", help="mission id, or ID@LEVEL (e.g. terror@veteran)")
    play.add_argument("--difficulty", metavar="D", help="difficulty level (default: the content's default)")
    play.add_argument("--seed", type=seed)
    play.add_argument("--casual", action="store_true", help="allow undo across dice rolls")
    play.add_argument("--out", metavar="FILE", help="name the mission's log (a new file; default: saves/MISSION-WHEN.jsonl)")
    play.add_argument("--no-roster", action="store_true", help="deploy the mission's own soldiers, not the roster's")
    play.add_argument("--keys", metavar="FILE", default=argparse.SUPPRESS, help="key map TOML")

    resume = sub.add_parser("resume", help="continue the most recent unfinished mission, or LOG")
    resume.add_argument("log", nargs="?")
    resume.add_argument("--recover", action="store_true",
                        help="a damaged log: carry its good part on in a new file (the log is kept)")
    resume.add_argument("--keys", metavar="FILE", default=argparse.SUPPRESS, help="key map TOML")

def run(args: argparse.Namespace) -> int:
    from tui import launch

    return launch.run(args)
