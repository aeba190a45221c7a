"""What annihilation adds to its content to play the shared missions: its unit templates (`units.toml`), who
deploys on each mission (`forces.toml`) and what the shared map tiles are as section 9.1's ground (`ground.toml`),
on top of the rules' own tables (schema.SCHEMA)."""

from __future__ import annotations

import attrs

from engine.content.formula import Formula
from engine.content.missions import check_forces
from engine.content.models import Forces
from engine.content.tables import Schema, Tables
from engine.rules.annihilation import schema as s


@attrs.frozen(kw_only=True)
class Kept:
    """A roster character's record beyond its stats (creator.Recruit), deployed as it stands."""

    skills: dict[str, int] = attrs.field(factory=dict)  # skill id -> percentage; empty: the baseline
    rank: str = "rookie"
    missions: int = 0
    kills: int = 0
    uses: dict[str, int] = attrs.field(factory=dict)  # stat -> uses carried over
    skill_uses: dict[str, int] = attrs.field(factory=dict)


@attrs.frozen(kw_only=True)
class Template:
    """units.toml: one unit a mission may deploy. No `stats`: every stat is rolled 7d10 + 10 (A-3.1)."""

    name: str
    race: str  # races.toml
    glyph: str
    armour: str = ""  # armour.toml; "" = the race's
    weapon: str = ""  # weapons.toml, held ready; "" = unarmed
    clips: int = 0  # full spare clips on the belt
    ammo: str = ""  # the weapon's loaded round when it is not clip-fed: ammo.toml (cannons, rockets), or a size-A
    # explosive (grenade launchers); it deploys loaded to capacity. A clip-fed weapon loads its own clip.
    spares: dict[str, int] = attrs.field(factory=dict)  # ammo.toml round -> how many full spare loads on the belt
    grenades: dict[str, int] = attrs.field(factory=dict)  # explosives.toml id -> how many, on the belt
    items: dict[str, int] = attrs.field(factory=dict)  # items.toml id -> how many, on the belt (a kit full)
    backpack: dict[str, int] = attrs.field(factory=dict)  # explosives.toml or items.toml id -> how many, in the backpack
    skills: dict[str, str] = attrs.field(factory=dict)  # skills.toml id -> levels.toml id, above the baseline
    stats: dict[str, int] = attrs.field(factory=dict)  # pre-made: all fourteen of
    behaviour: str = "default"  # behaviour.toml
    reserve: str = ""  # its AI profile: a firing mode (modes.toml) whose TU its walks keep for opportunity fire
    harness: bool = False  # the strap, gyro and pad system, fitted before the mission; weight 0
    sights: list[str] = attrs.field(factory=list)  # items.toml sights fitted to the weapon, at most two
    kept: Kept | None = None  # a roster character's skills, rank and carried uses (creator.deploy)


@attrs.frozen(kw_only=True)
class Ground:
    """ground.toml: a shared map tile as the ground of section 9.1."""

    terrain: str = "level"  # terrain.toml
    opens: bool = False  # a closed door: entering it opens it on the way (open_door)
    jump: bool = False  # a window or a small fence: jumped through or over to the square beyond (9.1, jump)


@attrs.frozen(kw_only=True)
class Hardship:
    """difficulty.toml: what a level of the shared difficulty.toml does to the aliens under annihilation, after
    OpenXcom (its aim multiplier and stat growth by difficulty), beside the shared file's alien numbers. A level
    not here leaves them as rolled."""

    accuracy_percent: int = 100  # Acc (and Trw) of every alien
    stats_percent: int = 100  # TU, Stamina, Health, Bravery, Reactions and Strength of every alien
    reserve_percent: int = 0  # of its TU allowance an alien keeps back from walking, for opportunity fire


def hardened(h: Hardship | None, stats: dict[str, int]) -> dict[str, int]:
    """An alien's stats at the level (rounded down, A-0)."""
    if h is None:
        return stats
    pct = {"accuracy": h.accuracy_percent, "throwing": h.accuracy_percent, **{k: h.stats_percent for k in GROWN}}
    return {k: v * pct.get(k, 100) // 100 for k, v in stats.items()}


GROWN = ("time_units", "stamina", "health", "bravery", "reactions", "strength")


def check(t: Tables, shared: Tables) -> list[str]:
    """A bundle without an `annihilation/` folder (an older one) loads, and this ruleset has no tables there; a folder
    that is there needs every file."""
    if not any(t.values()):
        return []
    missing = [f"{name}: missing file" for name in FILES if not t[name.removesuffix(".toml")]
               and name not in LATER]
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
        out += _ammo(t, key, u) + _spares(t, key, u) + _sights(t, key, u)
        out += [f"units.toml: [{key}].grenades: unknown explosive {g!r}" for g in u.grenades if g not in t["explosives"]]
        out += [f"units.toml: [{key}].items: unknown item {i!r}" for i in u.items if i not in t["items"]]
        out += [f"units.toml: [{key}].backpack: unknown explosive or item {i!r}" for i in u.backpack
                if i not in t["items"] and i not in t["explosives"]]
        out += [f"units.toml: [{key}].skills: unknown skill {k!r} or level {v!r}" for k, v in u.skills.items()
                if k not in t["skills"] or v not in t["levels"]]
        if u.reserve and u.reserve not in t["modes"]:
            out.append(f"units.toml: [{key}].reserve: unknown firing mode {u.reserve!r}")
        if u.stats and sorted(u.stats) != sorted(s.STATS):
            out.append(f"units.toml: [{key}].stats: expected all of {', '.join(s.STATS)}")
    for key, g in t["ground"].items():
        if g.terrain not in t["terrain"]:
            out.append(f"ground.toml: [{key}].terrain: unknown terrain {g.terrain!r}")
    if "missions" in shared:
        out += check_forces("forces.toml", t["forces"], shared["missions"], t["units"])
    out += _stock(t)
    levels = shared.get("known", {}).get("difficulty")
    if levels is not None:
        out += [f"difficulty.toml: [{key}]: no such level in the shared difficulty.toml" for key in t["difficulty"]
                if key not in levels]
    return out


def _stock(t: Tables) -> list[str]:
    """A campaign's starting stores name things of the kit tables, each a count of none or more."""
    out = []
    kinds = ("armour", "weapons", "items", "explosives")
    for key, c in t["campaign"].items():
        for thing, n in (c.stock or {}).items():
            where = f"campaign.toml: [{key}.stock].{thing}"
            if not any(thing in t[kind] for kind in kinds):
                out.append(f"{where}: no armour, weapon, item or explosive of that id")
            elif n < 0:
                out.append(f"{where}: {n} is negative")
        out += [f"campaign.toml: [{key}].{name}: {n} is negative" for name, n in
                (("recruit_days", c.recruit_days), ("roster_cap", c.roster_cap)) if n < 0]
    return out


def _sights(t: Tables, key: str, u: Template) -> list[str]:
    """Sights are items.toml sights, each once, at most two, on a weapon whose class can use them (A-14.5)."""
    where = f"units.toml: [{key}].sights"
    spare = [i for i in u.items if i in t["items"] and t["items"][i].sight]
    if spare:
        return [f"units.toml: [{key}].items: {spare[0]!r} is a sight: fit it to the weapon with `sights`"]
    if not u.sights:
        return []
    w = t["weapons"].get(u.weapon)
    if w is None:
        return [f"{where}: no weapon to fit them to"]
    bad = [x for x in u.sights if x not in t["items"] or not t["items"][x].sight]
    if bad:
        return [f"{where}: {bad[0]!r} is no items.toml sight"]
    if len(set(u.sights)) != len(u.sights) or len(u.sights) > 2:
        return [f"{where}: a laser and a telescopic sight at most, each once"]
    if not t["classes"][w.category].sights:
        return [f"{where}: sights give the {w.name} nothing (A-14.5)"]
    return []


def _spares(t: Tables, key: str, u: Template) -> list[str]:
    """Spare rounds are ammo.toml rounds for the template's own weapon, and at least one of each named."""
    w = t["weapons"].get(u.weapon)
    where = f"units.toml: [{key}].spares"
    if u.spares and (w is None or w.feed != "ammo"):
        return [f"{where}: spare rounds are for a weapon fed by ammo.toml rounds (a cannon, a rocket launcher)"]
    out = []
    for a, n in u.spares.items():
        if a not in t["ammo"] or t["ammo"][a].weapon != u.weapon:
            out.append(f"{where}: {a!r} is no ammo.toml round for the {w.name}")
        elif n < 1:
            out.append(f"{where}: {a} = {n}: at least 1")
    return out


def _ammo(t: Tables, key: str, u: Template) -> list[str]:
    """A weapon fed by ammo.toml rounds or by grenades names what it deploys loaded with; a clip-fed one does not."""
    w = t["weapons"].get(u.weapon)
    where = f"units.toml: [{key}].ammo"
    if w is None:
        return [f"{where}: no weapon to load"] if u.ammo else []
    if w.feed in ("clip", "charges"):
        return [f"{where}: the {w.name} is {w.feed}-fed; it takes no ammo"] if u.ammo else []
    if not u.ammo:
        return [f"{where}: the {w.name} deploys loaded: name its round"]
    if w.feed == "ammo":
        a = t["ammo"].get(u.ammo)
        return [] if a is not None and a.weapon == u.weapon else [
            f"{where}: {u.ammo!r} is no ammo.toml round for the {w.name}"]
    e = t["explosives"].get(u.ammo)
    return [] if e is not None and e.size == "A" else [f"{where}: the {w.name} fires size-A grenades of "
                                                       f"explosives.toml, not {u.ammo!r}"]


@attrs.frozen(kw_only=True)
class Campaign:
    """campaign.toml `[standard]`: healing between missions (Interpretation, docs/rules-notes.md); the battle
    rules never read it. `heal_days` may name `lost` (Health lost) and `wounds` (wounds taken this mission)."""

    heal_days: Formula = Formula.parse("lost + 3 * wounds")  # a bundle without the file: campaign.toml's numbers
    limb_days: int = 30  # on top, per limb blown off: a new one grafted
    unfit_percent: int = 50  # Health lost at least this % of Hth: too badly wounded to deploy until healed
    unfit_wounds: int = 4  # or this many wounds taken
    healed_only: bool = False  # every soldier still healing stays home (X-COM's hospital); False (a bundle
    # without it): only the unfit above, the others fighting at full Health
    recovers: bool = False  # what lies on the ground of a won mission, and the kit of the aliens left
    # down, is recovered and named in the debrief (into the stores, if there are any); False (a bundle without it):
    # nothing
    stock: dict[str, int] | None = None  # the stores a campaign begins with: armour.toml, weapons.toml, items.toml
    # or explosives.toml id -> how many; None (a bundle without it): no stores, every kit on offer
    recruit_days: int = 0  # a rookie may join every this many days while fewer are fit than a squad; 0 (a bundle
    # without it): nobody joins
    roster_cap: int = 0  # nor once this many soldiers live


# a bundle without them (an older one) plays every level with the aliens as rolled, and has no campaign
LATER = ("difficulty.toml", "campaign.toml")
FILES = {**s.SCHEMA.files, "units.toml": Template, "forces.toml": Forces, "ground.toml": Ground,
         "difficulty.toml": Hardship, "campaign.toml": Campaign}
SCHEMA = Schema(files=FILES, optional=tuple(FILES), check=check, between=("campaign.toml",))
