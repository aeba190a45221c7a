"""The game state: frozen attrs values, changed only by folding events (`engine.reducer`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import attrs

from engine.core.geometry import Pos

if TYPE_CHECKING:
    from engine.map.grid import Grid

Status = Literal["active", "unconscious", "dead"]


@attrs.frozen(kw_only=True)
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
    stats: dict[str, int]
    hp: int
    hp_max: int
    stamina: int
    stamina_max: int
    infinite_stamina: bool = False
    morale: int
    morale_max: int
    concussion: int = 0
    armor: str
    weapon: str
    ammo: int
    magazines: int
    items: dict[str, int] = attrs.field(factory=dict)
    status: Status = "active"
    actions: int = 0
    # Ruleset bookkeeping: turn flags (moved, combo, concussed...) and counters (crit tokens, AP, TU...).
    flags: tuple[str, ...] = ()
    counters: dict[str, int] = attrs.field(factory=dict)

    @property
    def conscious(self) -> bool:
        return self.status == "active"

    def has(self, flag: str) -> bool:
        return flag in self.flags


@attrs.frozen(kw_only=True)
class State:
    ruleset: str
    mission: str
    grid: Grid = attrs.field(eq=False, repr=False)
    units: dict[str, Unit]  # insertion order is turn order
    phase: int = 0
    side: str = ""
    sides: tuple[str, ...] = ("xcom", "aliens")
    dice: dict[str, int] = attrs.field(factory=dict)  # next index per dice stream
    tiles_changed: dict[Pos, str] = attrs.field(factory=dict)
    winner: str | None = None  # side, or "draw"; None while the mission runs
    ended: str | None = None  # why it ended

    def unit(self, uid: str) -> Unit:
        return self.units[uid]

    def side_units(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def units_at(self, pos: Pos) -> list[Unit]:
        return [u for u in self.units.values() if u.pos == pos and u.status != "dead"]


_UNIT_FIELDS = tuple(a.name for a in attrs.fields(Unit))


def replace(unit: Unit, changes: dict[str, object]) -> Unit:
    """`attrs.evolve` without its per-call introspection: units change on every event."""
    new = object.__new__(Unit)
    for name in _UNIT_FIELDS:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(unit, name))
    return new
