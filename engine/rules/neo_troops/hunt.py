"""Section 4 and N-3.3 in play: looking for the cloaked, and shooting where one is thought to be.

`Act(unit, "search")` is a Stationary action (N-8.1): a perception test, with Search's very hard TN 6 for a still
target (N-4.3), against every cloaked enemy in the searcher's sight it has not noticed; a notice lasts until the
searcher's next action ends. `Act(unit, "fire_at", cell=c, option="snap" | "spray")` is the attack of a Move action
at a cell in sight where no unit the side has spotted stands: AV 6 (N-3.3, cover and AV replaced). The shooter's
side knows nothing of the target, so the pool has no "still" die and no dodge; the shot's event tells the dice and
the cell only, and whatever it hits is told by the victim's own event, which the shooter's side sees only if it
sees the victim.
"""

from __future__ import annotations

import attrs
import numpy as np

from engine.content import missions
from engine.core.commands import Act, Move, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, UnitChanged
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core.ruleset import CellShot, Clues, Hunt, Mode, Option, Row, ShotPreview
from engine.rules.neo_troops import actions, battle, damage, loadout, odds, panel, pools, senses, shooting
from engine.rules.neo_troops.movement import range_cells
from engine.rules.neo_troops.unit import Trooper


def search(rs, state: State, unit: Unit, dice: Dice) -> Rejected | list[Event]:
    why = actions.stationary(unit)
    if why is not None:
        return why
    b = battle.battle(state)
    aw, rolls, found = b.awareness, [], []
    for u in sorted(state.units.values(), key=lambda u: u.id):
        if u.side == unit.side or u.side not in battle.SIDES or not u.conscious or not u.record.cloaked:
            continue
        if aw.seen_by(unit.id, u.id) or not state.grid.sees(unit.pos, u.pos, battle.SIGHT):
            continue
        seen = senses.spot(dice, unit.record, u.record, battle.latest(u), u.pos, rs.tables, searching=True)
        if seen.roll is not None:
            rolls.append(seen.roll)
        if seen.noticed:
            found.append(u.id)
    names = ", ".join(state.units[f].name for f in found)
    text = f"{unit.name} searches: " + (f"notices {names}" if found else "notices nothing")
    events: list[Event] = [
        Resolved(actor=unit.id, action="search", rolls=tuple(rolls), outcome=f"{len(found)} noticed", text=text)]
    return events + battle.end_slot(rs, state, events, dice, cause="searches",
                                    found=tuple((unit.id, f) for f in found))


def aim_at(rs, state: State, unit: Unit, cell: Pos | None, mode: str | None) -> tuple | Rejected:
    """Whether `unit` may fire `mode` at `cell` now: (weapon id, base, mods, AV, victim or None)."""
    t: Trooper = unit.record
    mode = mode or "snap"
    if cell is None or not state.grid.inside(cell):
        return Rejected("no_cell", "Say which cell to fire at")
    if mode not in actions.MODES:
        return Rejected("no_mode", f"neo-troops fires a snap shot or spray fire, not {mode!r}")
    if t.ran or t.attacked:
        return Rejected("acted", f"{unit.name}'s action allows no more shooting")
    if tuple(cell) == tuple(unit.pos) or not state.grid.walkable[cell[1], cell[0]]:
        return Rejected("nobody_there", f"Nobody could stand at {cell[0]},{cell[1]}")
    if not state.grid.sees(unit.pos, cell, battle.SIGHT):
        return Rejected("not_in_sight", f"{unit.name} does not see {cell[0]},{cell[1]}")
    seen = rs.spotted(state, unit.side)
    there = [u for u in state.units_at(cell) if u.status != "dead"]
    for u in there:
        if u.side == unit.side:
            return Rejected("own_side", f"{u.name} stands there")
        if u.id in seen:
            return Rejected("seen_there", f"{u.name} stands there in sight: aim at it")
    if not t.held or rs.weapons[t.held[0]].melee:
        return Rejected("unarmed", f"{unit.name} holds no gun")
    wid = t.held[0]
    w = rs.weapons[wid]
    if mode == "spray" and w.snap_only:
        return Rejected("snap_only", f"The {w.name} cannot spray")
    why = loadout.ready(t, wid, rs.weapons, 1 if mode == "snap" else w.rof)
    if why is not None:
        return why
    far = range_cells(unit.pos, cell)
    ghost = shooting.Target(id="cell", av=rs.settings.unseen_av, pos=cell, cells=far, adjacent=far == 1,
                            can_dodge=False)  # the side knows nothing of it: no still die, no dodge
    base = 1 if mode == "snap" else w.rof
    mods = (("base", base),) + shooting.shot_mods(t, w, [ghost], False,
                                                  shooting.weapon_mods(t, wid, rs.weapons, rs.settings))
    victim = next((u for u in there if missions.hostile(unit.side, u.side)), None)
    return wid, base, mods, rs.settings.unseen_av, victim


def fire_at(rs, state: State, unit: Unit, cell: Pos | None, mode: str | None, dice: Dice) -> Rejected | list[Event]:
    found = aim_at(rs, state, unit, cell, mode)
    if isinstance(found, Rejected):
        return found
    wid, base, mods, av, victim = found
    mode = mode or "snap"
    w = rs.weapons[wid]
    t: Trooper = unit.record
    attack = pools.attack(dice, unit.id, f"{mode} at {cell[0]},{cell[1]}", base, mods, av)
    word = ("hit" if attack.hits else "miss") if base == 1 else pools.hits_word(attack.hits)
    events: list[Event] = [
        Resolved(actor=unit.id, action="fire_at", cell=cell, weapon=wid, mode=mode, rolls=(attack.roll,),
                 outcome=f"{attack.hits} at AV {av}",
                 text=f"{unit.name} fires {actions.MODES[mode].lower()} ({w.name}) at {cell[0]},{cell[1]}, unseen "
                      f"(AV {av}): {word} if anyone is there"),
        UnitChanged(unit=unit.id, changes=actions.frame_changes(unit, attrs.evolve(
            loadout.spend(t, wid, 1 if mode == "snap" else w.rof), attacked=True)), cause="fires")]
    if victim is not None and attack.hits:
        before = victim.record
        after, hits = damage.apply(dice, {before.id: attack.hits * w.hits}, {before.id: before}, w.save_mod,
                                   rs.tables)
        unsaved = sum(not h.saved and not h.harmless for h in hits)
        said = "; ".join(e for h in hits for e in h.effects)
        # the victim's event: its side sees it whole, the shooter's only if it sees the victim
        events.append(Resolved(actor=victim.id, action="hit", rolls=tuple(r for h in hits for r in h.rolls),
                               outcome=f"{unsaved} unsaved",
                               text=f"{victim.name} is hit by a shot in the dark: "
                                    f"{pools.hits_word(attack.hits * w.hits)}, {unsaved} unsaved"
                                    + (f" ({said})" if said else "")))
        if after[before.id] != before:
            events.append(UnitChanged(unit=victim.id, changes=actions.frame_changes(victim, after[before.id]),
                                      cause="hit"))
    return events + battle.end_slot(rs, state, events, dice)


def preview_cell(rs, state: State, shooter: str, cell: Pos, mode: str) -> CellShot | Rejected:
    """The cursor's shot at a cell where nobody is seen (N-3.3): the pool against AV 6 and the exact distribution of
    hits, should anyone be there (the side knows nothing of who: no save to count); or covering fire round it
    (§11, `mode = "cover"`): its dice and the enemies seen in the 3 × 3."""
    unit = state.units.get(shooter)
    if unit is None:
        return Rejected("no_unit", f"No unit {shooter!r}")
    if not rs.budget(state, unit).can_act:
        return Rejected("not_your_slot", f"It is not {unit.name}'s slot")
    cell = (int(cell[0]), int(cell[1]))
    if mode == "cover":
        return _cover_preview(rs, state, unit, cell)
    found = aim_at(rs, state, unit, cell, mode)
    if isinstance(found, Rejected):
        return found
    _, base, mods, av, _ = found
    n, how = pools.count(mods)
    hit = odds.hits(base, n, av)
    told = "suspected: an unseen enemy's cell" if cell in suspected(rs, state, unit) else "nobody seen there"
    lines = (*panel.dice_rows(mods, av), Row("Hits", f" {odds.short(hit)} "))
    preview = ShotPreview(p_hit=float(1 - hit.get(0, 0)), expected_damage=float(odds.mean(hit)),
                          distance=range_cells(unit.pos, cell), reach=None, lines=lines,
                          notes=(f"{told}; hits only if someone is there (N-3.3)",))
    return CellShot(command=Act(unit=unit.id, action="fire_at", cell=cell, option=mode), preview=preview,
                    modes=cell_modes(rs, unit))


def cell_modes(rs, unit: Unit) -> tuple[Mode, ...]:
    """What a shot at a cell may be: the held weapon's modes, and covering fire when it can give it."""
    t: Trooper = unit.record
    w = rs.weapons[t.held[0]] if t.held else None
    out = tuple(Mode(m, actions.MODES[m]) for m in ("snap", "spray") if w is not None and not w.melee
                and not (m == "spray" and w.snap_only))
    return out + ((Mode("cover", "Covering fire"),) if w is not None and not w.melee and not w.snap_only else ())


def _cover_preview(rs, state: State, unit: Unit, cell: Pos) -> CellShot | Rejected:
    from engine.rules.neo_troops import cover

    found = cover.aimed(rs, state, unit, cell)
    if isinstance(found, Rejected):
        return found
    wid, inside, targets = found
    t: Trooper = unit.record
    rofs = rs.weapons[wid].rof
    n, _ = shooting.sustained_dice(t, rs.weapons[wid], targets, True, rs.settings,
                                   shooting.weapon_mods(t, wid, rs.weapons, rs.settings))
    foes = f"{len(inside)} foe{'s' if len(inside) != 1 else ''}"  # short: the panel's 30 columns; the log says how
    lines = (Row("Dice", f" n={n}, ROF {rofs} at most " if n > 0 else " n≤0: 1 foe, 2d6 lower "),
             Row("Area", f" 3×3 at {cell[0]},{cell[1]}: {foes} "))
    preview = ShotPreview(p_hit=0.0, expected_damage=0.0, distance=range_cells(unit.pos, cell), reach=None,
                          lines=lines, notes=("Stationary: a die at each foe in it now, then at each that enters or "
                                              "ends an action in it until the next slot (N-11.3)",))
    return CellShot(command=Act(unit=unit.id, action="cover", cell=cell), preview=preview, modes=cell_modes(rs, unit))


def suspected(rs, state: State, unit: Unit) -> list[Pos]:
    """The cells its side knows an unseen enemy stands in (an unnoticed attacker, N-4.4) that it sees."""
    b = battle.battle(state)
    if b is None:
        return []
    return sorted({c for s, _, c in b.known if s == unit.side and state.grid.sees(unit.pos, c, battle.SIGHT)})


def options(rs, state: State, unit: Unit, hunted: bool = True) -> list[Option]:
    """Search (when its enemies' kind wears cloaks) and a shot at each suspected cell in sight, by mode."""
    out: list[Option] = []
    if hunted and actions.stationary(unit) is None:
        out.append(Option("Senses", "Search for the cloaked",
                          Act(unit=unit.id, action="search"),
                          "Stationary: a perception test on every cloaked enemy in sight (TN 6 if it kept still)"))
    for cell in suspected(rs, state, unit):
        for mode in ("snap", "spray"):
            found = aim_at(rs, state, unit, cell, mode)
            if isinstance(found, Rejected):
                continue
            _, _, mods, av, _ = found
            out.append(Option("Fire", f"{actions.MODES[mode]} at {cell[0]},{cell[1]} (suspected)",
                              Act(unit=unit.id, action="fire_at", cell=cell, option=mode),
                              f"{pools.count(mods)[1]} vs AV {av}: an unseen target (N-3.3)"))
    return out


def ai_hunt(rs, state: State, unit: Unit, clues: Clues) -> Hunt | None:
    """Nothing in sight to shoot: fire at a cell where an unseen attacker stands (N-4.4), the better mode first;
    else work the freshest lead (where a cloaked enemy was last seen or suspected): a shot at its cell while it is
    fresh, a Search while cells round it that the unit sees are unsearched since, else a walk (a run when far) to
    it; with no lead, a Search once the first cycle is over when some cell in sight is unsearched for two cycles."""
    if any(u.conscious and u.side != missions.CIVILIANS for u in clues.in_sight):
        return None
    for cell in suspected(rs, state, unit):
        shot = _shot(rs, state, unit, cell)
        if shot is not None:
            return Hunt(shot)
    sees = state.grid.fov(unit.pos, battle.SIGHT) & state.grid.walkable
    can_search = actions.stationary(unit) is None
    for cell, phase in clues.leads:
        zone = _zone(state, cell, state.phase - phase) & (clues.searched < phase)
        if not zone.any():
            continue  # searched all round since: a cold lead
        if state.phase - phase <= 1 and clues.searched[cell[1], cell[0]] < phase and sees[cell[1], cell[0]]:
            shot = _shot(rs, state, unit, cell)  # a varan whose notice lapsed is likeliest where it stood
            if shot is not None:
                return Hunt(shot, searched=_only(state, cell))
        if can_search and (zone & sees).any():
            return Hunt(Act(unit=unit.id, action="search"), searched=sees)
        walk = _towards(rs, state, unit, cell)
        if walk is not None:
            return Hunt(walk)
    b = battle.battle(state)
    stale = sees & (clues.searched < state.phase - 1)
    if b.order.cycle > 1 and can_search and not unit.record.searched and stale.any():
        return Hunt(Act(unit=unit.id, action="search"), searched=sees)
    return None


def _shot(rs, state: State, unit: Unit, cell: Pos) -> Act | None:
    for mode in ("spray", "snap"):
        if not isinstance(aim_at(rs, state, unit, cell, mode), Rejected):
            return Act(unit=unit.id, action="fire_at", cell=tuple(cell), option=mode)
    return None


def _zone(state: State, cell: Pos, age: int):
    """The walkable cells a lost enemy may have reached from `cell`: 2 cells, and a run (10) more each cycle."""
    r = min(battle.SIGHT // 2, 2 + 10 * max(0, age))
    ys, xs = np.ogrid[:state.grid.height, :state.grid.width]
    return state.grid.walkable & (np.abs(xs - cell[0]) <= r) & (np.abs(ys - cell[1]) <= r)


def _only(state: State, cell: Pos):
    mask = np.zeros((state.grid.height, state.grid.width), dtype=bool)
    mask[cell[1], cell[0]] = True
    return mask


def _towards(rs, state: State, unit: Unit, cell: Pos) -> Move | None:
    """A Move along the way to `cell`: a walk when it is near, else as far as a run reaches; it stops short of the
    cell itself and of anyone its side sees."""
    if tuple(cell) == tuple(unit.pos):
        return None
    budget = rs.budget(state, unit)
    seen = rs.spotted(state, unit.side)
    blocked = [u.pos for u in state.units.values() if u.id != unit.id and u.status != "dead"
               and (u.side == unit.side or u.id in seen)]
    path = state.grid.path(unit.pos, tuple(cell), blocked, budget.walk)[:-1]
    reach = budget.step if range_cells(unit.pos, cell) <= 10 else budget.moves_left
    n = 0
    while n < len(path) and budget.walk.cost(unit.pos, path[:n + 1]) <= reach:
        n += 1
    return Move(unit=unit.id, path=tuple(tuple(c) for c in path[:n])) if n else None
