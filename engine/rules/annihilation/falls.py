"""Falling (docs/rules-notes.md, annihilation, Falls): the source gives no rule, so a unit that comes down through
open air (a jump out of an upper window, a flyer put down or stripped of its flight in the air) lands on the first
storey below it can stand on and takes `fall_damage` per level fallen on its under armour, through the armour and
wound procedure as any hit (sections 18, 19; like the fire of A-17.9). Only a conscious flyer stays up in the air."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.core.dice import Dice
from engine.core.events import Event, Moved, Resolved, UnitChanged
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.map import levels
from engine.rules.annihilation import moves
from engine.rules.annihilation.fighter import Fighter
from engine.rules.annihilation.hits import strike
from engine.rules.annihilation.soldier import changes, fighter_of

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation


def hurt(rs: Annihilation, dice: Dice, unit: Unit, f: Fighter, height: int, at: tuple[int, int, int]
         ) -> tuple[Fighter, Resolved]:
    """The landing after a fall of `height` levels onto `at`: the fighter after it, and the log's line."""
    amount = rs.book.settings.fall_damage * height
    where = f"{at[0]},{at[1]}" + (f" on level {at[2]}" if at[2] else "")
    if amount <= 0:
        return f, Resolved(actor=unit.id, action="fall", target=unit.id, cell=at[:2], rolls=(), outcome="landed",
                           text=f"{unit.name} falls {height} level{'s' * (height > 1)} to {where}")
    h = strike(rs.book, dice, f, amount, "under", f.character.id)
    return h.fighter, Resolved(actor=unit.id, action="fall", target=unit.id, cell=at[:2], rolls=h.rolls,
                               outcome="hurt", text=f"{unit.name} falls {height} level{'s' * (height > 1)} to {where}: "
                                                    f"{amount} on the under armour, {h.armour.text}")


def airborne(rs: Annihilation, unit: Unit) -> bool:
    """It may stay up in open air: a conscious unit that flies (9.2)."""
    f = fighter_of(unit)
    return f.status == "awake" and moves.flies(rs.book, f)


def _kept(rs: Annihilation, grid) -> dict:
    """The units found held on this grid (by id: the unit object): asked after every command of every unit, and
    most units and the map come through a command untouched."""
    kept = rs._held
    if kept.get("grid") is not grid:
        kept.clear()
        kept["grid"] = grid
    return kept


def _held(rs: Annihilation, grid, kept: dict, unit: Unit) -> bool:
    """Whether the unit stays where it is on this grid."""
    held = unit.record is None or levels.standing(grid, (*unit.pos, unit.z)) or airborne(rs, unit)
    if held:
        kept[unit.id] = unit
    return held


def settle(rs: Annihilation, state: State, events: list[Event], dice: Dice) -> list[Event]:
    """After a command: every unit it left on open air that cannot stay there falls, in unit order."""
    if not state.grid.storeys:
        return []
    now = fold(state, events)
    grid = now.grid
    out: list[Event] = []
    kept = _kept(rs, grid)
    for unit in now.units.values():
        if kept.get(unit.id) is unit or _held(rs, grid, kept, unit):
            continue
        place = (*unit.pos, unit.z)
        ground = levels.landing(grid, place)
        if ground is None or ground == unit.z:
            continue
        out.append(Moved(unit=unit.id, path=(unit.pos,), facing=unit.facing, levels=(ground,)))
        if unit.status != "dead":
            f, line = hurt(rs, dice, unit, fighter_of(unit), unit.z - ground, (*unit.pos, ground))
            out += [line, UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(unit.record, fighter=f)),
                                      cause="falls")]
    return out
