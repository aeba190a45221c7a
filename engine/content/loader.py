"""Load a content bundle: strict TOML -> attrs through cattrs, then cross-references.

Every mistake becomes one located line, `weapons.toml: [shotgun].damage: expected integer, got "eight"`.
This module, `engine.log` and `engine.roster` (the squad roster file) are the only ones that read or write files.
"""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path
from typing import Any, Sequence

from engine.content import layers, strict
from engine.content import tables as tables_
from engine.content import models as c
from engine.content.formula import Formula
from engine.content.strict import ContentError, default_dir  # noqa: F401 - also the loader's public names
from engine.core import files


FILES: dict[str, type] = {
    "rulesets.toml": c.RulesetDef,
    "races.toml": c.Race,
    "armor.toml": c.Armor,
    "weapons.toml": c.Weapon,
    "factions.toml": c.Faction,
    "units.toml": c.UnitTemplate,
    "terrain.toml": c.Terrain,
    "behaviour.toml": c.Behaviour,
    "difficulty.toml": c.Difficulty,
    "psionics.toml": c.PsiAbility,
    "items.toml": c.Item,
}
_FIELD = {name: name.removesuffix(".toml") for name in FILES}
MISSIONS = "missions"  # a folder of TOML files, one or more missions each
LEGACY_MISSIONS = "missions.toml"  # the one-file layout of older bundles, still read
NEWER = ("behaviour.toml", "difficulty.toml")  # files an older bundle may lack
OPTIONAL = ("psionics.toml", "items.toml")  # files any bundle may leave out (then no psionics, no consumables)


def is_content_file(name: str) -> bool:
    """True for the file labels content messages start with."""
    return name in FILES or name == LEGACY_MISSIONS or (name.startswith(MISSIONS + "/") and name.endswith(".toml"))


def bundle_hash(files: dict[str, bytes]) -> str:
    h = hashlib.sha256()
    for name in sorted(files):
        h.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return h.hexdigest()


def load(directory: Path | str | Sequence[Path | str] | None = None) -> c.Content:
    """Load, merge the layers (engine.content.layers) and cross-check; raises ContentError with every message."""
    if directory is None:
        directories: list[Path | str] = []
    elif isinstance(directory, (str, Path)):
        directories = [directory]
    else:
        directories = list(directory)
    stack, problems = layers.stack(directories, default_dir())
    if problems:
        raise ContentError(problems)
    root = stack[0].base
    messages: list[str] = []
    raw: dict[str, bytes] = {}
    tables: dict[str, dict[str, Any]] = {}
    known: dict[str, set[str]] = {}  # every id a file declares, loaded or not, so one error is not ten
    origins: dict[str, dict[str, str]] = {}  # file -> id -> the layer's file that wrote it last, for messages
    stats: set[str] = set()  # stat names as written, even in a ruleset that failed to load
    mission_files = _mission_files(root)
    legacy = mission_files == [LEGACY_MISSIONS]
    for name, model in FILES.items():
        merged: dict[str, Any] = {}
        origin: dict[str, str] = {}
        found = parsed = False
        for layer in stack:
            doc = strict.read(layer.base, layer.label + name, raw, messages, optional=True)
            found = found or layer.label + name in raw  # read, even if it did not parse (that has its message)
            if doc is not None:
                parsed = True
                messages.extend(layers.overlay(merged, origin, doc, layer.label + name))
        if not found:
            if not ((legacy and name in NEWER) or name in OPTIONAL):
                messages.append(f"{name}: missing file")
            continue
        if not parsed:
            continue
        known[name], origins[name] = set(merged), origin
        if name == "rulesets.toml":
            stats = {st for table in merged.values() if isinstance(table, dict)
                     for st in (table.get("stats") if isinstance(table.get("stats"), list) else [])
                     if isinstance(st, str)}
        tables[name] = {}
        for key, value in merged.items():  # one id at a time, labelled with the layer that wrote it
            tables[name].update(strict.structure(origin.get(key, name), {key: value}, model, messages))
    missions: dict[str, Any] = {}
    origin = {}  # mission id -> the file it is in, for messages
    if not mission_files:
        messages.append(f"{MISSIONS}/: missing folder")
    docs: dict[str, Any] = {}
    for name in mission_files:
        doc = strict.read(root, name, raw, messages)
        if doc is None:
            continue
        for key in doc:
            if key in origin:
                messages.append(f"{name}: [{key}]: mission {key!r} is already defined in {origin[key]}")
        fresh = {k: v for k, v in doc.items() if k not in origin}
        origin.update({k: name for k in fresh})
        docs.update(fresh)
    for layer in stack[1:]:  # a mod's missions patch, add or delete by id
        for name in _mission_files(layer.base / layer.label.rstrip("/")):
            doc = strict.read(layer.base, layer.label + name, raw, messages)
            if doc is not None:
                messages.extend(layers.overlay(docs, origin, doc, layer.label + name))
    for key, value in docs.items():
        missions.update(strict.structure(origin[key], {key: value}, c.Mission, messages))
    missing = [n for n in FILES if n not in tables and not (legacy and n in NEWER) and n not in OPTIONAL]
    if not missing and mission_files:
        for name in NEWER + OPTIONAL:
            tables.setdefault(name, {})
            known.setdefault(name, set())
        found = cross_check(tables, known, stats, missions, origin)
        for name, by_id in origins.items():
            found = layers.relabel(found, name, by_id)
        messages.extend(found)
    shared = {_FIELD[n]: t for n, t in tables.items()}
    shared["missions"] = missions  # a ruleset's forces.toml is checked against them
    own, files_of = {}, {}
    for rid, schema in _schemas():
        before = set(raw)
        own[rid] = tables_.read(stack, rid, schema, shared, raw, messages)
        files_of[rid] = {k: raw[k] for k in raw if k not in before}
    if messages:
        raise ContentError(messages)
    fields = dict(shared)
    fields["missions"] = c.Missions(missions, fields.get("difficulty", {}))
    common = {k: v for k, v in raw.items() if not any(k in f for f in files_of.values())}
    hashes = {rid: bundle_hash({**common, **f}) for rid, f in files_of.items() if f}
    return c.Content(sha256=bundle_hash(common), hashes=hashes, rules=own, **fields)


def _schemas() -> list[tuple[str, tables_.Schema]]:
    """Each registered ruleset's content schema: the registry discovers them, so the loader names none."""
    from engine.core import ruleset

    return [(rid, s) for rid in ruleset.available() if (s := ruleset.schema(rid)) is not None]


def _mission_files(root: Path) -> list[str]:
    folder = root / MISSIONS
    if folder.is_dir():
        return [f"{MISSIONS}/{p.name}" for p in sorted(folder.glob("*.toml"))]
    return [LEGACY_MISSIONS] if (root / LEGACY_MISSIONS).exists() else []


def _ref(file: str, key: str, field: str, kind: str, value: str, table: set[str]) -> list[str]:
    if value in table:
        return []
    return [f"{file}: [{key}].{field}: unknown {kind} {value!r}{strict.did_you_mean(value, table)}"]


def cross_check(t: dict[str, dict[str, Any]], known: dict[str, set[str]], all_stats: set[str],
                missions: dict[str, c.Mission], origin: dict[str, str]) -> list[str]:
    out: list[str] = []
    rulesets, races, armor = t["rulesets.toml"], t["races.toml"], known["armor.toml"]
    weapons, factions, units = t["weapons.toml"], known["factions.toml"], t["units.toml"]
    terrain = t["terrain.toml"]
    race_ids, weapon_ids, unit_ids = known["races.toml"], known["weapons.toml"], known["units.toml"]
    for rid, r in rulesets.items():
        stats = set(r.stats)
        for field in ("hp", "stamina", "god_of_random"):
            bad = _names(getattr(r, field), stats)
            if bad:
                out.append(f"rulesets.toml: [{rid}].{field}: unknown name {bad!r}{strict.did_you_mean(bad, stats)}")
        for stat in r.stat_minimums:
            if stat not in stats:
                out.append(f"rulesets.toml: [{rid}].stat_minimums.{stat}: unknown stat{strict.did_you_mean(stat, stats)}")
    for rid, race in races.items():
        for i, other in enumerate(race.frightens):
            out.extend(_ref("races.toml", rid, f"frightens[{i}]", "race", other, race_ids))
        for part in ("caps", "modifiers", "fixed"):
            for stat in getattr(race, part):
                if stat not in all_stats:
                    out.append(f"races.toml: [{rid}].{part}.{stat}: unknown stat{strict.did_you_mean(stat, all_stats)}")
    for wid, w in weapons.items():
        if w.stat not in all_stats:
            out.append(f"weapons.toml: [{wid}].stat: unknown stat {w.stat!r}{strict.did_you_mean(w.stat, all_stats)}")
        for aid in w.headshot_kills:
            out.extend(_ref("weapons.toml", wid, "headshot_kills", "armour", aid, armor))
        for field in ("throw_range", "penalty"):
            bad = _names(getattr(w, field), all_stats)
            if bad:
                out.append(f"weapons.toml: [{wid}].{field}: unknown name {bad!r}{strict.did_you_mean(bad, all_stats)}")
        if w.thrown and w.throw_range is None:
            out.append(f"weapons.toml: [{wid}].throw_range: a thrown weapon needs a throw range")
        if not w.modes:
            out.append(f"weapons.toml: [{wid}].modes: a weapon needs at least one mode")
        if w.owner is not None:
            out.extend(_ref("weapons.toml", wid, "owner", "unit", w.owner, unit_ids))
        for stat in w.owner_bonus:
            if stat not in all_stats:
                out.append(f"weapons.toml: [{wid}].owner_bonus.{stat}: unknown stat{strict.did_you_mean(stat, all_stats)}")
    for uid, u in units.items():
        out.extend(_ref("units.toml", uid, "race", "race", u.race, race_ids))
        out.extend(_ref("units.toml", uid, "faction", "faction", u.faction, factions))
        out.extend(_ref("units.toml", uid, "armor", "armour", u.armor, armor))
        out.extend(_ref("units.toml", uid, "weapon", "weapon", u.weapon, weapon_ids))
        for item in u.items:  # grenades (weapons.toml) or consumables (items.toml)
            out.extend(_ref("units.toml", uid, f"items.{item}", "item", item, weapon_ids | known.get("items.toml", set())))
        for stat in u.stats:
            if stat not in all_stats:
                out.append(f"units.toml: [{uid}].stats.{stat}: unknown stat{strict.did_you_mean(stat, all_stats)}")
        if len(u.glyph) != 1:
            out.append(f"units.toml: [{uid}].glyph: expected one character, got {strict.show(u.glyph)}")
    for tid, tile in terrain.items():
        if len(tile.glyph) != 1:
            out.append(f"terrain.toml: [{tid}].glyph: expected one character, got {strict.show(tile.glyph)}")
        for field in ("color", "background"):
            if not _is_colour(getattr(tile, field)):
                out.append(f"terrain.toml: [{tid}].{field}: expected a colour like \"#a0b0c0\", "
                           f"got {strict.show(getattr(tile, field))}")
        if tile.destroyed is not None:
            out.extend(_ref("terrain.toml", tid, "destroyed", "tile", tile.destroyed, known["terrain.toml"]))
    tiles = known["terrain.toml"]
    for wid, w in weapons.items():
        if w.smoke is not None:
            out.extend(_ref("weapons.toml", wid, "smoke", "tile", w.smoke, tiles))
    for tid, tile in terrain.items():
        for field in ("opens_to", "closes_to", "fades_to"):
            value = getattr(tile, field)
            if value:  # fades_to = "" is the map's own tile
                out.extend(_ref("terrain.toml", tid, field, "tile", value, tiles))
    behaviours, levels = known["behaviour.toml"], t["difficulty.toml"]
    for fid, f in t["factions.toml"].items():
        if f.behaviour and behaviours:
            out.extend(_ref("factions.toml", fid, "behaviour", "behaviour", f.behaviour, behaviours))
        for victim, risen in f.converts.items():
            out.extend(_ref("factions.toml", fid, f"converts.{victim}", "faction", victim, factions))
            out.extend(_ref("factions.toml", fid, f"converts.{victim}", "unit", risen, unit_ids))
    for uid, u in units.items():
        if u.ai != "default" and behaviours:
            out.extend(_ref("units.toml", uid, "ai", "behaviour", u.ai, behaviours))
    defaults = [k for k, d in levels.items() if d.default]
    if levels and len(defaults) != 1:
        out.append(f"difficulty.toml: exactly one level needs default = true, found {len(defaults)}"
                   + (f" ({', '.join(defaults)})" if defaults else ""))
    for did, d in levels.items():
        for stat in d.alien_stats:
            if stat not in all_stats:
                out.append(f"difficulty.toml: [{did}].alien_stats.{stat}: unknown stat{strict.did_you_mean(stat, all_stats)}")
    for mid, m in missions.items():
        out.extend(check_mission(origin[mid], mid, m, known, unit_ids, levels))
        for fid, f in m.formulas.items():
            out.extend(f"{origin[mid]}: [{mid}].formulas.{fid}.stats: unknown stat {st!r}{strict.did_you_mean(st, all_stats)}"
                       for st in f.stats if st not in all_stats)
    from engine.content import bounds  # numbers the rules can mean, formulas provably evaluable (issue 14)

    return out + check_psionics(t["psionics.toml"], race_ids) + bounds.check(t, missions, origin)


def check_psionics(abilities: dict[str, c.PsiAbility], race_ids: set[str]) -> list[str]:
    """psionics.toml: known races, a partner that exists and names this one back, sane overloads."""
    out: list[str] = []
    for aid, a in abilities.items():
        for field in ("casters", "barred"):
            for i, race in enumerate(getattr(a, field)):
                out.extend(_ref("psionics.toml", aid, f"{field}[{i}]", "race", race, race_ids))
        if a.combines_with:
            partner = abilities.get(a.combines_with)
            out.extend(_ref("psionics.toml", aid, "combines_with", "ability", a.combines_with, set(abilities)))
            if partner is not None and partner.combines_with != aid:
                out.append(f"psionics.toml: [{aid}].combines_with: [{a.combines_with}] does not combine with {aid!r}")
        if a.overload == "combo" and not a.combines_with:
            out.append(f"psionics.toml: [{aid}].combines_with: a combo overload needs the ability it combines with")
        if a.overload != "none" and a.overload_ss <= 0:
            out.append(f"psionics.toml: [{aid}].overload_ss: a {a.overload} overload needs a positive number of SS")
        if a.most_targets < 1:
            out.append(f"psionics.toml: [{aid}].most_targets: expected at least 1, got {a.most_targets}")
    return out


def check_mission(file: str, mid: str, m: c.Mission, known: dict[str, set[str]], unit_ids: set[str],
                  levels: dict[str, c.Difficulty]) -> list[str]:
    from engine.map.gen import GENERATORS, ZONES

    out = _ref(file, mid, "ruleset", "ruleset", m.ruleset, known["rulesets.toml"])
    for i, uid in enumerate(m.squad):
        out.extend(_ref(file, mid, f"squad[{i}]", "unit", uid, unit_ids))
    if len(set(m.squad)) != len(m.squad):
        out.append(f"{file}: [{mid}].squad: a unit template can be in the squad only once")
    for uid in m.enemies:
        out.extend(_ref(file, mid, f"enemies.{uid}", "unit", uid, unit_ids))
    for field in ("width", "height"):
        if not 20 <= getattr(m, field) <= 200:
            out.append(f"{file}: [{mid}].{field}: expected 20 to 200 cells, got {getattr(m, field)}")
    if m.difficulty and levels:
        out.extend(_ref(file, mid, "difficulty", "difficulty level", m.difficulty, set(levels)))
    if m.civilians:
        out.extend(_ref(file, mid, "civilian", "unit", m.civilian, unit_ids))
    if m.generator not in GENERATORS:
        return out + _ref(file, mid, "generator", "generator", m.generator, set(GENERATORS))
    zones = ZONES[m.generator]
    for side, zone in m.spawn.items():
        out.extend(_ref(file, mid, f"spawn.{side}", f"zone of the {m.generator} map", zone, zones))
    out.extend(_check_field_rules(file, mid, m, known, zones))
    for oid, o in m.objectives.items():
        where = f"objectives.{oid}"
        needs = {"shut_down": ("zone", "done_tile"), "extract": ("zone", "unit"), "hold": ("zone", "until_phase"),
                 "protect": ("side", "at_least")}.get(o.kind, ())
        for field in needs:
            if not getattr(o, field):
                out.append(f"{file}: [{mid}].{where}.{field}: a {o.kind} objective needs it")
        if o.zone:
            out.extend(_ref(file, mid, f"{where}.zone", f"zone of the {m.generator} map", o.zone, zones))
        if o.unit and o.unit not in m.squad:
            out.append(f"{file}: [{mid}].{where}.unit: {o.unit!r} is not in the squad")
        if o.done_tile:
            out.extend(_ref(file, mid, f"{where}.done_tile", "tile", o.done_tile, known["terrain.toml"]))
        if o.kind == "hold" and o.until_phase >= m.max_phases:
            out.append(f"{file}: [{mid}].{where}.until_phase: must be below max_phases ({m.max_phases}), "
                       "or the phase limit ends the mission first")
        if o.kind == "protect" and o.side == "civilians" and o.at_least > m.civilians:
            out.append(f"{file}: [{mid}].{where}.at_least: {o.at_least} of {m.civilians} civilians can never live")
    return out


def _check_field_rules(file: str, mid: str, m: c.Mission, known: dict[str, set[str]], zones: set[str]) -> list[str]:
    """The squad's leader, searchable zones (4.6) and special formulas (4.7)."""
    out = []
    if m.leader and m.leader not in m.squad:
        out.append(f"{file}: [{mid}].leader: {m.leader!r} is not in the squad")
    things = known["weapons.toml"] | known.get("items.toml", set())
    for zone, search in m.search.items():
        out.extend(_ref(file, mid, f"search.{zone}", f"zone of the {m.generator} map", zone, zones))
        if not search.loot:
            out.append(f"{file}: [{mid}].search.{zone}.loot: a searchable zone needs at least one item")
        for i, row in enumerate(search.loot):
            out.extend(_ref(file, mid, f"search.{zone}.loot[{i}].item", "item", row.item, things))
            if row.min > row.max:
                out.append(f"{file}: [{mid}].search.{zone}.loot[{i}]: min {row.min} is above max {row.max}")
    for fid, f in m.formulas.items():
        out.extend(_ref(file, mid, f"formulas.{fid}.zone", f"zone of the {m.generator} map", f.zone, zones))
        if not f.stats:
            out.append(f"{file}: [{mid}].formulas.{fid}.stats: name at least one stat")
    return out


def _names(formula: Formula | None, allowed: set[str]) -> str | None:
    if formula is None:
        return None
    from engine.content.formula import names_in

    bad = sorted(names_in(formula.tree) - allowed)
    return bad[0] if bad else None


def _is_colour(text: str) -> bool:
    return len(text) == 7 and text[0] == "#" and all(ch in "0123456789abcdefABCDEF" for ch in text[1:])


def load_scenario(path: Path | str) -> Any:
    """A `resolve` scenario, parsed as strictly as content by the model of the ruleset it names."""
    from engine.core import ruleset

    p = Path(path)
    name = p.name
    try:
        doc = files.toml(files.read_capped(p).decode("utf-8"))
    except FileNotFoundError:
        raise ContentError([f"{path}: no such file"]) from None
    except files.FileProblem as exc:
        raise ContentError([str(exc).replace("is a directory, not a file", "is a directory, not a scenario file")
                            .replace("not a regular file (a directory)", "is a directory, not a scenario file")]) from None
    except UnicodeDecodeError:
        raise ContentError([f"{name}: not UTF-8 text"]) from None
    except OSError as exc:
        raise ContentError([f"{path}: cannot read ({exc.strerror})"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ContentError([f"{name}: {exc}"]) from None
    rid = doc.get("ruleset")
    if not isinstance(rid, str):
        raise ContentError([f"{name}: ruleset: name the ruleset (ruleset = \"xcom-trpg\")"])
    known = ruleset.available()
    model = ruleset.kind(rid).scenario if rid in known else None
    if model is None:
        why = (f"{rid!r} has no resolve scenarios" if rid in known
               else f"unknown ruleset {rid!r}{strict.did_you_mean(rid, known)}")
        raise ContentError([f"{name}: ruleset: {why}"])
    try:
        return strict.converter.structure(doc, model)
    except Exception as exc:  # noqa: BLE001
        found: list[str] = []
        strict.walk(exc, "", found, tables=("units",))
        raise ContentError([f"{name}: {m}" for m in found]) from None
