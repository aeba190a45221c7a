"""xcom-trpg 8.1-8.10: one attack resolved against dice, with no map and no state changes.

The game and `xenotac resolve` both call `resolve_shot` / `resolve_blast`; they differ only in
where `between`, `target_sees` and `cover` come from.
"""

from __future__ import annotations

import attrs

from engine.content.models import Content
from engine.rules.xcom_trpg.models import Mode, RulesetDef, Weapon
from engine.core.dice import Dice, Roll
from engine.content.formula import div_round
from engine.core.model import Unit
from engine.rules.xcom_trpg import buffs, sources
from engine.rules.xcom_trpg.checks import luck_check, passed, stat_roll, tie_break
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier

PARTIAL, FULL = 1, 2
DEATH_BELOW = -5  # 6.3: HP below -5 is death; -5..0 is unconsciousness (6.2)


def status_for(hp: int, concussion: int) -> str:
    if hp < DEATH_BELOW:
        return "dead"
    if hp <= 0 or concussion > hp:
        return "unconscious"
    return "active"


@attrs.frozen
class Hit:
    """One projectile (or blast) that reached a target."""

    target: str
    damage: int
    concussion: int = 0
    kind: str = "hit"  # hit | glancing | crit120 | headshot | kill


@attrs.frozen
class Outcome:
    rolls: list[Roll]
    hits: list[Hit]
    verdict: str  # hit | miss | dodged | headshot | no effect
    summary: str
    crits: dict[str, list[str]]  # unit id -> ["success", "failure", ...] for tokens and morale


def effective_stat(unit: Unit, stat: str, *, dodge: bool = False) -> int:
    """The stat every rule reads: 6.4, with stamina 0 Strength counts as Strength/3 (rounded, min 1);
    3.5, episode buffs (buffs.py; `dodge` for inspiration 3)."""
    value = soldier(unit).stats[stat]
    if stat == "strength" and soldier(unit).stamina <= 0 and not soldier(unit).infinite_stamina:
        value = max(1, div_round(value, 3))
    return buffs.adjust(unit, stat, value, dodge=dodge)


def owner_bonus(unit: Unit, weapon: Weapon, stat: str) -> int:
    """8.12.1: a weapon made for one operative (PP2-BS: Zmey +3 Agility, +1 Luck) is ordinary for others."""
    return weapon.owner_bonus.get(stat, 0) if weapon.owner == unit.template else 0


def shooter_luck(unit: Unit, weapon: Weapon) -> int:
    return effective_stat(unit, "luck") + owner_bonus(unit, weapon, "luck")


def mode_stamina(unit: Unit, mode: Mode) -> int:
    """6.4, 8.12.5: a sniper shot costs its stamina only if fired standing (not prone)."""
    if mode.sniper and soldier(unit).sniper_prone:
        return 0
    return mode.stamina


def attack_stat(unit: Unit, weapon: Weapon) -> str:
    """8.12.2: RSh-12 falls back to Agility below Strength 7."""
    if weapon.fallback_stat and soldier(unit).stats.get("strength", 0) < weapon.fallback_below:
        return weapon.fallback_stat
    return weapon.stat


def penalty(unit: Unit, weapon: Weapon) -> int:
    if weapon.penalty is None:
        return 0
    return weapon.penalty.evaluate(soldier(unit).stats)[0]


def crit_floor(content: Content, rules: RulesetDef, target: Unit | None) -> int:
    """3.4: attacks on sectoids crit from 86, on sectopods and cyberdisks from 99."""
    if target is not None:
        low = xcom(content).races[target.race].crit_range_min
        if low is not None:
            return low
    return rules.crit_success_min


def armour_damage(content: Content, weapon: Weapon, target: Unit, *, unarmoured_if_light: bool = False) -> int:
    """8.1: power - (tier - ignore)*3, floored at 0."""
    tier = xcom(content).armor[soldier(target).armor].tier
    if unarmoured_if_light and tier == 1:
        tier = 0
    return max(0, weapon.damage - max(0, tier - weapon.armor_ignore) * 3)


def concussion_taken(content: Content, amount: int, target: Unit) -> int:
    """8.5: ignores tiers 0-2; heavy armour reduces it by 20%, rounded."""
    cut = xcom(content).armor[soldier(target).armor].concussion_reduction_percent
    return div_round(amount * (100 - cut), 100) if cut else amount


def _name(unit: Unit) -> str:
    return unit.name


def _dodge(dice: Dice, content: Content, rules: RulesetDef, weapon: Weapon, shooter: Unit, target: Unit,
           atk: int, atk_luck: Roll, rolls: list[Roll], crits: dict[str, list[str]], label: str,
           concussion: int = 0, between: int = 2, agility_bonus: int = 0, luck_bonus: int = 0,
           damage: int | None = None) -> Hit | None:
    """One dodge against one projectile (8.7 case B, 8.12.6): None if it misses.

    A sniper shot's target dodges with +7 Agility, +2 Luck (`*_bonus`) against the declared part's
    `damage` (8.12.5)."""
    agility = effective_stat(target, "agility", dodge=True) + agility_bonus
    d = stat_roll(dice, rules, target.id, f"dodge{label}", "agility", agility)
    rolls.append(d)
    if dice.sources is not None:
        dice.note(d, *sources.dodge(content, target, agility, between))
    full = armour_damage(content, weapon, target) if damage is None else damage
    conc = concussion_taken(content, concussion, target)
    if d.crit == "success":
        crits.setdefault(target.id, []).append("success")
        return None
    if d.crit == "failure":
        crits.setdefault(target.id, []).append("failure")
        boosted = armour_damage(content, weapon, target, unarmoured_if_light=True) if damage is None else damage
        return Hit(target.id, div_round(boosted * 6, 5), conc, "crit120")
    if d.total < atk:
        return Hit(target.id, full, conc, "hit")
    luck = luck_check(dice, rules, target.id, effective_stat(target, "luck", dodge=True) + luck_bonus,
                      f"dodge{label} luck")
    rolls.append(luck)
    if dice.sources is not None:
        dice.note(luck, *sources.luck(content, rules, target))
    if not passed(luck, rules):
        return Hit(target.id, div_round(full, 2), div_round(conc, 2), "glancing")
    if d.total > atk:
        return None
    shooter_wins, extra = tie_break(dice, rules, shooter.id, shooter_luck(shooter, weapon), atk_luck,
                                    target.id, effective_stat(target, "luck", dodge=True) + luck_bonus, luck)
    rolls.extend(extra)
    return Hit(target.id, full, conc, "hit") if shooter_wins else None


def resolve_shot(content: Content, rules: RulesetDef, dice: Dice, shooter: Unit, target: Unit, weapon: Weapon,
                 mode: Mode, *, between: int, target_sees: bool, cover: int, cover_from: str = "") -> Outcome:
    """Every shot of the mode, each with its own main roll and luck check (8.9)."""
    rolls: list[Roll] = []
    hits: list[Hit] = []
    crits: dict[str, list[str]] = {}
    stat = attack_stat(shooter, weapon)
    value = effective_stat(shooter, stat) + mode.stat_modifier + owner_bonus(shooter, weapon, stat)
    low = crit_floor(content, rules, target)
    pen = penalty(shooter, weapon)
    notes: list[str] = []
    note = f" vs {xcom(content).races[target.race].name.lower()}" if low != rules.crit_success_min else ""
    status = target.status  # as the burst goes on: a target put down cannot dodge, a dead one takes nothing
    for shot in range(mode.shots):
        tag = f" {shot + 1}" if mode.shots > 1 else ""
        down = status == "dead"
        a = stat_roll(dice, rules, shooter.id, f"attack{tag}", stat, value, crit_min=low,
                      halve=cover == PARTIAL, penalty=pen, crit_note=note)
        rolls.append(a)
        if dice.sources is not None:
            bonus = owner_bonus(shooter, weapon, stat)
            dice.note(a, *sources.attack(content, rules, shooter, weapon, mode, stat, value - bonus, low, pen,
                                         (cover_from or "partial") if cover == PARTIAL else "", target))
            if bonus:
                dice.note(a, f"{bonus:+d} {stat}, {owner_bonus(shooter, weapon, 'luck'):+d} luck: weapons.toml "
                             f"owner_bonus, {shooter.name}'s own weapon (8.12.1)")
        if a.crit == "success":
            crits.setdefault(shooter.id, []).append("success")
            if down:
                notes.append(f"shot{tag}: headshot on the body")
                continue
            if soldier(target).armor in weapon.headshot_kills:
                hits.append(Hit(target.id, 0, 0, "kill"))
                status = "dead"
            else:
                for _ in range(weapon.pellets):
                    hits.append(Hit(target.id, weapon.damage * weapon.headshot_multiplier, 0, "headshot"))
            continue
        if a.crit == "failure":
            crits.setdefault(shooter.id, []).append("failure")
            notes.append(f"shot{tag}: critical failure")
            continue
        luck = luck_check(dice, rules, shooter.id, shooter_luck(shooter, weapon))
        rolls.append(luck)
        if dice.sources is not None:
            dice.note(luck, *sources.luck(content, rules, shooter))
        if not passed(luck, rules):
            notes.append(f"shot{tag}: luck check failed")
            continue
        if down:
            notes.append(f"shot{tag}: hits the body")
            continue
        dodging = between >= 2 and target_sees and status == "active"
        for pellet in range(weapon.pellets):
            label = f"{tag} pellet {pellet + 1}" if weapon.pellets > 1 else tag
            if dodging:
                hit = _dodge(dice, content, rules, weapon, shooter, target, a.total, luck, rolls, crits, label,
                             between=between)
            else:
                hit = Hit(target.id, armour_damage(content, weapon, target), 0, "hit")
            if hit is not None:
                hits.append(hit)
        if status != "dead":
            status = status_for(target.hp - sum(h.damage for h in hits), soldier(target).concussion)
    verdict, summary = _verdict(shooter, target, hits, notes, mode.shots * weapon.pellets)
    return Outcome(rolls, hits, verdict, summary, crits)


def _verdict(shooter: Unit, target: Unit, hits: list[Hit], notes: list[str], projectiles: int) -> tuple[str, str]:
    who = f"{_name(shooter)} → {_name(target)}"
    if any(h.kind == "kill" for h in hits):
        return "headshot", f"{who}: HEADSHOT, killed outright"
    if not hits:
        why = "; ".join(notes) if notes else "dodged"
        return ("miss" if notes else "dodged"), f"{who}: MISS ({why})"
    damage = sum(h.damage for h in hits)
    verdict = "headshot" if any(h.kind == "headshot" for h in hits) else "hit"
    kinds = sorted({h.kind for h in hits} - {"hit", verdict})
    extra = f" ({', '.join(kinds)})" if kinds else ""
    count = f"{len(hits)}/{projectiles} hit, " if projectiles > 1 else ""
    return verdict, f"{who}: {verdict.upper()}{extra}, {count}{damage} dmg"


@attrs.frozen
class ThrowRoll:
    rolls: list[Roll]
    attack: Roll
    luck: Roll | None  # None after a crit: no luck check was made
    landed: bool  # False: it goes astray and the caller scatters it
    crits: dict[str, list[str]]


def throw_roll(content: Content, rules: RulesetDef, dice: Dice, thrower: Unit, weapon: Weapon,
               declared: Unit | None) -> ThrowRoll:
    """8.10: a Strength attack on a cell; a crit failure or failed luck check scatters it."""
    stat = attack_stat(thrower, weapon)
    value, low, pen = effective_stat(thrower, stat), crit_floor(content, rules, declared), penalty(thrower, weapon)
    a = stat_roll(dice, rules, thrower.id, "throw" if weapon.thrown else "attack", stat, value, crit_min=low,
                  penalty=pen)
    if dice.sources is not None:
        mode = next(iter(weapon.modes.values()))
        dice.note(a, *sources.attack(content, rules, thrower, weapon, mode, stat, value + mode.stat_modifier, low,
                                     pen, "", declared))
    crits: dict[str, list[str]] = {}
    if a.crit is not None:
        crits[thrower.id] = [a.crit]
        return ThrowRoll([a], a, None, a.crit == "success", crits)
    luck = luck_check(dice, rules, thrower.id, effective_stat(thrower, "luck"))
    if dice.sources is not None:
        dice.note(luck, *sources.luck(content, rules, thrower))
    return ThrowRoll([a, luck], a, luck, passed(luck, rules), crits)


def blast(content: Content, rules: RulesetDef, dice: Dice, thrower: Unit, weapon: Weapon, throw: ThrowRoll | None,
          head: Unit | None, victims: list[tuple[Unit, int, bool]]) -> tuple[list[Hit], list[Roll], dict[str, list[str]]]:
    """Every unit in the blast cell: (unit, sectors between, sees the thrower).

    A unit may dodge (8.7 case B) against the throw total; a scattered blast (`throw` None)
    and a head-strike leave no dodge.
    """
    hits: list[Hit] = []
    rolls: list[Roll] = []
    crits: dict[str, list[str]] = {}
    if head is not None:
        if soldier(head).armor in weapon.headshot_kills:
            hits.append(Hit(head.id, 0, 0, "kill"))
        else:
            hits.append(Hit(head.id, weapon.damage * weapon.headshot_multiplier, 0, "headshot"))
    for unit, between, sees in victims:
        if head is not None and unit.id == head.id:
            continue
        conc = concussion_taken(content, weapon.concussion, unit)
        can_dodge = throw is not None and throw.luck is not None and between >= 2 and sees and unit.conscious
        if can_dodge:
            assert throw is not None and throw.luck is not None
            hit = _dodge(dice, content, rules, weapon, thrower, unit, throw.attack.total, throw.luck, rolls, crits,
                         f" ({unit.name})", concussion=weapon.concussion, between=between)
        else:
            hit = Hit(unit.id, armour_damage(content, weapon, unit), conc, "hit")
        if hit is not None:
            hits.append(hit)
    return hits, rolls, crits
