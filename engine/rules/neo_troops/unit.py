"""A neo-troops combatant as one frozen record of the ruleset's own numbers, and what follows from them.

The record keeps what happened (severe wounds, head hits, armour hits, parts damaged); everything the dice read
(skill levels that count, dice penalties, the save, the load) is derived here, never stored twice.
"""

from __future__ import annotations

from typing import Literal

import attrs

from engine.core.records import record
from engine.rules.neo_troops.schema import Character

State = Literal["working", "damaged", "destroyed"]
Status = Literal["active", "incapacitated", "dead"]
PartKind = Literal["accessory", "external", "ammo", "weapon"]


@attrs.frozen(kw_only=True)
class Part:
    """Something carried that a critical or an external roll can damage."""

    id: str
    kind: PartKind
    state: State = "working"


@record("neo-troops.trooper")  # ready to ride on Unit.record; a tag, not a ruleset registration
@attrs.frozen(kw_only=True, slots=False)  # a __dict__: records.evolve copies it in one step
class Trooper:
    id: str
    side: str
    character: str  # characters.toml id
    varan: bool
    av: int
    save: int | None  # the armour's save; None without armour
    hp: int
    hp_max: int
    move_m: int
    run_m: int
    max_load_kg: float
    load_kg: float
    accuracy: int = 0
    fighter: int = 0
    perception: int = 0
    reach: int = 1
    attacks: int = 1
    crit_table: str = "generic"
    cloak: State | None = None  # None: no cloaking device
    mapping: State | None = None
    head_hits: int = 0  # varan results 5 (N-18.3)
    armour_hits: int = 0  # varan save-branch results (N-18.4)
    severe_wounds: int = 0
    tables_rolled: tuple[str, ...] = ()  # critical tables with a `repeat` rule this unit has rolled on
    limbs_lost: tuple[str, ...] = ()  # severed (varan) or disabled (generic) limbs
    parts: tuple[Part, ...] = ()
    held: tuple[str, ...] = ()  # weapon ids in hand
    combined: tuple[tuple[str, ...], ...] = ()  # weapons tied together (§14)
    shots: tuple[tuple[str, int], ...] = ()  # shots left in each firearm
    status: Status = "active"
    bleeding: int | None = None  # own turns counted since the first bleeding wound; None: not bleeding
    # the unit's own action (§8), cleared when its next slot starts: the metres walked in it and what it did
    # (for everyone else, what the latest one did: N-4.3 and N-8.2 read it)
    spent_m: int = 0
    moved: bool = False
    ran: bool = False
    attacked: bool = False
    searched: bool = False  # a Search (N-8.1): the AI alternates searching with moving
    switch_dice: int | None = None  # a weapon switch at the start of this action (§13): its attack dice, 0 or −1
    actions: int = 0  # 1 while its slot is up (the one action it may take), else 0

    # -- derived ------------------------------------------------------------------------------------------

    @classmethod
    def from_fields(cls, old: dict) -> dict:
        """Its fields from the kernel fields an older log wrote on the unit (the log's upcasters call it): the
        slot marker `actions`, the metres walked in `counters` and what the action did in `flags`; the numbers it
        only mirrored there (stats, weapon, rounds) are its own already."""
        out: dict = {}
        if "actions" in old:
            out["actions"] = old["actions"]
        if "counters" in old:
            out["spent_m"] = dict(old["counters"]).get("spent_m", 0)
        if "flags" in old:
            out.update({flag: flag in old["flags"] for flag in ("moved", "ran", "attacked")})
        return out

    @property
    def head(self) -> State:
        return ("working", "damaged")[self.head_hits] if self.head_hits < 2 else "destroyed"

    @property
    def cloaked(self) -> bool:
        """N-4.3: a damaged cloak shows the unit to anyone in line of sight."""
        return self.cloak == "working"

    @property
    def wound_dice(self) -> int:
        """−1 die on every test per severe wound (N-9.3); HP loss alone costs no dice."""
        return self.severe_wounds

    @property
    def accuracy_now(self) -> int:
        """Head damage: all bonus accuracy and sensor skill lost (§18.2 result 5)."""
        return 0 if self.head_hits else self.accuracy

    @property
    def perception_now(self) -> int:
        return 0 if self.head_hits else self.perception

    @property
    def save_now(self) -> int | None:
        """The first armour hit worsens the save by 1, the second destroys the armour (N-18.4)."""
        if self.save is None or self.armour_hits >= 2:
            return None
        return self.save + self.armour_hits

    @property
    def max_load_now(self) -> float:
        return self.max_load_kg * 0.5 ** self.severe_wounds

    @property
    def load_fraction(self) -> float:
        return self.load_kg / self.max_load_now if self.max_load_now else 1.0

    @property
    def legs_lost(self) -> int:
        return sum(1 for limb in self.limbs_lost if limb.endswith("leg"))

    @property
    def arms_lost(self) -> int:
        return sum(1 for limb in self.limbs_lost if limb.endswith("arm"))

    @property
    def can_act(self) -> bool:
        return self.status == "active"

    @property
    def fresh(self) -> bool:
        """Nothing done yet in this action."""
        return not (self.spent_m or self.moved or self.ran or self.attacked)

    def part(self, part_id: str) -> Part | None:
        return next((p for p in self.parts if p.id == part_id), None)


def build(unit_id: str, side: str, character: str, tables: dict, **changes) -> Trooper:
    """A trooper from its characters.toml type; `changes` sets any field (a skill level, the held weapons)."""
    c: Character = tables["characters"][character]
    armour = tables["armour"].get(c.armour) if c.armour else None
    weapons, items = tables["weapons"], tables["items"]
    load = sum(weapons[w].weight_kg for w in c.weapons) + sum(items[i].weight_kg for i in c.items)
    parts = tuple(Part(id=w, kind="weapon") for w in c.weapons) + tuple(Part(id=i, kind=items[i].kind) for i in c.items)
    fields = dict(
        id=unit_id, side=side, character=character, varan=c.varan, av=c.av, save=armour.save if armour else None,
        hp=c.hp, hp_max=c.hp, move_m=c.move_m, run_m=c.run_m, max_load_kg=c.max_load_kg,
        load_kg=load + (armour.weight_kg if armour else 0.0), accuracy=c.accuracy, fighter=c.fighter,
        perception=c.perception, reach=c.reach, attacks=c.attacks, crit_table=c.crit_table,
        cloak="working" if c.cloaked else None, mapping="working" if c.mapping else None, parts=parts,
        held=tuple(c.weapons[:c.hands]), combined=tuple(tuple(combo) for combo in c.combined),
        shots=tuple((w, weapons[w].shots) for w in c.weapons if not weapons[w].melee))
    fields.update(changes)
    return Trooper(**fields)


def carries_big(t: Trooper, weapons: dict) -> bool:
    """N-5.2: any BIG weapon carried, held or slung."""
    return any(weapons[p.id].big for p in t.parts if p.kind == "weapon" and p.state != "destroyed")


def worse(state: State | None) -> State | None:
    """N-18.1: a hit damages a working system and destroys a damaged one."""
    return None if state is None else "damaged" if state == "working" else "destroyed"
