"""§10 in play: spray fire at several targets, `Act(unit, "spray", targets=(first, second, ...))`, the attack of a
Move action. The shooter declares 1 to ROF spotted targets in sight, each after the first within `spray_spread`
cells of one declared before it; the snap modifiers are the worst case over them, and the kept dice go to the
targets by N-10.4 (`shooting.spray`). One target is the plain `Shoot(mode="spray")`."""

from __future__ import annotations

from engine.content import missions
from engine.core import records
from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, UnitChanged
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.rules.neo_troops import actions, battle, damage, ground, loadout, pools, shooting
from engine.rules.neo_troops.movement import range_cells
from engine.rules.neo_troops.unit import Trooper


def _targets(rs, state: State, unit: Unit, ids: tuple[str, ...]) -> list[shooting.Target] | Rejected:
    if len(set(ids)) != len(ids):
        return Rejected("targets", "Name each target once")
    out = []
    for uid in ids:
        found = actions.aim(rs, state, unit.id, uid, "spray")  # each as a target of its own: the game's refusals
        if isinstance(found, Rejected):
            return found
        d = found.target
        out.append(ground.target_of(state.grid, unit.pos, d.record, d.pos, rs.tables,
                                    stationary=battle.stationary(d), surprised=False))
    return out


def fire(rs, state: State, unit: Unit, ids: tuple[str, ...], dice: Dice) -> Rejected | list[Event]:
    if not ids:
        return Rejected("targets", "Name the targets of the spray")
    targets = _targets(rs, state, unit, ids)
    if isinstance(targets, Rejected):
        return targets
    t: Trooper = unit.record
    wid = t.held[0]
    w = rs.weapons[wid]
    extra = shooting.weapon_mods(t, wid, rs.weapons, rs.settings)
    second = actions.aim(rs, state, unit.id, ids[0], "spray").second  # two weapons in hand spray together (§12)
    got = shooting.spray(dice, t, w, targets, t.spent_m == 0, rs.settings, extra,
                         rs.weapons[second] if second else None)
    if isinstance(got, Rejected):
        return got
    spent = loadout.spend(t, wid, w.rof)
    if second:
        spent = loadout.spend(spent, second, rs.weapons[second].rof)
    before = {x.id: state.units[x.id].record for x in targets}
    after, hits = damage.apply(dice, {k: v for k, v in got.hits.items() if v}, before, w.save_mod, rs.tables)
    unsaved = sum(not h.saved and not h.harmless for h in hits)
    names = " + ".join(state.units[x.id].name for x in targets)
    said = "; ".join(e for h in hits for e in h.effects)
    events: list[Event] = [
        Resolved(actor=unit.id, action="shoot", target=ids[0], weapon=wid, mode="spray",
                 rolls=(got.roll, *(r for h in hits for r in h.rolls)),
                 outcome=f"{sum(got.hits.values())} hits, {unsaved} unsaved",
                 text=f"{unit.name} sprays {names} ({w.name}{' + ' + rs.weapons[second].name if second else ''}): "
                      f"{pools.hits_word(sum(got.hits.values()))}, "
                      f"{unsaved} unsaved" + (f" ({said})" if said else "")),
        UnitChanged(unit=unit.id, changes=actions.frame_changes(
            unit, records.evolve(spent, {"attacked": True})), cause="fires"),
        *[UnitChanged(unit=k, changes=actions.frame_changes(state.units[k], v), cause="hit")
          for k, v in after.items() if v != before[k]]]
    return events + battle.end_slot(rs, state, events, dice)


def groups(rs, state: State, unit: Unit) -> list[tuple[str, ...]]:
    """The clusters a spray may take now, for the menu and the AI: from each spotted hostile in sight, the others
    within reach of the chain, nearest first, up to ROF; two targets at least, each cluster once."""
    t: Trooper = unit.record
    if not t.held or t.attacked or t.ran or unit.record.actions < 1:
        return []
    w = rs.weapons[t.held[0]]
    if w.melee or w.snap_only or w.rof < 2 or loadout.shots_left(t, t.held[0]) < w.rof:
        return []
    seen = rs.spotted(state, unit.side)
    near = sorted((u for u in state.units.values() if u.id in seen and u.conscious
                   and missions.hostile(unit.side, u.side) and u.side in battle.SIDES
                   and state.grid.sees(unit.pos, u.pos, battle.SIGHT)), key=lambda u: u.id)
    out: list[tuple[str, ...]] = []
    for first in near:
        chain = [first]
        for u in sorted(near, key=lambda u: (range_cells(u.pos, first.pos), u.id)):
            if len(chain) < w.rof and u not in chain \
                    and any(range_cells(u.pos, c.pos) <= rs.settings.spray_spread for c in chain):
                chain.append(u)
        key = tuple(u.id for u in chain)
        if len(key) > 1 and sorted(key) not in [sorted(k) for k in out]:
            out.append(key)
    return out


def pool(rs, state: State, unit: Unit, ids: tuple[str, ...]) -> str:
    """`n=4+1 accuracy=5 vs AV 4, 5` for the menu: the dice and each target's AV."""
    targets = _targets(rs, state, unit, ids)
    if isinstance(targets, Rejected):
        return targets.reason
    t: Trooper = unit.record
    w = rs.weapons[t.held[0]]
    extra = shooting.weapon_mods(t, t.held[0], rs.weapons, rs.settings)
    lead = tuple(m for m in actions.aim(rs, state, unit.id, ids[0], "spray").mods if m[0] in ("base", "two weapons"))
    _, how = pools.count(lead + shooting.shot_mods(t, w, targets, t.spent_m == 0, extra))
    return f"{how} vs AV {', '.join(str(x.av) for x in targets)}: a die for each first (N-10.4)"


def options(rs, state: State, unit: Unit) -> list[Option]:
    return [Option("Fire", "Spray " + " + ".join(state.units[i].name for i in ids),
                   Act(unit=unit.id, action="spray", targets=ids), pool(rs, state, unit, ids))
            for ids in groups(rs, state, unit)]
