"""Panicking civilians and Calming Aura (13, Interpretation). The source only says that panicking civilians "pick
a random direction" and run "into more trouble", that Authority Aura can direct them and Calming Aura calms them
for 4 AP. For the game: at the end of the squad's turn (when the civilians' statuses run), a civilian who is not
calm and sees a conscious hostile within its Sight panics and runs 1d4 squares in a 1d8 direction (NEIGHBOURS
order, north first), stopping before anything it cannot enter; one who sees none stops panicking. Calming Aura
(`Act(action="calming_aura", target=...)`, 4 AP) calms a panicking civilian within D <= 4 whom the side sees: it
keeps its head for the rest of the mission."""

from __future__ import annotations

import attrs

from engine.content import missions
from engine.core.commands import Act, Rejected
from engine.core.dice import Dice, Roll
from engine.core.events import Event, Moved, Resolved
from engine.core.geometry import NEIGHBOURS, distance
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.core.ruleset import Option
from engine.rules.xxxzone import actions
from engine.rules.xxxzone.character import derive
from engine.rules.xxxzone.units import changed, facing_index

ABILITY = "calming_aura"


def _sees_danger(rs, state: State, civ: Unit) -> bool:
    sight = derive(civ.record.op, rs.book).sight
    return any(missions.hostile(civ.side, u.side) and u.side != missions.CIVILIANS and u.conscious
               and distance(civ.pos, u.pos) <= sight and state.grid.sees(civ.pos, u.pos, rs.sight_range)
               for u in state.units.values())


def run(rs, state: State, dice: Dice) -> list[Event]:
    """End of the squad's turn: each civilian panics (and runs) or calms down, by what it sees."""
    out: list[Event] = []
    for civ in state.side_units(missions.CIVILIANS):
        civ = state.units[civ.id]
        c = civ.record
        if c is None or not civ.conscious or c.panic == "calm":
            continue
        if not _sees_danger(rs, state, civ):
            if c.panic:
                step = [changed(rs.book, civ, attrs.evolve(c, panic=""), "stops panicking")]
                out += step
                state = fold(state, step)
            continue
        step = _flee(rs, state, civ, dice)
        out += step
        state = fold(state, step)
    return out


def _flee(rs, state: State, civ: Unit, dice: Dice) -> list[Event]:
    far, i = dice.d(4, civ.id, "panic: squares run")
    way, j = dice.d(8, civ.id, "panic: direction")
    dx, dy = NEIGHBOURS[way - 1]
    rolls = (Roll(actor=civ.id, purpose="panic: squares run", expr="1d4", faces=(far,), formula=f"1d4: {far} squares",
                  total=far, index=i),
             Roll(actor=civ.id, purpose="panic: direction", expr="1d8", faces=(way,),
                  formula=f"1d8: {way} (dx {dx}, dy {dy})", total=way, index=j))
    path, here = [], civ.pos
    for _ in range(far):
        cell = (here[0] + dx, here[1] + dy)
        if not state.grid.inside(cell) or not state.grid.walkable[cell[1], cell[0]] or any(
                u.status != "dead" for u in state.units_at(cell)):
            break
        path.append(cell)
        here = cell
    c = attrs.evolve(civ.record, panic="panicking", at=here, facing=(dx, dy) if path else civ.record.facing)
    text = (f"{civ.name} panics and runs {len(path)} square{'s' if len(path) != 1 else ''} to {here[0]},{here[1]}"
            if path else f"{civ.name} panics but cannot get away")
    out: list[Event] = [Resolved(actor=civ.id, action="panic", rolls=rolls, outcome="panicking", text=text)]
    if path:
        out.append(Moved(unit=civ.id, path=tuple(path), facing=facing_index(c.facing, civ.facing)))
    return out + [changed(rs.book, civ, c, "panics")]


def calm(rs, state: State, unit: Unit, cmd: Act) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    paid = actions.do(book, c.turn, ABILITY, frozenset(c.op.abilities), bool(c.condition.disoriented))
    if isinstance(paid, Rejected):
        return paid
    civ = state.units.get(cmd.target or "")
    if civ is None or civ.side != missions.CIVILIANS or civ.record is None or civ.record.panic != "panicking":
        return Rejected("not_panicking", "Calming Aura needs a panicking civilian")
    if distance(unit.pos, civ.pos) > book.settings.inspire_reach or civ.id not in rs.spotted(state, unit.side):
        return Rejected("too_far", f"{civ.name} must be seen and within {book.settings.inspire_reach} squares")
    text = f"{unit.name} calms {civ.name} down (4 AP): it keeps its head for the rest of the mission"
    return [Resolved(actor=unit.id, action=ABILITY, target=civ.id, rolls=(), outcome="success", text=text),
            changed(book, unit, attrs.evolve(c, turn=paid), f"calms {civ.name}"),
            changed(book, civ, attrs.evolve(civ.record, panic="calm"), "calmed")]


def options(rs, state: State, unit: Unit) -> list[Option]:
    if ABILITY not in unit.record.op.abilities:
        return []
    seen = rs.spotted(state, unit.side)
    return [Option("Abilities", f"Calming Aura → {u.name} (4 AP)", Act(unit=unit.id, action=ABILITY, target=u.id),
                   note="a panicking civilian keeps its head")
            for u in state.side_units(missions.CIVILIANS)
            if u.record is not None and u.record.panic == "panicking" and u.id in seen
            and distance(unit.pos, u.pos) <= rs.book.settings.inspire_reach]
