"""The game state: frozen attrs values, changed only by folding events (`engine.reducer`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import attrs

from engine.core.geometry import Pos
from engine.core.records import Patch

if TYPE_CHECKING:
    from engine.map.grid import Grid

Status = Literal["active", "unconscious", "dead"]


@attrs.frozen(kw_only=True, slots=False)  # a __dict__: `replace` copies it in one step (units change every event)
class Unit:
    """One unit's frame: everything a game master would keep on its sheet."""

    id: str
    name: str
    template: str
    race: str
    side: str
    glyph: str
    pos: Pos
    facing: int  # index into engine.map.grid.NEIGHBOURS
    # The field order is the order of every logged unit and state hash: never reorder. `hp` is the health every
    # ruleset has (hit points, wounds left); stats, kit, rounds and the turn's budget are the ruleset's, in `record`.
    hp: int
    hp_max: int
    items: dict[str, int] = attrs.field(factory=dict)
    status: Status = "active"
    # The ruleset's own typed record of the unit's numbers (a `records.record` class: stats, weapon and rounds,
    # stamina and morale, AP, TU, wounds by body part, pools, turn markers...), or None. Last, and left out of
    # dumps and hashes when None.
    record: Any = None
    # The storey it stands on (0 = the ground; engine.map.grid.Grid.storeys). After the record, and left out of
    # dumps and hashes when 0, so every map without storeys keeps its bytes.
    z: int = 0

    @property
    def conscious(self) -> bool:
        return self.status == "active"


@attrs.frozen(kw_only=True, slots=False)  # a __dict__, for `with_fields` (one new state per record)
class State:
    ruleset: str
    mission: str
    grid: Grid = attrs.field(eq=False, repr=False)
    units: dict[str, Unit]  # insertion order is turn order
    phase: int = 0
    side: str = ""
    sides: tuple[str, ...]  # the sides that take turns, in order: the mission's (engine.content.missions)
    dice: dict[str, int] = attrs.field(factory=dict)  # next index per dice stream
    tiles_changed: dict[Pos, str] = attrs.field(factory=dict)  # (x, y, z) for a storey above the ground
    winner: str | None = None  # side, or "draw"; None while the mission runs
    ended: str | None = None  # why it ended
    record: Any = None  # the ruleset's own record of the battle (events.Noted); None: left out of dumps and hashes

    def unit(self, uid: str) -> Unit:
        return self.units[uid]

    def side_units(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def units_at(self, pos: Pos, z: int | None = None) -> list[Unit]:
        """The living units on a cell: of every storey, or of storey `z`."""
        return [u for u in self.units.values() if u.pos == pos and u.status != "dead" and (z is None or u.z == z)]


_UNIT_FIELDS = tuple(a.name for a in attrs.fields(Unit))


def replace(unit: Unit, changes: dict[str, object]) -> Unit:
    """`attrs.evolve` without its per-call introspection: units change on every event."""
    new = object.__new__(Unit)
    fields = new.__dict__
    fields.update(unit.__dict__)
    kept = fields.pop(MEMO, None)  # what was worked out about the old unit is not known of the new one...
    changed = [name for name in changes if name in _FIELD_SET]  # as before: a name that is no field changes nothing
    for name in changed:
        fields[name] = changes[name]
    if type(fields["record"]) is Patch:  # some of the record's fields: onto the record the unit has
        fields["record"] = fields["record"].onto(unit.record)
    if kept is not None:  # ...but the repr of the fields that stayed is (codec.state_hash), and the record it
        if PARTS in kept:  # was made of, whose fields' reprs a new record may share by identity (records.shown)
            fields[MEMO] = {INHERITED: (kept[PARTS], changed, unit.record)}
        elif INHERITED in kept:  # changed twice in one fold, never hashed between: from the last one hashed
            parts, before, rec = kept[INHERITED]
            fields[MEMO] = {INHERITED: (parts, [*before, *changed], rec)}
    return new


_FIELD_SET = frozenset(_UNIT_FIELDS)
MEMO = "_memo"
PARTS, INHERITED = "parts", "inherited"  # the repr of each field; the old unit's, and the fields changed since


def memo(unit: Unit, key: object, work):
    """`work(unit)` once per unit value: units are immutable and most come through a command untouched,
    so a check after every command recomputes only for the units that command changed. The answer is
    kept beside the unit's fields (never one of them: equality, repr, dumps and hashes see only fields)."""
    kept = unit.__dict__.get(MEMO)
    if kept is None:
        kept = unit.__dict__[MEMO] = {}
    if key in kept:
        return kept[key]
    value = kept[key] = work(unit)
    return value


_STATE_FIELDS = frozenset(a.name for a in attrs.fields(State))


def with_fields(state: State, changes: dict[str, object]) -> State:
    """`attrs.evolve(state, **changes)` without its per-call introspection (the fold makes one per record)."""
    for name in changes:
        if name not in _STATE_FIELDS:
            raise TypeError(f"a state has no field {name!r}")
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new
