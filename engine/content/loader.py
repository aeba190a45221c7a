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
from engine.content.strict import ContentError, default_dir  # noqa: F401 - also the loader's public names
from engine.core import files


FILES: dict[str, type] = {  # the shared tables; each ruleset's own are its `Schema` (engine.content.tables)
    "factions.toml": c.Faction,
    "terrain.toml": c.Terrain,
    "behaviour.toml": c.Behaviour,
    "difficulty.toml": c.Difficulty,
}
MOVED = ("rulesets.toml", "races.toml", "armor.toml", "weapons.toml", "units.toml", "psionics.toml",
         "items.toml")  # shared files once, a ruleset's own now
_FIELD = {name: name.removesuffix(".toml") for name in FILES}
MISSIONS = "missions"  # a folder of TOML files, one or more missions each
LEGACY_MISSIONS = "missions.toml"  # the one-file layout of older bundles, still read
NEWER = ("behaviour.toml", "difficulty.toml")  # files an older bundle may lack
OPTIONAL: tuple[str, ...] = ()  # files any bundle may leave out


def is_content_file(name: str) -> bool:
    """True for the file labels content messages start with."""
    folder, _, file = name.rpartition("/")
    own = any(file in schema.files for _rid, schema in _schemas(_named([folder])))
    return own or name in FILES or name == LEGACY_MISSIONS or (folder == MISSIONS and name.endswith(".toml"))


def bundle_hash(files: dict[str, bytes]) -> str:
    h = hashlib.sha256()
    for name in sorted(files):
        h.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return h.hexdigest()


def load(directory: Path | str | Sequence[Path | str] | None = None, rulesets: Sequence[str] | None = None) -> c.Content:
    """Load, merge the layers (engine.content.layers) and cross-check; raises ContentError with every message.
    `rulesets`: read only these rulesets' own tables (a log's, `--ruleset`'s), so the others are not even imported;
    each one's `sha_for` is the same as in a whole load. None: every ruleset's (`content check`, the client)."""
    read = _named(rulesets)
    schemas = _schemas(read)
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
        found = cross_check(tables, known, missions, origin)
        for name, by_id in origins.items():
            found = layers.relabel(found, name, by_id)
        messages.extend(found)
    shared = {_FIELD[n]: t for n, t in tables.items()}
    shared["missions"] = missions  # a ruleset checks what they name of its tables, and its forces.toml
    shared["mission_files"] = origin  # mission id -> its file, for those messages
    shared["known"] = {_FIELD[n]: ids for n, ids in known.items()}  # declared ids, loaded or not
    # A base folder from before the rulesets had folders keeps its ruleset's tables beside the shared ones: they are
    # that ruleset's, the one its missions name, read where they are (its logs keep their hash). Anywhere else
    # such a file is a mistake of one line.
    named = {m.ruleset for m in missions.values()}
    flat = {rid for rid, schema in schemas if rid in named and not (root / rid).is_dir()
            and any((root / name).is_file() for name in schema.files)}
    owners = {name: [rid for rid, schema in schemas if name in schema.files] for name in MOVED}
    for layer in stack:
        messages.extend(f"{layer.label}{name}: not a shared table; a ruleset's tables live in its folder "
                        f"({' or '.join(f'{layer.label}{rid}/{name}' for rid in owners[name])})"
                        for name in MOVED if (layer.base / layer.label / name).is_file()
                        and not (flat and not layer.label))
    own, files_of, apart, between_of = {}, {}, set(), {}
    for rid, schema in schemas:
        before = set(raw)
        own[rid] = tables_.read(stack, rid, schema, shared, raw, messages, top_level=rid in flat)
        between = tuple(f"/{name}" for name in schema.between)
        apart |= {k for k in raw if k not in before and between and k.endswith(between)}
        files_of[rid] = {k: raw[k] for k in raw if k not in before and k not in apart}
        between_of[rid] = {k: raw[k] for k in raw if k not in before and k in apart}
    if messages:
        raise ContentError(messages)
    fields = {k: v for k, v in shared.items() if k not in ("mission_files", "known")}
    fields["missions"] = c.Missions(missions, fields.get("difficulty", {}))
    common = {k: v for k, v in raw.items() if k not in apart and not any(k in f for f in files_of.values())}
    hashes = {rid: bundle_hash({**common, **f}) for rid, f in files_of.items() if f}
    files = {rid: {k: hashlib.sha256(v).hexdigest() for k, v in sorted({**common, **f, **between_of[rid]}.items())}
             for rid, f in files_of.items()}
    return c.Content(sha256=bundle_hash(common), hashes=hashes, rules=own, rulesets=tuple(read), files=files,
                     **fields)


def _named(only: Sequence[str] | None) -> list[str]:
    """The ruleset ids of `only` that exist, or every one: the registry discovers them, so the loader names none."""
    from engine.core import ruleset

    return [rid for rid in ruleset.available() if only is None or rid in only]


def _schemas(ids: list[str]) -> list[tuple[str, tables_.Schema]]:
    """Each of these rulesets' content schema, for those that have tables of their own."""
    from engine.core import ruleset

    return [(rid, s) for rid in ids if (s := ruleset.schema(rid)) is not None]


def _mission_files(root: Path) -> list[str]:
    folder = root / MISSIONS
    if folder.is_dir():
        return [f"{MISSIONS}/{p.name}" for p in sorted(folder.glob("*.toml"))]
    return [LEGACY_MISSIONS] if (root / LEGACY_MISSIONS).exists() else []


def _ref(file: str, key: str, field: str, kind: str, value: str, table: set[str]) -> list[str]:
    if value in table:
        return []
    return [f"{file}: [{key}].{field}: unknown {kind} {value!r}{strict.did_you_mean(value, table)}"]


def cross_check(t: dict[str, dict[str, Any]], known: dict[str, set[str]], missions: dict[str, c.Mission],
                origin: dict[str, str]) -> list[str]:
    """The shared tables' references among themselves; what they name of a ruleset's tables is that ruleset's
    check (its `Schema.check`, given the shared tables)."""
    out: list[str] = []
    terrain, tiles = t["terrain.toml"], known["terrain.toml"]
    for tid, tile in terrain.items():
        if len(tile.glyph) != 1:
            out.append(f"terrain.toml: [{tid}].glyph: expected one character, got {strict.show(tile.glyph)}")
        for field in ("color", "background"):
            if not _is_colour(getattr(tile, field)):
                out.append(f"terrain.toml: [{tid}].{field}: expected a colour like \"#a0b0c0\", "
                           f"got {strict.show(getattr(tile, field))}")
        if tile.destroyed is not None:
            out.extend(_ref("terrain.toml", tid, "destroyed", "tile", tile.destroyed, tiles))
        for field in ("opens_to", "closes_to", "unlocks_to", "fades_to"):
            value = getattr(tile, field)
            if value:  # fades_to = "" is the map's own tile
                out.extend(_ref("terrain.toml", tid, field, "tile", value, tiles))
    behaviours, levels, factions = known["behaviour.toml"], t["difficulty.toml"], known["factions.toml"]
    for fid, f in t["factions.toml"].items():
        if f.behaviour and behaviours:
            out.extend(_ref("factions.toml", fid, "behaviour", "behaviour", f.behaviour, behaviours))
        for victim in f.converts:
            out.extend(_ref("factions.toml", fid, f"converts.{victim}", "faction", victim, factions))
    defaults = [k for k, d in levels.items() if d.default]
    if levels and len(defaults) != 1:
        out.append(f"difficulty.toml: exactly one level needs default = true, found {len(defaults)}"
                   + (f" ({', '.join(defaults)})" if defaults else ""))
    for mid, m in missions.items():
        out.extend(check_mission(origin[mid], mid, m, known, levels))
    from engine.content import bounds  # numbers the rules can mean (issue 14)

    return out + bounds.check(t, missions, origin)


def check_mission(file: str, mid: str, m: c.Mission, known: dict[str, set[str]],
                  levels: dict[str, c.Difficulty]) -> list[str]:
    from engine.core import ruleset
    from engine.map.gen import GENERATORS, ZONES

    out = _ref(file, mid, "ruleset", "ruleset", m.ruleset, set(ruleset.available()))
    for field in ("width", "height"):
        if not 20 <= getattr(m, field) <= 200:
            out.append(f"{file}: [{mid}].{field}: expected 20 to 200 cells, got {getattr(m, field)}")
    if m.difficulty and levels:
        out.extend(_ref(file, mid, "difficulty", "difficulty level", m.difficulty, set(levels)))
    if m.generator not in GENERATORS:
        return out + _ref(file, mid, "generator", "generator", m.generator, set(GENERATORS))
    zones = ZONES[m.generator]
    for side, zone in m.spawn.items():
        out.extend(_ref(file, mid, f"spawn.{side}", f"zone of the {m.generator} map", zone, zones))
    out.extend(_check_field_rules(file, mid, m, zones))
    for oid, o in m.objectives.items():
        where = f"objectives.{oid}"
        needs = {"shut_down": ("zone", "done_tile"), "extract": ("zone", "unit"), "hold": ("zone", "until_phase"),
                 "protect": ("side", "at_least"), "escape": ("zone",)}.get(o.kind, ())
        for field in needs:
            if not getattr(o, field):
                out.append(f"{file}: [{mid}].{where}.{field}: a {o.kind} objective needs it")
        if o.zone:
            out.extend(_ref(file, mid, f"{where}.zone", f"zone of the {m.generator} map", o.zone, zones))
        for i, first in enumerate(o.after):
            out.extend(_ref(file, mid, f"{where}.after[{i}]", "other objective", first, set(m.objectives) - {oid}))
        if o.done_tile:
            out.extend(_ref(file, mid, f"{where}.done_tile", "tile", o.done_tile, known["terrain.toml"]))
        if o.kind == "hold" and o.until_phase >= m.max_phases:
            out.append(f"{file}: [{mid}].{where}.until_phase: must be below max_phases ({m.max_phases}), "
                       "or the phase limit ends the mission first")
        if o.kind == "protect" and o.side == "civilians" and o.at_least > m.civilians:
            out.append(f"{file}: [{mid}].{where}.at_least: {o.at_least} of {m.civilians} civilians can never live")
    return out


def _check_field_rules(file: str, mid: str, m: c.Mission, zones: set[str]) -> list[str]:
    """Searchable zones (4.6) and special formulas (4.7) on the map; what they name is the ruleset's check."""
    out = []
    for zone, search in m.search.items():
        out.extend(_ref(file, mid, f"search.{zone}", f"zone of the {m.generator} map", zone, zones))
        if not search.loot:
            out.append(f"{file}: [{mid}].search.{zone}.loot: a searchable zone needs at least one item")
        for i, row in enumerate(search.loot):
            if row.min > row.max:
                out.append(f"{file}: [{mid}].search.{zone}.loot[{i}]: min {row.min} is above max {row.max}")
    for fid, f in m.formulas.items():
        out.extend(_ref(file, mid, f"formulas.{fid}.zone", f"zone of the {m.generator} map", f.zone, zones))
        if not f.stats:
            out.append(f"{file}: [{mid}].formulas.{fid}.stats: name at least one stat")
    return out


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
        return strict.structure_one(doc, model)
    except Exception as exc:  # noqa: BLE001
        found: list[str] = []
        strict.walk(exc, "", found, tables=("units",))
        raise ContentError([f"{name}: {m}" for m in found]) from None
