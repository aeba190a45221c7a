"""The squad's roster: characters made by the creation rules (xcom-trpg 2.3), kept across missions.

Saved as TOML (tomli-w) in `saves/roster.toml`, one `[[character]]` table each, in squad order.
HP is rolled once, at creation, with the final Strength (6.1), and kept with the roll that made it.
Besides `engine.loader` and `engine.log`, this is the one module that reads and writes a file.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import attrs
import tomli_w

from engine.content import tables
from engine.content.models import Content, Race, UnitTemplate
from engine.core import files
from engine.core.dice import Dice, Faces, Roll

RULESET = "xcom-trpg"  # the stat system roster characters are made in
FILE = "roster.toml"
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9 '\-]{0,23}$")
SHORT = {"str": "strength", "agi": "agility", "int": "intelligence", "bra": "bravery", "cha": "charisma",
         "lck": "luck", "luc": "luck", "psi": "psionics"}


@attrs.frozen(kw_only=True)
class Character:
    name: str
    race: str
    stats: dict[str, int]  # allocated points; race modifiers are added when the character deploys
    hp: int
    hp_roll: str  # the roll that made it, as a player writes it: "hp (7-1)*10+4=64"
    psi_awakened: bool = False  # a human past the initiation (7.1)
    initiation: str = ""  # the initiation roll, once made
    armor: str = ""  # "" = the armour of the squad place it takes
    weapon: str = ""  # "" = the weapon of the squad place it takes


@attrs.frozen(kw_only=True)
class _File:
    character: list[Character] = attrs.field(factory=list)


class RosterError(ValueError):
    """A refused choice or an unreadable roster, in one line a player can act on."""


def _own(content: Content) -> SimpleNamespace:
    """The tables of the ruleset roster characters are made in (content/xcom-trpg/)."""
    return tables.of(content, RULESET)


def races(content: Content) -> dict[str, Race]:
    return _own(content).races


def stat_names(content: Content) -> list[str]:
    return list(_own(content).rulesets[RULESET].stats)


def key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def template_id(ch: Character) -> str:
    """The unit template (and unit id) a roster character deploys as."""
    return f"roster_{key(ch.name)}"


def playable_races(content: Content) -> list[str]:
    return [rid for rid, race in _own(content).races.items() if race.playable]


def limits(content: Content, race_id: str, stat: str) -> tuple[int, int]:
    """[minimum, race cap] for allocated points (2.1-2.2)."""
    rules = _own(content).rulesets[RULESET]
    race = _own(content).races[race_id]
    low = rules.stat_minimums.get(stat, rules.stat_min)
    if stat in race.fixed:
        return race.fixed[stat], race.fixed[stat]
    return low, race.caps.get(stat, rules.stat_max)


def budget(content: Content, race_id: str) -> int:
    rules = _own(content).rulesets[RULESET]
    return rules.epic_creation_points if _own(content).races[race_id].epic else rules.creation_points


def complete(content: Content, race_id: str, stats: dict[str, int]) -> dict[str, int]:
    """The stats with every forced value filled in (berserker Bravery 10, a Psionics capped at 0)."""
    forced = {}
    for name in _own(content).rulesets[RULESET].stats:
        low, high = limits(content, race_id, name)
        if low == high:
            forced[name] = low
    order = _own(content).rulesets[RULESET].stats
    merged = {**forced, **stats}
    return {k: merged[k] for k in sorted(merged, key=lambda k: order.index(k) if k in order else len(order))}


def article(race: Race) -> str:
    name = race.name.lower()
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def refusal(content: Content, race_id: str, stat: str, value: int) -> str | None:
    """Why one stat value is refused: "strength 6: a sectoid has at most 5"."""
    low, high = limits(content, race_id, stat)
    race = _own(content).races[race_id]
    if stat in race.fixed and value != low:
        return f"{stat} {value}: {article(race)} has {low} {stat}, placed automatically"
    if value > high:
        return f"{stat} {value}: {article(race)} has at most {high}"
    if value < low:
        return f"{stat} {value}: the minimum is {low}"
    return None


def check(content: Content, race_id: str, stats: dict[str, int]) -> list[str]:
    """Why these allocated points are refused (2.2-2.4); empty when they stand."""
    race = _own(content).races.get(race_id)
    if race is None or not race.playable:
        return [f"unknown race {race_id!r}; one of {', '.join(playable_races(content))}"]
    rules = _own(content).rulesets[RULESET]
    out = [f"{name} is not a stat; one of {', '.join(rules.stats)}" for name in stats if name not in rules.stats]
    for name in rules.stats:
        if name not in stats:
            out.append(f"{name} is missing")
        elif (why := refusal(content, race_id, name, stats[name])) is not None:
            out.append(why)
    total, spent = budget(content, race_id), sum(v for k, v in stats.items() if k in rules.stats)
    if spent > total:
        out.append(f"{spent} points spent: {article(race)} has {total}")
    elif spent < total and not out:
        out.append(f"{total - spent} of {total} points still to spend")
    return out


def advice(content: Content, race_id: str, stats: dict[str, int]) -> list[str]:
    """The soft guideline (2.3): a soldier's Strength and Agility above the race average."""
    race, out = _own(content).races[race_id], []
    for name in ("strength", "agility"):
        low, high = limits(content, race_id, name)
        mod = race.modifiers.get(name, 0)  # judged on final values: a muton's Strength runs 6-15
        above = (low + high + 2 * mod) // 2 + 1
        if stats.get(name, 0) + mod < above:
            out.append(f"{name} {stats.get(name, 0) + mod}: a soldier usually has {above}+ "
                       f"(above {article(race)}'s average)")
    return out


def final_stats(content: Content, ch: Character) -> dict[str, int]:
    """Allocated points plus race modifiers: muton +5 Str; floater +1 Str +4 Agi (may exceed 10)."""
    mods = _own(content).races[ch.race].modifiers
    return {k: v + mods.get(k, 0) for k, v in ch.stats.items()}


def hp_range(content: Content, race_id: str, strength: int) -> tuple[int, int]:
    """HP the 1d10 can give for this allocated Strength (6.1)."""
    final = {"strength": strength + _own(content).races[race_id].modifiers.get("strength", 0)}
    formula = _own(content).rulesets[RULESET].hp
    return formula.evaluate(final, lambda sides: 1)[0], formula.evaluate(final, lambda sides: sides)[0]


def dice_for(seed: bytes) -> Dice:
    return Dice(Faces(seed))


def create(content: Content, name: str, race_id: str, stats: dict[str, int], dice: Dice,
           armor: str = "", weapon: str = "") -> tuple[Character, Roll]:
    """A new character, its HP rolled once with the final Strength; RosterError says why not."""
    if not NAME.match(name):
        raise RosterError(f"{name!r}: a name is 1-24 letters, digits, spaces, ' or -, starting with a letter")
    problems = check(content, race_id, complete(content, race_id, stats) if race_id in _own(content).races else stats)
    if armor and armor not in _own(content).armor:
        problems.append(f"unknown armour {armor!r}")
    if weapon and weapon not in _own(content).weapons:
        problems.append(f"unknown weapon {weapon!r}")
    if problems:
        raise RosterError("; ".join(problems))
    stats = complete(content, race_id, stats)
    ch = Character(name=name, race=race_id, stats=stats, hp=0, hp_roll="", armor=armor, weapon=weapon)
    formula = _own(content).rulesets[RULESET].hp
    first: list[int] = []

    def die(sides: int) -> int:
        face, index = dice.d(sides, key(name), "hp")
        first.append(index)
        return face

    hp, shown, faces = formula.evaluate(final_stats(content, ch), die)
    roll = Roll(actor=key(name), purpose="hp", expr=formula.text, faces=tuple(faces), formula=f"hp {shown}",
                total=hp, index=first[0] if first else -1)
    dice.note(roll, f"rulesets.toml [{RULESET}].hp = \"{formula.text}\" (6.1), rolled once at creation")
    return attrs.evolve(ch, hp=hp, hp_roll=roll.formula), roll


def parse_stats(text: str) -> dict[str, int]:
    """`str=7,agi=4,...` or full names, as `roster add --stats` takes them."""
    out: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        name, eq, value = part.partition("=")
        name = name.strip().lower()
        name = SHORT.get(name, name)
        if not eq or not value.strip().lstrip("-").isdigit():
            raise RosterError(f"{part!r}: write each stat as name=number, e.g. str=7")
        if name in out:
            raise RosterError(f"{name} is given twice")
        out[name] = int(value)
    return out


# -- psi initiation (7.1) ----------------------------------------------------------------------


def initiate(content: Content, ch: Character, dice: Dice) -> tuple[Character, Roll]:
    """Luck*1d100 >= 100 unlocks; a crit success also gives +1 Psionics (may pass the cap); a crit
    failure costs 1 Intelligence; any failure loses the psi points for good."""
    race = _own(content).races[ch.race]
    if not race.psi_locked:
        raise RosterError(f"{ch.name}: {article(race)}'s psionics needs no initiation")
    if ch.initiation:
        raise RosterError(f"{ch.name} has been through initiation already ({ch.initiation})")
    if ch.stats.get("psionics", 0) < 1:
        raise RosterError(f"{ch.name}: initiation needs at least 1 point in psionics")
    from engine.core.ruleset import make

    # Allocated stats: the races that need initiation (human, GMZ) have no modifiers to add.
    done = make(RULESET, content, None).initiate(dice, key(ch.name), dict(ch.stats))
    dice.note(done.roll, "7.1: Luck*1d100 >= 100 unlocks; crits by the raw die (3.4)")
    return attrs.evolve(ch, stats=done.stats, psi_awakened=done.awakened, initiation=done.text), done.roll


# -- the file ----------------------------------------------------------------------------------


def _converter():
    from engine.content.strict import make_converter

    return make_converter()


def structure(doc: Any, where: str) -> list[Character]:
    """Characters from a TOML document or a log header, strictly: one located line on a mistake."""
    from engine.content.strict import walk as _walk

    try:
        return list(_converter().structure(doc, _File).character)
    except Exception as exc:  # noqa: BLE001 - every failure becomes located messages
        found: list[str] = []
        _walk(exc, "", found)
        found = [m.replace("[character][", "character[", 1).removeprefix(": ") for m in found] or [str(exc)]
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise RosterError(f"{where}: {found[0]}{more}") from None


def validate(content: Content, characters: list[Character]) -> list[str]:
    """What content must hold for these characters to deploy; loaded rosters are checked against it."""
    out, seen = [], set()
    stats = _own(content).rulesets[RULESET].stats
    for i, ch in enumerate(characters):
        at = f"character[{i}]"
        if ch.race not in _own(content).races:
            out.append(f"{at}.race: unknown race {ch.race!r}")
        if sorted(ch.stats) != sorted(stats):
            out.append(f"{at}.stats: expected exactly {', '.join(stats)}")
        elif ch.race in _own(content).races:  # a hand-edited Strength 1000000 is not a character the rules can mean
            slack = 1 if ch.initiation else 0  # an initiation's crit may pass the cap by one, or cost a point
            for name, value in ch.stats.items():
                low, high = limits(content, ch.race, name)
                if not low - slack <= value <= high + slack:
                    out.append(f"{at}.stats.{name}: {str(value)[:12]} is outside {low - slack} to {high + slack} "
                               f"for {article(_own(content).races[ch.race])}")
        if not 1 <= ch.hp <= 100_000:
            out.append(f"{at}.hp: {str(ch.hp)[:12]} is not a number of hit points the rules can mean")
        if ch.armor and ch.armor not in _own(content).armor:
            out.append(f"{at}.armor: unknown armour {ch.armor!r}")
        if ch.weapon and ch.weapon not in _own(content).weapons:
            out.append(f"{at}.weapon: unknown weapon {ch.weapon!r}")
        if key(ch.name) in seen or not NAME.match(ch.name):
            out.append(f"{at}.name: {ch.name!r} is " + ("taken" if key(ch.name) in seen else "not a name"))
        seen.add(key(ch.name))
    return out


def load(path: Path, content: Content) -> list[Character]:
    """The roster in squad order; none if the file does not exist; RosterError in one line if it is bad."""
    try:
        text = files.read_capped(path).decode("utf-8")
    except FileNotFoundError:
        return []
    except UnicodeDecodeError:
        raise RosterError(f"{path}: not UTF-8 text") from None
    except files.FileProblem as exc:
        raise RosterError(str(exc)) from None
    except OSError as exc:
        raise RosterError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        doc = files.toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise RosterError(f"{path}: {exc}") from None
    characters = structure(doc, str(path))
    problems = validate(content, characters)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise RosterError(f"{path}: {problems[0]}{more}")
    return characters


def save(path: Path, characters: list[Character]) -> None:
    """A fresh `roster.toml.tmp` (a stale one, or a link planted there, is removed, never written through),
    renamed over the roster: a crash leaves the old roster, never half a new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = tomli_w.dumps({"character": [attrs.asdict(c) for c in characters]})
    try:
        files.replace_atomically(path, text.encode("utf-8"), 0o644)
    except (files.FileProblem, OSError) as exc:
        raise RosterError(f"{path}: cannot save ({exc})") from None


def find(characters: list[Character], name: str) -> int | None:
    return next((i for i, c in enumerate(characters) if key(c.name) == key(name)), None)


# -- deploying ---------------------------------------------------------------------------------


def slots(content: Content, mission_id: str) -> list[str]:
    """The squad places roster characters may take: all but the ones an objective names (the VIP)."""
    mission = content.missions[mission_id]
    kept = {o.unit for o in mission.objectives.values() if o.unit}
    return [t for t in mission.squad if t not in kept]


def deploying(content: Content, ruleset_id: str, mission_id: str, characters: list[Character]) -> list[Character]:
    """The characters a new mission deploys: the first ones, up to its squad places."""
    if ruleset_id != RULESET or content.missions[mission_id].ruleset != RULESET:
        return []
    return characters[:len(slots(content, mission_id))]


def with_squad(content: Content, mission_id: str, characters: list[Character]) -> Content:
    """The content of one mission with roster characters in the first squad places, in roster order;
    each keeps its rolled HP, and the place's glyph and kit unless it has its own."""
    if not characters:
        return content
    from engine.content.models import Missions

    mission = content.missions[mission_id]
    units, squad = dict(_own(content).units), list(mission.squad)
    for ch, slot in zip(characters, slots(content, mission_id)):
        base = _own(content).units[slot]
        tid = template_id(ch)
        units[tid] = UnitTemplate(name=ch.name, race=ch.race, faction=base.faction, stats=dict(ch.stats),
                                  armor=ch.armor or base.armor, weapon=ch.weapon or base.weapon,
                                  items=dict(base.items), magazines=base.magazines, glyph=base.glyph, ai=base.ai,
                                  hp=ch.hp, psi_awakened=ch.psi_awakened)
        squad[squad.index(slot)] = tid
    table = dict(content.missions)
    table[mission_id] = attrs.evolve(mission, squad=squad)
    missions = Missions(table, content.missions.difficulties) if isinstance(content.missions, Missions) else table
    rules = {**content.rules, RULESET: {**content.rules[RULESET], "units": units}}
    return attrs.evolve(content, rules=rules, missions=missions)


def to_header(characters: list[Character]) -> list[dict[str, Any]]:
    return [attrs.asdict(c) for c in characters]


def from_header(content: Content, squad: Any) -> list[Character]:
    """The roster characters a log's header deploys; RosterError if they are malformed."""
    if squad is None:
        return []
    characters = structure({"character": squad}, "the header's squad")
    problems = validate(content, characters)
    if problems:
        raise RosterError(f"the header's squad: {problems[0]}")
    return characters
