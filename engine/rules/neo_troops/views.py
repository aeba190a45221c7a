"""What the client and the AI ask of neo-troops between commands: the budget in metres, the unit panel, the exact
odds of a pool, the firing modes, the action menu and the AI's upkeep."""

from __future__ import annotations

import numpy as np

from engine.content import missions
from engine.core.commands import Act, Reload, Rejected
from engine.core.model import State, Unit
from engine.core.ruleset import Budget, Hunt, Mode, Option, Row, Sheet, ShotPreview, Walk
from engine.rules.neo_troops import actions, battle, fight, interrupt, loadout, movement, odds, panel, pools
from engine.rules.neo_troops import aid, arms, brawl, ground, hunt, mend, spray, watch
from engine.rules.neo_troops.unit import Trooper

def walk(rs, state: State) -> Walk:
    """N-0.1, N-6.3: 2 m a step, 3 m a diagonal, double into a difficult cell (kept per map value)."""
    grid = state.grid
    kept = rs.priced
    if kept is None or kept[0] is not grid:
        price = np.where(grid.cost > 1, rs.settings.difficult_factor, (grid.cost > 0).astype(np.int16))
        for x, y in ground.obstacles(grid, rs.settings):  # jumped over at double metres (N-6.3)
            price[y, x] = rs.settings.difficult_factor
        kept = rs.priced = (grid, price.astype(np.int16))
    return Walk(cardinal=rs.settings.step_m, diagonal=rs.settings.diagonal_m, price=kept[1], currency="m")


def budget(rs, state: State, unit: Unit) -> Budget:
    t: Trooper = unit.record
    move_m, run_m = movement.speeds(t, rs.settings)
    w = walk(rs, state)
    if not rs.turn(state).allows(unit.id) or rs.turn(state).units is None or not unit.conscious \
            or unit.record.actions < 1:
        # short: the squad list gives the label 12 columns (tui/screens/readout.py)
        return Budget(label="waiting", can_act=False, moves_left=0, walk=w)
    spent = t.spent_m
    done = t.attacked or t.ran
    moves = 0 if done or spent > move_m else run_m - spent
    step = 0 if done else max(0, move_m - spent)
    # the panel adds what it may walk ("move 20 m"); the label says how far keeps the shot, short enough for the
    # 30 columns the panel has beside a 48-cell map at 80×24 (one action a slot: no count to show)
    label = f"shot ≤{move_m} m" if spent == 0 else f"walked {spent}/{move_m} m"
    return Budget(label=label, can_act=True, moves_left=moves, step=step, walk=w)


PANEL = 30  # the unit panel's columns beside a 48-cell map at 80×24


def sheet(rs, state: State, unit: Unit) -> Sheet:
    """The unit panel, each line within the 30 columns it has beside a 48-cell map at 80×24: AV, save and skills
    on one line each, the systems only when one is out, the weapons by their short names and the shots left."""
    t: Trooper = unit.record
    base = panel.sheet(t, rs.settings)
    rows = {r.label: r for r in base.rows}
    skills = " ".join(f"{k}{v}" for k, v in (("Acc", t.accuracy_now), ("Fig", t.fighter), ("Per", t.perception_now))
                      if v or t.varan)  # a varan's, or any the unit has: in the head, after the name
    compact = [rows["HP"], Row("AV", f" {rows['AV'].text.strip()} · save {rows['Save'].text.strip()} ")]
    out = [(name, state) for name, state in (("cloak", t.cloak), ("mapping", t.mapping),
                                            ("head", t.head if t.varan else None)) if state not in (None, "working")]
    if out:  # the longest words that fit: "cloak damaged", "cloak dmg, head gone", "cloak, mapping, head"
        ways = (", ".join(f"{n} {s}" for n, s in out),
                ", ".join(f"{n} {'dmg' if s == 'damaged' else 'gone'}" for n, s in out), ", ".join(n for n, _ in out))
        said = next((w for w in ways if len(w) <= PANEL - 12), ways[-1])
        compact.append(Row("Systems", f" {said} ", alert="!" if len(said) <= PANEL - 12 else ""))
    loads = sum(1 for p in t.parts if p.kind == "ammo" and p.state != "destroyed")
    held, spare = [], []
    for wid in [p.id for p in t.parts if p.kind == "weapon"]:
        w = rs.weapons[wid]
        word = (w.short or w.name) + ("" if w.melee else f" {loadout.shots_left(t, wid)}")
        (held if wid in t.held else spare).append(word)
    if held and loads:
        held[0] += f"+{loads}"  # ammunition loads
    line = " ".join(f"▶{h}" for h in held)
    kit = [" · ".join(x for x in (line, *spare) if x)] if held or spare else []
    items = [rs.name(p.id) for p in t.parts if p.kind not in ("weapon", "ammo")]
    if items:
        kit.append(", ".join(items))
    switched = ("switch: −1 attack die",) if t.switch_dice else ()  # for this action (N-13.2)
    return Sheet(rows=tuple(compact), effects=switched + tuple(base.effects), kind=skills, kit=tuple(kit))


def shot_modes(rs, state: State, unit: Unit) -> list[Mode]:
    t: Trooper = unit.record
    if not t.held or rs.weapons[t.held[0]].melee:
        return []
    wid = t.held[0]
    w = rs.weapons[wid]
    able = unit.record.actions > 0 and unit.conscious and not t.ran and not t.attacked
    modes = [Mode("snap", "Snap shot", able and loadout.shots_left(t, wid) >= 1)]
    both = arms.pair(rs, t)
    if both is not None and all(loadout.shots_left(t, x) >= rs.weapons[x].rof for x in t.held):
        modes.insert(0, Mode("spray", f"Spray ×{both[0].rof}+{both[1].rof}", able))  # two weapons (§12)
    elif not w.snap_only:
        modes.insert(0, Mode("spray", f"Spray ×{w.rof}", able and loadout.shots_left(t, wid) >= w.rof))
    return modes


def preview_shot(rs, state: State, shooter: str, target: str, mode: str) -> ShotPreview | Rejected:
    found = actions.aim(rs, state, shooter, target, mode)
    if isinstance(found, Rejected):
        return found
    w = rs.weapons[found.weapon_id]
    tt: Trooper = found.target.record
    rows, p_any, mean = panel.odds_rows(found.base, found.mods, found.av, tt.save_now, w.save_mod, w.hits)
    hit = odds.hits(found.base, pools.count(found.mods)[0], found.av)
    through = odds.unsaved(hit, tt.save_now, w.save_mod, w.hits)
    rows = (*panel.dice_rows(found.mods, found.av), Row("Hits", f" {odds.short(hit)} "),
            Row("Unsaved", f" {odds.short(through)} "))
    save = f"{tt.save_now}+ {w.save_mod:+d}" if tt.save_now is not None else "none"
    lines = (*rows, Row("Save", f" {save} · {found.cells} cells "))
    notes = ("long range: -1 die",) if found.cells > w.long_range else ()
    return ShotPreview(p_hit=p_any, expected_damage=mean, distance=found.cells, reach=None, lines=lines, notes=notes)


def options(rs, state: State, unit: Unit) -> list[Option]:
    out: list[Option] = []
    if rs.setup is None:
        return out
    t: Trooper = unit.record
    b = battle.battle(state)
    fresh = t.fresh and b is not None and not b.acting
    if fresh and battle.up(state) is not None and battle.up(state).id == unit.id:
        out.append(Option("Order", "Delay: hold the action", Act(unit=unit.id, action="delay"),
                          "act later this cycle, right after any other action"))
    if battle.up(state) is not None and battle.up(state).id == unit.id:
        single = fight.targets(rs, state, unit)
        for blow in single:
            d = blow.defender
            out.append(Option("Melee", f"Strike {d.name} ({d.pos[0]},{d.pos[1]})",
                              Act(unit=unit.id, action="melee", target=d.id), blow.note()))
        out += brawl.options(rs, state, unit, single)
    if battle.up(state) is not None and battle.up(state).id == unit.id:
        out += spray.options(rs, state, unit) + aid.options(rs, state, unit) + mend.options(rs, state, unit)
        out += arms.options(rs, state, unit) + hunt.options(rs, state, unit, _hunted(rs, state, unit))
    w = rs.weapons[t.held[0]] if t.held else None
    if w is not None and not w.snap_only and not w.melee and actions.stationary(unit) is None:
        seen = rs.spotted(state, unit.side)
        for u in sorted((u for u in state.units.values() if u.id in seen and u.conscious
                         and missions.hostile(unit.side, u.side)
                         and state.grid.sees(unit.pos, u.pos, battle.SIGHT)), key=lambda u: u.id):
            out.append(Option("Fire", f"Covering fire round {u.name} ({u.pos[0]},{u.pos[1]})",
                              Act(unit=unit.id, action="cover", cell=u.pos),
                              f"Stationary: {w.rof} dice now, then dice on every enemy entering the 3×3"))
    for action, cell in missions.uses(rs.content, rs.setup.mission, rs.setup.spawns, state, unit):
        what = rs.content.terrain[state.grid.tile(cell)].name.lower()
        note = "Stationary: 1d6 + Perception vs Normal" if action == "shut_down" else "ends the action"
        out.append(Option("Mission" if action == "shut_down" else "Doors",
                          f"{action.replace('_', ' ').capitalize()} the {what} at {cell[0]},{cell[1]}",
                          Act(unit=unit.id, action=action, cell=cell), note))
    return out


def ai_chore(rs, state: State, unit: Unit, in_sight: list[Unit], stage: str) -> Reload | None:
    """Load before firing when the held weapon cannot snap; top it up when idle and below one spray."""
    t: Trooper = unit.record
    if not t.held or actions.stationary(unit) is not None or rs.weapons[t.held[0]].melee:
        return None
    wid = t.held[0]
    w = rs.weapons[wid]
    left = loadout.shots_left(t, wid)
    need = 1 if stage == "first" or w.snap_only else w.rof
    if left < need and not isinstance(loadout.load(t, wid, rs.weapons), Rejected):
        return Reload(unit=unit.id)
    return None


def ai_special(rs, state: State, unit: Unit, in_sight: list[Unit], has_shot: bool) -> Act | None:
    """An interrupt's question answered (strike when the blow is worth it); else first aid; a free weapon switch;
    a melee blow at an adjacent hostile when it is likelier to wound than the best shot; at a cluster, a spray or
    covering fire, whichever is worth more hits (watch.py). With no shot: a repair or rest
    when nothing is in sight, else a delay to act after an enemy whose slot comes next (then `ai_hunt`)."""
    asked = rs.turn(state)
    if asked.choices:
        return asked.choices[0].command if interrupt.worth(rs, state) else None
    care = aid.ai_aid(rs, state, unit)  # a bleeding ally (or itself) dies within ten of its turns
    if care is not None:
        return care
    drawn = arms.ai_switch(rs, state, unit)  # a second dual weapon drawn for free sprays with more dice
    if drawn is not None:
        return drawn
    blows = sorted(fight.targets(rs, state, unit), key=lambda b: (-_p_wound(b), b.defender.id))
    if blows and _p_wound(blows[0]) >= _best_shot(rs, state, unit, blows[0].defender):
        shared = _best_shared(rs, state, unit, blows)  # several attacks: shared when that wounds more
        return shared or Act(unit=unit.id, action="melee", target=blows[0].defender.id)
    volley = watch.ai_cluster(rs, state, unit)  # a spray at a cluster, or covering fire round it when worth more
    if volley is not None:
        return volley
    if has_shot:
        return None
    return mend.ai_mend(rs, state, unit, in_sight) or _ai_delay(rs, state, unit, in_sight)


def ai_hunt(rs, state: State, unit: Unit, clues) -> Hunt | None:
    """A unit that waits for the enemy lays covering fire over the way a hostile known to be near must come
    (watch.py); else, when its enemies wear cloaks: fire at a cell, Search or close on a lead (hunt.py); after a
    delay (above)."""
    watching = watch.ai_approach(rs, state, unit, clues)
    if watching is not None:
        return Hunt(watching)
    return hunt.ai_hunt(rs, state, unit, clues) if _hunted(rs, state, unit) else None


def _hunted(rs, state: State, unit: Unit) -> bool:
    """Whether its enemies' kind wears cloaks (the briefing says who they are, not where): worth searching for."""
    return any(rs.characters[u.template].cloaked for u in state.units.values()
               if u.side != unit.side and u.side in battle.SIDES)


def _ai_delay(rs, state: State, unit: Unit, in_sight: list[Unit]) -> Act | None:
    """Nothing in sight: when an enemy's slot comes next, hold the action to act right after it (it may run
    into sight), if a slot of its own side follows in this cycle to take the held action at (N-7.3)."""
    b = battle.battle(state)
    if in_sight or b.acting or b.order.up != unit.id or not unit.record.fresh:
        return None
    o = b.order
    rest = [state.units[u] for u in o.slots[o.at + 1:] if u in state.units and state.units[u].conscious]
    if len(rest) < 2 or rest[0].side == unit.side or rest[0].side not in battle.SIDES:
        return None
    if not any(u.side == unit.side for u in rest[1:]):
        return None
    return Act(unit=unit.id, action="delay")


def _best_shared(rs, state: State, unit: Unit, blows: list) -> Act | None:
    """The multi-target blow expected to wound the most targets, if more than the best single blow would."""
    best = max(_p_wound(b) for b in blows)
    pick = None
    for option in brawl.options(rs, state, unit, sorted(blows, key=lambda b: b.defender.id)):
        sweep, bs = brawl.blows(rs, state, unit, option.command.targets)
        value = brawl.wounding(bs, sweep)
        if value > best + 1e-9:
            best, pick = value, option.command
    return pick


def _p_wound(b) -> float:
    return float(1 - b.odds()[1].get(0, 0))


def _best_shot(rs, state: State, unit: Unit, target: Unit) -> float:
    best = 0.0
    for m in shot_modes(rs, state, unit):
        if m.usable:
            p = preview_shot(rs, state, unit.id, target.id, m.id)
            if not isinstance(p, Rejected):
                best = max(best, p.p_hit)
    return best
