"""xxxzone's content tables (content/xxxzone/): the attrs models, the Schema and the cross-checks.

Each file holds tables keyed by string id; every number of the spec's tables that is data lives there, and the
rules modules read them back through these models (see docs/rules-notes.md, `## xxxzone`).
"""

from __future__ import annotations

from typing import Literal

import attrs

from engine.content.formula import Formula
from engine.content.models import Forces
from engine.content.tables import Schema, Tables

ATTRIBUTES = ("strength", "perception", "endurance", "charisma", "intelligence", "agility", "luck")
Star = Literal["", "strength", "perception", "endurance", "charisma", "intelligence", "agility", "luck"]
Pool = Literal["move", "gun", "draw", "reload"]
Rider = Literal["", "on_fire", "poison", "lethal_poison", "toxified", "lethal_toxic"]  # 9: what a wound also does


@attrs.frozen(kw_only=True)
class Attributes:
    """The six attributes plus Luck (section 1), as printed."""

    strength: int
    perception: int
    endurance: int
    charisma: int
    intelligence: int
    agility: int
    luck: int = 0

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in ATTRIBUTES}


@attrs.frozen(kw_only=True)
class Settings:
    """settings.toml: the section 2 formulas (names are effective attributes) and the configurable constants."""

    accuracy: Formula
    action_points: Formula
    carry: Formula
    max_capacity: Formula
    fortitude: Formula
    sneak: Formula
    sight: Formula
    willpower: Formula
    hack: Formula
    locksmith: Formula
    toughness: Formula
    improved_toughness: Formula
    medkit_uses: Formula
    generation_roll: Formula
    attribute_min: int
    attribute_max: int
    success_over: int
    distance_penalty: int
    throw_penalty: int
    throw_reach_over_strength: int
    aim_bonus: int
    overwatch_penalty: int
    moving_target_accuracy: int
    strength_step: int
    gun_strength_relief: int
    disoriented_penalty: int
    concealment_penalty: int
    mark_target_bonus: int
    executioner_bonus: int
    shadow_attack_bonus: int
    teamwork_bonus: int
    chi_breath_melee_penalty: int
    chi_breath_dr: int
    moving_target_dr: int
    scope_reach: int
    scope_close_penalty: int
    steady_aim_recoil: int
    grenadier_bonus: int
    explosives_expert_dt: int
    bloody_mess_dt: int
    femme_fatale_dt: int
    combat_surgeon_dt: int
    silent_attack_dt: int
    improved_charge_dt: int
    chi_strike_dt: int
    poison_bonus: int
    poison_resistance_bonus: int
    toxin_fortitude_penalty: int
    unconscious_penalty: int
    spot_falloff: int
    alert_radius: int
    c4_terrain_damage: int = 4  # 6.9; a default, so content written before C4 existed still loads
    # 4 (Interpretation): what a swimmer cannot do in the water (Act actions and "shoot", "throw", "reload"), and
    # whether swimming puts a fire out; defaults, so content written before swimming still loads
    swim_refuses: tuple[str, ...] = ("shoot", "throw", "reload", "aim", "hunker", "overwatch", "medkit", "hack",
                                     "place_c4", "chi_breath")
    swim_douses: bool = True
    swim_tiles: tuple[str, ...] = ("water",)  # terrain ids that are swum (the forest's stream)
    inspire_reach: int = 4  # 13: Inspire Allies reaches allies within D <= 4 (a default for older content)
    shots_heard: bool = False  # 10: a shot heard within alert_radius (False: older content, whose logs have none)
    # 8: the machines (terrain ids) worked only by Hack, never Interact's Intelligence test; () for older content
    hack_only: tuple[str, ...] = ()
    flare_radius: int = 3  # 6.7 (Interpretation): a flare fired at a square lights the squares within D <= 3
    repeat_recoil: bool = False  # 6.4: recoil for repeated attack actions on the map (False: older content's logs)
    # False for older content, whose logs were written (and hashed) without them:
    singular_squares: bool = False  # a one-square move's cause reads "(1 square)", not "(1 squares)"
    inspire_wake: bool = False  # 13: a failed med-kit wake-up Will test can be re-rolled by Inspire Allies
    status_breaks: bool = False  # 4: becoming Stunned, Unconscious or Disoriented breaks a continuing action
    panic_reacts: bool = False  # 10, 6.8: a panicking civilian's run draws hostile overwatch and spot checks
    strangers: bool = False  # 13: "Thank you, Stranger!" brings a local to the battle (strangers.py)
    level_forces: bool = False  # difficulty.toml scales forces.toml's aliens and adds its alien_stats to them
    smoke_radius: int
    smoke_concealed: int
    smoke_hidden: int
    hack_security: int
    revised_wounds: bool
    dying_turns: Formula
    on_fire_turns: Formula
    chi_stun_turns: Formula
    chi_disoriented_turns: int
    flashbang_turns: int
    wake_needs_will: bool


@attrs.frozen(kw_only=True)
class Cover:
    name: str
    value: int
    hp: int


@attrs.frozen(kw_only=True)
class Armour:
    name: str
    dr: int
    hp: int
    weight: float


@attrs.frozen(kw_only=True)
class Tier:
    """wounds.toml: one wound tier of section 8.2."""

    name: str
    rank: int
    penalty: int
    heal: Formula
    heal_fast: Formula


@attrs.frozen(kw_only=True)
class Mode:
    """A firing mode: AP, rounds and attack rolls; a cone for sprays; akimbo = fired as a pistol pair."""

    ap: int
    rounds: int = 0
    rolls: int = 1
    cone: Literal["", "cone", "big"] = ""
    akimbo: bool = False


@attrs.frozen(kw_only=True)
class Weapon:
    name: str
    kind: Literal["gun", "launcher", "melee"]
    strength: int
    dt: int
    recoil: int = 0
    capacity: int = 0
    ammo: list[str] = attrs.field(factory=list)  # ammo items it loads; the first is a kit's spare
    reload: int = 0
    range: int = 0
    untargeted_range: int = 0
    scope: bool = False
    pistol: bool = False
    blade: bool = False
    unarmed: bool = False
    rider: Rider = ""
    explosion: str = ""  # the item that explodes after the shot (the missile)
    weight: float
    modes: dict[str, Mode]


@attrs.frozen(kw_only=True)
class Item:
    name: str
    kind: Literal["grenade", "placed", "explosion", "ammo", "medkit", "tool"]
    strength: int = 1
    dt: int = 0
    rings: list[int] = attrs.field(factory=list)
    effect: Literal["", "damage", "on_fire", "disorient", "smoke"] = ""
    radius: int = 0
    duration: Formula | None = None
    terrain_radius: int = 0
    reach: int = 0  # the detonator's range
    rounds: int = 0
    rider: Rider = ""
    weight: float


@attrs.frozen(kw_only=True)
class Bonus:
    sneak: int = 0
    ap: int = 0  # per rank
    carry: int = 0
    max_capacity: int = 0


@attrs.frozen(kw_only=True)
class Ability:
    name: str
    requires: dict[str, int] = attrs.field(factory=dict)
    after: list[str] = attrs.field(factory=list)
    ranks: int = 1
    second_rank: dict[str, int] = attrs.field(factory=dict)
    facility: str  # the facility that trains it (facilities.toml), or "none"
    teacher: str = ""
    battle: bool = True  # false: it acts only between battles (recorded for the campaign)
    bonus: Bonus = Bonus()
    grants: str = ""  # a weapon the ability gives (Iron Fist)


@attrs.frozen(kw_only=True)
class Action:
    name: str
    cost: Formula
    explode: bool = False
    cost_with: dict[str, Formula] = attrs.field(factory=dict)
    uses: list[Pool] = attrs.field(factory=list)
    ends_turn: bool = False
    needs: str = ""  # the ability without which the action is refused


@attrs.frozen(kw_only=True)
class KitEntry:
    item: str
    count: int = 1
    spares: int = 0


@attrs.frozen(kw_only=True)
class Character:
    name: str
    codename: str = ""
    attributes: Attributes
    star: Star = ""  # the attribute printed with `*`
    armour: str
    drawn: str = ""
    abilities: list[str] = attrs.field(factory=list)
    kit: list[KitEntry] = attrs.field(factory=list)
    minor_wounds: int = 0  # unhealed Minor wounds a campaign operative brings into battle (8.2), with their penalty


@attrs.frozen(kw_only=True)
class Enemy:
    """enemies.toml: an enemy kind (section 16 gives none; the game's placeholders)."""

    name: str
    attributes: Attributes
    armour: str
    drawn: str = ""
    abilities: list[str] = attrs.field(factory=list)
    kit: list[KitEntry] = attrs.field(factory=list)
    mechanical: bool = False  # a machine (Engineering lowers its DR)
    human: bool = False  # Femme Fatale, Combat Surgeon
    flies: bool = False


@attrs.frozen(kw_only=True)
class Kit:
    """kits.toml: what a new operative is issued, with the most of each it may take."""

    armour: str
    belt: int
    items: list[KitEntry]


@attrs.frozen(kw_only=True)
class Spot:
    """campaign.toml [[standard.start]]: one facility of the starting base, placed as an order would."""

    facility: str
    layer: int = 0
    x: int = 0
    y: int = 0
    rotation: int = 0


@attrs.frozen(kw_only=True)
class Campaign:
    """campaign.toml: training, Luck and funding (14.2, 14.3, 15); the battle rules never read it."""

    attribute_days: Formula  # names: current
    ability_days_per_point: int
    monthly_income: int
    poster_income: int
    new_base_funding: int
    new_base_man_days: int
    new_base: list[str]
    gamble_cost: int
    luck_max: int
    salvage: int
    salvage_loot_drops: int
    salvage_more_loot: int
    stranger_chance: int
    # The base (15): the site's squares a side on every layer, the deepest layer, the starting base, staff and
    # funding, what hiring costs. Defaults: a bundle from before the campaign still loads.
    site: int = 16
    deepest: int = 8
    start: list[Spot] = attrs.field(factory=list)
    start_staff: dict[str, int] = attrs.field(factory=dict)
    start_funding: int = 0
    hire_cost: int = 1
    housing: dict[str, str] = attrs.field(factory=dict)  # staff role -> the facility that houses it
    gamble_days: int = 7
    heal_ignored_days: int = 1  # Toughness: an ignored Minor wound heals in 1 day
    salvage_worth: int = 1  # F per enemy item salvaged at a won mission's debrief
    recruit_cost: int = 2  # F per operative recruited (it needs room in a Barracks)


@attrs.frozen(kw_only=True)
class Facility:
    name: str
    man_days: int
    funding: int
    shape: list[str]
    per_layer: bool = False  # layer n costs n times the funding
    vehicles: bool = False
    layers: int = 1
    trains: dict[str, int] = attrs.field(factory=dict)  # attribute -> the highest value it may be trained to
    needs: str = ""  # staff it needs to train anyone
    unexcavated_man_days: int = 0
    unexcavated_funding: int = 0
    # Placement limits (15's Limits column): "exactly"/"at_least" `count` per base; where it may stand; a facility
    # it must touch; `area`: a build area (Surface, Excavation) rather than a facility standing in one.
    limit: Literal["", "exactly", "at_least"] = ""
    count: int = 1
    layer: Literal["any", "surface", "underground"] = "any"
    adjacent: str = ""  # a facility it must stand next to (Radar Tower: the Runway)
    touches: str = ""  # an area must touch this facility on its layer (Excavation: an Elevator)
    apart: bool = False  # an area that may not overlap or touch another of its kind on a layer
    area: bool = False
    houses: int = 0  # staff it houses (Residence: 10 scientists/engineers)


@attrs.frozen(kw_only=True)
class Member:
    """roster.toml: one template forces.toml may deploy, with the numbers of a pre-gen or of an enemy kind."""

    character: str = ""  # a characters.toml id
    enemy: str = ""  # or an enemies.toml id
    name: str = ""  # its own name, else the one it takes its numbers from
    glyph: str
    behaviour: str = "default"  # its AI profile in the shared behaviour.toml
    abilities: list[str] = attrs.field(factory=list)  # a character's: abilities trained on top of its own


@attrs.frozen(kw_only=True)
class TileCover:
    """terrain_cover.toml: a shared terrain tile as a piece of cover (6.2): its kind in cover.toml, and its HP when
    not the kind's."""

    cover: str
    hp: int = 0


FILES = {"settings.toml": Settings, "cover.toml": Cover, "armour.toml": Armour, "wounds.toml": Tier,
         "weapons.toml": Weapon, "items.toml": Item, "abilities.toml": Ability, "actions.toml": Action,
         "characters.toml": Character, "kits.toml": Kit, "campaign.toml": Campaign, "facilities.toml": Facility,
         "enemies.toml": Enemy, "roster.toml": Member, "forces.toml": Forces, "terrain_cover.toml": TileCover}
def _check(own: Tables, shared: Tables) -> list[str]:
    """Every file is needed, but a bundle with no xxxzone folder at all (a log's content from before xxxzone was
    registered) is no mistake: it cannot play xxxzone, and says so only if asked to."""
    if not any(own.values()):
        return []
    missing = [f"{name}: missing file, or no table in it" for name in FILES if not own[name.removesuffix('.toml')]]
    if missing:
        return missing
    from engine.rules.xxxzone import forces  # they read these models, so they are imported once they exist
    from engine.rules.xxxzone.crosscheck import check
    return check(own, shared) + forces.check(own, shared)


SCHEMA = Schema(files=FILES, optional=tuple(FILES), check=_check)
