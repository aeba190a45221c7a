"""The motion sensor in play (A-13.3): `Act("sense")` shows the holder's side a blip on the square of every other-side
unit within range distance 20 that spent TUs on movement since the holder's previous phase; no line of sight is
needed. It costs 50% of the allowance (section 11) and must be in a hand: from the belt it is brought out (4 TU)
and put back as part of the action, as a medical kit is. The blips stay on the map for that side until its next
phase starts. Observers who beat the user's reaction score fire first (A-14.9).

A walk is stamped on the walker's record (`Soldier.moved`: the phase it walked in, `soldier.stamp`) only while a motion
sensor is on the battlefield, so a mission without one logs nothing more."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.core import records
from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Noted, Resolved, UnitChanged
from engine.core.model import State, Unit, memo
from engine.rules.annihilation import hits
from engine.rules.annihilation.board import Blip, field_of
from engine.rules.annihilation.combat import paid_answered
from engine.rules.annihilation.fighter import Fighter
from engine.rules.annihilation.inventory import HANDS
from engine.rules.annihilation.moves import Price
from engine.rules.annihilation.soldier import changes, stamp

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation

SENSOR = "motion_sensor"


def in_play(state: State) -> bool:
    return any(memo(u, in_play, _carries) for u in state.units.values())  # every walk asks: once per unit value


def _carries(unit: Unit) -> bool:
    return unit.record is not None and any(c.id == SENSOR and c.place != "floor" for c in unit.record.kit)


def mark_walk(state: State, unit: Unit, events: list[Event]) -> list[Event]:
    """The walker's last change in a move, with the phase it walked in on its record (only with a sensor about)."""
    if not in_play(state):
        return events
    at = max((i for i, e in enumerate(events) if isinstance(e, UnitChanged) and e.unit == unit.id
              and "record" in e.changes), default=None)
    if at is None:
        return events
    e = events[at]
    rec = records.evolve(e.changes["record"], {"moved": stamp(state, unit.side)})
    return events[:at] + [UnitChanged(unit=e.unit, changes={**e.changes, "record": rec}, cause=e.cause, rolls=e.rolls)] + events[at + 1:]


def forget(state: State, side: str) -> list[Event]:
    """At the start of `side`'s phase its blips of the phase before are gone."""
    field = field_of(state)
    kept = tuple(b for b in field.blips if b.side != side)
    if len(kept) == len(field.blips):
        return []
    return [Noted(record=attrs.evolve(field, blips=kept), cause="the motion sensor's blips fade")]


def price(rs: Annihilation, unit: Unit) -> Rejected | Price:
    sensor = next((c for c in unit.record.kit if c.id == SENSOR and c.place != "floor"), None)
    if sensor is None:
        return Rejected("no_item", f"{unit.name} carries no motion sensor")
    f = unit.record.fighter
    use = rs.book.cost("motion_sensor", f.tu_turn)  # section 11: 50%
    if sensor.place in HANDS or sensor.place == "both_hands" or sensor.gripped:
        return Price(use, 0, "motion sensor")
    return Price(rs.book.costs["belt_to_hand"].tu + use, 0, "belt to hand + motion sensor")


def sense(rs: Annihilation, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    cost = price(rs, unit)
    if isinstance(cost, Rejected):
        return cost
    return paid_answered(rs, state, dice, unit, cost, "Using the motion sensor", "using a motion sensor",
                         "sensing cancelled: put down by opportunity fire",
                         lambda f: _found(rs, state, unit, cost, f))


def _found(rs: Annihilation, state: State, unit: Unit, cost: Price, f: Fighter) -> list[Event]:
    """The blips the sensor shows, once the user paid for it and stood the observers' fire."""
    new = attrs.evolve(unit.record, fighter=f)
    since = stamp(state, unit.side, state.phase - 1)  # the holder's previous phase
    them = [u for u in state.units.values()
            if u.side != unit.side and u.record is not None and u.record.fighter.status != "dead"]
    storeys = rs.book.settings.sensor_storeys
    found = hits.sensed(rs.book, unit.pos, [(u.id, u.pos, u.record.moved > since) for u in them],
                        tuple(u.z - unit.z for u in them) if storeys else ())
    at = sorted({(state.units[uid].pos, state.units[uid].z if storeys else 0) for uid in found})
    cellsfound = [c for c, _z in at]
    where = "; ".join(f"{x},{y}" + (f" ({z - unit.z:+d} level{'s' if abs(z - unit.z) > 1 else ''})" if z != unit.z else "") for (x, y), z in at)
    reach = rs.book.settings.motion_sensor_range
    text = (f"{unit.name}'s motion sensor ({cost.tu} TU): {len(cellsfound)} blip"
            f"{'' if len(cellsfound) == 1 else 's'} within {reach} spaces" + (f": {where}" if where else ""))
    field = field_of(state)
    blips = tuple(b for b in field.blips if b.side != unit.side) + tuple(Blip(unit.side, c, z) for c, z in at)
    return [Resolved(actor=unit.id, action="sense", rolls=(), outcome=f"{len(cellsfound)} blips", text=text),
            Noted(record=attrs.evolve(field, blips=blips), cause="motion sensor blips"),
            UnitChanged(unit=unit.id, changes=changes(unit, new), cause=f"motion sensor ({cost.tu} TU)")]
