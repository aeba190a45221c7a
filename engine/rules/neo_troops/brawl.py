"""N-15.3 in play: one melee attack with several attacks at several adjacent enemies, `Act(unit, "melee",
targets=(first, second, ...))`, two to B targets (B: the attacks of the weapon in hand, or the unit's own).

The attacks and the attacker's Fighter dice are divided before the throw, dealt to the declared targets in turn
(the first gets the first attack and the first Fighter die, the second the next, and so on), and each target is
then struck on its own pool, less its own defence (N-15.4). The exception: when every target is alike (one AV and
one pool, so no melee skill to tell them apart) and has no Fighter, the whole pool is thrown, the B highest kept
and the dice assigned as spray fire's are (N-10.4).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import attrs

from engine.core.commands import Act, Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, UnitChanged
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.rules.neo_troops import actions, battle, damage, fight, melee, odds, pools, shooting


def attacks(rs, unit: Unit) -> int:
    w = fight.weapon_of(rs, unit.record)
    return w.attacks if w is not None else unit.record.attacks


def shares(base: int, fighter: int, k: int) -> list[tuple[int, int]]:
    """(attacks, Fighter dice) for each of `k` targets in declared order, dealt in turn."""
    return [(base // k + (i < base % k), fighter // k + (i < fighter % k)) for i in range(k)]


def blows(rs, state: State, unit: Unit, ids: tuple[str, ...]) -> tuple[bool, list[fight.Blow]] | Rejected:
    """(a sweep?, the blows): a sweep's blows each on the whole pool (only the first's is thrown), a divided
    attack's each on its share."""
    base = attacks(rs, unit)
    if len(ids) < 2 or len(set(ids)) != len(ids):
        return Rejected("targets", "Name two or more targets, each once (one target: target=)")
    if base == 1:
        return Rejected("targets", f"{unit.name} has one melee attack: it strikes one target")
    if len(ids) > base:
        return Rejected("targets", f"{unit.name} has {base} melee attacks: at most {base} targets")
    whole = []
    for uid in ids:
        d = state.units.get(uid)
        if d is None:
            return Rejected("no_target", f"No unit {uid!r}")
        b = fight.blow(rs, state, unit, d)
        if isinstance(b, Rejected):
            return b
        whole.append(b)
    if all(b.defender.record.fighter == 0 for b in whole) and len({(b.av, b.mods) for b in whole}) == 1:
        return True, whole
    split = [fight.blow(rs, state, unit, b.defender, share) for b, share in
             zip(whole, shares(base, unit.record.fighter, len(ids)))]
    return False, split


def attack(rs, state: State, unit: Unit, ids: tuple[str, ...], dice: Dice) -> Rejected | list[Event]:
    why = fight.may_strike(rs, unit)
    if why is not None:
        return why
    found = blows(rs, state, unit, ids)
    if isinstance(found, Rejected):
        return found
    sweep, bs = found
    events: list[Event] = []
    if sweep:
        events += _sweep(rs, state, unit, bs, dice)
    else:
        for b in bs:
            struck, _ = fight.strike(rs, b, dice)
            events += struck
    events.append(UnitChanged(unit=unit.id, changes={"record": attrs.evolve(unit.record, attacked=True)},
                              cause="strikes"))
    return events + battle.end_slot(rs, state, events, dice)


def _sweep(rs, state: State, unit: Unit, bs: list[fight.Blow], dice: Dice) -> list[Event]:
    lead, w = bs[0], bs[0].weapon
    roll, hits = melee.thrown(dice, unit.id, lead.base, lead.mods,
                              [shooting.Target(id=b.defender.id, av=b.av) for b in bs])
    per = w.hits if w else 1
    before = {b.defender.id: b.defender.record for b in bs}
    after, struck = damage.apply(dice, {k: v * per for k, v in hits.items() if v}, before, w.save_mod if w else 0,
                                 rs.tables)
    unsaved = sum(not h.saved and not h.harmless for h in struck)
    said = "; ".join(e for h in struck for e in h.effects)
    names = " + ".join(b.defender.name for b in bs)
    total = sum(hits.values()) * per
    text = (f"{unit.name} strikes {names} ({w.name if w else 'bare-handed'}), one throw: {pools.hits_word(total)}, "
            f"{unsaved} unsaved" + (f" ({said})" if said else ""))
    return [Resolved(actor=unit.id, action="melee", target=bs[0].defender.id, weapon=lead.weapon_id or None,
                     rolls=(roll, *(r for h in struck for r in h.rolls)), outcome=f"{total} hits, {unsaved} unsaved",
                     text=text),
            *[UnitChanged(unit=k, changes=actions.frame_changes(state.units[k], v), cause="hit")
              for k, v in after.items() if v != before[k]]]


def wounding(bs: list[fight.Blow], sweep: bool) -> float:
    """The number of targets expected to take an unsaved hit (the AI's measure). A sweep's i-th target (in
    declared order, all alike) gets a die when at least i of the kept dice reach the AV (N-10.4), and that die goes
    through its save as one hit does."""
    if not sweep:
        return sum(_p_wound(b) for b in bs)
    hit = odds.hits(bs[0].base, pools.count(bs[0].mods)[0], bs[0].av)
    total = 0.0
    for i, b in enumerate(bs, 1):
        reached = float(sum(p for k, p in hit.items() if k >= i))
        one = odds.unsaved({1: Fraction(1)}, b.defender.record.save_now, b.weapon.save_mod if b.weapon else 0,
                           b.weapon.hits if b.weapon else 1)
        total += reached * float(1 - one.get(0, 0))
    return total


def _p_wound(b: fight.Blow) -> float:
    return float(1 - b.odds()[1].get(0, 0))


def options(rs, state: State, unit: Unit, single: list[fight.Blow]) -> list[Option]:
    """The multi-target blows the menu offers: every set of 2 to B adjacent enemies it may strike, in id order."""
    base = attacks(rs, unit)
    out = []
    for k in range(2, min(base, len(single)) + 1):
        for group in combinations(single, k):
            ids = tuple(b.defender.id for b in group)
            found = blows(rs, state, unit, ids)
            if isinstance(found, Rejected):
                continue
            sweep, bs = found
            names = " + ".join(b.defender.name for b in bs)
            if sweep:
                how = pools.count(bs[0].mods)[1]
                note = f"one throw, {how} keep {bs[0].base} vs AV {bs[0].av}: a die for each first (N-15.3)"
            else:
                note = " · ".join(f"{b.defender.name}: {b.base} att {pools.count(b.mods)[1]}" for b in bs)
            out.append(Option("Melee", f"Strike {names} (attacks shared)",
                              Act(unit=unit.id, action="melee", targets=ids), note))
    return out
