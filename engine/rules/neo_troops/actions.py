"""What `decide` does with each command in the slot that is up (§8: one action per slot).

A Move action walks up to its move metres and may then fire one snap or spray attack (or open a door); walking past
the move metres, up to the run, makes it a Run, which allows no shot and ends the slot. A Stationary action (no
metres walked) loads a weapon or works on the mission's objective. Wait and EndTurn end the slot as it stands.
"""

from __future__ import annotations

import attrs

from engine.content import field, missions
from engine.core import records
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Moved, Noted, Resolved, TileChanged, UnitChanged
from engine.core.geometry import NEIGHBOURS, Pos
from engine.core.model import State, Unit, replace
from engine.core.reducer import fold
from engine.rules.neo_troops import battle, damage, ground, loadout, movement, pools, shooting
from engine.rules.neo_troops.unit import Trooper

STATUS = {"active": "active", "incapacitated": "unconscious", "dead": "dead"}
MODES = {"snap": "Snap shot", "spray": "Spray fire"}


def frame_changes(unit: Unit, t: Trooper) -> dict:
    """A trooper's record and what of it the kernel's frame mirrors and has changed."""
    mirrored = {"hp": max(0, t.hp), "status": STATUS[t.status]}
    return {"record": t, **{k: v for k, v in mirrored.items() if getattr(unit, k) != v}}


def facing(a: Pos, b: Pos) -> int:
    step = ((b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1]))
    return NEIGHBOURS.index(step) if step in NEIGHBOURS else 0


# -- moving -----------------------------------------------------------------------------------------------------


def move(rs, state: State, unit: Unit, path: tuple[Pos, ...], dice: Dice) -> Rejected | list[Event]:
    bad = _refused(rs, state, unit, path)
    if bad is not None:
        return bad
    t: Trooper = unit.record
    spent = t.spent_m
    walk, _ = movement.speeds(t, rs.settings)
    over = ground.obstacles(state.grid, rs.settings)
    jumps, path, tried = _jumps(rs, state, unit, tuple(path), over, dice)
    if tried:  # it did not get over: the metres to the obstacle are spent, the walk ends before it (N-5.3)
        stopped = records.evolve(t, {"spent_m": spent + tried, "moved": True})
        jumps.append(UnitChanged(unit=unit.id, changes={"record": stopped},
                                 cause="stops before the obstacle"))
    if not path:
        return jumps
    from engine.rules.neo_troops import interrupt

    if jumps:  # the jumps' rolls come first; the walk goes on as far as it got
        state = fold(state, jumps)
        unit = state.units[unit.id]
    metres = movement.path_m((unit.pos, *path), rs.settings, ground.rough(state.grid, rs.settings))
    asked = interrupt.questions(rs, state, unit, tuple(path), unit.record.spent_m + metres > walk)
    if asked:  # the enemies it gives a melee chance answer first (N-7.4, N-7.5)
        b = battle.battle(state)
        who = ", ".join(dict.fromkeys(state.units[q.asker].name for q in asked))
        return jumps + [
            Noted(record=attrs.evolve(b, asking=battle.Asking(mover=unit.id, path=tuple(path), questions=asked)),
                  cause="gives a melee chance"),
            UnitChanged(unit=unit.id, changes={}, cause=f"is held up: {who} may strike")]  # told as it is
    return jumps + walked(rs, state, unit, tuple(path), dice)


def _refused(rs, state: State, unit: Unit, path: tuple[Pos, ...]) -> Rejected | None:
    """Why the unit cannot walk the path in its action, or None."""
    t: Trooper = unit.record
    walk, run = movement.speeds(t, rs.settings)
    if t.attacked:
        return Rejected("acted", f"{unit.name} has fired: the action is over")
    if t.ran:
        return Rejected("ran", f"{unit.name} has run this action")
    if not path:
        return Rejected("no_path", "Say where to walk")
    here = unit.pos
    over = ground.obstacles(state.grid, rs.settings)
    living: dict[Pos, list[Unit]] = {}  # state.units_at for every cell of the path, from one pass over the units
    for u in state.units.values():
        if u.status != "dead":
            living.setdefault(u.pos, []).append(u)
    for cell in path:
        if max(abs(cell[0] - here[0]), abs(cell[1] - here[1])) != 1 or not state.grid.inside(cell) \
                or not (state.grid.walkable[cell[1], cell[0]] or (cell in over and cell != path[-1])):
            return Rejected("blocked", f"{cell[0]},{cell[1]} cannot be entered")
        there = living.get(cell, ())
        if there and (cell == path[-1] or any(u.side != unit.side for u in there)):  # friends let it through
            return Rejected("blocked", f"Someone stands at {cell[0]},{cell[1]}")
        here = cell
    metres = movement.path_m((unit.pos, *path), rs.settings, ground.rough(state.grid, rs.settings))
    if t.spent_m + metres > run:
        return Rejected("too_far", f"{t.spent_m + metres} m is past {unit.name}'s run of {run} m (move {walk} m)")
    return None


def ahead(rs, state: State, unit: Unit, path: tuple[Pos, ...]) -> State | Rejected:
    """The state `move` leaves when nothing happens on the way (every obstacle got over, no free attack, no covering
    fire): what the AI plans its attack from."""
    bad = _refused(rs, state, unit, path)
    if bad is not None:
        return bad
    metres = movement.path_m((unit.pos, *path), rs.settings, ground.rough(state.grid, rs.settings))
    ran = unit.record.spent_m + metres > movement.speeds(unit.record, rs.settings)[0]
    done = _walked_record(unit.record, unit.record.spent_m, metres, ran)
    return fold(state, [Moved(unit=unit.id, path=tuple(path), facing=facing(path[-2] if len(path) > 1 else unit.pos,
                                                                           path[-1])),
                        UnitChanged(unit=unit.id, changes={"record": done}, cause="runs" if ran else "moves")])


def _walked_record(record: Trooper, spent: int, metres: int, ran: bool) -> Trooper:
    """The walk's bookkeeping on the record (the mover's as the attacks on the way left it)."""
    return records.evolve(record, {"spent_m": spent + metres, "ran": record.ran or ran, "moved": record.moved or not ran})


def _jumps(rs, state: State, unit: Unit, path: tuple[Pos, ...], over: dict[Pos, bool],
           dice: Dice) -> tuple[list[Event], tuple[Pos, ...], int]:
    """N-5.3, N-6.3: an agility test at each obstacle on the way (Hard on a hard one); a failure ends the walk in the
    cell before it. (the test's event, the path walked, the metres spent up to a failed obstacle)."""
    events: list[Event] = []
    for i, cell in enumerate(path):
        if cell not in over:
            continue
        test = movement.agility(dice, unit.record, rs.tables, over[cell])
        what = rs.content.terrain[state.grid.tile(cell)].name.lower()
        ok = "gets over" if test.success else "fails to get over"
        events.append(Resolved(actor=unit.id, action="jump", cell=cell, rolls=(test.roll,),
                               outcome="over" if test.success else "stopped",
                               text=f"{unit.name} {ok} the {what} at {cell[0]},{cell[1]}"))
        if not test.success:
            tried = movement.path_m((unit.pos, *path[:i + 1]), rs.settings, ground.rough(state.grid, rs.settings))
            return events, path[:i], tried - movement.path_m((unit.pos, *path[:i]), rs.settings,
                                                              ground.rough(state.grid, rs.settings))
    return events, path, 0


def walked(rs, state: State, unit: Unit, path: tuple[Pos, ...], dice: Dice,
           strikes: tuple[tuple[int, str], ...] = ()) -> list[Event]:
    """The walk itself: the free attacks of the enemies it runs past (`strikes`: the walk's cell index and the
    striker, N-7.5), then the covering fire on the way (§11); a unit brought down stops where it fell."""
    from engine.rules.neo_troops import cover, fight

    walk, _ = movement.speeds(unit.record, rs.settings)
    spent = unit.record.spent_m
    rough = ground.rough(state.grid, rs.settings)
    full = (unit.pos, *path)
    metres = movement.path_m(full, rs.settings, rough)
    ran = spent + metres > walk
    frame, struck, down = unit, [], None
    for at, striker in sorted(strikes):
        found = fight.blow(rs, state, state.units[striker], replace(frame, {"pos": full[at]}))
        if isinstance(found, Rejected):
            continue
        events, _ = fight.strike(rs, found, dice, "free attack", full[at])
        struck += events
        for e in events:
            if isinstance(e, UnitChanged) and e.unit == unit.id:
                frame = replace(frame, e.changes)
        if not frame.record.can_act:
            down = at
            break
    if down is not None:
        path = path[:down]
    fired, fell = cover.crossed(rs, state, frame, (unit.pos, *path), ran, dice)  # covering fire on the way
    if fell is not None:
        path = path[:fell]
        down = fell
    if len(path) < len(full) - 1:  # cut short where it went down
        metres = movement.path_m((unit.pos, *path), rs.settings, rough)
    # the walk's bookkeeping goes on the record as the attacks on the way left it
    hit = next((e.changes["record"] for e in reversed(fired) if isinstance(e, UnitChanged) and "record" in e.changes),
               frame.record)
    done = _walked_record(hit, spent, metres, ran)
    moved: list[Event] = [Moved(unit=unit.id, path=path, facing=facing(path[-2] if len(path) > 1 else unit.pos,
                                                                       path[-1]))] if path else []
    events: list[Event] = [
        *moved, *struck, *fired,
        UnitChanged(unit=unit.id, changes={"record": done},
                    cause=f"runs {spent + metres} m" if ran else f"moves {spent + metres} m")]
    if down is None and (not ran or rs.settings.run_melee and _may_strike(rs, fold(state, events), unit.id)):
        return events  # a Move goes on to its attack; a Run ending next to an enemy may end in a melee (N-8.1)
    return events + battle.end_slot(rs, state, events, dice)


def _may_strike(rs, state: State, uid: str) -> bool:
    from engine.rules.neo_troops import fight

    return bool(fight.targets(rs, state, state.units[uid]))


# -- shooting ---------------------------------------------------------------------------------------------------


@attrs.frozen
class Aim:
    """A shot that may be fired: everything its dice read."""

    shooter: Unit
    target: Unit
    weapon_id: str
    base: int
    mods: pools.Mods
    av: int
    cells: int
    second: str = ""  # the other weapon of two in hand that spray together (§12)


def aim(rs, state: State, shooter_id: str, target_id: str, mode: str) -> Aim | Rejected:
    """Whether `shooter` may fire `mode` at `target` now, and the pool it would throw (N-9.2, §10)."""
    a, b = state.units.get(shooter_id), state.units.get(target_id)
    if a is None or b is None:
        return Rejected("no_target", "No such unit")
    if b.side == a.side:
        return Rejected("own_side", f"{b.name} is on {a.name}'s side")
    if b.status == "dead":
        return Rejected("no_target", f"{b.name} is dead")
    if mode not in MODES:
        return Rejected("no_mode", f"neo-troops fires a snap shot or spray fire, not {mode!r}")
    if a.record.ran:
        return Rejected("ran", "A Run allows no shot (N-8.1)")
    if not battle.spots(state, a.side, b.id) or not state.grid.sees(a.pos, b.pos, battle.SIGHT):
        return Rejected("no_line_of_sight", f"{a.name} does not see {b.name}")
    t: Trooper = a.record
    if not t.held:
        return Rejected("unarmed", f"{a.name} holds no weapon")
    wid = t.held[0]
    w = rs.weapons[wid]
    if w.melee:
        return Rejected("not_a_gun", f"The {w.name} is a melee weapon")
    if mode == "spray" and w.snap_only:
        return Rejected("snap_only", f"The {w.name} cannot spray")
    shots = 1 if mode == "snap" else w.rof
    why = loadout.ready(t, wid, rs.weapons, shots)
    if why is not None:
        return why
    from engine.rules.neo_troops import arms

    both = arms.pair(rs, t) if mode == "spray" else None
    second = t.held[1] if both is not None and loadout.ready(t, t.held[1], rs.weapons, both[1].rof) is None else ""
    target = ground.target_of(state.grid, a.pos, b.record, b.pos, rs.tables, stationary=battle.stationary(b),
                              surprised=False)
    still = t.spent_m == 0
    extra = shooting.weapon_mods(t, wid, rs.weapons, rs.settings)
    base = 1 if mode == "snap" else w.rof
    lead: pools.Mods = (("base", base),)
    if second:  # N-12.2: B = ROF_hi + ROF_lo, n = ROF_hi + extra + ...
        base, extra_dice, _ = shooting.two_weapons(w, rs.weapons[second])
        lead = (("base", max(w.rof, rs.weapons[second].rof)),) + ((("two weapons", extra_dice),) if extra_dice else ())
    mods = lead + shooting.shot_mods(t, w, [target], still, extra)
    return Aim(a, b, wid, base, mods, target.av, target.cells, second)


def shoot(rs, state: State, unit: Unit, target_id: str, mode: str, dice: Dice) -> Rejected | list[Event]:
    found = aim(rs, state, unit.id, target_id, mode)
    if isinstance(found, Rejected):
        return found
    t: Trooper = unit.record
    w = rs.weapons[found.weapon_id]
    attack = pools.attack(dice, unit.id, mode, found.base, found.mods, found.av)
    before = found.target.record
    after, hits = damage.apply(dice, {before.id: attack.hits * w.hits}, {before.id: before}, w.save_mod, rs.tables)
    hit_rolls = tuple(r for h in hits for r in h.rolls)
    struck = after[before.id]
    unsaved = sum(not h.saved and not h.harmless for h in hits)
    said = "; ".join(e for h in hits for e in h.effects)
    outcome = "miss" if not attack.hits else ("saved" if not unsaved else struck.status if struck.status != "active"
                                                else "wounded")
    arms = w.name + (f" + {rs.weapons[found.second].name}" if found.second else "")
    text = (f"{unit.name} fires {MODES[mode].lower()} ({arms}) at {found.target.name}: "
            f"{pools.hits_word(attack.hits * w.hits)}, {unsaved} unsaved" + (f" ({said})" if said else ""))
    spent = loadout.spend(t, found.weapon_id, 1 if mode == "snap" else w.rof)
    if found.second:  # ammunition at the full rate of both (N-12.1)
        spent = loadout.spend(spent, found.second, rs.weapons[found.second].rof)
    events: list[Event] = [
        Resolved(actor=unit.id, action="shoot", target=found.target.id, weapon=found.weapon_id, mode=mode,
                 rolls=(attack.roll, *hit_rolls), outcome=outcome, text=text),
        UnitChanged(unit=unit.id, changes=frame_changes(unit, records.evolve(spent, {"attacked": True})),
                    cause="fires")]
    if struck != before:
        events.append(UnitChanged(unit=struck.id, changes=frame_changes(found.target, struck), cause="hit"))
    return events + battle.end_slot(rs, state, events, dice)


# -- Stationary actions and the rest -----------------------------------------------------------------------------


def stationary(unit: Unit) -> Rejected | None:
    if unit.record.spent_m or unit.record.attacked:
        return Rejected("not_stationary", f"{unit.name} has moved or fired: that needs a Stationary action (N-8.1)")
    return None


def reload(rs, state: State, unit: Unit, dice: Dice) -> Rejected | list[Event]:
    why = stationary(unit)
    if why is not None:
        return why
    t: Trooper = unit.record
    if not t.held:
        return Rejected("unarmed", f"{unit.name} holds no weapon")
    w = rs.weapons[t.held[0]]
    if not w.melee and loadout.shots_left(t, t.held[0]) >= w.shots:
        return Rejected("full", f"The {w.name} is full ({w.shots}/{w.shots})")
    loaded = loadout.load(t, t.held[0], rs.weapons)
    if isinstance(loaded, Rejected):
        return loaded
    events: list[Event] = [
        Resolved(actor=unit.id, action="reload", weapon=t.held[0], rolls=(), outcome="loaded",
                 text=f"{unit.name} loads the {w.name} ({w.shots} shots)"),
        UnitChanged(unit=unit.id, changes=frame_changes(unit, loaded), cause="loads")]
    return events + battle.end_slot(rs, state, events, dice)


def act(rs, state: State, unit: Unit, action: str, cell: Pos | None, dice: Dice) -> Rejected | list[Event]:
    """Doors (the action's one use besides its movement) and the mission's power source (a Stationary action: a
    1-die test + Perception against Normal)."""
    if action not in ("open", "close", "shut_down"):
        return Rejected("unknown_action", f"neo-troops has no action {action!r}")
    if cell is None or not state.grid.inside(cell):
        return Rejected("no_cell", f"Say which cell to {action.replace('_', ' ')}")
    if max(abs(cell[0] - unit.pos[0]), abs(cell[1] - unit.pos[1])) > 1:
        return Rejected("out_of_reach", f"{unit.name} must stand in or next to {cell[0]},{cell[1]}")
    if unit.record.attacked or unit.record.ran:
        return Rejected("acted", f"{unit.name}'s action allows nothing more")
    if action == "shut_down":
        return _shut_down(rs, state, unit, cell, dice)
    try:
        tile = field.door(rs.content, state, cell, action)
    except ValueError as why:
        return Rejected("doorway_blocked" if "doorway" in str(why) else "not_a_door", str(why))
    name = rs.content.terrain[state.grid.tile(cell)].name.lower()
    events: list[Event] = [TileChanged(pos=cell, tile=tile),
                           UnitChanged(unit=unit.id, changes={"record": attrs.evolve(unit.record, moved=True)},
                                       cause=f"{action}s the {name}")]
    return events + battle.end_slot(rs, state, events, dice)


def _shut_down(rs, state: State, unit: Unit, cell: Pos, dice: Dice) -> Rejected | list[Event]:
    why = stationary(unit)
    if why is not None:
        return why
    goal = next((o for o in missions.objectives(rs.setup.mission).values()
                 if o.kind == "shut_down" and cell in rs.setup.spawns.get(o.zone, ())), None)
    if goal is None:
        return Rejected("nothing_to_shut_down", f"{cell[0]},{cell[1]} is not this mission's objective")
    if state.grid.tile(cell) == goal.done_tile:
        return Rejected("already_done", "It is already shut down")
    if unit.side != missions.PLAYER:
        return Rejected("not_yours", "Only the squad has reason to shut it down")
    t: Trooper = unit.record
    name = rs.content.terrain[state.grid.tile(cell)].name.lower()  # the tile's own words: a power source, a terminal
    mods = (("base", 1),) + ((("perception", t.perception_now),) if t.perception_now else ())
    test = pools.check(dice, unit.id, "shut down", mods, pools.difficulty(rs.tables, rs.settings.agility))
    events: list[Event] = [
        Resolved(actor=unit.id, action="shut_down", cell=cell, rolls=(test.roll,),
                 outcome="success" if test.success else "failure",
                 text=f"{unit.name} {'shuts down' if test.success else 'fails to shut down'} the {name}"),
        *([TileChanged(pos=cell, tile=goal.done_tile)] if test.success else [])]
    return events + battle.end_slot(rs, state, events, dice)
