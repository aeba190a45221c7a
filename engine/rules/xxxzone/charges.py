"""C4 and the Detonator on the map (6.9, Interpretation): `Act(action="place_c4", cell=...)` puts a C4 from the
belt on the unit's own square or an adjacent one (Interact, 1 AP); `Act(action="detonate")` with the Detonator
in hand (Interact, 1 AP) sets off every charge the unit placed within D <= 10, each a blast of rings 1-2-3 that
also deals full damage (4 HP) to the cover and doors within D <= 1."""

from __future__ import annotations

import attrs

from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Noted, Resolved
from engine.core.geometry import NEIGHBOURS, distance
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.core.ruleset import Option
from engine.rules.xxxzone import actions, battle, blasts, explosions
from engine.rules.xxxzone.units import battle as record_of
from engine.rules.xxxzone.units import changed

ITEM = "c4"


def place(rs, state: State, unit: Unit, cmd: Act) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    if ITEM not in c.belt:
        return Rejected("not_carried", f"{unit.name} carries no C4")
    cell = cmd.cell or unit.pos
    bad = explosions.place_c4(unit.pos, cell)
    if bad is not None:
        return bad
    if not state.grid.inside(cell) or not state.grid.walkable[cell[1], cell[0]]:
        return Rejected("blocked", f"C4 cannot be placed at {cell[0]},{cell[1]}")
    paid = actions.do(book, c.turn, "interact", frozenset(c.op.abilities), bool(c.condition.disoriented))
    if isinstance(paid, Rejected):
        return paid
    belt = list(c.belt)
    belt.remove(ITEM)
    rec = record_of(state)
    text = f"{unit.name} places C4 at {cell[0]},{cell[1]} (1 AP)"
    return [Resolved(actor=unit.id, action="place_c4", cell=cell, weapon=ITEM, rolls=(), outcome="placed",
                     text=text),
            changed(book, unit, attrs.evolve(c, turn=paid, belt=tuple(belt)), "places C4"),
            Noted(record=attrs.evolve(rec, charges=rec.charges + ((cell, unit.id),)), cause="C4 placed")]


def _ready(rs, state: State, unit: Unit) -> list:
    return [(tuple(cell), who) for cell, who in record_of(state).charges if who == unit.id
            and distance(unit.pos, tuple(cell)) <= rs.book.items["detonator"].reach]


def detonate(rs, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    mine = [(tuple(cell), who) for cell, who in record_of(state).charges if who == unit.id]
    if not mine:
        return Rejected("no_charge", f"{unit.name} has placed no C4")
    held = any(h.item == "detonator" for h in c.hands)
    bad = explosions.detonate(book, unit.pos, min((cell for cell, _ in mine), key=lambda p: distance(unit.pos, p)),
                              held)
    if bad is not None:
        return bad
    paid = actions.do(book, c.turn, "interact", frozenset(c.op.abilities), bool(c.condition.disoriented))
    if isinstance(paid, Rejected):
        return paid
    going = _ready(rs, state, unit)
    rec = record_of(state)
    out: list[Event] = [changed(book, unit, attrs.evolve(c, turn=paid), "sets off the Detonator"),
                        Noted(record=attrs.evolve(rec, charges=tuple(ch for ch in rec.charges
                                                                     if (tuple(ch[0]), ch[1]) not in going)),
                              cause="C4 set off")]
    now = fold(state, out)
    s = battle.shooter(book, now.units[unit.id].record)
    heads: list[Event] = []
    for cell, _ in going:
        events, rolls, words = blasts.blast_at(rs, now, s, ITEM, cell, dice, terrain=True)
        text = f"{unit.name}'s C4 at {cell[0]},{cell[1]} goes off" + (f": {'; '.join(words)}" if words else "")
        heads.append(Resolved(actor=unit.id, action="detonate", cell=cell, weapon=ITEM, rolls=tuple(rolls),
                              outcome="exploded", text=text))
        out += [heads[-1]] + events
        now = fold(now, [heads[-1]] + events)
    return out


def options(rs, state: State, unit: Unit) -> list[Option]:
    c = unit.record
    out = []
    if ITEM in c.belt:
        cells = [unit.pos] + [(unit.pos[0] + dx, unit.pos[1] + dy) for dx, dy in NEIGHBOURS]
        for cell in cells:
            if not state.grid.inside(cell) or not state.grid.walkable[cell[1], cell[0]]:
                continue
            tile = state.grid.tile(cell)
            useful = cell == unit.pos or tile in rs.book.terrain_cover or rs.content.terrain[tile].opens_to
            if useful:
                where = "here" if cell == unit.pos else f"at {rs.content.terrain[tile].name} {cell[0]},{cell[1]}"
                out.append(Option("Explosives", f"Place C4 {where} (1 AP)",
                                  Act(unit=unit.id, action="place_c4", cell=cell),
                                  note=f"{c.belt.count(ITEM)} carried; set off with the Detonator in hand"))
    ready = _ready(rs, state, unit)
    if ready and any(h.item == "detonator" for h in c.hands):
        out.append(Option("Explosives", f"Detonate {len(ready)} C4 charge{'s' if len(ready) > 1 else ''} (1 AP)",
                          Act(unit=unit.id, action="detonate"), note="rings 1-2-3; full damage to terrain within 1"))
    return out
