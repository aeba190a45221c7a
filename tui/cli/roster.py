"""`xenotac roster`: list, add, remove and initiate the squad's characters (saves/roster.toml).

Headless: no Textual. A refusal is one line and exit 2 (BadInput); a roster file that does not read is reported
the same way and never written over.
"""

from __future__ import annotations

import argparse
import sys

from tui.cli.common import BadInput, load_content, secret, seed


def add_parser(sub) -> None:
    p = sub.add_parser("roster", help="the squad's characters: list, add, remove, initiate")
    rs = p.add_subparsers(dest="roster_cmd", parser_class=type(p))
    add = rs.add_parser("add", help="create a character (xcom-trpg 2.3): 36 points, 42 for an epic")
    add.add_argument("name")
    add.add_argument("--race", default="human", help="race id (default human)")
    add.add_argument("--stats", required=True, metavar="str=7,agi=4,...",
                     help="points per stat: str agi int bra cha luck psi, or full names")
    add.add_argument("--armor", default="", help="armour id (default: the kit of the squad place it takes)")
    add.add_argument("--weapon", default="", help="weapon id (default: the kit of the squad place it takes)")
    add.add_argument("--seed", type=seed, metavar="N", help="seed of the HP die (default: random)")
    rm = rs.add_parser("remove", help="remove a character")
    rm.add_argument("name")
    ini = rs.add_parser("initiate", help="the psi initiation of a human (7.1): Luck*1d100 >= 100 unlocks")
    ini.add_argument("name")
    ini.add_argument("--seed", type=seed, metavar="N", help="seed of the die (default: random)")


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
            print(f"The roster ({path}) is empty: `xenotac roster add NAME --race human --stats "
                  "str=7,agi=6,int=5,bra=6,cha=4,luck=6,psi=2`")
        for ch in characters:
            print(line(content, ch))
        return 0
    if cmd == "add":
        if roster.find(characters, args.name) is not None:
            raise bad(f"{args.name}: a character of that name is on the roster already")
        try:
            stats = roster.parse_stats(args.stats)
            ch, _roll = roster.create(content, args.name, args.race, stats, roster.dice_for(seed_of(args.seed)[0]),
                                      armor=args.armor, weapon=args.weapon)
        except roster.RosterError as exc:
            raise bad(f"{args.name}: {exc}") from None
        _save(path, characters + [ch])
        for note in roster.advice(content, ch.race, ch.stats):
            print(f"note: {note} (a guideline, not a rule)", file=sys.stderr)
        print(f"added {ch.name} ({roster.races(content)[ch.race].name}), {ch.hp_roll}")
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
    try:
        ch, roll = roster.initiate(content, characters[at], roster.dice_for(seed_of(args.seed)[0]))
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
