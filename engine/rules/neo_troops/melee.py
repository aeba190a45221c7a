"""Section 15: melee with reach, superior position, the defender's Fighter taken off the attacker's dice, several
attacks and several targets. Melee ignores cover; melee range is an adjacent cell."""

from __future__ import annotations

from typing import Sequence

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.rules.neo_troops import pools
from engine.rules.neo_troops.schema import Settings, Weapon
from engine.rules.neo_troops.shooting import Target, assign, shown_hits
from engine.rules.neo_troops.unit import Trooper, carries_big


def own_mods(t: Trooper, weapons: dict, s: Settings) -> pools.Mods:
    """A fighter's own melee dice: severe wounds, load, a BIG weapon (N-5.2 ¹: melee defence), a lost arm."""
    mods: list[tuple[str, int]] = []
    if t.severe_wounds:
        mods.append(("severe wound", -t.severe_wounds))
    if t.load_fraction >= 1.0:
        mods.append(("max load", -2))
    elif t.load_fraction >= s.heavy_load:
        mods.append(("heavy load", -1))
    if carries_big(t, weapons) and s.big_penalty:
        mods.append(("BIG weapon", -s.big_penalty))
    if t.arms_lost:
        mods.append(("arm lost", -t.arms_lost))
    return tuple(mods)


def defence(t: Trooper, weapons: dict, s: Settings, can_defend: bool = True) -> int:
    """N-15.4: Fighter plus its own dice modifiers; 0 when it cannot defend (surprised, incapacitated, unaware)."""
    if not can_defend or not t.can_act:
        return 0
    return t.fighter + sum(d for _, d in own_mods(t, weapons, s))


def reach_of(t: Trooper, weapon: Weapon | None) -> int:
    return weapon.reach if weapon is not None and weapon.reach else t.reach


def attack_mods(attacker: Trooper, weapon: Weapon | None, defender: Trooper, weapons: dict, s: Settings,
                surprise: bool = False, can_defend: bool = True, defender_weapon: Weapon | None = None,
                extra: pools.Mods = ()) -> tuple[int, pools.Mods]:
    """(B, mods): base B attacks, the attacker's Fighter, one superior-position die at most (surprise, longer
    reach, or a negative defence), minus a positive defence; the attacker's own penalties (wounds only: load and
    BIG weapons hamper defence, N-5.2), and `extra` (a combined weapon)."""
    base = weapon.attacks if weapon is not None else attacker.attacks
    d = defence(defender, weapons, s, can_defend and not surprise)
    superior = surprise or reach_of(attacker, weapon) > reach_of(defender, defender_weapon) or d < 0
    mods: list[tuple[str, int]] = [("base", base)]
    if attacker.fighter:
        mods.append(("fighter", attacker.fighter))
    if superior:
        mods.append(("superior", 1))
    if d > 0:
        mods.append(("defence", -d))
    if attacker.severe_wounds:
        mods.append(("severe wound", -attacker.severe_wounds))
    if attacker.arms_lost:
        mods.append(("arm lost", -attacker.arms_lost))
    return base, tuple(mods) + tuple(m for m in extra if m[1])


def strike(dice: Dice, attacker: Trooper, weapon: Weapon | None, defender: Trooper, weapons: dict, s: Settings,
           surprise: bool = False, can_defend: bool = True, defender_weapon: Weapon | None = None,
           extra: pools.Mods = ()) -> pools.Attack:
    """N-15.4 against one target: a multiple-dice test (N-2.3) against its AV, no cover."""
    base, mods = attack_mods(attacker, weapon, defender, weapons, s, surprise, can_defend, defender_weapon, extra)
    return pools.attack(dice, attacker.id, f"melee on {defender.id}", base, mods, defender.av)


@attrs.frozen(kw_only=True)
class Share:
    """One target's part of a multi-target melee: its attacks B_i and the attacker's skill dice spent on it."""

    defender: Trooper
    attacks: int
    skill: int
    can_defend: bool = True


def strike_many(dice: Dice, attacker: Trooper, weapon: Weapon | None, shares: Sequence[Share], weapons: dict,
                s: Settings, surprise: bool = False) -> list[pools.Attack] | Rejected:
    """N-15.3: the dice are divided before the throw; each target is then resolved on its own, its defence
    subtracted from its share."""
    base = weapon.attacks if weapon is not None else attacker.attacks
    if sum(x.attacks for x in shares) != base or sum(x.skill for x in shares) > attacker.fighter \
            or any(x.attacks < 1 or x.skill < 0 for x in shares):
        return Rejected("shares", f"Share {base} attacks and at most {attacker.fighter} Fighter dice among targets")
    out = []
    for x in shares:
        one = attrs.evolve(attacker, fighter=x.skill)
        one_weapon = attrs.evolve(weapon, attacks=x.attacks) if weapon is not None else None
        if one_weapon is None:
            one = attrs.evolve(one, attacks=x.attacks)
        out.append(strike(dice, one, one_weapon, x.defender, weapons, s, surprise, x.can_defend))
    return out


def sweep(dice: Dice, attacker: Trooper, weapon: Weapon | None, defenders: Sequence[Trooper], weapons: dict,
          s: Settings) -> tuple[Roll, dict[str, int]] | Rejected:
    """N-15.3's exception: against similar targets with no melee skill, throw the whole pool, keep B, then assign
    the dice as spray fire does (N-10.4)."""
    if any(d.fighter for d in defenders) or len({d.av for d in defenders}) > 1:
        return Rejected("not_similar", "Only similar targets without melee skill share one throw")
    base, mods = attack_mods(attacker, weapon, defenders[0], weapons, s)
    return thrown(dice, attacker.id, base, mods, [Target(id=d.id, av=d.av) for d in defenders])


def thrown(dice: Dice, who: str, base: int, mods: pools.Mods, targets: Sequence[Target]) -> tuple[Roll, dict[str, int]]:
    """The sweep's one throw: keep the B highest (N-2.3), each kept die to a target as spray fire's are."""
    n, how = pools.count(mods)
    pool = pools.throw(dice, who, "melee sweep", base, n)
    hits, _ = assign(pool.kept, targets)
    return pools.record(pool, who, "melee sweep", how, f"vs {shown_hits(targets, hits)}", sum(hits.values())), hits
