"""`xenotac map`: an ASCII preview of a mission's map for a seed."""

from __future__ import annotations

import argparse
import json

from tui.cli.common import at_most, check_choice, check_playable, load_content, seed


def add_parser(sub) -> None:
    mp = sub.add_parser("map", help="an ASCII preview of a mission's map for a seed")
    mp.add_argument("--ruleset", default="xcom-trpg")
    mp.add_argument("--mission", default="eliminate")
    mp.add_argument("--seed", type=seed, default=1, help="the seed `play --seed` takes (default 1)")
    mp.add_argument("--count", type=at_most(100, "maps"), default=1, metavar="N", help="N seeds from --seed on")
    mp.add_argument("--json", action="store_true", help="the grid, units and zones as JSON")



def run(args: argparse.Namespace) -> int:
    """The map of a mission for each seed asked, exactly as `play --seed` makes it; exit 1 if a
    map breaks a guarantee."""
    from engine.play import preview

    content = load_content(args.content)
    check_playable(content, args.ruleset)
    check_choice("mission", args.mission.partition("@")[0], content.missions)
    check_choice("mission", args.mission, content.missions)
    check_playable(content, args.ruleset, args.mission)
    maps = [preview.describe(content, args.ruleset, args.mission, seed)
            for seed in range(args.seed, args.seed + args.count)]
    if args.json:
        print(json.dumps(maps[0] if args.count == 1 else maps))
    else:
        for i, d in enumerate(maps):
            if i:
                print()
            for line in preview.text(content, d):
                print(line)
    return 1 if any(d["problems"] for d in maps) else 0
