"""§11 in play: covering (sustained) fire as a Stationary action, `Act(unit, "cover", cell=aim)`. The volley is
rolled at once against the spotted enemies in the 3 × 3 area; the area then stays live on `State.record` until the
firer's next slot starts (or it is out of action), and every enemy that enters it, or ends an action inside it,
draws its dice (N-11.3, N-11.4)."""

from __future__ import annotations

import attrs

from engine.content import missions
from engine.core import records
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Noted, Resolved, UnitChanged
from engine.core.geometry import Pos
from engine.core.model import State, Unit, replace
from engine.rules.neo_troops import actions, battle, damage, ground, loadout, pools, shooting


def area(rs, c: battle.Covering) -> shooting.Area:
    return shooting.Area(firer=c.firer, side=c.side, cells=shooting.area_cells(c.aim, rs.settings.area_radius),
                         weapon=c.weapon, firer_pos=c.firer_pos)


def aimed(rs, state: State, unit: Unit, cell: Pos) -> tuple[str, list[Unit], list[shooting.Target]] | Rejected:
    """Whether `unit` may lay covering fire round `cell` now: (weapon id, the spotted enemies in the area it sees,
    nearest the aim first, and them as targets)."""
    why = actions.stationary(unit)
    if why is not None:
        return why
    t = unit.record
    if not t.held:
        return Rejected("unarmed", f"{unit.name} holds no weapon")
    wid = t.held[0]
    w = rs.weapons[wid]
    if w.snap_only or w.melee:
        return Rejected("snap_only", f"The {w.name} cannot give covering fire")
    if not state.grid.inside(cell) or not state.grid.sees(unit.pos, cell, battle.SIGHT):
        return Rejected("not_in_sight", f"{unit.name} aims covering fire at a cell in sight")
    not_ready = loadout.ready(t, wid, rs.weapons, w.rof)
    if not_ready is not None:
        return not_ready
    cells = shooting.area_cells(cell, rs.settings.area_radius)
    seen = rs.spotted(state, unit.side)
    inside = sorted((u for u in state.units.values() if u.id in seen and u.conscious and u.pos in cells
                     and missions.hostile(unit.side, u.side) and state.grid.sees(unit.pos, u.pos, battle.SIGHT)),
                    key=lambda u: (shooting.range_cells(u.pos, cell), u.id))
    targets = [ground.target_of(state.grid, unit.pos, u.record, u.pos, rs.tables, stationary=battle.stationary(u))
               for u in inside]
    return wid, inside, targets


def cover(rs, state: State, unit: Unit, cell: Pos, dice: Dice) -> Rejected | list[Event]:
    found = aimed(rs, state, unit, cell)
    if isinstance(found, Rejected):
        return found
    wid, inside, targets = found
    t = unit.record
    w = rs.weapons[wid]
    fired = shooting.sustained(dice, t, w, cell, unit.pos, targets, True, rs.settings,
                               shooting.weapon_mods(t, wid, rs.weapons, rs.settings))
    if isinstance(fired, Rejected):
        return fired
    fire, _ = fired
    before = {u.id: u.record for u in inside}
    after, hits = damage.apply(dice, {k: v for k, v in fire.hits.items() if v}, before, w.save_mod, rs.tables)
    b = battle.battle(state)
    live = battle.Covering(firer=unit.id, side=unit.side, aim=cell, weapon=wid, firer_pos=unit.pos)
    events: list[Event] = [
        Resolved(actor=unit.id, action="cover", cell=cell, weapon=wid, mode="sustained",
                 rolls=(fire.roll, *(r for h in hits for r in h.rolls)),
                 outcome=f"{sum(fire.hits.values())} hits",
                 text=f"{unit.name} lays covering fire round {cell[0]},{cell[1]} ({w.name}): "
                      f"{pools.hits_word(sum(fire.hits.values()))}"),
        UnitChanged(unit=unit.id, changes=actions.frame_changes(unit, records.evolve(loadout.spend(t, wid, w.rof),
                                                                                      {"attacked": True})),
                    cause="covering fire"),
        *[UnitChanged(unit=k, changes=actions.frame_changes(state.units[k], v), cause="hit")
          for k, v in after.items() if v != before[k]],
        Noted(record=attrs.evolve(b, areas=b.areas + (live,)), cause="covering fire")]
    return events + battle.end_slot(rs, state, events, dice)


def crossed(rs, state: State, unit: Unit, full: tuple[Pos, ...], ran: bool,
            dice: Dice) -> tuple[list[Event], int | None]:
    """The attacks the enemy areas make on `unit` walking `full` (its start first; one cell for an action without
    movement), in path order; and the index of the cell where it went down, if it did (its walk stops there)."""
    b = battle.battle(state)
    if b is None or not b.areas:
        return [], None
    found = []
    for c in b.areas:
        firer = state.units.get(c.firer)
        if firer is None or not shooting.area_live(area(rs, c), firer.record):
            continue
        for i, k in shooting.crossings(area(rs, c), unit.side, full, ran, rs.settings):
            found.append((i, c.firer, k, c))
    events: list[Event] = []
    t, frame = unit.record, unit
    for i, _, k, c in sorted(found):
        target = ground.target_of(state.grid, c.firer_pos, t, full[i], rs.tables, stationary=False)
        a = area(rs, c)
        attack = shooting.follow_up(dice, a, target, k)
        w = rs.weapons[c.weapon]
        got, hits = damage.apply(dice, {t.id: attack.hits * w.hits}, {t.id: t}, w.save_mod, rs.tables)
        events.append(Resolved(actor=c.firer, action="covering fire", target=unit.id, cell=full[i], weapon=c.weapon,
                               rolls=(attack.roll, *(r for h in hits for r in h.rolls)),
                               outcome=pools.hits_word(attack.hits),
                               text=f"{state.units[c.firer].name}'s covering fire on {unit.name} at "
                                    f"{full[i][0]},{full[i][1]}: {pools.hits_word(attack.hits * w.hits)}"))
        if got[t.id] != t:
            changes = actions.frame_changes(frame, got[t.id])
            events.append(UnitChanged(unit=unit.id, changes=changes, cause="covering fire"))
            t, frame = got[t.id], replace(frame, changes)
        if not t.can_act:
            return events, i
    return events, None
