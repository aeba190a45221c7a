"""Terrain: what a map tile is (the model of content's terrain.toml), owned by the map that draws and reads it."""

from __future__ import annotations

from typing import Literal

import attrs

Cover = Literal["none", "partial", "full"]
COVER_LEVEL: dict[str, int] = {"none": 0, "partial": 1, "full": 2}


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
    opens_to: str | None = None  # a door: the tile the "open" action makes of it
    closes_to: str | None = None
    unlocks_to: str | None = None  # a locked door: the tile a picked lock makes of it (a ruleset's own action)
    fades_to: str | None = None  # smoke: what it becomes at the next phase ("" = the map's own tile)
