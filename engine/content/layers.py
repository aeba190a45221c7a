"""Content in layers, overridden by id (the OpenXcom way, but strict).

A bundle is read as a stack of layers: the base folder (the built-in `content/`, or a whole other bundle given
with `--content DIR`), then each mod folder given with `--content DIR` (a folder holding `mod.toml`), in the order
given. Each ruleset's own folder (`content/xxxzone/`, `mymod/xxxzone/`) is read over the same stack by the schema the
ruleset declares (engine.content.tables). A later layer's table with an id already
loaded patches the fields it names (nested tables field by field), a new id is added, and `delete = true` removes
the id. The merged tables are checked as one bundle, so an unknown key or a bad reference is still one located
line, naming the layer that wrote the id (`mymod/weapons.toml: [smg].damage: expected integer`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import attrs

MOD_FILE = "mod.toml"  # marks a folder as a mod: layered over the bundle instead of replacing it


@attrs.frozen
class Layer:
    base: Path  # `base / (label + file)` is the file's path
    label: str  # what its messages start with: "" for the base folder, "xcom-trpg/", "mymod/"


def stack(directories: Sequence[Path | str], default: Path) -> tuple[list[Layer], list[str]]:
    """The layers to read, bottom first, and a message for each folder that cannot be one."""
    base, mods, messages = default, [], []
    for d in map(Path, directories):
        if not d.is_dir():
            messages.append(f"{d}: not a content directory")
        elif (d / MOD_FILE).is_file():
            mods.append(d)
        elif mods:
            messages.append(f"{d}: a whole content folder must come before the mods ({mods[-1]} is a mod)")
        else:
            base = d
    if not base.is_dir():
        messages.append(f"{base}: not a content directory")
    out = [Layer(base, "")]
    labels = set()
    for mod in mods:
        label = f"{mod.name}/"
        if label in labels or label in {layer.label for layer in out}:
            messages.append(f"{mod}: two layers are named {mod.name!r}; rename one folder")
        labels.add(label)
        out.append(Layer(mod.parent, label))
    return out, messages


def overlay(merged: dict[str, Any], origin: dict[str, str], doc: dict[str, Any], where: str) -> list[str]:
    """Apply one layer's document of a file to the tables merged so far; `where` labels its messages."""
    messages = []
    for key, table in doc.items():
        if isinstance(table, dict) and "delete" in table:
            if table != {"delete": True}:
                messages.append(f"{where}: [{key}].delete: `delete = true` stands alone in its table")
            elif key not in merged:
                messages.append(f"{where}: [{key}]: nothing named {key!r} to delete")
            else:
                del merged[key]
                origin.pop(key, None)
            continue
        if key in merged and isinstance(table, dict) and isinstance(merged[key], dict):
            merged[key] = _patched(merged[key], table)
        else:
            merged[key] = table
        origin[key] = where
    return messages


def _patched(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    out = dict(old)
    for k, v in new.items():
        out[k] = _patched(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def relabel(messages: list[str], name: str, origin: dict[str, str]) -> list[str]:
    """Cross-check messages name the base file (`units.toml: [sectoid]...`); name the layer that wrote the id."""
    out = []
    for m in messages:
        head = f"{name}: ["
        if m.startswith(head):
            key = m[len(head):].split("]", 1)[0]
            where = origin.get(key, name)
            m = where + m[len(name):]
        out.append(m)
    return out
