"""The annihilation ruleset's content: one attrs model per file of `content/annihilation/`, and the cross-checks.

Section numbers refer to ../shared/rules/annihilation.md. Every number of the spec's tables that is data lives in
those files; the rules read them from here and never repeat them.
"""

from __future__ import annotations

from typing import Literal

import attrs

from engine.content.formula import Formula, FormulaError, names_in
from engine.content.tables import Schema, Tables
from engine.map.climate import CLIMATES, TEMPERATE

Size = Literal["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"]
SIZES = "ABCDEFGHIJ"
DamageType = Literal["high_explosive", "incendiary", "armor_piercing", "smoke"]
PartKind = Literal["head", "torso", "arm", "leg"]
Feed = Literal["clip", "charges", "ammo", "grenade"]
DOSES = ("bandage", "heal", "pain_killer", "stimulant")

# The 14 statistics of, as formulas name them.
STATS = ("time_units", "stamina", "health", "bravery", "reactions", "accuracy", "throwing", "strength", "senses",
         "intelligence", "appearance", "personality", "education", "psychic")


def boxes(size: str) -> int:
    """A-12.1: a size letter's boxes are its position in the alphabet."""
    return SIZES.index(size) + 1


KNOWN_CLIMATES = (TEMPERATE, *CLIMATES)  # engine.map.climate


@attrs.frozen(kw_only=True)
class Settings:
    """settings.toml `[standard]`: the ruleset's formulas and the numbers that are no table's row."""

    stat_roll: Formula
    skill_slots: Formula
    stamina_effective: Formula
    energy_regen: Formula
    stun_recovery: Formula
    relief: Formula
    tu_turn: Formula
    reaction_score: Formula
    throw_range: Formula
    throw_halved_from: Size
    throw_penalty_per_space: int
    scatter_distance: Formula
    scatter_die: int
    physical_damage: Formula
    physical_reach: int
    percent_cost_minimum: int
    one_sight_tu: int
    one_sight_divisor: int
    two_sights_tu: int
    two_sights_divisor: int
    sniper_divisor: int
    wound_damage_step: int
    wound_die: int
    hit_location_die: int
    arm_wound_accuracy: int
    leg_wound_tu: int
    torso_wound_stamina: int
    permanent_stamina_per_wound: int
    limb_loss_wounds: int
    head_death_wounds: int
    head_stun_per_wound: int
    internal_bleeding: int
    heal_die: int
    improvement_uses: int
    improvement_die: int
    improvement_step: int
    always_improves_on: int
    promotion: Literal["quotas", "odds"]
    uses_counted: bool = False  # count each unit's uses in play (False: an older bundle, whose logs have none)
    grid: Literal["square", "hex"]
    multi_level_blasts: bool
    height_adds_to_range: int
    storeys: int = 1  # levels stacked on a map (ground, upper floor, roof); 1 = one level (older bundles)
    climates: list[str] = attrs.field(factory=list)  # section 9: the climates of its outdoor maps (engine.map.climate),
    #                                                 drawn by the map seed; none (older bundles): as generated
    fall_damage: int = 10  # per level fallen, on the under armour (docs/rules-notes.md: the source has no fall rule)
    kneel_bonus: int
    crawl_multiplier: int
    vision_range: int
    motion_sensor_range: int
    shots_seen: bool = False  # a shot gives the shooter's square away to its enemies' AI (Interpretation)
    sensor_storeys: bool = False  # with: height adds to the sensor's range, blips on the unit's storey
    smoke_stun: int
    smoke_turns: int
    smoke_sight_squares: int
    smoke_between_storeys: bool = False  # across storeys: smoke cuts a line from one level to another too
    bleeding_fells: bool = False  # section 22 step 4: bled to Health ≤ 0 (or under its Stun), a unit falls unconscious
    drops_held: bool = False  # an unconscious unit's hands, a lost arm's hand, let go (letgo.py)
    ground_items: bool = False  # what is put on the floor lies on the map for anyone to pick up (floor.py)
    spotting_roll: bool = False  # Optional: an enemy in smoke is seen only on d100 <= Sns (spotting.py)
    fire_damage: int
    fire_turns: int
    priming_delay_max: int
    proximity_reach: int
    medic_level: str
    harness_turns_on: int
    harness_turns_off: int
    hand_size_max: Size
    belt_size_max: Size
    strap_size_max: Size
    strap_pair_size_max: Size


@attrs.frozen(kw_only=True)
class Level:
    """levels.toml: a proficiency level (A-4.2)."""

    order: int
    chance: int  # column 1: the skill test's chance
    bonus: int  # column 2: % of Acc (or Trw) added to the to-hit chance
    slots: int


@attrs.frozen(kw_only=True)
class Skill:
    """skills.toml: a weapon family or a non-weapon skill (A-4.3, A-4.4)."""

    name: str
    weapon: bool = False
    baseline: str = "unskilled"  # a military operative's free level
    stat: Literal["accuracy", "throwing"] = "accuracy"  # what the column-2 bonus is a share of


@attrs.frozen(kw_only=True)
class Rank:
    """ranks.toml (A-5.1): `one_in` is the quota divisor and the A-5.3 promotion die; 0 = no quota."""

    name: str
    order: int
    one_in: int = 0


@attrs.frozen(kw_only=True)
class Cost:
    """costs.toml: a movement, stance change, action or inventory move (sections 9-11, A-12.5)."""

    tu: int = 0
    percent: int = 0  # of the turn's allowance
    energy: bool = False  # drains as much Energy as it costs TU
    hands: int = 0  # hands it needs free or holding what it works on
    turns: int = 0  # full turns of 100% TU


@attrs.frozen(kw_only=True)
class Terrain:
    """terrain.toml: a terrain modifier added to a walking step that enters it (9.1)."""

    name: str
    modifier: int


@attrs.frozen(kw_only=True)
class BodyPart:
    """body.toml: the hit location table (A-19.2) and the kind of part (A-19.7)."""

    name: str
    part: PartKind
    low: int
    high: int


@attrs.frozen(kw_only=True)
class Mode:
    """modes.toml: a firing mode and its rounds (A-14.1); `column` in the weapon tables (A-15.1)."""

    name: str
    rounds: int
    column: int
    reaction: bool = False  # may be used in opportunity fire


@attrs.frozen(kw_only=True)
class WeaponClass:
    """classes.toml: range penalty per space and one-handed penalty (A-14.5, A-14.6)."""

    name: str
    range_penalty: int
    one_hand_penalty: int
    sights: bool


@attrs.frozen(kw_only=True)
class ModeLine:
    """One `accuracy%(TU%)` pair of a weapon row (A-15.1)."""

    accuracy: int
    tu: int


@attrs.frozen(kw_only=True)
class Weapon:
    """weapons.toml: a row of the weapon tables (section 15)."""

    name: str
    size: Size
    category: str  # classes.toml
    family: str  # skills.toml: the weapon skill that covers it
    modes: dict[str, ModeLine]
    damage: int = 0  # 0 with feed "ammo" or "grenade": the loaded round decides
    feed: Feed = "clip"
    capacity: int  # rounds a clip holds, charges a mission, grenades loaded
    hands: Literal[1, 2]
    clip_size: Size = "A"
    sniper: bool = False


@attrs.frozen(kw_only=True)
class Ammo:
    """ammo.toml: a cannon, auto-cannon or rocket round (section 16); `radius` -1: no blast (A-16.1)."""

    name: str
    weapon: str
    type: DamageType
    damage: int
    radius: int = -1


@attrs.frozen(kw_only=True)
class Explosive:
    """explosives.toml: section 17's table; `blast_size` = 2 × radius + 1 (A-17.1)."""

    name: str
    size: Size
    damage: int
    type: DamageType
    radius: int
    blast_size: int
    trigger: Literal["timer", "proximity", "mine"] = "timer"


@attrs.frozen(kw_only=True)
class BlastSize:
    """blasts.toml: a named blast size (diamond width, odd)."""

    name: str
    size: int


@attrs.frozen(kw_only=True)
class Armour:
    """armour.toml: a row of the armour table (section 18)."""

    name: str
    strength: int  # the suit's strength bonus (powered and flying armour, A-12.7)
    weight: int  # boxes
    av: int
    sv: int
    front: int
    left: int
    right: int
    rear: int
    under: int
    flying: bool = False


@attrs.frozen(kw_only=True)
class Item:
    """items.toml: equipment (section 13)."""

    name: str
    size: Size
    doses: dict[str, int] = attrs.field(factory=dict)
    tu: int = 0
    medic_tu: int = 0
    percent: int = 0
    holds: int = 0  # boxes a strapped bag holds
    sight: bool = False  # a laser or telescopic sight: fitted to a weapon (units.toml `sights`), no boxes


@attrs.frozen(kw_only=True)
class Race:
    """races.toml: who fights; an unset `health` is rolled like every other stat (A-3.1, A-21.2)."""

    name: str
    health: int = 0
    armour: str = "none"
    weapons: list[str] = attrs.field(factory=list)
    skill: str = "skilled"  # its level with its own weapons


@attrs.frozen(kw_only=True)
class Use:
    """uses.toml: an event of battle and the stats (and skill) it counts a use of (A-6.1)."""

    stats: list[str]
    skill: bool = False


# The names each formula of settings.toml may use, and the ranges `bounds` proves it safe over.
_STAT_RANGE = (0, 255)
FORMULA_NAMES: dict[str, dict[str, tuple[int, int]]] = {
    "stat_roll": {},
    "skill_slots": {s: _STAT_RANGE for s in STATS},
    "stamina_effective": {**{s: _STAT_RANGE for s in STATS}, "torso_wounds": (0, 255)},
    "energy_regen": {"stamina_effective": _STAT_RANGE},
    "stun_recovery": {"stamina_effective": _STAT_RANGE},
    "relief": {**{s: _STAT_RANGE for s in STATS}, "armour_strength": (0, 255)},
    "tu_turn": {"time_units": _STAT_RANGE, "encumbrance": (0, 1000), "leg_wounds": (0, 255)},
    "reaction_score": {"reactions": _STAT_RANGE, "tu_left": _STAT_RANGE, "tu_turn": (1, 255)},
    "throw_range": {s: _STAT_RANGE for s in STATS},
    "scatter_distance": {"distance": (0, 1000)},
    "physical_damage": {**{s: _STAT_RANGE for s in STATS}, "weapon_power": (0, 1000)},
}

# Cost ids the rules look up by name (section 9-11, A-12.5).
COSTS_USED = ("walk", "walk_diagonal", "stairs_up", "stairs_down", "climb_up", "climb_down", "jump", "hover", "fly",
              "fly_diagonal", "turn", "hex_walk", "hex_fly", "stand_to_kneel", "kneel_to_stand", "kneel_to_prone",
              "prone_to_kneel", "motion_sensor", "load", "unload", "open_door", "physical_attack", "prime", "throw",
              "harness_on", "harness_off", "floor_to_hand", "shoulder_to_hand", "leg_to_hand", "belt_to_hand",
              "backpack_to_hand", "hand_to_floor", "hand_to_shoulder", "hand_to_leg", "hand_to_belt",
              "hand_to_backpack", "strap_on_off", "grab_release_strap", "hand_to_hand")


def _ref(file: str, key: str, field: str, kind: str, value: str, table: dict) -> list[str]:
    return [] if value in table else [f"{file}: [{key}].{field}: unknown {kind} {value!r}"]


def _check_settings(t: Tables) -> list[str]:
    out: list[str] = []
    if "standard" not in t["settings"]:
        return ["settings.toml: missing table [standard]"]
    for key, s in t["settings"].items():
        for name, ranges in FORMULA_NAMES.items():
            f: Formula = getattr(s, name)
            unknown = sorted(names_in(f.tree) - set(ranges))
            if unknown:
                out.append(f"settings.toml: [{key}].{name}: unknown name {unknown[0]!r} in {f.text!r}")
                continue
            try:
                f.bounds(ranges)
            except FormulaError as exc:
                out.append(f"settings.toml: [{key}].{name}: {exc}")
        out += _ref("settings.toml", key, "medic_level", "level", s.medic_level, t["levels"])
        for name in ("one_sight_divisor", "two_sights_divisor", "sniper_divisor", "wound_damage_step", "wound_die",
                     "hit_location_die", "scatter_die", "heal_die", "improvement_uses", "improvement_die"):
            if getattr(s, name) < 1:
                out.append(f"settings.toml: [{key}].{name}: expected at least 1, got {getattr(s, name)}")
    return out


def _check_body(t: Tables, die: int) -> list[str]:
    faces = sorted((p.low, p.high, k) for k, p in t["body"].items())
    covered = [face for low, high, _ in faces for face in range(low, high + 1)]
    if covered != list(range(1, die + 1)):
        return [f"body.toml: the parts' low..high must cover 1..{die} once each, got {[(lo, hi) for lo, hi, _ in faces]}"]
    kinds = [p.part for p in t["body"].values()]
    return [f"body.toml: expected exactly one {k} part, got {kinds.count(k)}" for k in ("head", "torso")
            if kinds.count(k) != 1]


def check(t: Tables, _shared: Tables) -> list[str]:
    out = _check_settings(t)
    for s in t["settings"].values():
        out += [f"settings.toml: climates: unknown climate {c!r} (one of {', '.join(KNOWN_CLIMATES)})"
                for c in s.climates if c not in KNOWN_CLIMATES]
    if "standard" in t["settings"]:
        out += _check_body(t, t["settings"]["standard"].hit_location_die)
    orders = sorted(lv.order for lv in t["levels"].values())
    if orders != list(range(len(orders))):
        out.append(f"levels.toml: orders must be 0..{len(orders) - 1} once each, got {orders}")
    for key, sk in t["skills"].items():
        out += _ref("skills.toml", key, "baseline", "level", sk.baseline, t["levels"])
    for key in COSTS_USED:
        if key not in t["costs"]:
            out.append(f"costs.toml: missing table [{key}] (the rules use it)")
    columns = sorted(m.column for m in t["modes"].values())
    if columns != list(range(1, len(columns) + 1)):
        out.append(f"modes.toml: columns must be 1..{len(columns)} once each, got {columns}")
    for key, w in t["weapons"].items():
        out += _ref("weapons.toml", key, "category", "weapon class", w.category, t["classes"])
        out += _ref("weapons.toml", key, "family", "skill", w.family, t["skills"])
        out += [f"weapons.toml: [{key}].modes: unknown mode {m!r}" for m in w.modes if m not in t["modes"]]
        if w.feed in ("clip", "charges") and w.damage < 1:
            out.append(f"weapons.toml: [{key}].damage: a {w.feed}-fed weapon needs its damage")
        if w.feed == "ammo" and not any(a.weapon == key for a in t["ammo"].values()):
            out.append(f"weapons.toml: [{key}].feed: no ammo.toml round is made for it")
    for key, a in t["ammo"].items():
        out += _ref("ammo.toml", key, "weapon", "weapon", a.weapon, t["weapons"])
        if a.weapon in t["weapons"] and t["weapons"][a.weapon].feed != "ammo":
            out.append(f"ammo.toml: [{key}].weapon: {a.weapon!r} does not take ammo (feed "
                       f"{t['weapons'][a.weapon].feed!r})")
    for key, e in t["explosives"].items():
        if e.blast_size != 2 * e.radius + 1:
            out.append(f"explosives.toml: [{key}].blast_size: expected 2 × radius + 1 = {2 * e.radius + 1}, "
                       f"got {e.blast_size}")
    for key, b in t["blasts"].items():
        if b.size < 1 or b.size % 2 == 0:
            out.append(f"blasts.toml: [{key}].size: expected an odd width, got {b.size}")
    for key, a in t["armour"].items():
        if a.av > a.sv:
            out.append(f"armour.toml: [{key}].av: AV {a.av} above SV {a.sv} (section 18: AV is the smaller)")
    for key, it in t["items"].items():
        out += [f"items.toml: [{key}].doses: unknown dose {d!r}" for d in it.doses if d not in DOSES]
    for key, u in t["uses"].items():
        out += [f"uses.toml: [{key}].stats[{i}]: unknown stat {st!r}" for i, st in enumerate(u.stats) if st not in STATS]
    for key, r in t["races"].items():
        out += _ref("races.toml", key, "armour", "armour", r.armour, t["armour"])
        out += _ref("races.toml", key, "skill", "level", r.skill, t["levels"])
        for i, w in enumerate(r.weapons):
            if w not in t["weapons"]:
                out.append(f"races.toml: [{key}].weapons[{i}]: unknown weapon {w!r}")
    return out


SCHEMA = Schema(files={"settings.toml": Settings, "levels.toml": Level, "skills.toml": Skill, "ranks.toml": Rank,
                       "costs.toml": Cost, "terrain.toml": Terrain, "body.toml": BodyPart, "modes.toml": Mode,
                       "classes.toml": WeaponClass, "weapons.toml": Weapon, "ammo.toml": Ammo,
                       "explosives.toml": Explosive, "blasts.toml": BlastSize, "armour.toml": Armour,
                       "items.toml": Item, "races.toml": Race, "uses.toml": Use},
                check=check)
