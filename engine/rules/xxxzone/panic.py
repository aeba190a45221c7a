"""Panicking civilians and Calming Aura (13, Interpretation). The source only says that panicking civilians "pick
a random direction" and run "into more trouble", that Authority Aura can direct them and Calming Aura calms them
for 4 AP. For the game: at the end of the squad's turn (when the civilians' statuses run), a civilian who is not
calm and sees a conscious hostile within its Sight panics and runs 1d4 squares in a 1d8 direction (NEIGHBOURS
order, north first), stopping before anything it cannot enter; one who sees none stops panicking. Calming Aura
(`Act(action="calming_aura", target=...)`, 4 AP) calms a panicking civilian within D <= 4 whom the side sees: it
keeps its head for the rest of the mission. Authority Aura (`Act(action="authority_aura", target=..., option=
"w")`, 2 AP) sends such a civilian running 1d4 squares at once in the direction named (n, ne, e ... nw) instead of
a random one; the menu offers the direction straight away from the nearest hostile it sees."""

from __future__ import annotations

import attrs

from engine.content import missions
from engine.core.commands import Act, Rejected
from engine.core.dice import Dice, Roll
from engine.core.events import Event, Moved, Noted, Resolved
from engine.core.geometry import NEIGHBOURS, Pos, distance
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.core.ruleset import Option
from engine.rules.xxxzone import actions, battle, moving, seen
from engine.rules.xxxzone.character import derive
from engine.rules.xxxzone.units import battle as battle_of
from engine.rules.xxxzone.units import changed, facing_index

ABILITY = "calming_aura"
DIRECT = "authority_aura"
WAYS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")  # NEIGHBOURS' order: a direction's name is its 1d8 face − 1


def _danger(rs, state: State, civ: Unit) -> list[tuple[int, str, Pos]]:
    """The conscious hostiles the civilian sees within its Sight, nearest first (ties by id)."""
    sight = derive(civ.record.op, rs.book).sight
    return sorted((distance(civ.pos, u.pos), u.id, u.pos) for u in state.units.values()
                  if missions.hostile(civ.side, u.side) and u.side != missions.CIVILIANS and u.conscious
                  and distance(civ.pos, u.pos) <= sight and state.grid.sees(civ.pos, u.pos, rs.sight_range))


def run(rs, state: State, dice: Dice) -> list[Event]:
    """End of the squad's turn: each civilian panics (and runs) or calms down, by what it sees."""
    out: list[Event] = []
    for civ in state.side_units(missions.CIVILIANS):
        civ = state.units[civ.id]
        c = civ.record
        if c is None or not civ.conscious or c.panic == "calm":
            continue
        if not _danger(rs, state, civ):
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
    return _run(rs, state, civ, far, (dx, dy), rolls, "panics", dice)


def _run(rs, state: State, civ: Unit, far: int, step: tuple[int, int], rolls: tuple[Roll, ...], cause: str,
         dice: Dice, actor: str = "") -> list[Event]:
    """The civilian runs up to `far` squares along `step`, stopping before a square it cannot enter or someone's;
    `actor`: the Authority Aura holder who sent it (else it panicked)."""
    (dx, dy), path, here = step, [], civ.pos
    for _ in range(far):
        cell = (here[0] + dx, here[1] + dy)
        if not state.grid.inside(cell) or not state.grid.walkable[cell[1], cell[0]] or any(
                u.status != "dead" for u in state.units_at(cell)):
            break
        path.append(cell)
        here = cell
    c = attrs.evolve(civ.record, panic="panicking", at=here, facing=(dx, dy) if path else civ.record.facing)
    if path and rs.book.settings.panic_reacts:
        after, path = _watched(rs, state, civ, path, cause, dice)
        here = path[-1]
    else:
        after = ([Moved(unit=civ.id, path=tuple(path), facing=facing_index(c.facing, civ.facing))] if path else []) \
            + [changed(rs.book, civ, c, cause)]
    who = f"{state.units[actor].name} sends {civ.name} running" if actor else f"{civ.name} panics and runs"
    text = (f"{who} {len(path)} square{'s' if len(path) != 1 else ''} to {here[0]},{here[1]}"
            if path else f"{civ.name} {cause} but cannot get away")
    return [Resolved(actor=actor or civ.id, action=DIRECT if actor else "panic", target=civ.id if actor else None,
                     rolls=rolls, outcome="panicking", text=text), *after]


def _watched(rs, state: State, civ: Unit, path: list[Pos], cause: str, dice: Dice) -> tuple[list[Event], list[Pos]]:
    """The run as a quick move (`panic_reacts`, 10 and 6.8): square by square the civilian is conspicuous, hostile
    overwatch that sees it fires (X-COM's never does: it is no hostile of theirs), and one put down stops where it
    fell; then the spot checks a finished action calls for. Returns the events and the squares run."""
    out: list[Event] = []
    now, ran = state, []
    for cell in path:
        me = now.units[civ.id]
        rec = attrs.evolve(battle.after_move(me.record, cell, True), panic="panicking")
        step = [Moved(unit=civ.id, path=(cell,), facing=facing_index(rec.facing, me.facing)),
                changed(rs.book, me, rec, cause)]
        ran.append(cell)
        shots = moving.reactions(rs, fold(now, step), fold(now, step).units[civ.id], dice)
        out += step + shots
        now = fold(now, step + shots)
        if not now.units[civ.id].conscious or now.winner is not None:
            break
    rec, spots = seen.update(dice, rs.book, now, (civ.id,))
    if rec != battle_of(now) or spots:
        out.append(Noted(record=rec, cause="spot checks", rolls=tuple(spots)))
    return out, ran


def _reached(rs, state: State, unit: Unit, cmd: Act, name: str) -> Unit | Rejected:
    """The panicking civilian an aura is used on: seen by the side and within D <= 4."""
    book = rs.book
    civ = state.units.get(cmd.target or "")
    if civ is None or civ.side != missions.CIVILIANS or civ.record is None or civ.record.panic != "panicking":
        return Rejected("not_panicking", f"{name} needs a panicking civilian")
    if distance(unit.pos, civ.pos) > book.settings.inspire_reach or civ.id not in rs.spotted(state, unit.side):
        return Rejected("too_far", f"{civ.name} must be seen and within {book.settings.inspire_reach} squares")
    return civ


def _paid(rs, unit: Unit, action: str):
    c = unit.record
    return actions.do(rs.book, c.turn, action, frozenset(c.op.abilities), bool(c.condition.disoriented))


def calm(rs, state: State, unit: Unit, cmd: Act) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    paid = _paid(rs, unit, ABILITY)
    if isinstance(paid, Rejected):
        return paid
    civ = _reached(rs, state, unit, cmd, "Calming Aura")
    if isinstance(civ, Rejected):
        return civ
    text = f"{unit.name} calms {civ.name} down (4 AP): it keeps its head for the rest of the mission"
    return [Resolved(actor=unit.id, action=ABILITY, target=civ.id, rolls=(), outcome="success", text=text),
            changed(book, unit, attrs.evolve(c, turn=paid), f"calms {civ.name}"),
            changed(book, civ, attrs.evolve(civ.record, panic="calm"), "calmed")]


def direct(rs, state: State, unit: Unit, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    """Authority Aura: the civilian runs 1d4 squares now, the way the player names."""
    paid = _paid(rs, unit, DIRECT)
    if isinstance(paid, Rejected):
        return paid
    civ = _reached(rs, state, unit, cmd, "Authority Aura")
    if isinstance(civ, Rejected):
        return civ
    if cmd.option not in WAYS:
        return Rejected("no_direction", f"Authority Aura needs a direction: one of {', '.join(WAYS)}")
    far, i = dice.d(4, civ.id, "authority aura: squares run")
    rolls = (Roll(actor=civ.id, purpose="authority aura: squares run", expr="1d4", faces=(far,),
                  formula=f"1d4: {far} squares", total=far, index=i),)
    step = [changed(rs.book, unit, attrs.evolve(unit.record, turn=paid), f"directs {civ.name}")]
    return step + _run(rs, fold(state, step), civ, far, NEIGHBOURS[WAYS.index(cmd.option)], rolls, "is directed",
                       dice, actor=unit.id)


def away(rs, state: State, civ: Unit) -> str | None:
    """The direction straight away from the nearest hostile the civilian sees, if any."""
    danger = _danger(rs, state, civ)
    if not danger:
        return None
    x, y = danger[0][2]
    step = ((civ.pos[0] > x) - (civ.pos[0] < x), (civ.pos[1] > y) - (civ.pos[1] < y))
    return WAYS[NEIGHBOURS.index(step)] if step in NEIGHBOURS else None


def options(rs, state: State, unit: Unit) -> list[Option]:
    held = unit.record.op.abilities
    if ABILITY not in held and DIRECT not in held:
        return []
    seen = rs.spotted(state, unit.side)
    out = []
    for u in state.side_units(missions.CIVILIANS):
        if not (u.record is not None and u.record.panic == "panicking" and u.id in seen
                and distance(unit.pos, u.pos) <= rs.book.settings.inspire_reach):
            continue
        if ABILITY in held:
            out.append(Option("Abilities", f"Calming Aura → {u.name} (4 AP)",
                              Act(unit=unit.id, action=ABILITY, target=u.id), note="a panicking civilian keeps its head"))
        way = away(rs, state, u) if DIRECT in held else None
        if way is not None:
            out.append(Option("Abilities", f"Authority Aura → {u.name}: run {way} (2 AP)",
                              Act(unit=unit.id, action=DIRECT, target=u.id, option=way),
                              note="it runs 1d4 squares away from danger"))
    return out
