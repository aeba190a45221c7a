"""The mission's flow under xxxzone: deployment from forces.toml, side turns (the squad, then the aliens;
civilians take none), each entity's AP at the start of its turn (wounds and stuns allowing, a continuing action
paid first), the end-of-turn statuses (poison, fire, the Dying countdown), and the phase limit."""

from __future__ import annotations

import attrs

from engine.content import field, missions
from engine.core import records
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.events import Event, MissionEnded, Noted, PhaseStarted, SideStarted, UnitSpawned
from engine.core.geometry import NEIGHBOURS
from engine.core.model import State
from engine.core.reducer import fold
from engine.rules.xxxzone import actions, battle, forces, kit, panic, pins, seen, smoke, status, strangers, units
from engine.rules.xxxzone.units import changed, unit_of


def start(rs, state: State, dice: Dice) -> Rejected | list[Event]:
    members = rs.roster(rs.setup.mission_id)
    if members is None:
        return Rejected("no_forces", f"xxxzone has no forces for the mission {rs.setup.mission_id!r} (forces.toml)")
    book = rs.book
    events: list[Event] = []
    level = rs.level(rs.setup.mission_id)
    placed = [(m, cell, forces.toughened(forces.operative(book, m.template, m.uid, m.name),
                                         level if m.side == missions.ALIENS else None))
              for m, cell in field.placements(members, rs.setup.mission, rs.setup.spawns)]
    inspired = {m.side for m, _, op in placed if "inspire_allies" in op.abilities}
    for m, cell, op in placed:
        c = battle.deploy(book, op, m.side, cell)
        c = attrs.evolve(c, facing=NEIGHBOURS[field.FACING.get(m.side, 0)], inspirable=m.side in inspired)
        t = book.roster[m.template]
        kept = book.characters[t.character].minor_wounds if t.character else 0
        if kept:  # a campaign operative's unhealed Minor wounds, penalty and all (8.2)
            c = attrs.evolve(c, condition=attrs.evolve(c.condition, wounds=attrs.evolve(c.condition.wounds,
                                                                                        minor=kept)))
        race = "Human" if t.character or book.enemies[t.enemy].human else book.enemies[t.enemy].name
        events.append(UnitSpawned(unit=unit_of(book, c, m.template, m.glyph, race)))
    events += strangers.arrivals(book, fold(state, events), dice)
    events.append(PhaseStarted(phase=1))
    return events + begin_side(rs, fold(state, events), missions.PLAYER, dice)


def begin_side(rs, state: State, side: str, dice: Dice) -> list[Event]:
    book = rs.book
    out: list[Event] = [SideStarted(side=side)]
    finished = []
    for u in state.side_units(side):
        c = u.record
        if c is None or c.condition.dead:
            continue
        cond, ap = status.start_turn(status.new_round(c.condition), battle.max_ap(book, c))
        turn, done = actions.start(battle.max_ap(book, c), ap, c.turn.continuing)
        c = records.evolve(c, {"condition": cond, "turn": turn, "hunkered": False, "watch": None, "chi_breath": False,
                               "conspicuous": bool(cond.on_fire)})
        out.append(changed(book, u, c, "turn starts" + (f" ({ap} AP)" if ap != turn.maximum else "")))
        if done is not None:
            finished.append((u.id, done))
    if side == missions.PLAYER and book.settings.panic_reacts:  # a civilian's run was conspicuous for one turn
        out += [changed(book, u, attrs.evolve(u.record, conspicuous=False), "no longer conspicuous")
                for u in state.side_units(missions.CIVILIANS) if u.record is not None and u.record.conspicuous
                and not u.record.condition.on_fire]
    now = fold(state, out)
    for uid, done in finished:  # a continuing action paid in full now does what it was for
        step = kit.complete(rs, now, now.units[uid], now.units[uid].record, done, dice)
        out += step
        now = fold(now, step)
    return out + sightings(rs, now, dice, (), starting=side)


def sightings(rs, state: State, dice: Dice, acted, starting: str = "") -> list[Event]:
    rec, rolls = seen.update(dice, rs.book, state, acted, starting)
    if rec == units.battle(state) and not rolls:
        return []
    return [Noted(record=rec, cause="spot checks", rolls=tuple(rolls))]


def end_turn(rs, state: State, side: str, dice: Dice) -> Rejected | list[Event]:
    if side != state.side:
        return Rejected("not_your_turn", f"It is the {state.side} turn")
    book = rs.book
    out: list[Event] = []
    # civilians take no turn: their statuses (the Dying countdown, fire) run at the end of the squad's (Interpretation)
    ending = state.side_units(side) + (state.side_units(missions.CIVILIANS) if side == missions.PLAYER else [])
    for u in ending:
        c = u.record
        if c is None or c.condition.dead:
            continue
        got = status.end_turn(dice, book, battle.vitals(book, c), c.condition)
        after = records.evolve(c, {"condition": got.condition, "turn": actions.end(c.turn)})
        if after != c:
            out.append(changed(book, u, after, "; ".join(got.notes) or "turn ends", got.rolls))
    out += pins.explode(rs, fold(state, out), side, dice)  # a pin pulled and the grenade still in hand
    out += smoke.thinned(fold(state, out), side)
    if side == missions.PLAYER:
        out += panic.run(rs, fold(state, out), dice)
    acting = [s for s in state.sides if s != missions.CIVILIANS and state.side_units(s)]
    following = acting[(acting.index(side) + 1) % len(acting)] if side in acting else acting[0]
    now = fold(state, out)
    if following == acting[0]:
        if state.phase >= rs.setup.max_phases:
            return out + [MissionEnded(winner="draw", reason=f"phase limit {rs.setup.max_phases} reached")]
        step = [PhaseStarted(phase=state.phase + 1)]
        out += step
        now = fold(now, step)
    return out + begin_side(rs, now, following, dice)
