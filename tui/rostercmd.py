"""`xenotac roster`: list, add, remove and initiate the squad's characters (saves/roster.toml).

Headless: no Textual. A refusal is one line and exit 2 (tui.cli.BadInput); a roster file that does
not read is reported the same way and never written over.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine import roster
from engine.content import Content

SHORT_NAMES = {"strength": "Str", "agility": "Agi", "intelligence": "Int", "bravery": "Bra", "charisma": "Cha",
               "luck": "Lck", "psionics": "Psi"}


def add_parser(sub) -> None:
    from tui.cli import _seed

    p = sub.add_parser("roster", help="the squad's characters: list, add, remove, initiate")
    rs = p.add_subparsers(dest="roster_cmd", parser_class=type(p))
    add = rs.add_parser("add", help="create a character (xcom-trpg 2.3): 36 points, 42 for an epic")
    add.add_argument("name")
    add.add_argument("--race", default="human", help="race id (default human)")
    add.add_argument("--stats", required=True, metavar="str=7,agi=4,...",
                     help="points per stat: str agi int bra cha luck psi, or full names")
    add.add_argument("--armor", default="", help="armour id (default: the kit of the squad place it takes)")
    add.add_argument("--weapon", default="", help="weapon id (default: the kit of the squad place it takes)")
    add.add_argument("--seed", type=_seed, metavar="N", help="seed of the HP die (default: random)")
    rm = rs.add_parser("remove", help="remove a character")
    rm.add_argument("name")
    ini = rs.add_parser("initiate", help="the psi initiation of a human (7.1): Luck*1d100 >= 100 unlocks")
    ini.add_argument("name")
    ini.add_argument("--seed", type=_seed, metavar="N", help="seed of the die (default: random)")


def path_of(saves: Path) -> Path:
    return saves / roster.FILE


def read(content: Content, path: Path, bad) -> list[roster.Character]:
    try:
        return roster.load(path, content)
    except roster.RosterError as exc:
        raise bad(f"{exc} (fix or move the file; it is never overwritten)") from None


def squad_for(content: Content, saves: Path, ruleset: str, mission: str, bad) -> list[roster.Character]:
    """The roster characters a new mission deploys (none for another ruleset)."""
    return roster.deploying(content, ruleset, mission, read(content, path_of(saves), bad))


def psi_word(content: Content, ch: roster.Character) -> str:
    race = content.races[ch.race]
    if ch.initiation and not ch.psi_awakened:
        return "psi lost"
    if ch.stats.get("psionics", 0) == 0:
        return "no psi"
    if race.psi_locked and not ch.psi_awakened:
        return "psi locked until initiation"
    return "psi active"


def line(content: Content, ch: roster.Character) -> str:
    final = roster.final_stats(content, ch)
    cells = [f"{SHORT_NAMES.get(k, k)} {final[k]}" + (f"({v}{final[k] - v:+d})" if final[k] != v else "")
             for k, v in ch.stats.items()]
    return f"{ch.name:<14} {content.races[ch.race].name:<16} {' '.join(cells)}  HP {ch.hp}  {psi_word(content, ch)}"


def run(args: argparse.Namespace, content: Content, saves: Path, bad, seed_of) -> int:
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
        roster.save(path, characters + [ch])
        for note in roster.advice(content, ch.race, ch.stats):
            print(f"note: {note} (a guideline, not a rule)", file=sys.stderr)
        print(f"added {ch.name} ({content.races[ch.race].name}), {ch.hp_roll}")
        return 0
    at = roster.find(characters, args.name)
    if at is None:
        known = ", ".join(c.name for c in characters) or "the roster is empty"
        raise bad(f"no character named {args.name!r} on the roster ({known})")
    if cmd == "remove":
        gone = characters.pop(at)
        roster.save(path, characters)
        print(f"removed {gone.name}")
        return 0
    try:
        ch, roll = roster.initiate(content, characters[at], roster.dice_for(seed_of(args.seed)[0]))
    except roster.RosterError as exc:
        raise bad(str(exc)) from None
    characters[at] = ch
    roster.save(path, characters)
    print(f"{ch.name}: {roll.formula}")
    return 0
