"""xcom-trpg's mission flow (4.1, 6.5): the start, each side's turn beginning (fresh actions, coming round, the
turn-start rules of hooks.TURN_START, panic checks), the end of a turn and of a phase, and the checks after every
command (hooks.AFTER, then field.after)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.core.commands import EndTurn, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, MissionEnded, Moved, PhaseStarted, Resolved, SideStarted
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.map.grid import NEIGHBOURS
from engine.rules.xcom_trpg import episode, field, hooks
from engine.rules.xcom_trpg.checks import plain_roll
from engine.rules.xcom_trpg.damage import Ledger
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg


def start(rs: XcomTrpg, state: State, dice: Dice) -> Rejected | list[Event]:
    if state.phase != 0:
        return Rejected("already_started", "The mission is already under way")
    if rs.setup is None:
        return Rejected("no_mission", "This ruleset was made without a mission to start")
    events = field.deploy(rs, dice)
    events.append(PhaseStarted(phase=1))
    started = fold(state, events)
    return events + rs._begin_side(started, state.sides[0], dice)


TURN_CLEARED = {"moved": False, "combo": False, "concussed": False, "compelled_hold": False, "bound": ()}


def begin_side(rs: XcomTrpg, state: State, side: str, dice: Dice, ledger: Ledger | None = None) -> list[Event]:
    """Fresh actions; 1 after concussion (8.5); panic checks below 40 morale (6.5).

    `ledger` carries changes made earlier in the same decision, so nothing is folded twice.
    """
    ledger = ledger or Ledger(state.units)
    events: list[Event] = [SideStarted(side=side)]
    side_ids = [u.id for u in state.side_units(side)]
    for uid in side_ids:
        status, hp = ledger.get(uid, "status"), ledger.get(uid, "hp")
        if status == "unconscious" and 0 < hp and ledger.get(uid, "concussion") <= hp \
                and not ledger.get(uid, "tranq_asleep"):  # a dart's sleep ends by itself
            ledger.set(uid, "comes round", status="active")
        if ledger.get(uid, "status") != "active":
            continue
        actions = 1 if ledger.get(uid, "concussed") else rs.rules.actions_per_turn
        idle = hooks.turn_start_idle(ledger.get(uid, "record"))  # asked before: a new turn clears nothing it reads
        ledger.set(uid, "new turn", actions=actions, **TURN_CLEARED)
        if idle:
            continue  # no turn-start rule has work on this record (most units, most turns)
        for hook in hooks.TURN_START:
            events += ledger.take() + hook(rs, ledger, uid, dice)
    events += ledger.take()
    panicky = [uid for uid in side_ids if ledger.get(uid, "status") == "active"
               and ledger.get(uid, "morale") < rs.rules.panic_below]
    if panicky:
        current = attrs.evolve(state, units=ledger.units)
        for uid in panicky:
            panic = rs._panic(current, current.units[uid], dice)
            events += panic
            current = fold(current, panic)
    return events


def panic(rs: XcomTrpg, state: State, unit: Unit, dice: Dice) -> list[Event]:
    """6.5: 1d100 > morale panics; morale 0 always does. A panicking unit loses its turn."""
    rolls = []
    if soldier(unit).morale > 0:
        check = plain_roll(dice, unit.id, "panic check", 100, "panic")
        rolls.append(check)
        dice.note(check, f"morale {soldier(unit).morale} is below {rs.rules.panic_below}: rulesets.toml "
                         "[xcom-trpg].panic_below (6.5); more than the morale panics")
        if check.total <= soldier(unit).morale:
            return [Resolved(actor=unit.id, action="panic", rolls=(check,), outcome="steady",
                             text=f"{unit.name} keeps calm ({check.total} <= morale {soldier(unit).morale})")]
    what = plain_roll(dice, unit.id, "meaningless action", 100, "panic act")
    rolls.append(what)
    dice.note(what, "1-50: a step in the 1d8 direction, 51-100: nothing (docs/rules-notes.md)")
    events: list[Event] = []
    text = f"{unit.name} panics"
    if what.total <= 50:
        way = plain_roll(dice, unit.id, "panic direction", 8, "direction")
        rolls.append(way)
        dx, dy = NEIGHBOURS[way.total - 1]
        cell = (unit.pos[0] + dx, unit.pos[1] + dy)
        if rs._enterable(state, unit, cell):
            events.append(Moved(unit=unit.id, path=(cell,), facing=way.total - 1))
            text += " and runs around screaming"
        else:
            text += " and freezes against an obstacle"
    else:
        text += " and stares into nothing"
    ledger = Ledger(state.units)
    ledger.set(unit.id, "panic", actions=0)
    return [Resolved(actor=unit.id, action="panic", rolls=tuple(rolls), outcome="panic", text=text),
            *events, *ledger.events]


def end_turn(rs: XcomTrpg, state: State, cmd: EndTurn, dice: Dice) -> Rejected | list[Event]:
    if cmd.side != state.side:
        return Rejected("not_your_turn", f"It is the {state.side} turn, not the {cmd.side} turn")
    ledger = Ledger(state.units)
    for unit in state.side_units(state.side):
        if soldier(unit).actions:
            ledger.set(unit.id, "turn ended", actions=0)
    i = state.sides.index(state.side)
    if i + 1 < len(state.sides):
        return ledger.take() + rs._begin_side(state, state.sides[i + 1], dice, ledger)
    races = xcom(rs.content).races
    for unit in state.units.values():
        gain = races[unit.race].morale_per_phase
        if gain and ledger.get(unit.id, "status") == "active":
            ledger.morale(unit.id, gain, f"{races[unit.race].name} vigour at phase end")
    events: list[Event] = ledger.take()
    for hook in hooks.PHASE_END:
        events += hook(rs, ledger, dice) + ledger.take()
    ending = episode.over(rs, state)  # 4.8: the extra turns after the main objectives ran out
    if ending is not None:
        return events + [ending]
    limit = rs.setup.max_phases if rs.setup else 0
    if limit and state.phase >= limit:
        return events + [MissionEnded(winner="draw", reason=f"phase limit {limit} reached")]
    events.append(PhaseStarted(phase=state.phase + 1))
    return events + rs._begin_side(state, state.sides[0], dice, ledger)


def check_end(rs: XcomTrpg, state: State, events: list[Event], dice: Dice) -> list[Event]:
    """After every command: the rules that watch for it (hooks.AFTER), then smoke, the risen dead and
    the mission's objectives (field.after)."""
    extra: list[Event] = []
    for hook in hooks.AFTER:
        extra += hook(rs, state, events + extra if extra else events, dice)
    return extra + field.after(rs, state, events + extra if extra else events)
