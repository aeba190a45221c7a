"""Content models: one attrs class per kind of TOML table. Loading lives in `engine.content.loader`."""

from __future__ import annotations

from typing import Any, Literal

import attrs

from engine.content.formula import Formula
from engine.map.terrain import COVER_LEVEL, Cover, Terrain  # noqa: F401 - terrain.toml's model lives with the map



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
    monster: int = 20  # 5.4: a lost bravery check on meeting a monster


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
    cells_per_sector: int = 5  # 1.3 revised: a sector is a square of this many 2 m cells
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
    frightens: list[str] = attrs.field(factory=list)  # 5.4: races that check Bravery on first sight of it
    playable: bool = False  # a player may create a character of this race (2.2)
    fixed: dict[str, int] = attrs.field(factory=dict)  # creation points placed automatically (berserker Bravery 10)


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
    sniper: bool = False  # 8.12.5: no crits, a declared body part, dodged from any distance; no stamina prone


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
    smoke: str | None = None  # tile an explosion lays round its cell
    smoke_radius: int = 1
    darts: bool = False  # 8.12.4: a tranquilizer: no damage, a sedative dose (tranquilizer.py)
    owner: str | None = None  # 8.12.1: the unit template it was made for (PP2-BS: Zmey)
    owner_bonus: dict[str, int] = attrs.field(factory=dict)  # stats added while its owner uses it
    modes: dict[str, Mode]


@attrs.frozen(kw_only=True)
class Faction:
    name: str
    playable: bool = False
    glyph_hint: str = ""
    behaviour: str = ""  # behaviour.toml id the AI plays its units by; "" = default
    converts: dict[str, str] = attrs.field(factory=dict)  # victim faction -> unit template its kills rise as


@attrs.frozen(kw_only=True)
class Behaviour:
    """How the AI plays a unit: weights of what it values when it picks a cell or a target."""

    name: str
    description: str
    advance: int = 2  # per step gained towards the enemy (or the objective)
    cover: int = 2  # per level of cover against each known threat
    exposure: int = 2  # penalty per known threat that would see the cell with no cover between
    flank: int = 2  # per enemy the cell sees whose cover does not face it
    distance: int = 0  # preferred distance from the nearest known enemy; 0 = close in
    focus: int = 2  # weight on finishing the wounded
    grenade_cluster: int = 2  # enemies in one cell before a grenade is worth it; 0 = never throws
    retreat_morale: int = 0  # below this morale it falls back; 0 = never
    retreat_wounded: int = 0  # below this percentage of its HP it falls back; 0 = never
    melee: bool = False  # closes to the same or the next cell, by combo when it can, then strikes
    hold: bool = False  # with no shot it keeps its cover and waits (an ambush) rather than advance
    rear: bool = False  # stays behind its friends
    command: bool = False  # its side focuses fire on the target it picks
    objective: bool = False  # goes for the mission's objective (the extraction point) before anything else
    unconscious: Literal["last", "finish"] = "last"  # shoot the senseless only with no conscious target, or alike


@attrs.frozen(kw_only=True)
class Difficulty:
    name: str
    description: str
    default: bool = False  # the level of a mission id without "@level"
    enemies_percent: int = 100  # alien numbers, as a percentage of the mission's (halves round up)
    alien_stats: dict[str, int] = attrs.field(factory=dict)  # added to every alien's stats
    aggression_percent: int = 100  # scales how readily the AI advances and how late it falls back
    misjudge_percent: int = 0  # how far off the AI's estimate of its odds may be


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
    hp: int | None = None  # a roster character's HP, rolled once at creation (6.1); None: rolled at deployment
    psi_awakened: bool = False  # a human past the psi initiation (7.1); aliens are always awake
    traits: list[str] = attrs.field(factory=list)  # xenophobe, xenophile (5.5)
    sex: str | None = None  # "male" | "female", for a xenophile's preference


PsiTarget = Literal["friendly", "hostile", "any", "self", "area", "corpse"]
PsiOverload = Literal["none", "steps", "once", "attack", "combo"]


@attrs.frozen(kw_only=True)
class PsiAbility:
    """xcom-trpg 7.5: one row of the psi ability table (content/psionics.toml)."""

    name: str
    number: int  # the row of table 7.5
    effect: str  # which rule plays it (engine/rules/xcom_trpg/psi_effects.py)
    implemented: bool = True  # psychokinesis: a placeholder with N/A in every column
    cost: int
    cost_per_radius: int = 0  # psi-location: cost + this per cell of radius
    min_psi: int
    cooldown: int
    target: PsiTarget
    most_targets: int = 1  # mass abilities: up to 3
    casters: list[str] = attrs.field(factory=list)  # race ids that may cast it; empty: any race not barred
    barred: list[str] = attrs.field(factory=list)  # race ids that may not
    power: float = 0  # mind strikes: X = target Int * power
    overload: PsiOverload = "none"  # steps: gain per overload_ss; once: gain at overload_ss; attack: + per SS
    overload_ss: int = 0
    overload_gain: float = 0
    combines_with: str = ""  # compulsion <-> oblivion (7.6): + overload_ss SS, both cooldowns


ObjectiveKind = Literal["eliminate", "shut_down", "extract", "hold", "protect"]


@attrs.frozen(kw_only=True)
class Objective:
    """One line of the briefing, with the state of the battle that completes or fails it."""

    kind: ObjectiveKind
    text: str
    zone: str = ""  # shut_down, extract, hold: a zone of the battlefield
    unit: str = ""  # extract: the unit template to bring out
    side: str = ""  # protect: whose units must live
    at_least: int = 0  # protect: how many must live
    until_phase: int = 0  # hold: the zone must be held to the end of this phase
    stats: list[str] = attrs.field(factory=lambda: ["intelligence"])  # shut_down: the special formula (4.7)
    done_tile: str = ""  # shut_down: what the objective's tile becomes


@attrs.frozen(kw_only=True)
class Item:
    """A consumable (xcom-trpg 6.4, 9): what one use does. `reach` 0 = only the user, 1 = also a
    unit in the same or an adjacent cell."""

    name: str
    actions: int = 1
    reach: int = 0
    stamina: int = 0
    over_max: bool = False  # the stamina may go above the maximum (XS-076-2)
    hp: int = 0  # lost or gained, no wound (XS-076-2: -6)
    clears_concussion: bool = False  # medkit (8.5)
    morale_to_max: bool = False
    after_turns: int = 0  # after-effect at the end of the user's Nth turn after the use
    after_morale: int = 0


@attrs.frozen(kw_only=True)
class Loot:
    """One row of a searchable zone's table (4.6): the item found with a search total in min..max."""

    item: str
    min: int
    max: int


@attrs.frozen(kw_only=True)
class Search:
    text: str = ""
    loot: list[Loot]


@attrs.frozen(kw_only=True)
class SpecialFormula:
    """An episode's own formula (4.7): (sum of `stats`)*1d100 against the god of random, next to `zone`."""

    text: str
    stats: list[str]
    zone: str


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
    objectives: dict[str, Objective] = attrs.field(factory=dict)  # none: eliminate every hostile
    win: Literal["any", "all"] = "any"  # which goals must be met
    civilians: int = 0
    civilian: str = "civilian"  # the unit template civilians are made from
    spawn: dict[str, str] = attrs.field(factory=dict)  # side -> zone it deploys in (default: the side's own)
    difficulty: str = ""  # "" = the default level in difficulty.toml
    leader: str = ""  # the squad's commander (4.5, 6.5); "" = the first of `squad`
    search: dict[str, Search] = attrs.field(factory=dict)  # zone -> what can be found there (4.6)
    formulas: dict[str, SpecialFormula] = attrs.field(factory=dict)  # special formulas (4.7)


@attrs.frozen(kw_only=True)
class Forces:
    """Who a ruleset deploys on a shared mission, from its own unit tables: the mission's own squad and enemies
    for the ruleset it was written for, `content/<id>/forces.toml` (keyed by mission id) for the others."""

    squad: list[str]
    enemies: dict[str, int]
    civilians: int = 0
    civilian: str = "civilian"


class Missions(dict):
    """Missions by id. `ID@LEVEL` is mission ID at another difficulty level, made on demand and
    never listed, so menus show each mission once and a log names exactly what was played."""

    def __init__(self, missions: dict[str, Mission], difficulties: dict[str, Difficulty]) -> None:
        super().__init__(missions)
        self.difficulties = difficulties
        self._made: dict[str, Mission] = {}

    def __missing__(self, key: str) -> Mission:
        made = self._variant(key)
        if made is None:
            raise KeyError(key)
        return made

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or self._variant(key) is not None

    def get(self, key, default=None):  # type: ignore[override]
        try:
            return self[key]
        except KeyError:
            return default

    def _variant(self, key: object) -> Mission | None:
        if not isinstance(key, str) or "@" not in key:
            return None
        if key not in self._made:
            base_id, _, level = key.partition("@")
            if not dict.__contains__(self, base_id) or level not in self.difficulties:
                return None
            self._made[key] = at_level(dict.__getitem__(self, base_id), level, self.difficulties[level])
        return self._made[key]


def at_level(mission: Mission, level: str, difficulty: Difficulty) -> Mission:
    """The mission at a difficulty level: its alien numbers scaled (halves up, at least 1 of each)."""
    enemies = {k: max(1, (2 * n * difficulty.enemies_percent + 100) // 200) if n else 0
               for k, n in mission.enemies.items()}
    name = mission.name if difficulty.default else f"{mission.name} ({difficulty.name})"
    return attrs.evolve(mission, enemies=enemies, difficulty=level, name=name)


@attrs.frozen(kw_only=True)
class Content:
    """One loaded, cross-checked content bundle."""

    sha256: str
    factions: dict[str, Faction]
    terrain: dict[str, Terrain]
    missions: dict[str, Mission]
    behaviour: dict[str, Behaviour] = attrs.field(factory=dict)
    difficulty: dict[str, Difficulty] = attrs.field(factory=dict)
    rules: dict[str, dict[str, dict[str, Any]]] = attrs.field(factory=dict)  # ruleset id -> its own tables (tables.py)
    # ruleset id -> sha256 of the shared files and its own folder: a log's header names the bundle its ruleset
    # read, so a change to another ruleset's tables leaves it valid (`sha256` alone: a ruleset with no folder)
    hashes: dict[str, str] = attrs.field(factory=dict)

    def sha_for(self, ruleset_id: str) -> str:
        return self.hashes.get(ruleset_id, self.sha256)

    def default_difficulty(self) -> str | None:
        return next((k for k, d in self.difficulty.items() if d.default), None)
