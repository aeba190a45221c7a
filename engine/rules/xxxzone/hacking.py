"""Field work with a rolled AP cost (4, 7, 13): hacking and picking locks, each an `Act` on an adjacent cell whose
cost is rolled when it starts and carried over as a continuing action when the AP do not cover it, then a test.

- Hack (Hacker, a portable computer on the belt or in hand, next to a machine of the mission: the crash mission's
  power source, the infiltrate mission's terminal): 3d10! AP, then `d100 + Hack − security > 100`. Success shuts
  the machine down as the Intelligence test of Interact would (acts.py).
  Where settings.toml's `hack_only` names the machine's tile (the terminal), Hack is the only way to work it:
  Interact's Intelligence test is refused there, naming Hack (the playtest; older content has no such tile).
- Pick lock (Lockpicker, next to a locked door): 3d10 AP, then `d100 + Locksmith > 100`. Success leaves a closed
  door, unlocked (terrain.toml's `unlocks_to`). Interpretation: like opening a door, a Disoriented entity cannot."""

from __future__ import annotations

import attrs

from engine.content import missions
from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, TileChanged
from engine.core.geometry import NEIGHBOURS, distance
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.rules.xxxzone import abilities as ab
from engine.rules.xxxzone import actions
from engine.rules.xxxzone.character import derive
from engine.rules.xxxzone.units import changed

COMPUTER = "portable_computer"
JOBS = ("hack", "pick_lock")  # the Act actions, named as their rows of actions.toml
# what the log says: the verb, the work, starting it, success, failure, the work gone or out of reach, done
WORDS = {"hack": ("hacks", "the hack", "starts a hack", "shuts down", "the hack fails",
                  "the machine is out of reach or already shut down", "hacks"),
         "pick_lock": ("works the lock of", "picking the lock", "starts picking a lock", "is unlocked",
                       "the lock holds", "the door is out of reach or no longer locked", "picks a lock")}


def machine(rs, state: State, cell):
    """The mission objective to shut down at `cell`, if it is not done yet."""
    if rs.setup is None or cell is None:
        return None
    goal = next((o for o in missions.objectives(rs.setup.mission).values()
                 if o.kind == "shut_down" and cell in rs.setup.spawns.get(o.zone, ())), None)
    return None if goal is None or state.grid.tile(cell) == goal.done_tile else goal


def unlocked(rs, state: State, cell) -> str | None:
    """The tile a picked lock at `cell` leaves (a closed door), None if no locked door is there."""
    if cell is None or not state.grid.inside(cell):
        return None
    return rs.content.terrain[state.grid.tile(cell)].unlocks_to or None


def hack_only(rs, state: State, cell) -> Rejected | None:
    """Interact's refusal on a machine only Hack works (settings.toml's `hack_only`), None elsewhere."""
    tile = state.grid.tile(cell)
    if tile not in rs.book.settings.hack_only:
        return None
    name = rs.content.terrain[tile].name.lower()
    return Rejected("hack_only", f"The {name} is worked by Hack (a Hacker with a portable computer, 3d10! AP), "
                                 "not Interact")


def refused(rs, state: State, unit: Unit, job: str, cell) -> Rejected | None:
    c = unit.record
    if job == "hack":
        if "hacker" not in c.op.abilities:
            return Rejected("needs_ability", f"Hacking needs Hacker; {unit.name} does not have it")
        if COMPUTER not in c.belt and all(h.item != COMPUTER for h in c.hands):
            return Rejected("no_computer", "A field hack needs a portable computer connected to the machine")
    elif "lockpicker" not in c.op.abilities:
        return Rejected("needs_ability", f"Picking a lock needs Lockpicker; {unit.name} does not have it")
    elif c.condition.disoriented:
        return Rejected("disoriented", f"{unit.name} is Disoriented and cannot work a lock")
    if cell is None or distance(unit.pos, cell) > 1:
        return Rejected("not_adjacent", f"{unit.name} must stand next to what is worked on")
    if job == "hack" and machine(rs, state, cell) is None:
        return Rejected("nothing_to_hack", "Nothing of this mission's to hack there")
    if job == "pick_lock" and unlocked(rs, state, cell) is None:
        return Rejected("no_lock", f"No locked door at {cell[0]},{cell[1]}")
    return None


def start(rs, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    book, c, job = rs.book, unit.record, cmd.action
    bad = refused(rs, state, unit, job, cmd.cell)
    if bad is not None:
        return bad
    cell = f"{cmd.cell[0]},{cmd.cell[1]}"
    got = actions.begin(dice, book, c.turn, unit.id, job, frozenset(c.op.abilities), option=cell,
                        disoriented=bool(c.condition.disoriented))
    if isinstance(got, Rejected):
        return got
    turn, cost, done = got
    after = attrs.evolve(c, turn=turn)
    name = rs.content.terrain[state.grid.tile(cmd.cell)].name.lower()
    head = f"{unit.name} {WORDS[job][0]} the {name} at {cell}: {cost.formula} AP"
    if not done:
        return [Resolved(actor=unit.id, action=job, cell=cmd.cell, rolls=(cost,), outcome="continuing",
                         text=f"{head}; {turn.continuing.remaining} AP to go next turn"),
                changed(book, unit, after, WORDS[job][2])]
    return attempt(rs, state, unit, after, job, cmd.cell, dice, head, (cost,))


def attempt(rs, state: State, unit: Unit, c, job: str, cell, dice: Dice, head: str, rolls=()) -> list[Event]:
    """The test once the AP are paid: the machine or the lock must still be there and in reach."""
    book = rs.book
    goal = machine(rs, state, cell) if job == "hack" else unlocked(rs, state, cell)
    if goal is None or distance(unit.pos, cell) > 1:
        return [Resolved(actor=unit.id, action=job, cell=cell, rolls=tuple(rolls), outcome="failure",
                         text=f"{head}; {WORDS[job][5]}")]
    if job == "hack":
        test = ab.hack(dice, book, unit.id, derive(c.op, book).hack)
        tile = goal.done_tile
    else:
        test = ab.pick_lock(dice, book, unit.id, derive(c.op, book).locksmith)
        tile = goal
    ok = test.passed
    name = rs.content.terrain[state.grid.tile(cell)].name.lower()
    text = f"{head}; {f'the {name} ' + WORDS[job][3] if ok else WORDS[job][4]} ({test.roll.formula})"
    out: list[Event] = [Resolved(actor=unit.id, action=job, cell=cell, rolls=tuple(rolls) + (test.roll,),
                                 outcome="success" if ok else "failure", text=text)]
    if ok:
        out.append(TileChanged(pos=cell, tile=tile))
    return out + [changed(book, unit, c, WORDS[job][6])]


def complete(rs, state: State, unit: Unit, c, cont, dice: Dice) -> list[Event]:
    x, y = (int(v) for v in cont.option.split(","))
    job = cont.action
    return attempt(rs, state, unit, c, job, (x, y), dice, f"{unit.name} finishes {WORDS[job][1]} at {x},{y}")


def options(rs, state: State, unit: Unit) -> list[Option]:
    if rs.setup is None:
        return []
    ops = unit.record.op
    out = []
    score = derive(ops, rs.book).hack
    for action, cell in missions.uses(rs.content, rs.setup.mission, rs.setup.spawns, state, unit):
        if action != "shut_down":
            continue
        bad = refused(rs, state, unit, "hack", cell)
        if bad is None or hack_only(rs, state, cell) is not None:  # where only Hack works, say why it cannot
            name = rs.content.terrain[state.grid.tile(cell)].name.lower()
            out.append(Option("Interact", f"Hack the {name} at {cell[0]},{cell[1]} (3d10! AP)",
                              Act(unit=unit.id, action="hack", cell=cell),
                              note=bad.reason if bad is not None else f"Hack {score}: {score}% a try"))
    for dx, dy in NEIGHBOURS:  # every locked door next to the unit, with the reason when it cannot pick it
        cell = (unit.pos[0] + dx, unit.pos[1] + dy)
        if unlocked(rs, state, cell) is None:
            continue
        bad = refused(rs, state, unit, "pick_lock", cell)
        score = derive(ops, rs.book).locksmith
        out.append(Option("Interact", f"Pick the lock at {cell[0]},{cell[1]} (3d10 AP)",
                          Act(unit=unit.id, action="pick_lock", cell=cell),
                          note=bad.reason if bad is not None else f"Locksmith {score}: {score}% a try"))
    return out
