"""§19 in play: bleeding counted at the bleeder's own slot (N-19.3: it dies at the end of its 10th own turn, its
turns counted even while it is incapacitated and passed over), and first aid, `Act(unit, "first_aid",
target=patient)`: a Stationary action by the patient or an adjacent ally; the third in a row by the same helper
stops the bleeding, and anything else the helper does starts the count again (`Battle.aids`)."""

from __future__ import annotations

import attrs

from engine.core import records
from engine.core.commands import Act, Command, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Noted, Resolved, UnitChanged
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.rules.neo_troops import actions, battle, care


def bleeds(rs, unit: Unit) -> list[Event]:
    """The end of a bleeding unit's own turn: one more counted, death at the last."""
    t = unit.record
    if t.bleeding is None or t.status == "dead":
        return []
    after = care.own_turn_ends(t, rs.settings)
    cause = "bleeds to death" if after.status == "dead" else f"bleeds ({after.bleeding}/{rs.settings.bleed_turns})"
    return [UnitChanged(unit=unit.id, changes=actions.frame_changes(unit, after), cause=cause)]


def interrupted(state: State, unit: Unit, command: Command) -> list[Event]:
    """N-19.3: the helper did something other than first aid: its count starts again (repairs and rest too)."""
    from engine.rules.neo_troops import mend

    b = battle.battle(state)
    if b is None:
        return []
    aiding = isinstance(command, Act) and command.action == "first_aid"
    aids = b.aids if aiding else tuple(a for a in b.aids if a.helper != unit.id)
    repairs, rests = mend.interrupted(b, unit, command)  # and its repair count and its rest (N-19.2, N-19.4)
    if aids == b.aids and repairs == b.repairs and rests == b.rests:  # asked every command: mostly nothing
        return []
    return [Noted(record=records.evolve(b, {"aids": aids, "repairs": repairs, "rests": rests}), cause="interrupted")]


def _check(rs, state: State, unit: Unit, patient: Unit | None) -> Rejected | None:
    why = actions.stationary(unit)
    if why is not None:
        return why
    if patient is None or patient.status == "dead":
        return Rejected("no_target", "Say whose bleeding to stop" if patient is None else f"{patient.name} is dead")
    adjacent = max(abs(unit.pos[0] - patient.pos[0]), abs(unit.pos[1] - patient.pos[1])) == 1
    b = battle.battle(state)
    aid = next((a for a in b.aids if a.patient == patient.id), None)
    got = care.first_aid(aid, unit.record, patient.record, adjacent, rs.settings)
    return got if isinstance(got, Rejected) else None


def give(rs, state: State, unit: Unit, target: str | None, dice: Dice) -> Rejected | list[Event]:
    patient = state.units.get(target or "")
    why = _check(rs, state, unit, patient)
    if why is not None:
        return why
    b = battle.battle(state)
    aid = next((a for a in b.aids if a.patient == patient.id), None)
    new, treated = care.first_aid(aid, unit.record, patient.record, True, rs.settings)
    aids = tuple(a for a in b.aids if a.patient != patient.id) + ((new,) if new is not None else ())
    done = new.done if new is not None else rs.settings.first_aid_actions
    text = (f"{unit.name} stops {patient.name}'s bleeding" if new is None
            else f"{unit.name} gives {patient.name} first aid ({done}/{rs.settings.first_aid_actions})")
    events: list[Event] = [
        Resolved(actor=unit.id, action="first_aid", target=patient.id, rolls=(),
                 outcome="stopped" if new is None else f"{done}/{rs.settings.first_aid_actions}", text=text),
        Noted(record=attrs.evolve(b, aids=aids), cause="first aid")]
    if treated != patient.record:
        events.append(UnitChanged(unit=patient.id, changes=actions.frame_changes(patient, treated),
                                  cause="bleeding stopped"))
    return events + battle.end_slot(rs, state, events, dice, cause="gives first aid")


def ai_aid(rs, state: State, unit: Unit) -> Act | None:
    """The AI's first aid: a bleeding ally (or itself) nobody else is already treating."""
    b = battle.battle(state)
    for option in options(rs, state, unit):
        if not any(a.patient == option.command.target and a.helper != unit.id for a in b.aids):
            return option.command
    return None


def options(rs, state: State, unit: Unit) -> list[Option]:
    b = battle.battle(state)
    out = []
    for p in sorted(state.units.values(), key=lambda u: (u.id != unit.id, u.id)):
        if p.record is None or p.record.bleeding is None or p.side != unit.side:
            continue
        if _check(rs, state, unit, p) is None:
            aid = next((a for a in b.aids if a.patient == p.id and a.helper == unit.id), None)
            s = rs.settings
            out.append(Option("Care", f"First aid: {p.name} (bleeding {p.record.bleeding}/{s.bleed_turns})",
                              Act(unit=unit.id, action="first_aid", target=p.id),
                              f"Stationary: {aid.done if aid else 0}/{s.first_aid_actions} in a row stops it"))
    return out
