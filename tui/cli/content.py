"""`xenotac content check`: every problem in a content folder, one located line each."""

from __future__ import annotations

import argparse
import sys

from tui.cli.common import EXIT_BAD_INPUT


def add_parser(sub) -> None:
    con = sub.add_parser("content", help="content tools")
    con_sub = con.add_subparsers(dest="content_cmd", parser_class=type(con), required=True)
    chk = con_sub.add_parser("check", help="list every problem in a content folder")
    chk.add_argument("dir", nargs="?")


def run(args: argparse.Namespace) -> int:
    from engine.content import loader

    directory = [args.dir, *(args.content or [])] if args.dir else args.content
    try:
        content = loader.load(directory)
    except loader.ContentError as exc:
        for message in exc.messages:
            print(message)
        print(f"{len(exc.messages)} problem(s)", file=sys.stderr)
        return EXIT_BAD_INPUT
    own = "; ".join(f"{rid}: {', '.join(f'{len(t)} {kind}' for kind, t in kinds.items() if t)}"
                    for rid, kinds in sorted(content.rules.items()) if any(kinds.values()))
    print(f"content OK: {len(content.terrain)} tiles, {len(content.missions)} missions; {own} "
          f"(sha256 {content.sha256[:12]})")
    return 0

