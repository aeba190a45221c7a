"""Sections 9–14 and N-3.5: snap shots, spray fire and its dice assignment, sustained-fire areas, two weapons,
switching and combined weapons, explosions."""

from __future__ import annotations

from typing import Literal, Sequence

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.core.geometry import Pos
from engine.rules.neo_troops import pools
from engine.rules.neo_troops.movement import range_cells
from engine.rules.neo_troops.schema import Settings, Weapon
from engine.rules.neo_troops.unit import Trooper


@attrs.frozen(kw_only=True)
class Target:
    """A shot's target as the shooter's dice see it; `av` is already the effective AV (pools.effective_av)."""

    id: str
    av: int
    pos: Pos = (0, 0)
    stationary: bool = False  # did not move in its latest action (N-8.2)
    cells: int = 0  # range
    adjacent: bool = False  # in melee range
    fighter: int = 0
    can_dodge: bool = True  # able to dodge or push the gun away
    surprised: bool = False


def shot_mods(t: Trooper, weapon: Weapon, targets: Sequence[Target], stationary: bool,
              extra: pools.Mods = ()) -> pools.Mods:
    """N-9.2 for any number of targets, worst case (N-10.3): +1 only if the shooter and every target are still,
    −1 if any is at long range; in melee range the highest Fighter of those able to dodge costs floor(F/2), and
    +1 only if every adjacent target is surprised. Base dice are the caller's."""
    mods: list[tuple[str, int]] = []
    if t.accuracy_now:
        mods.append(("accuracy", t.accuracy_now))
    if stationary and all(x.stationary for x in targets):
        mods.append(("still", 1))
    if any(x.cells > weapon.long_range for x in targets):
        mods.append(("long range", -1))
    close = [x for x in targets if x.adjacent]
    if close and all(x.surprised for x in close):
        mods.append(("surprised", 1))
    dodge = max((x.fighter // 2 for x in close if not x.surprised and x.can_dodge), default=0)
    if dodge:
        mods.append(("dodge", -dodge))
    if t.wound_dice:
        mods.append(("severe wound", -t.wound_dice))
    if t.head_hits:
        mods.append(("head damage", -t.head_hits))
    return tuple(mods) + tuple(m for m in extra if m[1])


@attrs.frozen
class Fire:
    """The outcome of one attack: the pool's Roll, hits per target id (already × the weapon's hits), shots used."""

    roll: Roll
    pool: pools.Pool
    hits: dict[str, int]
    shots: int
    given: dict[str, int] = attrs.field(factory=dict)  # the die each target got (spray, sustained)


def snap(dice: Dice, t: Trooper, weapon: Weapon, target: Target, stationary: bool,
         extra: pools.Mods = ()) -> Fire | Rejected:
    """§9: one shot (or burst) at one target; the best die against its AV; `hits` hits on a success."""
    if weapon.melee:
        return Rejected("not_a_gun", f"{weapon.name} is a melee weapon")
    a = pools.attack(dice, t.id, "snap", 1, (("base", 1),) + shot_mods(t, weapon, [target], stationary, extra),
                     target.av)
    return Fire(a.roll, a.pool, {target.id: a.hits * weapon.hits}, 1)


def assign(kept: Sequence[int], targets: Sequence[Target]) -> tuple[dict[str, int], dict[str, int]]:
    """N-10.4: highest AV first (ties in declared order), each the lowest die that reaches it; the rest, in
    declared order, go as extra hits on the first target they can hit. Returns (hits, first die) per target."""
    left = sorted(kept)
    hits = {x.id: 0 for x in targets}
    given: dict[str, int] = {}
    if len(targets) == 1:
        x = targets[0]
        hits[x.id] = sum(1 for d in left if d >= x.av)
        return hits, given
    for x in sorted(targets, key=lambda x: -x.av):  # sorted() is stable: ties stay in declared order
        die = next((d for d in left if d >= x.av), None)
        if die is not None:
            left.remove(die)
            hits[x.id] += 1
            given[x.id] = die
    for d in sorted(left, reverse=True):
        x = next((x for x in targets if d >= x.av), None)
        if x is not None:
            hits[x.id] += 1
    return hits, given


def _spread_ok(targets: Sequence[Target], spread: int) -> bool:
    return all(any(range_cells(x.pos, y.pos) <= spread for y in targets[:i]) for i, x in enumerate(targets) if i)


def shown_hits(targets: Sequence[Target], hits: dict[str, int]) -> str:
    return ", ".join(f"{x.id} AV {x.av}: {pools.hits_word(hits[x.id])}" for x in targets)


def spray(dice: Dice, t: Trooper, weapon: Weapon, targets: Sequence[Target], stationary: bool, s: Settings,
          extra: pools.Mods = (), second: Weapon | None = None) -> Fire | Rejected:
    """§10 (and §12 with `second`): ROF base dice, every snap modifier, the surplus discarded, the kept dice
    assigned by N-10.4; uses ROF shots (both weapons' with two)."""
    for w in (weapon, second):
        if w is not None and (w.snap_only or w.melee):
            return Rejected("snap_only", f"{w.name} cannot spray")
    base, lead, shots = weapon.rof, [("base", weapon.rof)], weapon.rof
    if second is not None:
        pair = two_weapons(weapon, second)
        if isinstance(pair, Rejected):
            return pair
        base, extra_dice, shots = pair
        lead = [("base", max(weapon.rof, second.rof)), ("two weapons", extra_dice)]
    if not 1 <= len(targets) <= base:
        return Rejected("targets", f"Spray fire takes 1 to {base} targets")
    if not _spread_ok(targets, s.spray_spread):
        return Rejected("spread", f"Each target after the first must be within {s.spray_spread} cells of another")
    n, how = pools.count(tuple(m for m in lead if m[1]) + shot_mods(t, weapon, targets, stationary, extra))
    pool = pools.throw(dice, t.id, "spray", base, n)
    dice_hits, given = assign(pool.kept, targets)
    lost = f" ({pool.missed} cannot hit)" if pool.missed else ""
    roll = pools.record(pool, t.id, "spray", how, f"vs {shown_hits(targets, dice_hits)}{lost}", sum(dice_hits.values()))
    hits = {k: v * weapon.hits for k, v in dice_hits.items()}
    return Fire(roll, pool, hits, shots, given)


def two_weapons(a: Weapon, b: Weapon) -> tuple[int, int, int] | Rejected:
    """N-12.2: (B = ROF_hi + ROF_lo, extra dice, shots); both must be `dual` and neither BIG."""
    if not (a.dual and b.dual) or a.big or b.big:
        return Rejected("not_dual", "Two weapons must both be small dual weapons, neither BIG")
    lo = min(a.rof, b.rof)
    extra = 2 if lo >= 4 else 1 if lo >= 2 else 0
    return a.rof + b.rof, extra, a.rof + b.rof


# -- sustained (covering) fire, §11 ------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Area:
    """A sustained-fire area: live until the firer's next action begins, or the firer is incapacitated."""

    firer: str
    side: str
    cells: frozenset[Pos]
    weapon: str
    firer_pos: Pos


def area_live(area: Area, firer: Trooper) -> bool:
    """The covering fire stops early if the firer is incapacitated (or dead)."""
    return firer.id == area.firer and firer.can_act


def area_cells(aim: Pos, radius: int) -> frozenset[Pos]:
    span = range(-radius, radius + 1)
    return frozenset((aim[0] + dx, aim[1] + dy) for dx in span for dy in span)


def sustained_dice(t: Trooper, weapon: Weapon, targets: Sequence[Target], stationary: bool, s: Settings,
                   extra: pools.Mods = ()) -> tuple[int, str]:
    """N-11.2's n = min(ROF, ROF + modifiers), and how it was reached."""
    mods = (("base", weapon.rof),) + shot_mods(t, weapon, targets, stationary, extra)
    raw = sum(d for _, d in mods)
    n = min(weapon.rof, raw)
    return n, f"n=min({weapon.rof}, {pools.spelled(mods)}={raw})={n}"


def sustained(dice: Dice, t: Trooper, weapon: Weapon, aim: Pos, pos: Pos, targets: Sequence[Target],
              stationary: bool, s: Settings, extra: pools.Mods = ()) -> tuple[Fire, Area] | Rejected:
    """N-11.2: n = min(ROF, ROF + modifiers); one die against each of up to n targets in the area, the firer's
    pick (`targets` in the order picked); at n ≤ 0 one target, the lower of 2d6. Uses ROF shots."""
    if weapon.snap_only or weapon.melee:
        return Rejected("snap_only", f"{weapon.name} cannot give covering fire")
    cells = area_cells(aim, s.area_radius)
    if any(x.pos not in cells for x in targets):
        return Rejected("outside", "Every target of sustained fire stands in the area")
    n, how = sustained_dice(t, weapon, targets, stationary, s, extra)
    chosen = list(targets[:max(1, min(n, len(targets)))])
    area = Area(firer=t.id, side=t.side, cells=cells, weapon=weapon.name, firer_pos=pos)
    if not chosen:
        roll = Roll(actor=t.id, purpose="sustained", expr="0d6", faces=(), formula=f"sustained {how}: no target",
                    total=0)
        return Fire(roll, pools.Pool(0, n, (), (), "all", -1), {}, weapon.rof), area
    k = len(chosen) if n > 0 else 1
    pool = pools.throw(dice, t.id, "sustained", k, n if n <= 0 else k)
    dice_of = dict(zip((x.id for x in chosen), pool.kept if n <= 0 else pool.faces))
    hits = {x.id: int(dice_of[x.id] >= x.av) * weapon.hits for x in chosen}
    shown = ", ".join(f"{x.id} {dice_of[x.id]} vs AV {x.av}" for x in chosen)
    total = sum(1 for x in chosen if dice_of[x.id] >= x.av)
    roll = pools.record(pool, t.id, "sustained", how, f"{shown}: {pools.hits_word(total)}", total)
    return Fire(roll, pool, hits, weapon.rof, dice_of), area


Trigger = Literal["entered", "ended_inside", "left"]


def runs_closer(area: Area, start: Pos, end: Pos) -> bool:
    """N-11.4: a run into the area whose path ends closer to the firer than it started."""
    return range_cells(end, area.firer_pos) < range_cells(start, area.firer_pos)


def area_dice(area: Area, trigger: Trigger, ran_closer: bool, s: Settings) -> int:
    """N-11.3, N-11.4: dice against a unit entering the area or ending an action inside it; a unit that leaves is
    not attacked; one that runs in ending closer to the firer than it started faces 2 dice."""
    if trigger == "left":
        return 0
    return s.run_into_fire_dice if trigger == "entered" and ran_closer else 1


def crossings(area: Area, side: str, path: Sequence[Pos], ran: bool, s: Settings) -> list[tuple[int, int]]:
    """(index in the path, dice) of each attack one unit's action draws from an area: every entry (2 dice for a
    run that ends closer to the firer), or 1 die at the end for a unit that started inside and is still there.
    A unit that only leaves draws nothing; a stationary action is the path of its one cell."""
    if not attacked_by(area, side, s):
        return []
    out: list[tuple[int, int]] = []
    inside = path[0] in area.cells
    closer = ran and runs_closer(area, path[0], path[-1])
    for i, cell in enumerate(path[1:], start=1):
        if cell in area.cells and not inside:
            out.append((i, area_dice(area, "entered", closer, s)))
        inside = cell in area.cells
    if not out and path[0] in area.cells and path[-1] in area.cells:
        out.append((len(path) - 1, area_dice(area, "ended_inside", False, s)))
    return out


def follow_up(dice: Dice, area: Area, target: Target, k: int) -> pools.Attack:
    """One persistent-fire attack of `k` dice, each a separate attack; no ammunition, no count limit."""
    return pools.attack(dice, area.firer, "covering fire", k, (("base", k),), target.av)


def attacked_by(area: Area, unit_side: str, s: Settings) -> bool:
    return s.friendly_fire or unit_side != area.side


# -- switching and combined weapons, §13–14 ----------------------------------------------------------------------


@attrs.frozen
class Switch:
    held: tuple[str, ...]
    dice: int  # attack dice this turn: 0 or −1
    dropped: str | None = None  # falls in the varan's cell


def combination_of(weapon: str, combos: Sequence[tuple[str, ...]]) -> tuple[str, ...] | None:
    return next((c for c in combos if weapon in c), None)


def switch(held: tuple[str, ...], draw: str, how: Literal["away", "drop", "keep"], weapons: dict,
           combos: Sequence[tuple[str, ...]] = ()) -> Switch | Rejected:
    """N-13.2, start of the turn only: putting a weapon away costs a die, dropping it costs none, a small weapon
    drawn beside one main weapon costs none, and within a combination switching is free."""
    for h in held:
        combo = combination_of(h, combos)
        if combo is not None and draw in combo:
            return Switch(tuple(draw if x == h else x for x in held), 0)
    if how == "keep":
        if len(held) != 1 or not weapons[draw].small:
            return Rejected("hands_full", "Only a pistol or grenade is drawn beside one held weapon")
        return Switch(held + (draw,), 0)
    if not held:
        return Switch((draw,), 0)
    let_go = held[-1]
    rest = held[:-1] + (draw,)
    return Switch(rest, 0, let_go) if how == "drop" else Switch(rest, -1)


def combined_mods(weapon: str, weapons: dict, combos: Sequence[tuple[str, ...]], s: Settings) -> pools.Mods:
    """N-14.1: a combination of 20 kg or more costs one die with any of its weapons."""
    combo = combination_of(weapon, combos)
    if combo is not None and sum(weapons[w].weight_kg for w in combo) >= s.combined_kg:
        return (("combined", -1),)
    return ()


def weapon_mods(t: Trooper, weapon: str, weapons: dict, s: Settings) -> pools.Mods:
    """The attack dice the weapons cost this action: a heavy combination (N-14.1) and a switch (N-13.2)."""
    switch = (("switch", t.switch_dice),) if t.switch_dice else ()
    return combined_mods(weapon, weapons, t.combined, s) + switch


# -- explosions, N-3.5 --------------------------------------------------------------------------------------------


def throw_reach(weapon: Weapon, s: Settings) -> int:
    return s.throw_reach.evaluate({"long_range": weapon.long_range})[0]


def throw_at(weapon: Weapon, cells: int, in_sight: bool, s: Settings) -> bool | Rejected:
    """N-3.5: an explosive lands in the aimed cell, in sight and within the throw reach; True when that is past
    long range (each blast die then rolls at −1 die)."""
    if not in_sight:
        return Rejected("not_in_sight", "An explosive is aimed at a cell in line of sight")
    if cells > throw_reach(weapon, s):
        return Rejected("too_far", f"The {weapon.name} reaches {throw_reach(weapon, s)} cells, not {cells}")
    return cells > weapon.long_range


def explosion(dice: Dice, thrower: str, targets: Sequence[Target], beyond_long: bool) -> list[pools.Attack]:
    """One die against the AV of each creature in the blast, in the order given (2 dice, the lower, when thrown
    past long range); each target's die is its own Roll. The weapon's `hits` multiply the hits."""
    mods = (("base", 1),) + ((("past long range", -1),) if beyond_long else ())
    return [pools.attack(dice, thrower, f"blast on {x.id}", 1, mods, x.av) for x in targets]


def blast_cells(aim: Pos, weapon: Weapon) -> frozenset[Pos]:
    return area_cells(aim, max(1, weapon.blast))
