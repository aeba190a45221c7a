"""Throwing a grenade on the map (6.9). Interpretation: one `Throw` command draws the grenade from the belt
(Draw Item, 1 AP, with the off hand: the weapon stays in hand), pulls its pin (Interact, 1 AP) and throws it
(2 AP): 4 AP in all. The throw roll, the scatter, then every entity with a line from the impact square takes its
ring's blast rolls (3 within a, 2 within b, 1 within c), its adjacent cover between it and the blast at full
value. Smoke bombs stand a cloud instead (smoke.py); C4 is placed, not thrown (charges.py)."""

from __future__ import annotations

from fractions import Fraction

import attrs

from engine.core.commands import Rejected, Throw
from engine.core.dice import Dice
from engine.core.events import Event, Resolved
from engine.core.geometry import Pos, distance
from engine.core.model import State, Unit
from engine.core.ruleset import Row, Throwable, ThrowPreview
from engine.core.reducer import fold
from engine.rules.xxxzone import actions, battle, blasts, explosions, moving, pins, shooting, smoke
from engine.rules.xxxzone.lines import between, blast_cover
from engine.rules.xxxzone.units import changed

COST = 4  # Draw 1 + Interact 1 + Throw 2
THROW = 2
EFFECTS = ("damage", "on_fire", "disorient", "smoke")


def cost(book, item: str, c=None) -> int:
    """A smoke bomb has no pin to pull: Draw 1 + Throw 2; a grenade primed in hand already (pins.py): Throw 2."""
    if c is not None and pins.primed_in_hand(c, item):
        return THROW
    return COST - 1 if book.items[item].effect == "smoke" else COST


def throwables(rs, unit: Unit) -> list[Throwable]:
    """The grenades on the belt, each kind once with how many of it."""
    book, c = rs.book, unit.record
    if c is None:
        return []
    primed = [h.item for h in c.hands if h.primed]
    kinds = dict.fromkeys(i for i in primed + list(c.belt) if i in book.items and book.items[i].kind == "grenade"
                          and book.items[i].effect in EFFECTS)
    return [Throwable(i, book.items[i].name, c.belt.count(i) + primed.count(i)) for i in kinds]


def _check(rs, state: State, unit: Unit, item: str, cell: Pos) -> Rejected | None:
    book, c = rs.book, unit.record
    wet = moving.swimming(rs, state, unit, "throw")
    if wet is not None:
        return wet
    if item not in c.belt and not pins.primed_in_hand(c, item):
        return Rejected("not_carried", f"{unit.name} carries no {rs.name(item)}")
    if book.items[item].effect not in EFFECTS:
        return Rejected("not_yet", f"The {rs.name(item)} is not played yet under xxxzone")
    if not state.grid.inside(cell) or not state.grid.sees(unit.pos, cell, rs.sight_range):
        return Rejected("no_line_of_sight", f"{unit.name} cannot see {cell[0]},{cell[1]}")
    reach = explosions.reach(book, c.op.effective("strength"))
    if between(unit.pos, cell) > reach:
        return Rejected("too_far", f"{between(unit.pos, cell)} squares between; {unit.name} throws at most {reach}")
    need = cost(book, item, c)
    if actions.available(c.turn, "other") < need:
        how = {THROW: "throw 2, the pin pulled", COST - 1: "draw 1, throw 2"}.get(need, "draw 1, pin 1, throw 2")
        return Rejected("no_ap", f"A throw costs {need} AP ({how}); {c.turn.ap} left")
    return None


def _victims(rs, state: State, impact: Pos, item: str):
    cells = set(blasts.cells(rs, state, item, impact))
    pieces = blasts.pieces(rs, state, cells)
    return [(u, battle.defence(rs.book, u.record, blast_cover(impact, u.pos, pieces)))
            for u in state.units.values() if u.pos in cells and u.status != "dead" and u.record is not None]


def throw(rs, state: State, unit: Unit, cmd: Throw, dice: Dice) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    bad = _check(rs, state, unit, cmd.item, cmd.cell)
    if bad is not None:
        return bad
    paid = actions.spend(c.turn, cost(book, cmd.item, c), "other", frozenset(c.op.abilities), what="The throw")
    if isinstance(paid, Rejected):
        return paid
    s = battle.shooter(book, c)
    target = next((u for u in state.units_at(cmd.cell) if u.status != "dead" and u.id != unit.id), None)
    aimed = None if target is None else battle.defence(book, target.record, shooting.cover(book, state, unit.pos,
                                                                                             target.pos))
    landing = explosions.throw(dice, book, s, cmd.item, between(unit.pos, cmd.cell), cmd.cell, aimed)
    impact = blasts.clamp(state, landing.cell)
    if pins.primed_in_hand(c, cmd.item):  # the primed grenade in hand goes first
        hands = list(c.hands)
        hands.remove(next(h for h in c.hands if h.item == cmd.item and h.primed))
        thrower = attrs.evolve(c, turn=paid, hands=tuple(hands), conspicuous=True)
    else:
        belt = list(c.belt)
        belt.remove(cmd.item)
        thrower = attrs.evolve(c, turn=paid, belt=tuple(belt), conspicuous=True)
    if book.items[cmd.item].effect == "smoke":
        return smoke.thrown(rs, state, unit, thrower, cmd, landing, impact, dice)
    events, rolls, words = blasts.blast_at(rs, fold(state, [changed(book, unit, thrower, "throws")]), s, cmd.item,
                                           impact, dice)
    text = (f"{unit.name} throws the {rs.name(cmd.item)} at {cmd.cell[0]},{cmd.cell[1]}: "
            f"{landing.how.replace('_', ' ')} at {impact[0]},{impact[1]}" + (f"; {'; '.join(words)}" if words else ""))
    head = Resolved(actor=unit.id, action="throw", cell=impact, weapon=cmd.item, target=cmd.target,
                    rolls=tuple(landing.rolls) + tuple(rolls), outcome=landing.how, text=text)
    return [head, changed(book, unit, thrower, "throws")] + events


def preview(rs, state: State, thrower: str, item: str, cell: Pos) -> ThrowPreview | Rejected:
    unit = state.units.get(thrower)
    if unit is None or unit.record is None:
        return Rejected("no_unit", "No such unit")
    bad = _check(rs, state, unit, item, cell) if item in rs.book.items else Rejected("not_throwable", "Not a grenade")
    if bad is not None and bad.code != "no_ap":
        return bad
    book, c = rs.book, unit.record
    s = battle.shooter(book, c)
    adj, _ = explosions.throw_acc(book, s, item, between(unit.pos, cell))
    target = next((u for u in state.units_at(cell) if u.status != "dead" and u.id != unit.id), None)
    agi = target.record.op.effective("agility") if target is not None and target.record is not None else 0
    need = 100 - adj + agi  # lands when the face beats this
    p = Fraction(100 - max(0, min(100, need)), 100)
    lines = [Row("Lands", f" {float(p) * 100:.0f}% (AdjAcc {adj}" + (f" − Agi {agi}" if target else "") + ")"),
             Row("Else", " scatters 1d3 squares, 1d8 direction"), Row("Cost", _cost_row(book, item, c))]
    attack = explosions.blast(book, s, item)
    hits = []
    if book.items[item].effect == "smoke":
        lines.append(Row("Smoke", f" {book.items[item].radius} squares round, {book.items[item].duration.text} turns"))
    for u, d in _victims(rs, state, cell, item) if book.items[item].effect != "smoke" else ():
        n = explosions.ring_rolls(book.items[item].rings, distance(cell, u.pos))
        if n:
            _, wound, _ = shooting.odds(tuple([attack] * n), d)
            hits.append((u.id, Row(u.name, f" {n} roll{'s' if n > 1 else ''}: wound {float(wound) * 100:.0f}%"
                                   if book.items[item].effect == "damage" else f" {n} roll{'s' if n > 1 else ''}")))
    return ThrowPreview(p_land=float(p), lines=tuple(lines), hits=tuple(hits))


def _cost_row(book, item: str, c) -> str:
    need = cost(book, item, c)
    return f" {need} AP: " + {THROW: "throw (pin pulled)", COST - 1: "draw, throw"}.get(need, "draw, pin, throw")
