"""What a walk meets on the ground beyond moving.py's steps and reaction fire: a primed proximity grenade goes off as
a unit enters a square within 1 of it, a land mine as a unit enters its square (A-17.7: the walk is cut short
there, as if it had been ordered only that far); smoke gives its stun and fire its damage to a unit that walked into
them (A-17.8, A-17.9, once a turn each, after the walk's reaction fire); and with a motion sensor about, the walk
is stamped for it (sensor.py).

Laying a charge: `Act("lay", option=<explosive>, amount=<delay>)` brings it from the belt (4 TU), primes it (50%)
and puts it on the unit's own square (hand → floor, 2 TU); a timed one with its delay (fuses.py). A proximity
grenade is primed and thrown (a primed one thrown lies where it lands and waits)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.core.commands import Act, Move, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Moved, Noted, Resolved, UnitChanged
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.rules.annihilation import clouds, hits, moving, sensor
from engine.rules.annihilation.board import Lying, field_of, lying
from engine.rules.annihilation.combat import blast, paid_answered
from engine.rules.annihilation.fighter import Fighter
from engine.rules.annihilation.inventory import Carried
from engine.rules.annihilation.moves import Price
from engine.rules.annihilation.soldier import changes, grenades

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation


def trips(rs: Annihilation, state: State, cell: Pos, z: int = 0) -> list[Lying]:
    """The proximity grenades and mines of storey z a unit entering `cell` on it sets off."""
    return [g for g in lying(state) if rs.book.explosives[g.item].trigger != "timer" and g.z == z
            and hits.goes_off(rs.book, hits.Primed(g.item, g.side, 0), g.cell, entered=cell)]


def move(rs: Annihilation, state: State, unit: Unit, cmd: Move, dice: Dice) -> Rejected | list[Event]:
    path = tuple(tuple(c) for c in cmd.path)
    zs = tuple(cmd.levels) or (unit.z,) * len(path)
    cut = next((i for i, c in enumerate(path) if trips(rs, state, c, zs[i] if i < len(zs) else unit.z)), None)
    if cut is not None:
        path, zs = path[:cut + 1], zs[:cut + 1] if cmd.levels else ()
        cmd = attrs.evolve(cmd, path=path, levels=zs if cmd.levels else ())
    events = moving.move(rs, state, unit, cmd, dice)
    if isinstance(events, Rejected):
        return events
    events = sensor.mark_walk(state, unit, events)
    moved = next((e for e in events if isinstance(e, Moved) and e.unit == unit.id), None)
    walked = list(zip(moved.path, moved.levels or (unit.z,) * len(moved.path))) if moved else []
    now = fold(state, events)
    extra: list[Event] = []
    if any(clouds.in_smoke(now, c, z) for c, z in walked):
        extra += clouds.smoke_on(rs, now.units[unit.id], "walks into the smoke")
    if any(clouds.burning(now, c, z) for c, z in walked):
        extra += clouds.fire_on(rs, fold(now, extra).units[unit.id], dice, "walks into the fire")
    if cut is not None and walked and tuple(walked[-1][0]) == path[-1]:
        extra += detonate(rs, fold(now, extra), dice, trips(rs, now, path[-1], walked[-1][1]), unit)
    return events + extra


def detonate(rs: Annihilation, state: State, dice: Dice, devices: list[Lying], by: Unit) -> list[Event]:
    """The devices a unit set off, in the order they were laid, each off the record before its blast."""
    out: list[Event] = []
    now = state
    for g in devices:
        e = rs.book.explosives[g.item]
        out.append(Noted(record=attrs.evolve(field_of(now), lying=tuple(x for x in lying(now) if x != g)),
                         cause=f"{by.name} sets off a {e.name}"))
        now = fold(state, out)
        out += blast(rs, now, dice, g.owner, g.cell, hits.Round(e.damage, e.radius, e.type, "grenade"), None,
                     f"{by.name} sets off a {e.name}: it", z=g.z)
        now = fold(state, out)
    return out


def lay_price(rs: Annihilation, unit: Unit) -> Price:
    f = unit.record.fighter
    c = rs.book.costs
    return Price(c["belt_to_hand"].tu + rs.book.cost("prime", f.tu_turn) + c["hand_to_floor"].tu, 0,
                 "belt to hand + prime + hand to floor")


def lay(rs: Annihilation, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    item = cmd.option or ""
    g = next((c for c in grenades(unit.record, rs.book) if c.id == item and c.primed is None), None)
    if g is None:
        return Rejected("no_item", f"{unit.name} carries no unprimed {rs.name(item)}")
    if rs.book.explosives[item].trigger == "proximity":
        return Rejected("thrown_not_laid", f"A {rs.name(item)} is primed and thrown: laid here it would go off as "
                                           f"{unit.name} steps away")
    if any(x.cell == unit.pos and x.z == unit.z for x in lying(state)):
        return Rejected("occupied", "Something primed already lies on this square")
    fuse = hits.prime(rs.book, item, unit.side, state.phase, cmd.amount)
    if isinstance(fuse, Rejected):
        return fuse
    cost = lay_price(rs, unit)
    return paid_answered(rs, state, dice, unit, cost, f"Laying the {rs.name(item)}", "laying a charge",
                         "laying cancelled: put down by opportunity fire",
                         lambda f: _laid(rs, state, unit, cost, g, fuse.turn, f))


def _laid(rs: Annihilation, state: State, unit: Unit, cost: Price, g: Carried, turn: int, f: Fighter) -> list[Event]:
    """The charge on the unit's square, once it paid for it and stood the observers' fire."""
    item = g.id
    new = attrs.evolve(unit.record, fighter=f)
    trigger = rs.book.explosives[item].trigger
    when = {"mine": "it goes off when a unit steps on this square",
            "proximity": "it goes off when a unit comes within 1 square"}.get(trigger)
    if when is None:
        from engine.rules.annihilation.fuses import when as fuse_when

        when = f"it {fuse_when(rs, unit.side, turn)}"
    kit = tuple(c for c in unit.record.kit if c is not g)
    laid = Lying(item, unit.pos, unit.side, turn, unit.id, unit.z)
    x, y = unit.pos
    return [Resolved(actor=unit.id, action="lay", cell=unit.pos, weapon=item, rolls=(), outcome="laid",
                     text=f"{unit.name} lays a {rs.name(item)} at {x},{y} ({cost.tu} TU): {when}"),
            Noted(record=attrs.evolve(field_of(state), lying=lying(state) + (laid,)), cause="a charge laid"),
            UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(new, kit=kit)),
                        cause=f"lays a {rs.name(item)} ({cost.tu} TU)")]
