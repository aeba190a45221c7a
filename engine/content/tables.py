"""A ruleset's own content: the tables it declares in `content/<id>/`, their attrs models and its cross-checks.

Shared tables (terrain, missions, factions, behaviour, difficulty) are the loader's; everything whose shape belongs
to one rule system (its weapons, armour, characters, abilities) is declared by that ruleset as a `Schema` and read
from its folder in every layer: the bundle's `content/<id>/`, then each mod's `<mod>/<id>/`, merged by id (patch,
add, `delete = true`) exactly like the shared tables. Unknown keys stay errors, each one located line naming the
layer that wrote the id (`xxxzone/weapons.toml: [smg].dt: expected integer, got "x"`). The ruleset reads its tables
back as `content.rules[id][kind]` (kind: the file name without `.toml`).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Sequence

import attrs

from engine.content import layers, strict

Tables = dict[str, dict[str, Any]]  # kind ("weapons") -> id -> the model's value


@attrs.frozen(kw_only=True)
class Schema:
    """What a ruleset declares of its content folder."""

    files: dict[str, type]  # "weapons.toml" -> the attrs model of one table of that file
    optional: tuple[str, ...] = ()  # files a bundle may leave out (then that kind is empty)
    partial: bool = False  # its check copes with tables that failed to load (it reads ids from `known`)
    # Cross-checks of the merged tables: (own tables, shared tables by kind) -> located messages. Write them as
    # "weapons.toml: [smg].ammo: ..."; the loader prefixes the layer that wrote each id. With `partial` it runs even
    # when some tables had mistakes (their ids are left out): it refers to ids through `shared["known"][kind]`, every
    # id declared in each file, own and shared, so one mistake is not ten; without, only on a clean load. Shared also holds "missions" and
    # "mission_files" (mission id -> its file, to locate a message about a mission).
    check: Callable[[Tables, Tables], list[str]] | None = None
    # Files only the between-mission rules read (a campaign's numbers): left out of the ruleset's mission hash
    # (`Content.sha_for`), so adding or changing them leaves every mission log of the ruleset verifying.
    between: tuple[str, ...] = ()


def of(content, ruleset_id: str) -> SimpleNamespace:
    """A ruleset's tables of a loaded bundle as attributes by kind: `of(content, "xxxzone").weapons["smg"]`."""
    return SimpleNamespace(**content.rules.get(ruleset_id, {}))


def kind_of(file: str) -> str:
    return file.removesuffix(".toml")


def read(stack: Sequence[layers.Layer], folder: str, schema: Schema, shared: Tables,
         raw: dict[str, bytes], messages: list[str], top_level: bool = False) -> Tables:
    """Merge and structure one ruleset's tables over the layers; problems go to `messages`. `top_level`: the base
    folder keeps this ruleset's files beside the shared ones (the layout before rulesets had folders), read as
    they are so an old bundle keeps its hash and its logs verify."""
    out: Tables = {}
    if not top_level and not any((layer.base / layer.label / folder).is_dir() for layer in stack):
        return {kind_of(name): {} for name in schema.files}  # a bundle without its folder: nothing of it to play
    origins: dict[str, dict[str, str]] = {}
    parsed: set[str] = set()  # files that read as TOML in some layer: their ids are known even if some fail
    for name, model in schema.files.items():
        merged: dict[str, Any] = {}
        origin: dict[str, str] = {}
        found = False
        for layer in stack:
            label = name if top_level and not layer.label else f"{layer.label}{folder}/{name}"
            doc = strict.read(layer.base, label, raw, messages, optional=True)
            found = found or label in raw
            if doc is not None:
                parsed.add(name)
                messages.extend(layers.overlay(merged, origin, doc, label))
        if not found and name not in schema.optional:
            messages.append(f"{name if top_level else f'{folder}/{name}'}: missing file")
        by_id: dict[str, Any] = {}
        for key, value in merged.items():
            by_id.update(strict.structure(origin.get(key, f"{folder}/{name}"), {key: value}, model, messages))
        out[kind_of(name)] = by_id
        origins[name] = origin
    if schema.check is not None and (schema.partial or not messages):
        declared = {kind_of(name): set(origin) for name, origin in origins.items() if name in parsed}
        view = {**shared, "known": {**shared.get("known", {}), **declared}}
        try:
            found = schema.check(out, view)
        except (KeyError, AttributeError, TypeError):
            if not messages:
                raise
            found = []  # a check that trips over tables that failed to load adds nothing to their messages
        for name, by_id in origins.items():
            found = layers.relabel(found, name, by_id)
        bare = tuple(f"{name}: " for name in schema.files)  # about no one id: the base layer's file
        messages.extend(f"{folder}/{m}" if m.startswith(bare) and not top_level else m for m in found)
    return out


def load_folder(directory: Path | str, folder: str, schema: Schema, shared: Tables | None = None) -> Tables:
    """One ruleset's tables from `directory/<folder>/` alone; raises ContentError with every message."""
    messages: list[str] = []
    out = read([layers.Layer(Path(directory), "")], folder, schema, shared or {}, {}, messages)  # no mods
    if messages:
        raise strict.ContentError(messages)
    return out
