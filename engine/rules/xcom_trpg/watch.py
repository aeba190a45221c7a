"""What the checks after every command (hooks.AFTER) watch for on the units as they stood before it: a rest, an
item's after-effect, a grip. Most commands find none of them on any unit, so the rules that ask share one look at
the units per command, and each unit's marks are worked out once per unit value (model.memo)."""

from __future__ import annotations

from engine.core.model import MEMO, State, Unit, memo
from engine.rules.xcom_trpg.record import soldier

RESTING, AFTER_EFFECT, HELD = 1, 2, 4


def marks(unit: Unit) -> int:
    """The unit's marks: RESTING, AFTER_EFFECT (an item's after-effect running), HELD (a grip on it), or 0."""
    rec = soldier(unit)
    return (RESTING if rec.rest else 0) | (AFTER_EFFECT if rec.after else 0) | (HELD if rec.melee_held_by else 0)


_LAST: tuple[State | None, tuple[tuple[Unit, int], ...]] = (None, ())  # the last state looked at (kept, so `is`
# never matches a newer one) and its marked units: one entry, read and replaced whole


def marked(state: State) -> tuple[tuple[Unit, int], ...]:
    """The state's units that have a mark, with their marks, in turn order."""
    global _LAST
    last, found = _LAST
    if last is state:
        return found
    out = []
    for u in state.units.values():  # model.memo inlined: this runs for every unit after every command
        kept = u.__dict__.get(MEMO)
        m = kept.get(marks) if kept is not None else None
        if m is None:
            m = memo(u, marks, marks)
        if m:
            out.append((u, m))
    found = tuple(out)
    _LAST = (state, found)
    return found
