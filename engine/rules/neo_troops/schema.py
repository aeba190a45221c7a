"""The tables of `content/neo-troops/`: one attrs model per file, and the cross-checks between them.

Every number of the spec's tables that is data lives in these files; the rules modules read them through the
models below and hard-code none of them.
"""

from __future__ import annotations

import difflib
from typing import Literal

import attrs

from engine.content.formula import Formula, FormulaError
from engine.content.missions import check_forces
from engine.content.models import Forces
from engine.content.tables import Schema, Tables

# What a face of a critical table does (§18); a face may instead name another table of criticals.toml to roll on.
Effect = Literal["component", "extra_damage", "out", "cloak", "mapping", "accessory", "weapon", "save", "head",
                 "severe", "incapacitated", "killed"]
EFFECTS = frozenset(Effect.__args__)  # type: ignore[attr-defined]
ItemKind = Literal["accessory", "external", "ammo"]


@attrs.frozen(kw_only=True)
class Side:
    """sides.toml: what the readers call a side (engine.log.story.sides_of reads `name` and `turn` of any ruleset's
    `sides` tables), and the word before "turn" ("": the name)."""

    name: str
    turn: str = ""


@attrs.frozen(kw_only=True)
class Difficulty:
    """N-1.2: a named target number."""

    tn: int


@attrs.frozen(kw_only=True)
class Cover:
    """N-3.2: the AV a cover tag adds."""

    av: int


@attrs.frozen(kw_only=True)
class Sighting:
    """N-4.3: how hard a cloaked target is to notice after its latest action."""

    difficulty: str  # a difficulties.toml id
    search_only: bool = False  # only an observer whose action was Search may test


@attrs.frozen(kw_only=True)
class Weapon:
    """§20.2 (the sample set is a placeholder, not source data)."""

    name: str
    short: str = ""  # its name on the 80×24 unit panel ("": the name)
    rof: int = 1
    long_range: int = 25  # cells
    save_mod: int = 0
    hits: int = 1
    snap_only: bool = False
    big: bool = False
    small: bool = False
    dual: bool = False
    weight_kg: float = 0.0
    shots: int = 1  # ammunition capacity
    reloads: bool = True  # a Stationary action refills it from an ammunition load (not a grenade)
    blast: int = 0  # radius in cells; 1 = 3 × 3
    melee: bool = False  # a melee weapon (no shooting)
    reach: int = 0  # melee reach it gives; 0 = the bearer's own
    attacks: int = 1  # melee attacks (base dice B, N-15.2)


@attrs.frozen(kw_only=True)
class Armour:
    name: str
    save: int  # the d6 a save needs (4 = 4+)
    weight_kg: float = 0.0


@attrs.frozen(kw_only=True)
class Item:
    """Battlesuit accessories (critical 3), external equipment (N-16.4) and ammunition loads."""

    name: str
    kind: ItemKind
    weight_kg: float = 0.0


@attrs.frozen(kw_only=True)
class Character:
    """§20.1: a unit type; a `unit.Trooper` is built from one."""

    name: str
    glyph: str = "?"  # on the map
    behaviour: str = "default"  # its AI profile in the shared behaviour.toml
    av: int = 4
    armour: str = ""  # an armour.toml id; "" = no save
    hp: int = 1
    move_m: int = 10
    run_m: int = 20
    max_load_kg: float = 40.0
    accuracy: int = 0
    fighter: int = 0
    perception: int = 0
    reach: int = 1
    attacks: int = 1  # unarmed melee attacks
    varan: bool = False  # incapacitated (not dead) at 0 HP, bleeds, regenerates (N-17.2)
    cloaked: bool = False
    mapping: bool = False  # mapping system and scanners (critical 2)
    crit_table: str = "generic"  # a criticals.toml id
    weapons: list[str] = attrs.field(factory=list)  # the first `hands` are held
    hands: int = 1  # 2: the first two weapons in hand (two weapons, §12)
    combined: list[list[str]] = attrs.field(factory=list)  # weapons tied together (§14)
    items: list[str] = attrs.field(factory=list)


@attrs.frozen(kw_only=True)
class Criticals:
    """§18: six faces, each an effect or another table to roll on."""

    faces: list[str]
    repeat: str = ""  # the effect when a target rolls on this table a second time (N-18.2: killed)


@attrs.frozen(kw_only=True)
class Hardship:
    """hardship.toml: what a level of the shared difficulty.toml does to the squad's enemies under neo-troops (the
    shared file's alien numbers are tuned for the d100 rulesets; this one's own are here). A level not listed, or
    a bundle without the file (one from before it), leaves the forces as forces.toml and characters.toml say."""

    enemies_percent: int = 100  # of each kind in forces.toml (halves round up, at least 1 of a kind there is)
    accuracy: int = 0  # skill levels added to every enemy (N-1.3: one die each)
    fighter: int = 0
    perception: int = 0


@attrs.frozen(kw_only=True)
class Settings:
    """The spec's interpretations and GM's calls, with the spec's defaults (one table, `[default]`)."""

    step_m: int = 2  # N-0.1: metres of an orthogonal step
    diagonal_m: int = 3
    difficult_factor: int = 2  # N-6.3: a difficult cell costs double
    av_cap: int = 6  # N-3.4
    unseen_av: int = 6  # N-3.3
    light_load: float = 0.25  # N-6.3: fraction of max load
    heavy_load: float = 0.75
    light_run: float = 1.5
    heavy_run: float = 0.75
    max_load_speed: float = 0.5  # move and run at maximum load
    wound_speed: float = 0.5  # per severe wound
    leg_speed: float = 0.5  # per severed leg
    light_armour_save: int = 3  # "no armour with save 3+ or better" for the light-load run bonus
    agility_dice: int = 3  # N-5.1
    agility: str = "normal"  # N-5.3: TN of an agility test
    agility_hard: str = "hard"
    # N-6.3, N-5.3: tiles a move may jump or climb over (not stand on), each at an agility test (Normal; Hard for
    # `hard_obstacles`), costing double metres like a difficult cell
    obstacles: list[str] = attrs.field(factory=lambda: ["fence", "crate", "log", "hedge", "railing", "car", "wreck"])
    hard_obstacles: list[str] = attrs.field(factory=lambda: ["car", "wreck"])
    falling: bool = False  # N-3.5: a blast brings down the walls and trees in it, and each attacks round it (falling.py)
    big_penalty: int = 1  # N-5.2 ¹: agility and melee defence only
    combined_kg: float = 20.0  # N-14.1
    spray_spread: int = 2  # N-10.3: cells between declared targets
    area_radius: int = 1  # N-11.3: 3 × 3
    run_into_fire_dice: int = 2  # N-11.4
    friendly_fire: bool = False  # N-11.3: sustained fire attacks only enemies
    run_past_attacks: bool = True  # N-7.5 (GM's discretion)
    run_melee: bool = True  # N-8.1: a melee at the end of a run (GM's discretion)
    observer_ran: str = "very_hard"  # N-4.3
    external_on: int = 6  # N-16.4
    sever_on: int = 5  # §18.2: a limb is severed on this d6 or more
    limbs: list[str] = attrs.field(factory=lambda: ["left_arm", "right_arm", "left_leg", "right_leg"])
    bleed_turns: int = 10  # N-19.3
    first_aid_actions: int = 3
    repair_actions: Formula = attrs.field(factory=lambda: Formula.parse("1d6 * 10"))  # N-19.2
    regen_turns: int = 100  # N-19.4
    throw_reach: Formula = attrs.field(factory=lambda: Formula.parse("2 * long_range"))  # N-3.5, in cells
    # N-7.2: mission id -> the side ambushed there; its combatants that see no enemy as they deploy start surprised
    # (last in the first cycle). None by default, so logs from before it decide as they were written.
    ambush: dict[str, str] = attrs.field(factory=dict)


@attrs.frozen(kw_only=True)
class Campaign:
    """campaign.toml `[default]`: between missions (N-19.4, Interpretation); the battle rules never read it."""

    rest_days: int = 7  # the between-missions rest in which severe wounds and severed limbs regenerate


FILES = {"settings.toml": Settings, "difficulties.toml": Difficulty, "cover.toml": Cover,
         "sighting.toml": Sighting, "weapons.toml": Weapon, "armour.toml": Armour, "items.toml": Item,
         "characters.toml": Character, "criticals.toml": Criticals, "forces.toml": Forces,
         "campaign.toml": Campaign, "hardship.toml": Hardship, "sides.toml": Side}
FORMULA_NAMES = {"repair_actions": frozenset(), "throw_reach": frozenset({"long_range"})}
DIFFICULTY_FIELDS = ("agility", "agility_hard", "observer_ran")
LATER = ("hardship.toml", "sides.toml")  # added after the first release: a bundle from before has none


def check(own: Tables, shared: Tables) -> list[str]:
    """References between the tables and the ranges a d6 allows, one located line each. A bundle without a
    neo-troops folder at all (one written before the ruleset was registered) has nothing to check; one that has
    any of its files needs them all."""
    if not any(own.values()):
        return []
    out: list[str] = [f"{name}: missing file or an empty one" for name in FILES
                      if not own[name.removesuffix(".toml")] and name not in LATER
                      and name not in SCHEMA.between]  # an older bundle has no campaign
    tns, weapons, items, crits = own["difficulties"], own["weapons"], own["items"], own["criticals"]
    for key, d in tns.items():
        if not 2 <= d.tn <= 6:
            out.append(f"difficulties.toml: [{key}].tn: expected a face 2 to 6, got {d.tn}")
    for key, s in own["sighting"].items():
        if s.difficulty not in tns:
            out.append(f"sighting.toml: [{key}].difficulty: unknown difficulty {s.difficulty!r}")
    if "default" not in own["settings"]:
        out.append("settings.toml: missing the [default] table")
    for key, s in own["settings"].items():
        out += [f"settings.toml: [{key}].{f}: unknown difficulty {getattr(s, f)!r}"
                for f in DIFFICULTY_FIELDS if getattr(s, f) not in tns]
        for f, names in FORMULA_NAMES.items():
            try:
                Formula.parse(getattr(s, f).text, names)
            except FormulaError as exc:
                out.append(f"settings.toml: [{key}].{f}: {exc}")
    for key, w in weapons.items():
        if w.rof < 1 or w.hits < 1 or w.attacks < 1:
            out.append(f"weapons.toml: [{key}]: rof, hits and attacks are at least 1")
    for key, h in own["hardship"].items():
        if shared.get("difficulty") and key not in shared["difficulty"]:  # (a bundle from before the levels has none)
            out.append(f"hardship.toml: [{key}]: no such level in difficulty.toml")
        if not 1 <= h.enemies_percent <= 1000 or not all(-3 <= v <= 3 for v in (h.accuracy, h.fighter, h.perception)):
            out.append(f"hardship.toml: [{key}]: enemies_percent is 1 to 1000 and the skills -3 to 3")
    for key, a in own["armour"].items():
        if not 2 <= a.save <= 6:
            out.append(f"armour.toml: [{key}].save: expected a face 2 to 6, got {a.save}")
    for key, c in own["characters"].items():
        if c.armour and c.armour not in own["armour"]:
            out.append(f"characters.toml: [{key}].armour: unknown armour {c.armour!r}")
        if c.crit_table not in crits:
            out.append(f"characters.toml: [{key}].crit_table: unknown critical table {c.crit_table!r}")
        out += [f"characters.toml: [{key}].weapons: unknown weapon {w!r}" for w in c.weapons if w not in weapons]
        out += [f"characters.toml: [{key}].items: unknown item {i!r}" for i in c.items if i not in items]
        out += [f"characters.toml: [{key}].combined: {w!r} is not among its weapons"
                for combo in c.combined for w in combo if w not in c.weapons]
        if not 1 <= c.hands <= max(1, min(2, len(c.weapons))):
            out.append(f"characters.toml: [{key}].hands: 1, or 2 with two weapons")
        if not 2 <= c.av <= 6 or c.hp < 1:
            out.append(f"characters.toml: [{key}]: av must be 2 to 6 and hp at least 1")
    for key, t in crits.items():
        if len(t.faces) != 6:
            out.append(f"criticals.toml: [{key}].faces: expected 6 faces, got {len(t.faces)}")
        out += [f"criticals.toml: [{key}].faces: unknown effect or table {f!r}"
                for f in t.faces + ([t.repeat] if t.repeat else []) if f not in EFFECTS and f not in crits]
    out += [f"criticals.toml: [{key}].faces: the tables loop back to {key!r}" for key in crits if _loops(key, crits)]
    if "terrain" in shared:
        for key, st in own["settings"].items():
            out += [f"settings.toml: [{key}].{f}: unknown terrain {tile!r}" for f in ("obstacles", "hard_obstacles")
                    for tile in getattr(st, f) if tile not in shared["terrain"]]
    out += [f"sides.toml: [{key}]: expected a side 'xcom', 'aliens' or 'civilians'" for key in own.get("sides", {})
            if key not in ("xcom", "aliens", "civilians")]
    for key, st in own["settings"].items():
        out += [f"settings.toml: [{key}].ambush: {mid!r}: expected the side 'xcom' or 'aliens', got {side!r}"
                for mid, side in st.ambush.items() if side not in ("xcom", "aliens")]
        if "missions" in shared:  # as forces.toml's: a mission the bundle leaves out is idle, a misspelt one is not
            known = list(shared["missions"])
            for mid in st.ambush:
                close = difflib.get_close_matches(mid, known, n=1, cutoff=0.8) if mid not in known else []
                out += [f"settings.toml: [{key}].ambush: no such mission {mid!r} in missions/ (did you mean "
                        f"{close[0]!r}?)"] if close else []
    if "missions" in shared:  # a bundle may leave missions out: forces for those are idle, a misspelt id is not
        known = shared["missions"]
        for mid in own["forces"]:
            close = difflib.get_close_matches(mid, list(known), n=1, cutoff=0.8) if mid not in known else []
            out += [f"forces.toml: [{mid}]: no such mission in missions/ (did you mean {close[0]!r}?)"] if close else []
        forces = {mid: f for mid, f in own["forces"].items() if mid in known}
        out += check_forces("forces.toml", forces, known, own["characters"])
    return out


def _loops(start: str, crits: dict) -> bool:
    """Whether rolling on `start` can lead back to it through faces naming other tables."""
    seen, todo = set(), [f for f in crits[start].faces if f in crits]
    while todo:
        key = todo.pop()
        if key == start:
            return True
        if key not in seen:
            seen.add(key)
            todo += [f for f in crits[key].faces if f in crits]
    return False


SCHEMA = Schema(files=FILES, optional=tuple(FILES), check=check, between=("campaign.toml",))
