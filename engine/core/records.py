"""A ruleset's own typed record of a unit's numbers, carried on `Unit.record` and written to the log by tag.

A ruleset declares its record as a frozen attrs class of plain values (ints, strings, bools, tuples, dicts of
them, other records) and registers it with `@record("xxxzone.operative")`; the codec writes it as
`{"kind": "xxxzone.operative", ...fields}` and reads it back by that tag, strictly. Events change it whole
(`UnitChanged(changes={"record": new})`), so the fold stays one pure step.
"""

from __future__ import annotations

RECORD_TYPES: dict[str, type] = {}


def record(tag: str):
    """Register a frozen attrs class as a unit record under `tag` (prefix it with the ruleset id)."""
    def deco(cls: type) -> type:
        if tag in RECORD_TYPES and RECORD_TYPES[tag] is not cls:
            raise ValueError(f"two unit records are tagged {tag!r}")
        RECORD_TYPES[tag] = cls
        cls.record_kind = tag
        return cls
    return deco


def lookup(tag: object) -> type | None:
    """The class of a tag, loading the rulesets first if needed: a log may be read before any ruleset is."""
    if not isinstance(tag, str):
        return None
    if tag not in RECORD_TYPES:
        from engine.core import ruleset

        ruleset.available()
    return RECORD_TYPES.get(tag)
