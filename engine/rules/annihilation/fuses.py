"""Timed grenades (A-17.7): `Act("prime", option=<explosive>, amount=<delay 0..5>)` brings one from the belt (4 TU)
and primes it (50%, two hands) to go off at the end of its side's phase `delay` turns on; thrown (25%), it lies
where it lands, kept on the battle record (`State.record`), until then. One still in hand goes off in its holder's
square. An unprimed grenade thrown with `Throw` is primed and thrown at once and goes off on impact."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Noted, Resolved, UnitChanged
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.rules.annihilation import hits
from engine.rules.annihilation.board import Lying, field_of, lying
from engine.rules.annihilation.combat import blast, react
from engine.rules.annihilation.inventory import Carried
from engine.rules.annihilation.moves import Price, pay
from engine.rules.annihilation.soldier import changes, fighter_of, grenades

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation


def primed_of(unit: Unit, item: str) -> Carried | None:
    """The primed one of that kind the unit holds ready, if any."""
    return next((c for c in unit.record.kit if c.id == item and c.primed is not None), None)


def when(rs: Annihilation, side: str, turn: int, item: str = "") -> str:
    if item and rs.book.explosives[item].trigger == "proximity":
        return "goes off when a unit comes within 1 square of it"
    return f"goes off at the end of the {'X-COM' if side == 'xcom' else side.capitalize()} phase of turn {turn}"


def prime(rs: Annihilation, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    item, delay = cmd.option or "", cmd.amount
    g = next((c for c in grenades(unit.record, rs.book) if c.id == item and c.primed is None), None)
    if g is None:
        return Rejected("no_item", f"{unit.name} carries no unprimed {rs.name(item)}")
    if any(c.primed is not None for c in unit.record.kit):
        return Rejected("hands_full", f"{unit.name} already holds a primed grenade: throw it first")
    if rs.book.explosives[item].trigger == "mine":
        return Rejected("laid_not_thrown", f"A {rs.name(item)} is laid, not thrown: lay it on the square (a)")
    fuse = hits.prime(rs.book, item, unit.side, state.phase, delay)
    if isinstance(fuse, Rejected):
        return fuse
    f = fighter_of(unit)
    cost = Price(rs.book.costs["belt_to_hand"].tu + rs.book.cost("prime", f.tu_turn), 0, "belt to hand + prime")
    paid = pay(f, cost, f"Bringing out and priming the {rs.name(item)}")
    if isinstance(paid, Rejected):
        return paid
    paid, pre = react(rs, state, dice, unit, paid, unit.pos, "priming")
    if paid.status != "awake":
        return pre + [UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(
            unit.record, fighter=attrs.evolve(paid, tu_left=0))), cause="priming cancelled: put down first")]
    ready = attrs.evolve(g, primed=fuse.turn)
    kit = tuple(ready if c is g else c for c in unit.record.kit)
    text = f"{unit.name} primes a {rs.name(item)} ({cost.tu} TU): it {when(rs, unit.side, fuse.turn, item)}"
    return pre + [Resolved(actor=unit.id, action="prime", weapon=item, rolls=(), outcome="primed", text=text),
                  UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(unit.record, fighter=paid, kit=kit)),
                              cause=f"primes a {rs.name(item)}, delay {delay}")]


def laid(rs: Annihilation, state: State, unit: Unit, g: Carried, cell: Pos) -> Noted:
    """A thrown primed grenade comes to rest at `cell`, its fuse running."""
    new = attrs.evolve(field_of(state), lying=lying(state) + (Lying(g.id, cell, unit.side, g.primed, unit.id,
                                                                    unit.z),))
    return Noted(record=new, cause=f"a primed {rs.name(g.id)} lies at {cell[0]},{cell[1]}: it "
                                   f"{when(rs, unit.side, g.primed, g.id)}")


def detonations(rs: Annihilation, state: State, side: str, dice: Dice) -> list[Event]:
    """A-17.7 at the end of `side`'s phase: every grenade of that side whose fuse has run goes off, those on the
    ground in the order they were thrown, then any still in a hand, in its holder's square."""
    out: list[Event] = []
    now = state
    keep = []
    for g in lying(state):
        if g.side != side or g.turn > state.phase or rs.book.explosives[g.item].trigger != "timer":
            keep.append(g)
            continue
        e = rs.book.explosives[g.item]
        out += blast(rs, now, dice, g.owner, g.cell, hits.Round(e.damage, e.radius, e.type, "grenade"), None, e.name,
                     z=g.z)
        now = fold(state, out)
    if len(keep) != len(lying(state)):
        out.append(Noted(record=attrs.evolve(field_of(now), lying=tuple(keep)), cause="the fuses that ran out"))
        now = fold(state, out)
    for uid in [u.id for u in now.side_units(side)]:
        unit = now.units[uid]
        g = next((c for c in unit.record.kit if c.primed is not None and c.primed <= state.phase
                  and rs.book.explosives[c.id].trigger == "timer"), None)
        if g is None:  # the dead and the senseless keep it where they lie: it goes off there all the same
            continue
        kit = tuple(c for c in unit.record.kit if c is not g)
        out.append(UnitChanged(unit=unit.id, changes=changes(unit, attrs.evolve(unit.record, kit=kit)),
                               cause=f"the primed {rs.name(g.id)} in hand goes off"))
        e = rs.book.explosives[g.id]
        now = fold(state, out)
        out += blast(rs, now, dice, unit.id, unit.pos, hits.Round(e.damage, e.radius, e.type, "grenade"), None,
                     e.name)
        now = fold(state, out)
    return out
