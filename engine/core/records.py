"""A ruleset's own typed record of a unit's numbers, carried on `Unit.record` and written to the log by tag.

A ruleset declares its record as a frozen attrs class of plain values (ints, strings, bools, tuples, dicts of
them, other records) and registers it with `@record("xxxzone.operative")`; the codec writes it as
`{"kind": "xxxzone.operative", ...fields}` and reads it back by that tag, strictly. An event sets it whole (`UnitChanged(changes={"record": new})`) or changes some of its fields
(`changes={"record": Patch(kind, {"stamina": 3})}`, written `{"kind": ..., "stamina": 3}`): the fold applies a
patch to the record the unit has, so a ruleset logs only what changed.

A ruleset whose unit numbers once were kernel fields (xcom-trpg's stamina, flags, counters, stats, weapon, ammo...)
gives its record class a classmethod `from_fields(fields) -> dict` turning those old fields into the record's,
which the log's upcaster calls for an older log, knowing nothing of the ruleset.

A field a record gained after logs were written with it is declared `added(default)` on a `@lean` class: while it
holds its default it is left out of the record's dump and repr (the state hash), so an older log verifies as
written and a newer one keeps the same bytes until the field is used. So the log reader takes a record change
holding every field but the `added` ones for a whole record (those missing at their default), and a patch that
sets all those fields yet not every `added` one is refused when written: it would read back as a whole record.
"""

from __future__ import annotations

from typing import Any

import attrs

RECORD_TYPES: dict[str, type] = {}
ADDED = "xenotac.added"  # attrs metadata: a field that came later, dropped while it holds its default


def added(default: Any) -> Any:
    """An attrs field a record gained after logs were written with the record (see `lean`)."""
    return attrs.field(default=default, metadata={ADDED: True})


def later_fields(cls: type) -> tuple[str, ...]:
    """The `added` fields of an attrs class, () for any other."""
    if not attrs.has(cls):
        return ()
    return tuple(f.name for f in attrs.fields(cls) if f.metadata.get(ADDED))


def lean(cls: type) -> type:
    """Give an attrs class with `added` fields attrs' own repr, less those fields while they hold their default:
    the state hash is the repr, so a log written before the fields existed hashes as it did."""
    plan = tuple((f.name, bool(f.metadata.get(ADDED)), f.default) for f in attrs.fields(cls))  # read once: a kit
    # of such records is repr'd for the state hash whenever one of them changes

    def __repr__(self) -> str:
        shown = []
        for name, later, default in plan:
            value = getattr(self, name)
            if not (later and value == default):
                shown.append(f"{name}={value!r}")
        return f"{type(self).__qualname__}({', '.join(shown)})"

    __repr__.lean = True  # `shown` writes it as attrs would, less those fields at their default
    cls.__repr__ = __repr__
    return cls


@attrs.frozen
class Patch:
    """Some fields of a unit record, set on the record the unit has when folded."""

    kind: str
    fields: dict[str, Any]

    def onto(self, rec: Any) -> Any:
        if rec is None or getattr(type(rec), "record_kind", None) != self.kind:
            return RECORD_TYPES[self.kind](**self.fields)
        return evolve(rec, self.fields)

    def then(self, later: Any) -> Any:
        """This patch followed by `later` (a patch or a whole record) as one change."""
        if isinstance(later, Patch) and later.kind == self.kind:
            return Patch(self.kind, {**self.fields, **later.fields})
        return later


def merged(earlier: Any, later: Any) -> Any:
    """Two changes of a unit's record in one fold, as one: a patch after a whole record is applied to it."""
    if isinstance(earlier, Patch):
        return earlier.then(later)
    if isinstance(later, Patch):
        return later.onto(earlier)
    return later




def evolve(rec: Any, changes: dict[str, Any]) -> Any:
    """`attrs.evolve(rec, **changes)` in one copy of the instance's dict: records change on every command, and
    attrs.evolve reads every field of a 60-field record one by one. Only for a plain class (a __dict__, every
    field set as given: no converter, validator or post-init hook) and known names; anything else goes through
    attrs.evolve itself, which also refuses an unknown name exactly as before."""
    names = _PLAIN.get(type(rec))
    if names is None:
        names = _PLAIN[type(rec)] = _plain_fields(type(rec))
    if not names or not names.issuperset(changes):
        return attrs.evolve(rec, **changes)
    new = object.__new__(type(rec))
    fields = new.__dict__
    fields.update(rec.__dict__)
    fields.update(changes)
    kept = fields.pop(SHOWN, None)  # the old record's field reprs hold for the fields not changed (`shown`)
    if kept is not None:
        fields[SHOWN] = (kept, set(changes)) if type(kept) is list else (kept[0], kept[1] | changes.keys())
    kept = fields.pop(JSON, None)  # and so do their canonical JSON texts (engine.core.canon)
    if kept is not None:
        fields[JSON] = (kept, set(changes)) if type(kept) is list else (kept[0], kept[1] | changes.keys())
    return new


_PLAIN: dict[type, frozenset[str]] = {}  # class -> its field names when `evolve` may copy it; empty: it may not
SHOWN = "_shown"  # beside a record's fields, never one: "name=repr" per field, or (an older one's, names changed)
JSON = "_json"  # the same for the canonical JSON of each field (engine.core.canon)
_REPR: dict[type, tuple | None] = {}  # class -> how attrs (or `lean`) writes its repr


def shown(rec: Any, prev: Any = None) -> str:
    """`repr(rec)`, which the state hash is made of, writing only the fields changed since the record it was
    made from (`evolve`): a 60-field record changes two or three of them a command. A record made otherwise
    (attrs.evolve, a constructor) takes the text of each field that is the very object `prev` (the record it
    replaces) holds: an unchanged field is handed on as the same object, and an immutable value writes the same
    text. Any value that is not a plain record is simply repr'd."""
    how = _REPR.get(type(rec), False)
    if how is False:
        how = _REPR[type(rec)] = _repr_of(type(rec))
    if how is None:
        return repr(rec)
    head, names, at, later = how
    fields = rec.__dict__
    kept = fields.get(SHOWN)
    if type(kept) is not list:
        if kept is None:
            before = prev.__dict__ if type(prev) is type(rec) else None
            old = before.get(SHOWN) if before is not None else None
            if type(old) is tuple:  # `prev` made by `evolve` and not shown yet: from its own kept texts, first
                shown(prev)
                old = before.get(SHOWN)
            if type(old) is list:
                kept = [text if fields[name] is before[name] else _one(name, fields[name], later, before[name])
                        for name, text in zip(names, old)]
            else:
                kept = [_one(name, fields[name], later) for name in names]
        else:
            old, changed = kept
            kept = list(old)
            for name in changed:
                kept[at[name]] = _one(name, fields[name], later)
        fields[SHOWN] = kept
    text = f"{head}({', '.join(kept if not later else [k for k in kept if k])})"
    if how is not _CHECKED.get(type(rec)):  # the first of a class: held to attrs' own repr once
        if text != repr(rec):
            _REPR[type(rec)] = None
            return repr(rec)
        _CHECKED[type(rec)] = how
    return text


_CHECKED: dict[type, tuple] = {}


def _one(name: str, value: Any, later: dict[str, Any], prev: Any = None) -> str:
    """A field as the record's repr writes it; "" for a `lean` record's added field at its default."""
    if name in later and value == later[name]:
        return ""
    if type(value) in _PLAIN_VALUES:
        return f"{name}={value!r}"
    return f"{name}={_nested(value, prev)}"


def _nested(value: Any, prev: Any = None) -> str:
    """`repr(value)`; a nested record's, attrs value's (an annihilation soldier's character sheet) or tuple's kept
    by identity, since most fields of a changed record are the very objects the record before held."""
    kind = type(value)
    if kind in _PLAIN_VALUES:
        return repr(value)
    known = _ATTRS.get(kind)
    if known is None:
        known = _ATTRS[kind] = attrs.has(kind)
    if not known and kind is not tuple:
        return repr(value)
    if known and hasattr(kind, "record_kind") and _REPR.get(kind, False) is not None and hasattr(value, "__dict__"):
        return shown(value, prev)  # its own changed fields only
    kept = _REPRS.get(id(value))
    if kept is not None and kept[0] is value:
        return kept[1]
    if kind is tuple and value and type(value[0]) not in _PLAIN_VALUES:  # a kit: most items the very ones before
        text = f"({', '.join([_nested(v) for v in value])}{',' if len(value) == 1 else ''})"
    else:
        text = repr(value)
    if len(_REPRS) >= 20_000:  # a few thousand commands' worth: then forgotten at once, memory stays flat
        _REPRS.clear()
    _REPRS[id(value)] = (value, text)
    return text


_PLAIN_VALUES = frozenset((int, str, bool, type(None)))
_ATTRS: dict[type, bool] = {}  # class -> attrs.has(class)
_REPRS: dict[int, tuple[Any, str]] = {}  # id(value) -> (the value, kept alive so its id is not reused; its repr)


def _repr_of(cls: type) -> tuple[str, tuple[str, ...], dict[str, int], dict[str, Any]] | None:
    if not hasattr(cls, "record_kind") or not _plain_fields(cls):
        return None
    lean = getattr(cls.__repr__, "lean", False)
    code = getattr(cls.__repr__, "__code__", None)
    if code is None or not (lean or code.co_filename.startswith("<attrs generated")) or not all(
            a.repr is True for a in attrs.fields(cls)):
        return None
    names = tuple(a.name for a in attrs.fields(cls))
    later = {a.name: a.default for a in attrs.fields(cls) if lean and a.metadata.get(ADDED)}
    head = cls.__qualname__ if lean else cls.__qualname__.rsplit(">.", 1)[-1]
    return head, names, {n: i for i, n in enumerate(names)}, later


def _plain_fields(cls: type) -> frozenset[str]:
    fields = attrs.fields(cls)
    if any("__slots__" in c.__dict__ for c in cls.__mro__[:-1]) or hasattr(cls, "__attrs_post_init__") or hasattr(cls, "__attrs_pre_init__"):
        return frozenset()
    if any(a.converter or a.validator or not a.init or a.alias != a.name or a.on_setattr for a in fields):
        return frozenset()
    return frozenset(a.name for a in fields)


def record(tag: str):
    """Register a frozen attrs class as a unit record under `tag` (prefix it with the ruleset id)."""
    def deco(cls: type) -> type:
        if tag in RECORD_TYPES and RECORD_TYPES[tag] is not cls:
            raise ValueError(f"two unit records are tagged {tag!r}")
        RECORD_TYPES[tag] = cls
        cls.record_kind = tag
        return cls
    return deco


def legacy(ruleset_id: object) -> type | None:
    """The record class of a ruleset that once kept its unit numbers in kernel fields (it has `from_fields`)."""
    if not isinstance(ruleset_id, str):
        return None
    lookup(f"{ruleset_id}.")  # loads the rulesets
    return next((cls for tag, cls in RECORD_TYPES.items()
                 if tag.startswith(f"{ruleset_id}.") and hasattr(cls, "from_fields")), None)


def lookup(tag: object) -> type | None:
    """The class of a tag, loading the rulesets first if needed: a log may be read before any ruleset is."""
    if not isinstance(tag, str):
        return None
    if tag not in RECORD_TYPES:  # "annihilation.fighter": the annihilation ruleset's, imported for it
        from engine.core import ruleset

        owner = tag.partition(".")[0]
        if owner in ruleset.available():
            ruleset.kind(owner)
    return RECORD_TYPES.get(tag)
