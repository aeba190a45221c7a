"""xcom-trpg's `resolve` scenario file: its units, its action types and their fields (README: Scenarios), checked
as strictly as content, and the frames the referee stages (arena.py)."""

from __future__ import annotations

from typing import Any, Literal

import attrs

from engine.content.models import Content
from engine.content.scenario import UnitReport
from engine.core.dice import Dice, Roll
from engine.core.model import Unit
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import Soldier, soldier


@attrs.frozen(kw_only=True)
class ScenarioUnit:
    race: str
    stats: dict[str, int]
    armor: str = "none"
    weapon: str | None = None
    side: str | None = None  # default: the actor's side is "a", everyone else "b"
    hp: int | None = None
    morale: int | None = None
    stamina: int | None = None
    concussion: int = 0
    items: dict[str, int] = attrs.field(factory=dict)
    name: str | None = None
    traits: list[str] = attrs.field(factory=list)  # xenophobe, xenophile (5.5)
    sex: str | None = None  # "male" | "female": a xenophile's preference (5.5)
    psi_active: bool | None = None  # default: aliens yes, humans not until initiation (7.1)
    ss: int | None = None  # sigurdsens in the pool now; default the pool's maximum


@attrs.frozen(kw_only=True)
class LootRow:
    item: str
    min: int
    max: int


TYPES = ("shoot", "throw", "psi", "persuade", "grab", "escape", "shove", "search", "special", "bravery",
         "initiation")
TARGETED = ("shoot", "throw", "psi", "persuade", "grab", "escape", "shove")


@attrs.frozen(kw_only=True)
class Action:
    type: Literal["shoot", "throw", "psi", "persuade", "grab", "escape", "shove", "search", "special", "bravery",
                  "initiation"]
    actor: str
    target: str | None = None  # who is acted on; none for search, special, bravery and initiation
    targets: list[str] = attrs.field(factory=list)  # psi: the other targets of a mass ability
    ability: str | None = None  # psi: which (7.5); left out, it is psi-communication (7.4)
    overload: int = 0  # psi: extra SS declared before the roll (7.4)
    demand: str | None = None  # persuade: what the target must do on its next turn (5.5)
    earlier: int = 0  # persuade: charisma interactions this pair already had this episode (diminishing)
    hostile: bool = False  # persuade: the target is trying to kill the actor (immune but to a crit)
    stats: list[str] = attrs.field(factory=list)  # special: the stats summed, (Str+Int)*1d100 (4.7)
    loot: list[LootRow] = attrs.field(factory=list)  # search: the sector's loot table (4.6)
    monster: str | None = None  # bravery: the unit the actor meets (5.4)
    part: str | None = None  # shoot in sniper mode: torso, arm, leg, head (8.12.5)
    mode: str = "single"
    item: str | None = None  # throw: the grenade; default the first thrown item carried
    sectors_between: int = 0
    distance: int | None = None  # cells between actor and target; default: the nearest with `sectors_between`
    target_sees_actor: bool = True
    cover: Literal["none", "partial", "full"] = "none"
    bystanders: list[str] = attrs.field(factory=list)  # throw: others in the blast cell


@attrs.frozen(kw_only=True)
class Scenario:
    ruleset: str
    units: dict[str, ScenarioUnit]
    action: Action


def check(content: Content, sc: Scenario) -> list[str]:
    """Cross-references, as located messages."""
    from engine.content.strict import did_you_mean

    out = []
    if sc.ruleset not in xcom(content).rulesets:
        out.append(f"ruleset: unknown ruleset {sc.ruleset!r}{did_you_mean(sc.ruleset, xcom(content).rulesets)}")
        return out
    stats = xcom(content).rulesets[sc.ruleset].stats
    for uid, u in sc.units.items():
        if u.race not in xcom(content).races:
            out.append(f"[units.{uid}].race: unknown race {u.race!r}{did_you_mean(u.race, xcom(content).races)}")
        if u.armor not in xcom(content).armor:
            out.append(f"[units.{uid}].armor: unknown armour {u.armor!r}{did_you_mean(u.armor, xcom(content).armor)}")
        if u.weapon is not None and u.weapon not in xcom(content).weapons:
            out.append(f"[units.{uid}].weapon: unknown weapon {u.weapon!r}{did_you_mean(u.weapon, xcom(content).weapons)}")
        missing = [s for s in stats if s not in u.stats]
        if missing:
            out.append(f"[units.{uid}].stats: missing {', '.join(missing)}")
        for s in u.stats:
            if s not in stats:
                out.append(f"[units.{uid}].stats.{s}: unknown stat{did_you_mean(s, stats)}")
        out.extend(_numbers(uid, u))
    a = sc.action
    if a.actor not in sc.units:
        out.append(f"[action].actor: unknown unit {a.actor!r}{did_you_mean(a.actor, sc.units)}")
    if a.target is None and a.type in TARGETED:
        out.append(f"[action].target: a {a.type} action needs a target")
    for field, uid in (("target", a.target), ("monster", a.monster)):
        if uid is not None and uid not in sc.units:
            out.append(f"[action].{field}: unknown unit {uid!r}{did_you_mean(uid, sc.units)}")
    for i, uid in enumerate(a.targets):
        if uid not in sc.units:
            out.append(f"[action].targets[{i}]: unknown unit {uid!r}")
    for i, uid in enumerate(a.bystanders):
        if uid not in sc.units:
            out.append(f"[action].bystanders[{i}]: unknown unit {uid!r}")
    out.extend(_needs(content, sc, stats))
    if not out and a.type == "shoot":
        actor = sc.units[a.actor]
        if actor.weapon is None:
            out.append(f"[units.{a.actor}].weapon: the shooter needs a weapon")
        elif a.mode not in xcom(content).weapons[actor.weapon].modes:
            modes = xcom(content).weapons[actor.weapon].modes
            out.append(f"[action].mode: the {actor.weapon} has no {a.mode!r} mode; it has {', '.join(modes)}")
    if not out and a.type == "throw":
        item = a.item or next((i for i in sc.units[a.actor].items if xcom(content).weapons.get(i)
                               and xcom(content).weapons[i].thrown), None)
        if item is None or item not in xcom(content).weapons or not xcom(content).weapons[item].thrown:
            out.append("[action].item: name a thrown weapon (hand_grenade, alien_grenade)")
    return out


NUMBERS = {"hp": (1, 100_000), "morale": (0, 10_000), "stamina": (0, 1000), "concussion": (0, 1000),
           "ss": (0, 100_000)}


def _numbers(uid: str, u: ScenarioUnit) -> list[str]:
    """Values the rules cannot mean (a Strength of a million, negative HP) are refused, not computed."""
    out = [f"[units.{uid}].stats.{s}: {str(v)[:12]} is not a stat the rules can mean (0 to 100)"
           for s, v in u.stats.items() if not 0 <= v <= 100]
    for field, (low, high) in NUMBERS.items():
        value = getattr(u, field)
        if value is not None and not low <= value <= high:
            out.append(f"[units.{uid}].{field}: {str(value)[:12]} is outside {low} to {high}")
    out += [f"[units.{uid}].items.{k}: {str(n)[:12]} is outside 0 to 100" for k, n in u.items.items() if not 0 <= n <= 100]
    return out


def _needs(content: Content, sc: Scenario, stats: list[str]) -> list[str]:
    """What each type of action needs that its fields may leave out, and the numbers it may ask for."""
    a, out = sc.action, []
    if a.type == "bravery" and a.monster is None:
        out.append("[action].monster: a bravery check needs the unit met (monster = \"...\")")
    if a.type == "special":
        if not a.stats:
            out.append("[action].stats: a special formula sums at least one stat (stats = [\"intelligence\"])")
        out += [f"[action].stats[{i}]: unknown stat {s!r}" for i, s in enumerate(a.stats) if s not in stats]
    if a.type == "search":
        if not a.loot:
            out.append("[action].loot: a search needs its loot table (loot = [{ item = \"medkit\", min = 80, max = 109 }])")
        for i, row in enumerate(a.loot):
            if row.item not in xcom(content).weapons and row.item not in xcom(content).items:
                out.append(f"[action].loot[{i}].item: unknown item {row.item!r}")
            if row.min > row.max:
                out.append(f"[action].loot[{i}]: min {row.min} is above max {row.max}")
    if a.distance is not None and not 0 <= a.distance <= 1000:
        out.append(f"[action].distance: {str(a.distance)[:12]} is outside 0 to 1000")
    for field, most in (("overload", 100_000), ("earlier", 1000), ("sectors_between", 1000)):
        if not 0 <= getattr(a, field) <= most:
            out.append(f"[action].{field}: {str(getattr(a, field))[:12]} is outside 0 to {most}")
    return out


def make_units(content: Content, sc: Scenario, setup_dice: Dice) -> tuple[dict[str, Unit], list[Roll]]:
    """Frames from the scenario; HP the scenario leaves out is rolled on the seeded setup stream."""
    rules = xcom(content).rulesets[sc.ruleset]
    units: dict[str, Unit] = {}
    rolls: list[Roll] = []
    for uid, u in sc.units.items():
        race = xcom(content).races[u.race]
        hp = u.hp
        if hp is None:
            indices: list[int] = []

            def die(sides: int, uid: str = uid) -> int:
                face, index = setup_dice.d(sides, uid, "hp", stream="setup")
                indices.append(index)
                return face

            hp, shown, faces = rules.hp.evaluate(u.stats, die)
            rolls.append(Roll(actor=uid, purpose="hp", expr=rules.hp.text, faces=tuple(faces), formula=f"hp {shown}",
                              total=hp, stream="setup", index=indices[0] if indices else -1))
        tier = xcom(content).armor[u.armor].tier
        stamina_max = max(0, rules.stamina.evaluate(u.stats)[0] - tier)
        weapon = u.weapon or "pistol"
        side = u.side or ("a" if uid == sc.action.actor else "b")
        units[uid] = Unit(id=uid, name=u.name or uid.replace("_", " ").title(), template=uid, race=u.race,
                          side=side, glyph="?", pos=(0, 0), facing=0, hp=hp, hp_max=max(hp, 1), items=dict(u.items),
                          record=Soldier(stats=dict(u.stats), armor=u.armor, weapon=weapon,
                                         ammo=xcom(content).weapons[weapon].ammo, magazines=0, actions=2,
                                         stamina=u.stamina if u.stamina is not None else stamina_max,
                                         stamina_max=stamina_max, infinite_stamina=race.infinite_stamina,
                                         morale=u.morale if u.morale is not None else rules.morale_max,
                                         morale_max=rules.morale_max, concussion=u.concussion,
                                         traits=tuple(u.traits), sex=u.sex or "", **_psi(race, u)))
    return units, rolls


def _psi(race: Any, u: ScenarioUnit) -> dict[str, int]:
    """7.1: aliens' psionics are awake, humans' (psi_locked races) only if the scenario says so."""
    active = u.psi_active if u.psi_active is not None else not (race.psi_locked or race.robot)
    out = {"psi_active": 1} if active else {}
    if u.ss is not None:
        out["psi_ss"] = u.ss
    return out


def report(before: Unit, after: Unit) -> UnitReport:
    """What `resolve` tells of a unit after the verdict: the line it prints and the numbers `--json` and trials use."""
    line = (f"{after.name}: HP {before.hp} → {after.hp}, morale {soldier(before).morale} → {soldier(after).morale}, "
            f"stamina {soldier(after).stamina}, concussion {soldier(after).concussion}, {after.status}")
    return UnitReport(line, {"hp": after.hp, "hp_lost": before.hp - after.hp, "morale": soldier(after).morale,
                             "morale_lost": soldier(before).morale - soldier(after).morale, "stamina": soldier(after).stamina,
                             "concussion": soldier(after).concussion, "status": after.status})
