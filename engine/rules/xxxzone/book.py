"""The loaded content/xxxzone/ tables as one value the rules functions read (no globals, no files)."""

from __future__ import annotations

from typing import Any

import attrs

from engine.content.tables import Tables
from engine.rules.xxxzone.schema import (Action, Ability, Armour, Campaign, Character, Cover, Enemy, Facility, Item, Kit,
                                        Member, Settings, Tier, TileCover, Weapon)
from engine.content.models import Forces


@attrs.frozen(kw_only=True)
class Book:
    settings: Settings
    cover: dict[str, Cover]
    armour: dict[str, Armour]
    wounds: dict[str, Tier]
    weapons: dict[str, Weapon]
    items: dict[str, Item]
    abilities: dict[str, Ability]
    actions: dict[str, Action]
    characters: dict[str, Character]
    kits: dict[str, Kit]
    campaign: Campaign
    facilities: dict[str, Facility]
    enemies: dict[str, Enemy]
    roster: dict[str, Member] = attrs.field(factory=dict)
    forces: dict[str, Forces] = attrs.field(factory=dict)
    terrain_cover: dict[str, TileCover] = attrs.field(factory=dict)

    @classmethod
    def of(cls, tables: Tables) -> "Book":
        own: dict[str, Any] = dict(tables)
        own["settings"] = tables["settings"]["standard"]
        own["campaign"] = tables["campaign"]["standard"]
        return cls(**own)

    def gear(self, item: str) -> Weapon | Item:
        return self.weapons[item] if item in self.weapons else self.items[item]

    def tiers(self) -> list[str]:
        """Wound tier ids, mildest first."""
        return sorted(self.wounds, key=lambda t: self.wounds[t].rank)
