"""Older log formats are upgraded record by record as they are read; the file is never rewritten.

Each released format version keeps a fixture in tests/fixtures/logs/ that must still read,
verify and audit. To change the format: bump `engine.log.VERSION`, add an upcaster from the old
version to the new one here, and check in a fixture of the new version.
"""

from __future__ import annotations

from typing import Any, Callable

from engine.core import records
from engine.log.writer import VERSION, LogError

Record = dict[str, Any]


def _v1_to_v2(record: Record, header: Record) -> Record:
    """Version 2 adds `seed_public` to the header (a version-1 header is read as it is: whether its seed
    was public is unknown) and the AI's memory (`ai`) to checkpoints (none: the AI starts afresh), and the
    seed file gains the header's hash and the log's ending. No record of version 1 changes."""
    return record


# The kernel fields a unit lost in version 3: its ruleset's record holds them now.
MOVED = ("stamina", "stamina_max", "infinite_stamina", "morale", "morale_max", "concussion", "flags", "counters")
DEFAULTS = {"stamina": 0, "stamina_max": 0, "infinite_stamina": False, "morale": 0, "morale_max": 0,
            "concussion": 0, "flags": [], "counters": {}}


def _v2_to_v3(record: Record, header: Record) -> Record:
    """Version 3 moves stamina, morale, concussion, the turn flags and the counters off the kernel's unit into
    its ruleset's record (xcom-trpg's `Soldier`): each logged unit and each unit change naming them is rewritten
    by the record class's own `from_fields` (engine.core.records.legacy), the others' left as they were. The
    state hashes stay those of the older units: reading folds the events, it does not check them."""
    return _units_moved(record, header, MOVED, DEFAULTS)


# The kernel fields a unit lost in version 4: xcom-trpg's record holds them now; the other rulesets only mirrored
# their own record's numbers in them (neo-troops its slot's action).
KIT = ("stats", "armor", "weapon", "ammo", "magazines", "actions")


def _v3_to_v4(record: Record, header: Record) -> Record:
    """Version 4 moves stats, armour, weapon, rounds, magazines and actions off the kernel's unit in the same way:
    into the record by its class's `from_fields`; for a ruleset without one (which only mirrored its record's
    numbers there) they are dropped (neo-troops' record takes its slot marker `actions` by its `from_fields`)."""
    return _units_moved(record, header, KIT, None)


def _units_moved(record: Record, header: Record, moved: tuple[str, ...], defaults: dict | None) -> Record:
    cls = records.legacy(header.get("ruleset"))
    if record.get("kind") == "command" and isinstance(record.get("events"), list):
        record = {**record, "events": [_event(e, cls, moved, defaults) for e in record["events"]]}
    elif record.get("kind") == "checkpoint" and isinstance(record.get("anchor"), dict):
        state = record["anchor"].get("state")
        if isinstance(state, dict) and isinstance(state.get("units"), list):
            state = {**state, "units": [_unit(u, cls, moved, defaults) for u in state["units"]]}
            record = {**record, "anchor": {**record["anchor"], "state": state}}
    return record


def _event(event: Any, cls: type | None, moved: tuple[str, ...], defaults: dict | None) -> Any:
    if not isinstance(event, dict):
        return event
    if event.get("kind") == "spawned":
        return {**event, "unit": _unit(event.get("unit"), cls, moved, defaults)}
    if event.get("kind") == "changed" and isinstance(event.get("changes"), dict):
        return {**event, "changes": _moved(event["changes"], cls, moved, defaults)}
    return event


def _unit(unit: Any, cls: type | None, moved: tuple[str, ...], defaults: dict | None) -> Any:
    return _moved(unit, cls, moved, defaults) if isinstance(unit, dict) else unit


def _moved(fields: dict[str, Any], cls: type | None, moved: tuple[str, ...], defaults: dict | None) -> dict[str, Any]:
    """The fields with the moved ones turned into the record's (`record` last, as the codec writes it). A ruleset
    without `from_fields` left them at `defaults` (then any other value is left for the codec to refuse, located),
    or, with no defaults, only mirrored its record there: they are dropped."""
    old = {k: fields[k] for k in moved if k in fields}
    if not old:
        return fields
    out = {k: v for k, v in fields.items() if k not in moved and k != "record"}
    if cls is None:
        kept = {k: v for k, v in old.items() if defaults is not None and v != defaults[k]}
        return {**out, **kept, **({"record": fields["record"]} if "record" in fields else {})}
    try:
        numbers = cls.from_fields(old)
    except (ValueError, TypeError, AttributeError):
        return fields  # numbers its record cannot hold: left for the codec to refuse, located
    rec = fields.get("record") if isinstance(fields.get("record"), dict) else {"kind": cls.record_kind}
    out["record"] = {**rec, **{k: _plain(v) for k, v in numbers.items()}}
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


# version v -> the function turning a version-v record into a version-(v+1) one.
UPCASTERS: dict[int, Callable[[Record, Record], Record]] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4}


def check_version(version: Any) -> int:
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise LogError(f"unknown log format version {version!r}", 1)
    if version > VERSION:
        raise LogError(f"log format version {version} was written by a newer xenotac; this one reads up to "
                       f"{VERSION}", 1)
    missing = [v for v in range(version, VERSION) if v not in UPCASTERS]
    if missing:
        raise LogError(f"no upcaster from log format version {missing[0]}", 1)
    return version


def upgrade(record: Record, version: Any, header: Record | None = None) -> Record:
    """The record in the current format; a version check_version refuses is left as it is. `header` is the log's
    line 1 (which ruleset's record a unit has)."""
    if isinstance(version, int) and not isinstance(version, bool):
        for v in range(version, VERSION):
            if v not in UPCASTERS:
                break
            record = UPCASTERS[v](record, header or {})
    return record
