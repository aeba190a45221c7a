"""`xenotac roster`: list, create, remove and improve the squad's characters (saves/roster.toml), in any ruleset
that has character creation.

Headless: no Textual. A refusal is one line and exit 2 (BadInput); a roster file that does not read is reported
the same way and never written over.
"""

from __future__ import annotations

import argparse
import sys

from tui.cli.common import BadInput, load_content, secret, seed


def add_parser(sub) -> None:
    p = sub.add_parser("roster", help="the squad's characters: list, new, remove, initiate, train")
    rs = p.add_subparsers(dest="roster_cmd", parser_class=type(p))
    add = rs.add_parser("new", aliases=["add"], help="create a character in a ruleset's creation rules "
                                                     "(xcom-trpg 2.3: 36 points, 42 for an epic)")
    add.add_argument("name")
    add.add_argument("--ruleset", default=None, help="the ruleset it is made in (default: the first that can)")
    add.add_argument("--pick", action="append", default=[], metavar="CHOICE=OPTION",
                     help="a choice of the ruleset's creation: race=muton, type=varan, armor=light... (repeat)")
    add.add_argument("--race", default=None, help="shorthand for --pick race=ID")
    add.add_argument("--stats", default="", metavar="str=7,agi=4,...",
                     help="the numbers a player sets, by name, short name or the start of the name")
    add.add_argument("--armor", default=None, help="shorthand for --pick armor=ID (xcom-trpg)")
    add.add_argument("--weapon", default=None, help="shorthand for --pick weapon=ID (xcom-trpg)")
    add.add_argument("--seed", type=seed, metavar="N", help="seed of its dice (default: random)")
    rm = rs.add_parser("remove", help="remove a character")
    rm.add_argument("name")
    ini = rs.add_parser("initiate", help="the character's between-missions roll (xcom-trpg 7.1: a human's psi "
                                         "initiation, Luck*1d100 >= 100 unlocks)")
    ini.add_argument("name")
    ini.add_argument("--seed", type=seed, metavar="N", help="seed of the die (default: random)")
    tr = rs.add_parser("train", help="set numbers of a made character (annihilation: buy skill levels with the "
                                     "slots its Education gives, A-4.1)")
    tr.add_argument("name")
    tr.add_argument("--stats", required=True, metavar="medic=3,...", help="the numbers, as `new --stats` takes them")


def _draft(content, args, bad):
    import attrs

    from engine.play import roster

    ruleset = args.ruleset or (roster.creators(content) or ["?"])[0]
    picks = {}
    for text in args.pick:
        choice, eq, option = text.partition("=")
        if not eq or not choice.strip() or not option.strip():
            raise bad(f"{args.name}: {text!r}: write a pick as choice=option, e.g. race=human")
        picks[choice.strip()] = option.strip()
    for choice in ("race", "armor", "weapon"):
        if getattr(args, choice):
            picks[choice] = getattr(args, choice)
    draft = roster.creation(content, ruleset).draft(picks)
    numbers = roster.parse_numbers(content, ruleset, draft, args.stats) if args.stats else {}
    return ruleset, attrs.evolve(draft, name=args.name, numbers=numbers)  # a number left out is missing


def run(args: argparse.Namespace) -> int:
    from engine.play import roster
    from tui.saves import saves_dir
    from tui.squad import line, path_of, read

    content, saves, bad, seed_of = load_content(args.content), saves_dir(args.saves), BadInput, secret
    path = path_of(saves)
    characters = read(content, path, bad)
    cmd = args.roster_cmd
    if cmd is None:
        if not characters:
            print(f"The roster ({path}) is empty: `xenotac roster new NAME --race human --stats "
                  "str=7,agi=6,int=5,bra=6,cha=4,luck=6,psi=2`, or `--ruleset ID` for another ruleset")
        for ch in characters:
            print(line(content, ch))
        return 0
    if cmd in ("new", "add"):
        if roster.find(characters, args.name) is not None:
            raise bad(f"{args.name}: a character of that name is on the roster already")
        try:
            ruleset, draft = _draft(content, args, bad)
            rules = roster.creation(content, ruleset)
            ch, _rolls = roster.create(content, ruleset, draft, roster.dice_for(seed_of(args.seed)[0]))
        except roster.RosterError as exc:
            raise bad(f"{args.name}: {exc}") from None
        _save(path, characters + [ch])
        for row in rules.preview(draft):
            if row.alert:
                print(f"note: {row.text.removeprefix('⚠ ')}", file=sys.stderr)
        print(f"added {ch.name} ({roster.describe(content, ch)[0]}), {roster.made(content, ch)}")
        return 0
    at = roster.find(characters, args.name)
    if at is None:
        known = ", ".join(c.name for c in characters) or "the roster is empty"
        raise bad(f"no character named {args.name!r} on the roster ({known})")
    if cmd == "remove":
        gone = characters.pop(at)
        _save(path, characters)
        print(f"removed {gone.name}")
        return 0
    if cmd == "train":
        try:
            characters[at] = roster.train(content, characters[at], args.stats)
        except roster.RosterError as exc:
            raise bad(str(exc)) from None
        _save(path, characters)
        print(f"{characters[at].name}: {roster.describe(content, characters[at], wide=True)[1]}")
        return 0
    try:
        ch, roll = roster.improve(content, characters[at], roster.dice_for(seed_of(args.seed)[0]))
    except roster.RosterError as exc:
        raise bad(str(exc)) from None
    characters[at] = ch
    _save(path, characters)
    print(f"{ch.name}: {roll.formula}")
    return 0


def _save(path, characters) -> None:
    from engine.play import roster

    try:
        roster.save(path, characters)
    except roster.RosterError as exc:
        raise BadInput(str(exc)) from None
