"""xcom-trpg's content models: one attrs class per kind of its TOML tables in `content/xcom-trpg/` (declared by
its schema in `tables.py`). The shared tables' models (missions, factions, terrain...) are in
`engine.content.models`."""

from __future__ import annotations

from typing import Literal

import attrs

from engine.content.formula import Formula


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
class Campaign:
    """campaign.toml `[standard]`: between episodes (2.4, 4.8, 6.2; docs/rules-notes.md). The battle rules never
    read it. Bonuses are the campaign's funding: the source's X-shop is missing, so its prices are these."""

    # (a bundle without the file: no bonuses, nothing for sale, 6.2's one missed episode)
    start_bonuses: int = 0  # bonuses a new campaign starts with (Interpretation)
    win_bonuses: int = 0  # per episode won (Interpretation)
    quest_bonuses: int = 0  # per personal quest done (Interpretation)
    prices: dict[str, int] = attrs.field(factory=dict)  # epic race id -> its price in bonuses (2.4: 384)
    refund_percent: int = 50  # 2.4: of the price, back when a bought epic dies (192 of 384)
    convert_points: int = 6  # 2.4: a converted character's points added, up to the epic total
    converts: list[str] = attrs.field(factory=list)  # 2.4: the epic races a human may be converted into
    missed_episodes: int = 1  # 6.2: episodes a character knocked out at HP -5...0 misses
    extra_turns: int = 0  # 4.8: phases the squad may go on after the main objectives (Interpretation)


Goal = Literal["unhurt", "standing", "won", "magazines", "morale", "calm"]


@attrs.frozen(kw_only=True)
class Quest:
    """quests.toml: a secret personal quest (4.8), judged on the soldier at the episode's end. `goal`: unhurt (HP
    at its maximum), standing (conscious), won (the squad won, it conscious), magazines (at least `count` spare),
    morale (at least `count`), calm (no concussion)."""

    name: str
    text: str
    goal: Goal
    count: int = 0
