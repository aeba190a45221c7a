"""The heavy-weapon strap, gyro and pad system put on or taken off in battle (section 11, A-12.3): 18 full turns to
put on, 2 to take off, each turn's whole allowance (costs.toml `harness_on`, `harness_off`).

`Act("harness")` works one turn at it: the unit must not have spent a TU of this turn's allowance, and pays all of
it. The turns done are kept on the soldier (`Soldier.harness_work`) until the last one changes it, whenever they
come (the source counts full turns, not turns in a row). Putting it on needs both straps free (it takes their
place); taking it off needs nothing bigger than size H hanging from it (that item could not stay on the straps).
Observers who beat the unit's reaction score fire first (A-14.9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, UnitChanged
from engine.core.model import State, Unit
from engine.rules.annihilation.combat import paid_answered
from engine.rules.annihilation.inventory import STRAPS
from engine.rules.annihilation.moves import Price
from engine.rules.annihilation.schema import SIZES
from engine.rules.annihilation.soldier import changes

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation

NAME = "strap, gyro and pad system"


def turns(rs: Annihilation, unit: Unit) -> int:
    """The full turns the change the unit is making takes: on if it does not wear it, off if it does."""
    return rs.book.costs["harness_off" if unit.record.harness else "harness_on"].turns


def price(rs: Annihilation, unit: Unit) -> Rejected | Price:
    """A turn's work at it: the whole allowance, untouched (A-8.3: no partial actions)."""
    s, f = unit.record, unit.record.fighter
    if s.harness:
        big = next((c for c in s.kit if c.place == "both_straps"
                    and SIZES.index(c.size) > SIZES.index(rs.book.settings.strap_pair_size_max)), None)
        if big is not None:
            return Rejected("harness_loaded", f"Take the {rs.name(big.id)} off the {NAME} first")
    elif any(c.place in STRAPS for c in s.kit):
        return Rejected("straps_taken", f"The {NAME} takes the place of both straps: free them first")
    if f.tu_turn == 0 or f.tu_left < f.tu_turn:
        return Rejected("not_a_full_turn", f"A turn at the {NAME} takes this turn's whole {f.tu_turn} TU; "
                                           f"{unit.name} has {f.tu_left} left")
    key = "harness_off" if s.harness else "harness_on"
    return Price(rs.book.cost(key, f.tu_turn), 0, key)


def work(rs: Annihilation, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    cost = price(rs, unit)
    if isinstance(cost, Rejected):
        return cost
    s = unit.record
    done, need = s.harness_work + 1, turns(rs, unit)
    finished = done >= need
    verb = "taking off" if s.harness else "putting on"
    text = (f"{unit.name} works at {verb} the {NAME} ({cost.tu} TU): turn {done} of {need}"
            + (f"; it is {'off' if s.harness else 'on'}" if finished else ""))
    after = attrs.evolve(s, harness=not s.harness if finished else s.harness, harness_work=0 if finished else done)
    return paid_answered(rs, state, dice, unit, cost, f"{verb.capitalize()} the {NAME}", verb + " the harness",
                         f"{verb} the harness cancelled: put down by opportunity fire", lambda f: [
                             Resolved(actor=unit.id, action="harness", rolls=(), outcome="done" if finished
                                      else "under way", text=text),
                             UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(after, fighter=f)),
                                         cause=verb + " the harness")])


def words(rs: Annihilation, unit: Unit) -> str:
    """The inventory screen's line: worn or not, and the turns done of the change under way."""
    s = unit.record
    need = turns(rs, unit)
    worn = "worn · both straps, any size, gripped" if s.harness else "none · size I/J fire only from it"
    going = f" · {'off' if s.harness else 'on'}: {s.harness_work} of {need} turns done" if s.harness_work else \
        f" · {'off' if s.harness else 'on'}: {need} turns"
    return f" {worn}{going} "
