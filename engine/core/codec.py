"""JSON-ready dicts for commands, events, rolls and states, and strict parsing back."""

from __future__ import annotations

import hashlib
import operator
import typing
import json
from typing import Any, get_origin

import attrs
import cattrs
import cattrs.gen

from engine.core import tuples
from engine.core.commands import COMMAND_TYPES, Command, EndTurn, Move
from engine.core.dice import Roll
from engine.core.events import EVENT_TYPES, Event, Noted, UnitChanged
from engine.core.model import INHERITED, MEMO, PARTS, State, Unit, memo
from engine.core.records import Patch, later_fields, lookup
from engine.core.records import shown as record_repr


class CodecError(ValueError):
    pass


_conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=False)  # a fault is named by _first alone


def _tuple_to_list(_t: Any) -> Any:
    def hook(value: tuple) -> list:
        return [_conv.unstructure(x) for x in value]
    return hook


# JSON has no tuples: dump them as lists so a recomputed event equals the parsed one
_conv.register_unstructure_hook_factory(lambda t: t is tuple or get_origin(t) is tuple, _tuple_to_list)
_UNIT_FIELDS = typing.get_type_hints(Unit)


def _lean_dump(cls: type) -> Any:
    """A record's `added` fields are left out of its dump while they hold their default (engine.core.records)."""
    return cattrs.gen.make_dict_unstructure_fn(
        cls, _conv, **{name: cattrs.gen.override(omit_if_default=True) for name in later_fields(cls)})


_conv.register_unstructure_hook_factory(lambda t: isinstance(t, type) and bool(later_fields(t)), _lean_dump)


def _strict_int(v: Any, _t: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise CodecError(f"expected an integer, got {v!r}")
    return v


def _strict_str(v: Any, _t: Any) -> str:
    if not isinstance(v, str):
        raise CodecError(f"expected a string, got {v!r}")
    return v


def _strict_bool(v: Any, _t: Any) -> bool:
    if not isinstance(v, bool):
        raise CodecError(f"expected true or false, got {v!r}")
    return v


_conv.register_structure_hook(int, _strict_int)
_conv.register_structure_hook(bool, _strict_bool)
_conv.register_structure_hook(str, _strict_str)

tuples.quick(_conv)  # after the leaves' strict hooks, which its fallback uses


def dump_record(rec: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": rec.record_kind}
    out.update(_conv.unstructure(rec))
    return out


def load_record(data: Any) -> Any:
    """A unit record by its tag (engine.core.records), as strictly as an event."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise CodecError("a unit record is not an object")
    cls = lookup(data.get("kind"))
    if cls is None:
        raise CodecError(f"unknown unit record {data.get('kind')!r}")
    try:
        return _conv.structure({k: v for k, v in data.items() if k != "kind"}, cls)
    except Exception as exc:  # noqa: BLE001 - a bad log is reported, never a traceback
        raise CodecError(f"bad unit record {data.get('kind')!r}: {_first(exc)}") from None


# all but the record and the storey, the last two fields, which _dump_unit writes after the rest as before
_unit_plain = cattrs.gen.make_dict_unstructure_fn(Unit, _conv, record=cattrs.gen.override(omit=True),
                                                  z=cattrs.gen.override(omit=True))
assert tuple(f.name for f in attrs.fields(Unit))[-2:] == ("record", "z")
_unit_typed = cattrs.gen.make_dict_structure_fn(Unit, _conv, _cattrs_forbid_extra_keys=True)


def _dump_unit(unit: Unit) -> dict[str, Any]:
    out = _unit_plain(unit)
    if unit.record is not None:  # none: as before records existed, so older logs keep their bytes
        out["record"] = dump_record(unit.record)
    if unit.z:  # on the ground: as before storeys existed
        out["z"] = unit.z
    return out


def _load_unit(data: Any, _t: Any) -> Unit:
    if isinstance(data, dict) and "record" in data:
        rec = load_record(data["record"])
        return attrs.evolve(_unit_typed({k: v for k, v in data.items() if k != "record"}, Unit), record=rec)
    return _unit_typed(data, Unit)


_conv.register_unstructure_hook(Unit, _dump_unit)
_conv.register_structure_hook(Unit, _load_unit)


def _tagged(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": obj.kind}
    out.update(_conv.unstructure(obj))
    return out


def dump_command(cmd: Command) -> dict[str, Any]:
    out = _tagged(cmd)
    if isinstance(cmd, Move) and not cmd.levels:  # a walk on one storey: as before storeys existed
        del out["levels"]
    return out


def dump_event(event: Event) -> dict[str, Any]:
    """The hot events by hand (verify dumps every event it recomputes), the rest through cattrs."""
    kind = event.kind
    if kind == "changed":
        return {"kind": kind, "unit": event.unit, "changes": {k: _plain(v) for k, v in event.changes.items()},
                "cause": event.cause, "rolls": [dump_roll(r) for r in event.rolls]}
    if kind == "noted":
        return {"kind": kind, "record": dump_record(event.record), "cause": event.cause,
                "rolls": [dump_roll(r) for r in event.rolls]}
    if kind == "moved":
        out = {"kind": kind, "unit": event.unit, "path": [list(p) for p in event.path], "facing": event.facing}
        if event.levels:  # a walk between storeys: every other move keeps its bytes
            out["levels"] = list(event.levels)
        out["rolls"] = [dump_roll(r) for r in event.rolls]
        return out
    if kind == "tile":
        out = _tagged(event)
        if not event.z:  # a tile of the ground: as before storeys existed
            del out["z"]
        return out
    return _tagged(event)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if hasattr(type(value), "record_kind"):
        return dump_record(value)
    if type(value) is Patch:
        check_patch(value)
        return {"kind": value.kind, **{k: _conv.unstructure(v) for k, v in value.fields.items()}}
    return value


def check_patch(patch: Patch) -> None:
    """A patch that would read back as a whole record (`_record_change`) is refused."""
    cls = lookup(patch.kind)
    if _whole(cls, patch.fields) and not set(later_fields(cls)) <= patch.fields.keys():
        raise CodecError(f"a patch of {patch.kind!r} sets every field it had before its added ones: "
                         "log the whole record")


def dump_roll(roll: Roll) -> dict[str, Any]:
    out = {"actor": roll.actor, "purpose": roll.purpose, "expr": roll.expr, "faces": list(roll.faces),
           "formula": roll.formula, "total": roll.total, "crit": roll.crit, "stream": roll.stream,
           "index": roll.index}
    if roll.kept:  # only a pool that discards dice says so: every older roll keeps its bytes
        out["kept"] = list(roll.kept)
    return out


_conv.register_unstructure_hook(Roll, dump_roll)


def _untag(data: Any, table: dict[str, type], what: str) -> Any:
    if not isinstance(data, dict):
        raise CodecError(f"{what} is not an object")
    kind = data.get("kind")
    cls = table.get(kind)  # type: ignore[arg-type]
    if cls is None:
        raise CodecError(f"unknown {what} kind {kind!r}")
    body = {k: v for k, v in data.items() if k != "kind"}
    try:
        obj = _conv.structure(body, cls)
    except Exception as exc:  # noqa: BLE001 - a bad log is reported, never a traceback
        raise CodecError(f"bad {what} {kind!r}: {_first(exc)}") from None
    if isinstance(obj, UnitChanged):
        obj = attrs.evolve(obj, changes=_typed_changes(obj.changes))
    elif isinstance(obj, Noted):
        obj = attrs.evolve(obj, record=load_record(obj.record))
    return obj


def _typed_changes(changes: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for name, value in changes.items():
        if name not in _UNIT_FIELDS or name == "id":
            raise CodecError(f"a unit has no field {name!r}")
        out[name] = _record_change(value) if name == "record" else _conv.structure(value, _UNIT_FIELDS[name])
    return out


def _record_change(data: Any) -> Any:
    """A whole unit record, or a `Patch` of some of its fields (engine.core.records)."""
    cls = lookup(data.get("kind")) if isinstance(data, dict) else None
    if cls is None or _whole(cls, data):
        return load_record(data)
    types = _record_types(cls)
    fields = {}
    for name, value in data.items():
        if name == "kind":
            continue
        if name not in types:
            raise CodecError(f"bad unit record {data['kind']!r}: it has no field {name!r}")
        try:
            fields[name] = _conv.structure(value, types[name])
        except Exception as exc:  # noqa: BLE001 - a bad log is reported, never a traceback
            raise CodecError(f"bad unit record {data['kind']!r}: {name}: {_first(exc)}") from None
    return Patch(data["kind"], fields)


def _whole(cls: type | None, fields: Any) -> bool:
    """Whether a record change holds the record whole: every field but the `added` ones, which its dump leaves out
    while they hold their default (so a whole record at those defaults is no patch of the rest)."""
    if cls is None:
        return False
    if cls not in _OLDER:
        later = set(later_fields(cls))
        _OLDER[cls] = tuple(f.name for f in attrs.fields(cls) if f.name not in later)
    return all(name in fields for name in _OLDER[cls])


_OLDER: dict[type, tuple[str, ...]] = {}  # class -> its fields that are not `added`
_TYPES: dict[type, dict[str, Any]] = {}


def _record_types(cls: type) -> dict[str, Any]:
    if cls not in _TYPES:
        _TYPES[cls] = typing.get_type_hints(cls)
    return _TYPES[cls]


def _first(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup):
        exc = exc.exceptions[0]
    return str(exc) or type(exc).__name__


def load_command(data: Any) -> Command:
    """The commonest commands by hand when they are plainly well formed (verify loads one per record);
    anything else, well formed or not, through cattrs, which also words the problems."""
    if type(data) is dict:
        kind = data.get("kind")
        if kind == "move" and len(data) == 3:
            unit, path = data.get("unit"), data.get("path")
            if type(unit) is str and type(path) is list and path and all(
                    type(c) is list and len(c) == 2 and type(c[0]) is int and type(c[1]) is int for c in path):
                return Move(unit=unit, path=tuple((c[0], c[1]) for c in path))
        elif kind == "end_turn" and len(data) == 2 and type(data.get("side")) is str:
            return EndTurn(side=data["side"])
    return _untag(data, COMMAND_TYPES, "command")


def load_event(data: Any) -> Event:
    return _untag(data, EVENT_TYPES, "event")


def dump_state(state: State) -> dict[str, Any]:
    """Everything but the grid, which is rebuilt from the header and `tiles_changed`."""
    return {"ruleset": state.ruleset, "mission": state.mission,
            "units": [_conv.unstructure(u) for u in state.units.values()], **_after_units(state)}


def _after_units(state: State) -> dict[str, Any]:
    return {
        "phase": state.phase,
        "side": state.side,
        "sides": list(state.sides),
        "dice": dict(state.dice),
        "tiles_changed": [[*p, t] for p, t in sorted(state.tiles_changed.items())],  # (x, y, z) above the ground
        "winner": state.winner,
        "ended": state.ended,
        **({"record": dump_record(state.record)} if state.record is not None else {}),
    }


def load_state(data: dict[str, Any], grid: Any) -> State:
    try:
        units = [_conv.structure(u, Unit) for u in data["units"]]
        tiles = {tuple(int(v) for v in row[:-1]): str(row[-1]) for row in data["tiles_changed"]}
        return State(ruleset=data["ruleset"], mission=data["mission"], grid=grid.with_tiles(tiles),
                     units={u.id: u for u in units}, phase=data["phase"], side=data["side"],
                     sides=tuple(data["sides"]), dice=dict(data["dice"]), tiles_changed=tiles,
                     winner=data["winner"], ended=data["ended"], record=load_record(data.get("record")))
    except Exception as exc:  # noqa: BLE001
        raise CodecError(f"bad checkpoint state: {_first(exc)}") from None


def canonical(obj: Any) -> str:
    return _ENCODER.encode(obj)


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)  # built once: the
# log writes and verify compares a canonical line per record; what it encodes is plain data from JSON or from
# frozen values, never a cycle, so it need not keep a table of the containers it is inside

_unit_values = operator.attrgetter(*(f.name for f in attrs.fields(Unit)))


_FIELD_AT = {f.name: i for i, f in enumerate(attrs.fields(Unit))}
_RECORD_AT = _FIELD_AT["record"]


def _unit_digest(unit: Unit) -> bytes:
    """Units are immutable and most survive a record unchanged: hash each one once (model.memo).

    The bytes hashed are the repr of the field values in declaration order: plain ints, strings,
    tuples and insertion-ordered dicts, so the same unit gives the same digest everywhere. The
    repr of a tuple is its items' reprs joined, so a unit made by model.replace reprs only the
    fields that changed and takes the others' from the unit it was made from.
    """
    kept = unit.__dict__.setdefault(MEMO, {})
    inherited = kept.pop(INHERITED, None)
    if inherited is not None:
        parts = list(inherited[0])
        for name in inherited[1]:
            parts[_FIELD_AT[name]] = repr(getattr(unit, name)) if name != "record" else record_repr(unit.record,
                                                                                                   inherited[2])
    else:
        parts = [repr(v) for v in _unit_values(unit)[:-1]]
        parts.append(record_repr(unit.record))  # the record last: the repr of its changed fields only (records.shown)
    kept[PARTS] = parts
    shown = parts if unit.z else parts[:-1]  # on the ground: the bytes hashed before storeys existed
    if unit.record is None:  # no record: the bytes hashed before records existed
        shown = shown[:_RECORD_AT] + shown[_RECORD_AT + 1:]
    return hashlib.sha256(f"({', '.join(shown)})".encode()).digest()


_REST: tuple[tuple, tuple, Any] = ((), (None, None, None), None)  # the state's own fields as last hashed, and
# the hash so far: most records change only units, and the fold hands the dice, the changed tiles and the record
# on as the same objects until they change


def state_hash(state: State) -> str:
    """sha256 of the state's own fields, then of each unit in turn order; 16 hex digits."""
    global _REST
    key = (state.ruleset, state.mission, state.phase, state.side, state.sides, state.winner, state.ended)
    held = (state.dice, state.tiles_changed, state.record)  # by identity: the fold hands them on until they change
    kept, kept_held, start = _REST  # one read: another thread may replace it meanwhile
    if all(a is b for a, b in zip(held, kept_held)) and len(key) == len(kept) and all(
            type(a) is type(b) and a == b for a, b in zip(key, kept)):
        h = start.copy()
    else:
        rest = (state.ruleset, state.mission, state.phase, state.side, state.sides, sorted(state.dice.items()),
                sorted(state.tiles_changed.items()), state.winner, state.ended)
        text = repr(rest)
        if state.record is not None:  # no record: the bytes hashed before records existed
            text = f"{text[:-1]}, {record_repr(state.record)})"  # repr(rest + (record,)), the record as records.shown
        h = hashlib.sha256(text.encode())
        _REST = (key, held, h.copy())
    digests = []
    for unit in state.units.values():  # model.memo, inlined: a state hash reads every unit's digest
        kept = unit.__dict__.get(MEMO)
        digest = kept.get(_unit_digest) if kept is not None else None
        digests.append(digest if digest is not None else memo(unit, _unit_digest, _unit_digest))
    h.update(b"".join(digests))
    return h.hexdigest()[:16]
