"""The canonical JSON text of events, built from pieces kept per immutable value: the one writer of event text.

The game writes each command's events with it (log.CommandRecord) and `replay --verify` writes every event it
recomputes with it and compares the bytes, so the log and its check cannot disagree. A unit record changes in a
field or two a command, and the fold hands every other field on as the very same object (records.evolve,
attrs.evolve): an annihilation soldier's character sheet, its kit. So each record, nested record and tuple is
written once and its text reused while it lives, looked up by identity. `events_text` is equal, byte for byte,
to `codec.canonical([codec.dump_event(e) for e in events])`, the text every log before it was written with
(tests/test_canon.py holds them equal on every ruleset's missions, and the golden logs verify); whatever it does
not know for certain (a float, a dict keyed by other than text, a value of another class than its field
declares, an event of a rarer kind) it hands to the codec itself, and each class's first few values are held
to the codec.
"""

from __future__ import annotations

import math
import typing
from json.encoder import encode_basestring
from typing import Any

import attrs

from engine.core import codec
from engine.core.dice import Roll
from engine.core.model import Unit, memo
from engine.core.records import JSON, Patch, later_fields

CHECKED = 3  # values of each class whose text is compared with the codec's before it is trusted
_LIMIT = 20_000  # texts kept by identity (a few thousand commands' worth); then forgotten at once: memory stays flat
_KEPT: dict[int, tuple[Any, str]] = {}  # id(value) -> (the value, kept alive so its id is not reused; its text)
_PLANS: dict[type, Any] = {}  # class -> ((name, its JSON key, declared attrs class, default or _ALWAYS), ...) and
# each name's place; None: the codec writes it
_SEEN: dict[type, int] = {}  # class -> values compared with the codec so far
_ALWAYS = object()  # a field cattrs always writes (not an `added` one, left out at its default)


class _Unknown(Exception):
    """A value this module does not write for certain: the codec writes the whole event."""


def events_text(events, base: Any = None) -> str:
    """`codec.canonical([codec.dump_event(e) for e in events])`, from kept pieces. `base`, the state the events
    were decided from, lends a changed unit's record as it was: a record made by attrs.evolve (no kept texts of its
    own) takes the text of every field that is the very object the old one holds."""
    return "[" + ",".join(event_text(e, base) for e in events) + "]"


def event_text(event: Any, base: Any = None) -> str:
    kind = event.kind
    try:
        if kind == "changed":
            unit = base.units.get(event.unit) if base is not None else None
            old = unit.record if unit is not None else None
            changes = ",".join(f"{encode_basestring(k)}:{_change(v, old if k == 'record' else None)}"
                               for k, v in event.changes.items())
            return (f'{{"kind":"changed","unit":{encode_basestring(event.unit)},"changes":{{{changes}}},'
                    f'"cause":{encode_basestring(event.cause)},"rolls":{_rolls(event.rolls)}}}')
        if kind == "moved":
            path = ",".join("[" + ",".join(map(_value, p)) + "]" for p in event.path)
            levels = f',"levels":[{",".join(map(_value, event.levels))}]' if event.levels else ""
            return (f'{{"kind":"moved","unit":{encode_basestring(event.unit)},"path":[{path}],'
                    f'"facing":{_value(event.facing)}{levels},"rolls":{_rolls(event.rolls)}}}')
        if kind == "noted":
            return (f'{{"kind":"noted","record":{_record(event.record)},"cause":{encode_basestring(event.cause)},'
                    f'"rolls":{_rolls(event.rolls)}}}')
        return _event(event)
    except _Unknown:
        pass
    return codec.canonical(codec.dump_event(event))


def _event(event: Any) -> str:
    """Any other event as `codec.dump_event` writes it through cattrs: the tag, then each field in order (a
    spawned unit as `_unit`, a tile's storey left out on the ground); each class's first few held to the codec."""
    cls = type(event)
    keys = _EVENTS.get(cls)
    if keys is None:
        keys = _EVENTS[cls] = tuple((f.name, f"{encode_basestring(f.name)}:") for f in attrs.fields(cls))
    elif keys is False:
        raise _Unknown
    parts = [f'{{"kind":{encode_basestring(event.kind)}']
    for name, key in keys:
        value = getattr(event, name)
        if name == "rolls":
            parts.append(key + _rolls(value))
        elif type(value) is Unit:
            parts.append(key + memo(value, _unit, _unit))
        elif not (name == "z" and event.kind == "tile" and not value):
            parts.append(key + _value(value))
    text = ",".join(parts) + "}"
    seen = _SEEN.get(cls, 0)
    if seen < CHECKED:
        if text != codec.canonical(codec.dump_event(event)):
            _EVENTS[cls] = False
            raise _Unknown
        _SEEN[cls] = seen + 1
    return text


_EVENTS: dict[type, Any] = {}  # event class -> ((field name, its JSON key), ...) in order; False: the codec writes it


def state_text(state: Any) -> str:
    """`codec.canonical(codec.dump_state(state))`, a checkpoint's anchor: each unit's text kept on the unit
    (model.memo), most of them the very objects the anchor before held, and a changed one's record written from
    its kept texts as in an event."""
    head = codec.canonical({"ruleset": state.ruleset, "mission": state.mission})[:-1]
    units = ",".join([memo(u, _unit, _unit) for u in state.units.values()])
    return f'{head},"units":[{units}],{codec.canonical(codec._after_units(state))[1:]}'


def _unit(unit: Unit) -> str:
    """`codec._dump_unit`: the kernel's fields, then the record, then the storey off the ground."""
    try:
        rec = f',"record":{_record(unit.record)}' if unit.record is not None else ""
    except _Unknown:
        return codec.canonical(codec._conv.unstructure(unit))
    storey = f',"z":{_value(unit.z)}' if unit.z else ""
    return f"{codec.canonical(codec._unit_plain(unit))[:-1]}{rec}{storey}}}"


def _rolls(rolls: tuple) -> str:
    return codec.canonical([codec.dump_roll(r) for r in rolls]) if rolls else "[]"


def _change(value: Any, prev: Any = None) -> str:
    """A unit change as `codec._plain` writes it: a whole record with its tag, a patch by the codec (it also
    refuses a patch that would read back as a whole record), a tuple as a list, a plain value as it is."""
    if type(value) in _LEAVES:
        return _scalar(value)
    if hasattr(type(value), "record_kind"):
        return _record(value, prev)
    if type(value) is tuple:
        return "[" + ",".join(map(_change, value)) + "]"
    if type(value) is Patch:
        codec.check_patch(value)
        fields = "".join(f",{encode_basestring(k)}:{_value(v)}" for k, v in value.fields.items())
        return f'{{"kind":{encode_basestring(value.kind)}{fields}}}'
    return codec.canonical(codec._plain(value))


def _record(rec: Any, prev: Any = None) -> str:
    """`codec.dump_record`: the tag, then the fields."""
    body = _value(rec, prev)
    tag = encode_basestring(rec.record_kind)
    return f'{{"kind":{tag}}}' if body == "{}" else f'{{"kind":{tag},{body[1:]}'


def _scalar(value: Any) -> str:
    return _LEAVES[type(value)](value)


_LEAVES = {str: encode_basestring, int: int.__repr__, bool: lambda v: "true" if v else "false",
           type(None): lambda _v: "null"}  # a plain value's class -> how the encoder writes it
_ATTRS: dict[type, bool] = {}  # class -> attrs.has(class)


def _value(value: Any, prev: Any = None) -> str:
    """A field's value as cattrs unstructures it and the canonical encoder writes it; `prev`, the value it
    replaces, if known (`_object`)."""
    kind = type(value)
    write = _LEAVES.get(kind)
    if write is not None:
        return write(value)
    if kind is tuple:
        kept = _KEPT.get(id(value))
        if kept is not None and kept[0] is value:
            return kept[1]
        text = "[" + ",".join(map(_value, value)) + "]"
        if len(_KEPT) >= _LIMIT:
            _KEPT.clear()
        _KEPT[id(value)] = (value, text)
        return text
    known = _ATTRS.get(kind)
    if known is None:
        known = _ATTRS[kind] = attrs.has(kind)
    if known:
        return _object(value, prev)
    if kind is dict:
        if not all(type(k) is str for k in value):
            raise _Unknown
        return "{" + ",".join(f"{encode_basestring(k)}:{_value(v)}" for k, v in value.items()) + "}"
    if kind is list:
        return "[" + ",".join(map(_value, value)) + "]"
    if kind is float and math.isfinite(value):
        return float.__repr__(value)  # as the encoder writes it
    raise _Unknown  # a set, an enum, an infinity...: not written here


def _object(obj: Any, prev: Any = None) -> str:
    """An attrs value as cattrs writes it: a record made by records.evolve from one already written takes the
    older one's text for every field it did not change (records.JSON), one made otherwise the text of every field
    that is the very object `prev` (the value it replaces, already written) holds; a value without a __dict__ is
    kept by identity."""
    own = getattr(obj, "__dict__", None)
    if own is None:
        kept = _KEPT.get(id(obj))
        if kept is not None and kept[0] is obj:
            return kept[1]
    else:
        kept = own.get(JSON)
        if type(kept) is list:
            return kept[-1]
    cls = type(obj)
    plan = _PLANS.get(cls, False)
    if plan is False:
        plan = _PLANS[cls] = _plan(cls)
    if plan is None:
        raise _Unknown
    entries, at = plan
    before = prev.__dict__.get(JSON) if own is not None and kept is None and type(prev) is cls else None
    if type(before) is tuple:  # `prev` made by records.evolve (a patch folded) and not written yet: from its own
        _object(prev)  # kept texts, first
        before = prev.__dict__.get(JSON)
    if type(before) is list:
        olds = prev.__dict__
        parts = [text if own[entry[0]] is olds[entry[0]] else _field(obj, entry, olds[entry[0]])
                 for entry, text in zip(entries, before)]
    elif own is None or kept is None:
        parts = []
        for entry in entries:  # most fields of a new value are plain and always written: `_field` inlined for them
            write = _LEAVES.get(type(value := getattr(obj, entry[0])))
            if write is not None and entry[3] is _ALWAYS:
                parts.append(entry[1] + write(value))
            else:
                parts.append(_field(obj, entry))
    else:
        parts = list(kept[0])
        for name in kept[1]:
            parts[at[name]] = _field(obj, entries[at[name]])
        parts.pop()
    text = "{" + ",".join(filter(None, parts)) + "}"
    seen = _SEEN.get(cls, 0)
    if seen < CHECKED:
        if text != codec.canonical(codec._conv.unstructure(obj)):
            _PLANS[cls] = None
            raise _Unknown
        _SEEN[cls] = seen + 1
    if own is not None:
        parts.append(text)
        own[JSON] = parts  # each field's text, then the whole
    else:
        if len(_KEPT) >= _LIMIT:
            _KEPT.clear()
        _KEPT[id(obj)] = (obj, text)
    return text


def _field(obj: Any, entry: tuple, prev: Any = None) -> str:
    name, key, declared, default = entry
    value = getattr(obj, name)
    write = _LEAVES.get(type(value))
    if write is not None:
        return "" if default is not _ALWAYS and value == default else key + write(value)
    if default is not _ALWAYS and value == default:
        return ""
    if declared is not None and type(value) is not declared and attrs.has(type(value)):
        raise _Unknown  # cattrs would write it as the declared class
    return key + _value(value, prev)


def _plan(cls: type) -> tuple | None:
    """How cattrs unstructures the class: every field in order, the `added` ones only away from their default
    (codec._lean_dump); for a field declared as an attrs class, that class. None: a class it would write
    otherwise (a hook of its own, a default made by a factory)."""
    if cls in (Unit, Roll):
        return None  # written by hooks of their own (codec._dump_unit, codec.dump_roll)
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - a type it cannot name: the codec writes it
        return None
    later = set(later_fields(cls))
    plan = []
    for f in attrs.fields(cls):
        default = _ALWAYS
        if f.name in later:
            if isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]
                return None
            default = f.default
        declared = hints.get(f.name)
        plan.append((f.name, f"{encode_basestring(f.name)}:",
                     declared if isinstance(declared, type) and attrs.has(declared) else None, default))
    return tuple(plan), {entry[0]: i for i, entry in enumerate(plan)}
