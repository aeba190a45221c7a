"""Hacking in the field (7, 13 Hacker): a Hacker with a portable computer on the belt, next to a machine of the
mission (the crash mission's power source), `Act(action="hack", cell=...)`: 3d10! AP rolled when it starts,
carried over as a continuing action when the AP do not cover it, then `d100 + Hack − security > 100`. Success
shuts the machine down as the Intelligence test of Interact would (acts.py)."""

from __future__ import annotations

import attrs

from engine.content import missions
from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, TileChanged
from engine.core.geometry import distance
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.rules.xxxzone import abilities as ab
from engine.rules.xxxzone import actions
from engine.rules.xxxzone.character import derive
from engine.rules.xxxzone.units import changed

COMPUTER = "portable_computer"


def machine(rs, state: State, cell):
    """The mission objective to shut down at `cell`, if it is not done yet."""
    if rs.setup is None or cell is None:
        return None
    goal = next((o for o in missions.objectives(rs.setup.mission).values()
                 if o.kind == "shut_down" and cell in rs.setup.spawns.get(o.zone, ())), None)
    return None if goal is None or state.grid.tile(cell) == goal.done_tile else goal


def _refused(rs, state: State, unit: Unit, cell) -> Rejected | None:
    c = unit.record
    if "hacker" not in c.op.abilities:
        return Rejected("needs_ability", f"Hacking needs Hacker; {unit.name} does not have it")
    if COMPUTER not in c.belt and all(h.item != COMPUTER for h in c.hands):
        return Rejected("no_computer", "A field hack needs a portable computer connected to the machine")
    if cell is None or distance(unit.pos, cell) > 1:
        return Rejected("not_adjacent", "The portable computer is connected to a machine next to the hacker")
    if machine(rs, state, cell) is None:
        return Rejected("nothing_to_hack", "Nothing of this mission's to hack there")
    return None


def start(rs, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    bad = _refused(rs, state, unit, cmd.cell)
    if bad is not None:
        return bad
    cell = f"{cmd.cell[0]},{cmd.cell[1]}"
    got = actions.begin(dice, book, c.turn, unit.id, "hack", frozenset(c.op.abilities), option=cell,
                        disoriented=bool(c.condition.disoriented))
    if isinstance(got, Rejected):
        return got
    turn, cost, done = got
    after = attrs.evolve(c, turn=turn)
    head = f"{unit.name} hacks the power source at {cell}: {cost.formula} AP"
    if not done:
        return [Resolved(actor=unit.id, action="hack", cell=cmd.cell, rolls=(cost,), outcome="continuing",
                         text=f"{head}; {turn.continuing.remaining} AP to go next turn"),
                changed(book, unit, after, "starts a hack")]
    return attempt(rs, state, unit, after, cmd.cell, dice, head, (cost,))


def attempt(rs, state: State, unit: Unit, c, cell, dice: Dice, head: str, rolls=()) -> list[Event]:
    book = rs.book
    goal = machine(rs, state, cell)
    if goal is None or distance(unit.pos, cell) > 1:
        return [Resolved(actor=unit.id, action="hack", cell=cell, rolls=tuple(rolls), outcome="failure",
                         text=f"{head}; the machine is out of reach or already shut down")]
    test = ab.hack(dice, book, unit.id, derive(c.op, book).hack)
    ok = test.passed
    text = f"{head}; {'the power source shuts down' if ok else 'the hack fails'} ({test.roll.formula})"
    out: list[Event] = [Resolved(actor=unit.id, action="hack", cell=cell, rolls=tuple(rolls) + (test.roll,),
                                 outcome="success" if ok else "failure", text=text)]
    if ok:
        out.append(TileChanged(pos=cell, tile=goal.done_tile))
    return out + [changed(book, unit, c, "hacks")]


def complete(rs, state: State, unit: Unit, c, cont, dice: Dice) -> list[Event]:
    x, y = (int(v) for v in cont.option.split(","))
    return attempt(rs, state, unit, c, (x, y), dice, f"{unit.name} finishes the hack at {x},{y}")


def options(rs, state: State, unit: Unit) -> list[Option]:
    if rs.setup is None or "hacker" not in unit.record.op.abilities:
        return []
    score = derive(unit.record.op, rs.book).hack
    out = []
    for action, cell in missions.uses(rs.content, rs.setup.mission, rs.setup.spawns, state, unit):
        if action == "shut_down" and _refused(rs, state, unit, cell) is None:
            out.append(Option("Interact", f"Hack the power source at {cell[0]},{cell[1]} (3d10! AP)",
                              Act(unit=unit.id, action="hack", cell=cell), note=f"Hack {score}: {score}% a try"))
    return out
