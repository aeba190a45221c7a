"""Content models: one attrs class per kind of TOML table. Loading lives in `engine.loader`."""

from __future__ import annotations

from typing import Literal

import attrs

from engine.formula import Formula

Cover = Literal["none", "partial", "full"]
COVER_LEVEL: dict[str, int] = {"none": 0, "partial": 1, "full": 2}


@attrs.frozen(kw_only=True)
class MoraleTable:
    """xcom-trpg 6.5: losses scaled by Bravery are written as `k` in `-k/Bravery`."""

    wound: int
    concussion: int
    comrade_death: int
    crit_success: int
    crit_failure: int
    kill: int
    stun: int


@attrs.frozen(kw_only=True)
class RulesetDef:
    name: str
    description: str
    playable: bool
    stats: list[str]
    stat_min: int
    stat_max: int
    stat_minimums: dict[str, int] = attrs.field(factory=dict)
    creation_points: int
    epic_creation_points: int
    hp: Formula
    stamina: Formula
    morale_max: int
    actions_per_turn: int
    combo_move: int
    combo_stamina: int
    crit_success_min: int
    crit_failure_max: int
    luck_threshold: int
    god_of_random: Formula
    panic_below: int
    vision_radius: int
    cell_capacity: int
    morale: MoraleTable


@attrs.frozen(kw_only=True)
class Race:
    name: str
    caps: dict[str, int] = attrs.field(factory=dict)
    modifiers: dict[str, int] = attrs.field(factory=dict)
    biological: bool = True
    alien: bool = True
    epic: bool = False
    robot: bool = False
    infinite_stamina: bool = False
    psi_locked: bool = False
    crit_range_min: int | None = None  # attacks against this race crit from here (sectoid 86)
    morale_per_phase: int = 0


@attrs.frozen(kw_only=True)
class Armor:
    name: str
    tier: int
    concussion_reduction_percent: int = 0


@attrs.frozen(kw_only=True)
class Mode:
    name: str
    shots: int = 1
    actions: int = 1
    stamina: int = 0
    stat_modifier: int = 0


@attrs.frozen(kw_only=True)
class Weapon:
    name: str
    stat: str
    fallback_stat: str | None = None  # RSh-12: Agility when Strength is below fallback_below
    fallback_below: int = 0
    damage: int
    ammo: int
    armor_ignore: int = 0
    headshot_multiplier: int = 1
    headshot_kills: list[str] = attrs.field(factory=list)  # armour ids a headshot kills through
    max_between: int | None = None  # free sectors allowed between shooter and target
    pellets: int = 1
    concussion: int = 0
    alien: bool = False
    thrown: bool = False
    blast: bool = False
    single_use: bool = False
    throw_range: Formula | None = None
    penalty: Formula | None = None
    modes: dict[str, Mode]


@attrs.frozen(kw_only=True)
class Faction:
    name: str
    playable: bool = False
    glyph_hint: str = ""


@attrs.frozen(kw_only=True)
class UnitTemplate:
    name: str
    race: str
    faction: str
    stats: dict[str, int]
    armor: str
    weapon: str
    items: dict[str, int] = attrs.field(factory=dict)  # weapon id -> count (grenades)
    magazines: int = 2
    glyph: str
    ai: str = "default"


@attrs.frozen(kw_only=True)
class Terrain:
    name: str
    glyph: str
    color: str
    background: str = "#000000"
    walkable: bool
    transparent: bool
    cover: Cover = "none"
    destructible: bool = False
    destroyed: str | None = None  # tile it becomes when an explosion destroys it
    move_cost: int = 1


@attrs.frozen(kw_only=True)
class Mission:
    name: str
    description: str
    ruleset: str
    generator: str
    width: int
    height: int
    squad: list[str]
    enemies: dict[str, int]
    max_phases: int


@attrs.frozen(kw_only=True)
class Content:
    """One loaded, cross-checked content bundle."""

    sha256: str
    rulesets: dict[str, RulesetDef]
    races: dict[str, Race]
    armor: dict[str, Armor]
    weapons: dict[str, Weapon]
    factions: dict[str, Faction]
    units: dict[str, UnitTemplate]
    terrain: dict[str, Terrain]
    missions: dict[str, Mission]
