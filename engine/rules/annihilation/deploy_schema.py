"""What annihilation adds to its content to play the shared missions: its unit templates (`units.toml`), who
deploys on each mission (`forces.toml`) and what the shared map tiles are as section 9.1's ground (`ground.toml`),
on top of the rules' own tables (schema.SCHEMA)."""

from __future__ import annotations

import attrs

from engine.content.missions import check_forces
from engine.content.models import Forces
from engine.content.tables import Schema, Tables
from engine.rules.annihilation import schema as s


@attrs.frozen(kw_only=True)
class Template:
    """units.toml: one unit a mission may deploy. No `stats`: every stat is rolled 7d10 + 10 (A-3.1)."""

    name: str
    race: str  # races.toml
    glyph: str
    armour: str = ""  # armour.toml; "" = the race's
    weapon: str = ""  # weapons.toml, held ready; "" = unarmed
    clips: int = 0  # full spare clips on the belt
    grenades: dict[str, int] = attrs.field(factory=dict)  # explosives.toml id -> how many, on the belt
    items: dict[str, int] = attrs.field(factory=dict)  # items.toml id -> how many, on the belt (a kit full)
    skills: dict[str, str] = attrs.field(factory=dict)  # skills.toml id -> levels.toml id, above the baseline
    stats: dict[str, int] = attrs.field(factory=dict)  # pre-made: all fourteen of
    behaviour: str = "default"  # behaviour.toml


@attrs.frozen(kw_only=True)
class Ground:
    """ground.toml: a shared map tile as the ground of section 9.1."""

    terrain: str = "level"  # terrain.toml
    opens: bool = False  # a closed door: entering it opens it on the way (open_door)
    jump: bool = False  # a window or a small fence: jumped through or over to the square beyond (9.1, jump)


def check(t: Tables, shared: Tables) -> list[str]:
    """A bundle without an `annihilation/` folder (an older one) loads, and this ruleset has no tables there; a folder
    that is there needs every file."""
    if not any(t.values()):
        return []
    missing = [f"{name}: missing file" for name in FILES if not t[name.removesuffix(".toml")]]
    if missing:
        return missing
    out = s.check(t, shared)
    for key, u in t["units"].items():
        if u.race not in t["races"]:
            out.append(f"units.toml: [{key}].race: unknown race {u.race!r}")
        if u.armour and u.armour not in t["armour"]:
            out.append(f"units.toml: [{key}].armour: unknown armour {u.armour!r}")
        if u.weapon and u.weapon not in t["weapons"]:
            out.append(f"units.toml: [{key}].weapon: unknown weapon {u.weapon!r}")
        out += [f"units.toml: [{key}].grenades: unknown explosive {g!r}" for g in u.grenades if g not in t["explosives"]]
        out += [f"units.toml: [{key}].items: unknown item {i!r}" for i in u.items if i not in t["items"]]
        out += [f"units.toml: [{key}].skills: unknown skill {k!r} or level {v!r}" for k, v in u.skills.items()
                if k not in t["skills"] or v not in t["levels"]]
        if u.stats and sorted(u.stats) != sorted(s.STATS):
            out.append(f"units.toml: [{key}].stats: expected all of {', '.join(s.STATS)}")
    for key, g in t["ground"].items():
        if g.terrain not in t["terrain"]:
            out.append(f"ground.toml: [{key}].terrain: unknown terrain {g.terrain!r}")
    if "missions" in shared:
        out += check_forces("forces.toml", t["forces"], shared["missions"], t["units"])
    return out


FILES = {**s.SCHEMA.files, "units.toml": Template, "forces.toml": Forces, "ground.toml": Ground}
SCHEMA = Schema(files=FILES, optional=tuple(FILES), check=check)
