"""The turn of A-2.3 on a shared mission: deployment, each side's phase in turn (the squad first, then the aliens;
civilians take none), the start-of-phase procedure of section 22 for the side whose phase starts, the phase limit
and the mission's verdict after every command."""

from __future__ import annotations

from typing import TYPE_CHECKING


from engine.content import field, missions
from engine.core import records
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.events import Event, MissionEnded, PhaseStarted, SideStarted, UnitChanged, UnitSpawned
from engine.core.model import State
from engine.core.reducer import fold
from engine.rules.annihilation import clouds, fuses, phase, sensor
from engine.rules.annihilation.soldier import changes, enc, fighter_of, muster

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation


def start(rs: Annihilation, state: State, dice: Dice) -> Rejected | list[Event]:
    if state.phase != 0:
        return Rejected("already_started", "The mission is already under way")
    if rs.setup is None:
        return Rejected("no_mission", "This ruleset was made without a mission to start")
    members = rs.roster(rs.setup.mission_id)
    if members is None:
        return Rejected("no_forces", f"annihilation has no forces for {rs.setup.mission_id}")
    events: list[Event] = []
    for m, cell in field.placements(members, rs.setup.mission, rs.setup.spawns):
        unit, rolls = muster(rs.book, dice, rs.units[m.template], m, cell,
                             rs.hardship if m.side == missions.ALIENS else None)  # the level's aliens
        events.append(UnitSpawned(unit=unit, rolls=tuple(rolls)))
    events.append(PhaseStarted(phase=1))
    first = acting(fold(state, events))[0]
    return events + begin_side(rs, fold(state, events), first, dice)


def acting(state: State) -> list[str]:
    """The sides that take phases, in order: every side with units but the civilians (A-2.3)."""
    return [s for s in state.sides if s != missions.CIVILIANS and state.side_units(s)]


def begin_side(rs: Annihilation, state: State, side: str, dice: Dice) -> list[Event]:
    """Section 22, in its order, for each unit of the side: bleeding, death, stun, waking, energy, TUs, smoke."""
    out: list[Event] = [SideStarted(side=side)]
    out += clouds.lift(rs, state) + sensor.forget(state, side)  # the clouds whose time is up; last phase's blips
    state = fold(state, out)
    for unit in state.side_units(side):
        s = unit.record
        if s.fighter.status == "dead":
            continue
        smoky = clouds.in_smoke(state, unit.pos, unit.z)
        f, steps = phase.start(rs.book, records.evolve(s.fighter, {"facing": unit.facing}), enc(rs.book, s),
                               in_smoke=smoky)
        new = records.evolve(s, {"fighter": f, "done": False})
        change = changes(unit, new)
        text = "; ".join(f"{st.name}: {st.text}" for st in steps)
        out.append(UnitChanged(unit=unit.id, changes=change, cause=f"start of phase ({text})"))
    return out


def end_turn(rs: Annihilation, state: State, side: str, dice: Dice) -> Rejected | list[Event]:
    if side != state.side:
        return Rejected("not_your_turn", f"It is the {state.side} phase, not {side}'s")
    order = acting(state)
    following = order[(order.index(side) + 1) % len(order)] if side in order else order[0]
    out: list[Event] = []
    for unit in state.side_units(side):  # ending the phase in smoke (its stun again) or in fire
        smoky, hot = clouds.in_smoke(state, unit.pos, unit.z), clouds.burning(state, unit.pos, unit.z)
        if unit.record.fighter.status != "dead" and (smoky or hot):
            f, steps, rolls = phase.end(rs.book, dice, fighter_of(unit), in_smoke=smoky, on_fire=hot)
            out.append(UnitChanged(unit=unit.id, changes=changes(unit, records.evolve(unit.record, {"fighter": f})),
                                   cause="; ".join(st.text for st in steps), rolls=rolls))
    out += fuses.detonations(rs, fold(state, out), side, dice)  # A-17.7, after smoke (section 22's end of phase)
    if following == order[0]:
        if state.phase >= rs.setup.max_phases:
            return out + [MissionEnded(winner="draw", reason=f"phase limit {rs.setup.max_phases} reached")]
        out.append(PhaseStarted(phase=state.phase + 1))
    return out + begin_side(rs, fold(state, out), following, dice)


def verdict(rs: Annihilation, state: State, events: list[Event]) -> list[Event]:
    """The shared objectives, read from the state after the command (skipped when the events touch nothing they
    read and the state before had no verdict)."""
    return missions.ending(rs.content, rs.setup, state, events)
