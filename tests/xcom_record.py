"""xcom-trpg units for tests, in the words tests were written in: `counters(unit)` and `flags(unit)` read the
unit's record (`engine/rules/xcom_trpg/record.py`) back as the older string-keyed counters and turn flags, and
`evolved(unit, stamina=3, counters={...}, flags=(...))` changes its kernel fields and its record at once."""

from __future__ import annotations

from typing import Any

import attrs

from engine.core.model import Unit
from engine.rules.xcom_trpg.record import POOLS, Soldier, soldier


def counters(unit: Unit) -> dict[str, int]:
    return soldier(unit).counters()


def flags(unit: Unit) -> tuple[str, ...]:
    return soldier(unit).flags()


def evolved(unit: Unit, **changes: Any) -> Unit:
    """`attrs.evolve`, and for a unit: kernel fields as given; `stamina`, `morale`... and `counters` / `flags` (whole, as the old fields were)
    into the record; any other record field by its name."""
    fields = {f.name for f in attrs.fields(Soldier)}
    if not isinstance(unit, Unit) or not (set(changes) & (fields | {"counters", "flags"})):
        return attrs.evolve(unit, **changes)  # a state, a scenario's unit, or kernel fields only
    old = {k: changes.pop(k) for k in [*POOLS, "counters", "flags"] if k in changes}
    mine = {k: changes.pop(k) for k in [k for k in changes if k in fields]}
    rec = attrs.evolve(soldier(unit), **Soldier.from_fields(old), **mine)
    return attrs.evolve(unit, record=rec, **changes)
