"""Character creation (2.2-2.4, 6.1, 7.1): a race, the creation points with the race's caps, HP rolled once with
the final Strength, and the human's psi initiation between missions.

`Recruit` is what the roster keeps of an xcom-trpg character (its fields are `roster.toml`'s, unchanged since the
roster had only this ruleset); `creator.py` offers these rules through the `Creation` seam.
"""

from __future__ import annotations

import re

import attrs

from engine.content.models import Content
from engine.rules.xcom_trpg.models import Race
from engine.core.dice import Dice, Roll
from engine.core.records import added
from engine.rules.xcom_trpg.tables import ID, xcom


@attrs.frozen(kw_only=True)
class Recruit:
    name: str
    race: str
    stats: dict[str, int]  # allocated points; race modifiers are added when the character deploys
    hp: int
    hp_roll: str  # the roll that made it, as a player writes it: "hp (7-1)*10+4=64"
    psi_awakened: bool = False  # a human past the initiation (7.1)
    initiation: str = ""  # the initiation roll, once made
    armor: str = ""  # "" = the armour of the squad place it takes
    weapon: str = ""  # "" = the weapon of the squad place it takes
    # kept by a campaign (downtime.py): the secret personal quest of its next episode (4.8, a quests.toml id),
    # episodes played, quests done, episodes missed (6.2) and still to miss, an epic paid for (2.4), death
    quest: str = added("")
    episodes: int = added(0)
    quests_done: int = added(0)
    missed: int = added(0)
    sits_out: int = added(0)
    bought: bool = added(False)
    dead: bool = added(False)


class Refused(ValueError):
    """A choice the creation rules refuse, in one line."""


def key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def races(content: Content) -> dict[str, Race]:
    return xcom(content).races


def stat_names(content: Content) -> list[str]:
    return list(xcom(content).rulesets[ID].stats)


def playable_races(content: Content) -> list[str]:
    return [rid for rid, race in races(content).items() if race.playable]


def limits(content: Content, race_id: str, stat: str) -> tuple[int, int]:
    """[minimum, race cap] for allocated points (2.1-2.2)."""
    rules = xcom(content).rulesets[ID]
    race = races(content)[race_id]
    low = rules.stat_minimums.get(stat, rules.stat_min)
    if stat in race.fixed:
        return race.fixed[stat], race.fixed[stat]
    return low, race.caps.get(stat, rules.stat_max)


def budget(content: Content, race_id: str) -> int:
    rules = xcom(content).rulesets[ID]
    return rules.epic_creation_points if races(content)[race_id].epic else rules.creation_points


def complete(content: Content, race_id: str, stats: dict[str, int]) -> dict[str, int]:
    """The stats with every forced value filled in (berserker Bravery 10, a Psionics capped at 0)."""
    order = stat_names(content)
    forced = {}
    for name in order:
        low, high = limits(content, race_id, name)
        if low == high:
            forced[name] = low
    merged = {**forced, **stats}
    return {k: merged[k] for k in sorted(merged, key=lambda k: order.index(k) if k in order else len(order))}


def article(race: Race) -> str:
    name = race.name.lower()
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def refusal(content: Content, race_id: str, stat: str, value: int) -> str | None:
    """Why one stat value is refused: "strength 6: a sectoid has at most 5"."""
    low, high = limits(content, race_id, stat)
    race = races(content)[race_id]
    if stat in race.fixed and value != low:
        return f"{stat} {value}: {article(race)} has {low} {stat}, placed automatically"
    if value > high:
        return f"{stat} {value}: {article(race)} has at most {high}"
    if value < low:
        return f"{stat} {value}: the minimum is {low}"
    return None


def check(content: Content, race_id: str, stats: dict[str, int]) -> list[str]:
    """Why these allocated points are refused (2.2-2.4); empty when they stand."""
    race = races(content).get(race_id)
    if race is None or not race.playable:
        return [f"unknown race {race_id!r}; one of {', '.join(playable_races(content))}"]
    names = stat_names(content)
    out = [f"{name} is not a stat; one of {', '.join(names)}" for name in stats if name not in names]
    for name in names:
        if name not in stats:
            out.append(f"{name} is missing")
        elif (why := refusal(content, race_id, name, stats[name])) is not None:
            out.append(why)
    total, spent = budget(content, race_id), sum(v for k, v in stats.items() if k in names)
    if spent > total:
        out.append(f"{spent} points spent: {article(race)} has {total}")
    elif spent < total and not out:
        out.append(f"{total - spent} of {total} points still to spend")
    return out


def advice(content: Content, race_id: str, stats: dict[str, int]) -> list[str]:
    """The soft guideline (2.3): a soldier's Strength and Agility above the race average."""
    race, out = races(content)[race_id], []
    for name in ("strength", "agility"):
        low, high = limits(content, race_id, name)
        mod = race.modifiers.get(name, 0)  # judged on final values: a muton's Strength runs 6-15
        above = (low + high + 2 * mod) // 2 + 1
        if stats.get(name, 0) + mod < above:
            out.append(f"{name} {stats.get(name, 0) + mod}: a soldier usually has {above}+ "
                       f"(above {article(race)}'s average)")
    return out


def final_stats(content: Content, ch: Recruit) -> dict[str, int]:
    """Allocated points plus race modifiers: muton +5 Str; floater +1 Str +4 Agi (may exceed 10)."""
    mods = races(content)[ch.race].modifiers
    return {k: v + mods.get(k, 0) for k, v in ch.stats.items()}


def hp_range(content: Content, race_id: str, strength: int) -> tuple[int, int]:
    """HP the 1d10 can give for this allocated Strength (6.1)."""
    final = {"strength": strength + races(content)[race_id].modifiers.get("strength", 0)}
    formula = xcom(content).rulesets[ID].hp
    return formula.evaluate(final, lambda sides: 1)[0], formula.evaluate(final, lambda sides: sides)[0]


def create(content: Content, name: str, race_id: str, stats: dict[str, int], dice: Dice,
           armor: str = "", weapon: str = "") -> tuple[Recruit, Roll]:
    """A new character, its HP rolled once with the final Strength; Refused says why not."""
    own = xcom(content)
    problems = check(content, race_id, complete(content, race_id, stats) if race_id in own.races else stats)
    if armor and armor not in own.armor:
        problems.append(f"unknown armour {armor!r}")
    if weapon and weapon not in own.weapons:
        problems.append(f"unknown weapon {weapon!r}")
    if problems:
        raise Refused("; ".join(problems))
    stats = complete(content, race_id, stats)
    ch = Recruit(name=name, race=race_id, stats=stats, hp=0, hp_roll="", armor=armor, weapon=weapon)
    formula = own.rulesets[ID].hp
    first: list[int] = []

    def die(sides: int) -> int:
        face, index = dice.d(sides, key(name), "hp")
        first.append(index)
        return face

    hp, shown, faces = formula.evaluate(final_stats(content, ch), die)
    roll = Roll(actor=key(name), purpose="hp", expr=formula.text, faces=tuple(faces), formula=f"hp {shown}",
                total=hp, index=first[0] if first else -1)
    dice.note(roll, f"rulesets.toml [{ID}].hp = \"{formula.text}\" (6.1), rolled once at creation")
    return attrs.evolve(ch, hp=hp, hp_roll=roll.formula), roll


def initiate(content: Content, ch: Recruit, dice: Dice) -> tuple[Recruit, Roll]:
    """7.1: Luck*1d100 >= 100 unlocks; a crit success also gives +1 Psionics (may pass the cap); a crit
    failure costs 1 Intelligence; any failure loses the psi points for good."""
    from engine.rules.xcom_trpg.psionics import initiation

    race = races(content)[ch.race]
    if not race.psi_locked:
        raise Refused(f"{ch.name}: {article(race)}'s psionics needs no initiation")
    if ch.initiation:
        raise Refused(f"{ch.name} has been through initiation already ({ch.initiation})")
    if ch.stats.get("psionics", 0) < 1:
        raise Refused(f"{ch.name}: initiation needs at least 1 point in psionics")
    # Allocated stats: the races that need initiation (human, GMZ) have no modifiers to add.
    done = initiation(dice, xcom(content).rulesets[ID], key(ch.name), dict(ch.stats))
    dice.note(done.roll, "7.1: Luck*1d100 >= 100 unlocks; crits by the raw die (3.4)")
    return attrs.evolve(ch, stats=done.stats, psi_awakened=done.awakened, initiation=done.text), done.roll


def validate(content: Content, ch: Recruit) -> list[str]:
    """What content must hold for this character to deploy, after its location (`.race: ...`)."""
    own, out = xcom(content), []
    stats = stat_names(content)
    if ch.race not in own.races:
        out.append(f".race: unknown race {ch.race!r}")
    if sorted(ch.stats) != sorted(stats):
        out.append(f".stats: expected exactly {', '.join(stats)}")
    elif ch.race in own.races:  # a hand-edited Strength 1000000 is not a character the rules can mean
        slack = 1 if ch.initiation else 0  # an initiation's crit may pass the cap by one, or cost a point
        for name, value in ch.stats.items():
            low, high = limits(content, ch.race, name)
            if not low - slack <= value <= high + slack:
                out.append(f".stats.{name}: {str(value)[:12]} is outside {low - slack} to {high + slack} "
                           f"for {article(own.races[ch.race])}")
    if not 1 <= ch.hp <= 100_000:
        out.append(f".hp: {str(ch.hp)[:12]} is not a number of hit points the rules can mean")
    if ch.armor and ch.armor not in own.armor:
        out.append(f".armor: unknown armour {ch.armor!r}")
    if ch.weapon and ch.weapon not in own.weapons:
        out.append(f".weapon: unknown weapon {ch.weapon!r}")
    if ch.quest and ch.quest not in getattr(own, "quests", {}):
        out.append(f".quest: unknown quest {ch.quest!r}")
    out += [f".{k}: {str(v)[:12]} is negative" for k, v in (("episodes", ch.episodes), ("quests_done", ch.quests_done),
                                                            ("missed", ch.missed), ("sits_out", ch.sits_out)) if v < 0]
    return out


def psi_word(content: Content, ch: Recruit) -> str:
    race = races(content)[ch.race]
    if ch.initiation and not ch.psi_awakened:
        return "psi lost"
    if ch.stats.get("psionics", 0) == 0:
        return "no psi"
    if race.psi_locked and not ch.psi_awakened:
        return "psi locked until initiation"
    return "psi active"
