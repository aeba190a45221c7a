"""Exact odds of a shot, enumerated over every d100 face (vectorised), for previews and the AI."""

from __future__ import annotations

import numpy as np

from engine.content.models import Content
from engine.rules.xcom_trpg.models import Mode, RulesetDef, Weapon
from engine.core.model import Unit
from engine.rules.xcom_trpg.combat import (PARTIAL, armour_damage, attack_stat, crit_floor, effective_stat,
                                           owner_bonus, penalty, shooter_luck)
from engine.rules.xcom_trpg.record import soldier

FACES = np.arange(1, 101)


def _luck_pass(luck: int, threshold: int) -> float:
    return float(np.mean(luck * FACES >= threshold))


def shot_odds(content: Content, rules: RulesetDef, shooter: Unit, target: Unit, weapon: Weapon, mode: Mode, *,
              between: int, target_sees: bool, cover: int) -> tuple[float, float, float]:
    """(chance the target takes damage or dies, expected damage, headshot chance) for the whole mode.

    A tranquilizer's "damage" is its dose: p_hit is the chance the dart lands; a sniper mode is previewed
    at the torso (`sniper_odds` for the other parts)."""
    if mode.sniper:
        return sniper_odds(content, rules, shooter, target, weapon, mode, "torso", target_sees=target_sees,
                           cover=cover)
    stat = attack_stat(shooter, weapon)
    value = effective_stat(shooter, stat) + mode.stat_modifier + owner_bonus(shooter, weapon, stat)
    low = crit_floor(content, rules, target)
    atk = value * FACES - penalty(shooter, weapon)
    if cover == PARTIAL:
        atk = np.where(atk >= 0, np.floor(atk / 2 + 0.5), -np.floor(-atk / 2 + 0.5))
    normal = (FACES > rules.crit_failure_max) & (FACES < low)
    p_head = float(np.mean(FACES >= low))
    p_luck = _luck_pass(shooter_luck(shooter, weapon), rules.luck_threshold)
    full = armour_damage(content, weapon, target)
    lands = full > 0 or weapon.darts
    kills = soldier(target).armor in weapon.headshot_kills
    head_damage = 0.0 if kills else weapon.damage * weapon.headshot_multiplier * weapon.pellets
    dodging = between >= 2 and target_sees and target.conscious
    if not dodging:
        p_pellet = np.where(normal, p_luck, 0.0)  # per A face: every pellet hits or none
        damage = p_pellet * full * weapon.pellets
        p_any = p_pellet if lands else np.zeros_like(p_pellet)
    else:
        agi = effective_stat(target, "agility", dodge=True)
        d_luck = _luck_pass(effective_stat(target, "luck", dodge=True), rules.luck_threshold)
        defence = agi * FACES  # [D]
        d_normal = (FACES > rules.crit_failure_max) & (FACES < rules.crit_success_min)
        a = atk[:, None]
        below = (defence[None, :] < a) & d_normal[None, :]
        equal = (defence[None, :] == a) & d_normal[None, :]
        above = (defence[None, :] >= a) & d_normal[None, :]
        p_full = below.mean(1) + d_luck * 0.5 * equal.mean(1)  # a tie goes either way (3.3)
        p_glance = (1 - d_luck) * above.mean(1)
        p_boost = float(np.mean(FACES <= rules.crit_failure_max))
        boosted = round(armour_damage(content, weapon, target, unarmoured_if_light=True) * 1.2)
        per_pellet_damage = p_full * full + p_glance * round(full / 2) + p_boost * boosted
        per_pellet_hit = (p_full + p_glance) * lands + p_boost * (boosted > 0 or weapon.darts)
        gate = np.where(normal, p_luck, 0.0)
        damage = gate * per_pellet_damage * weapon.pellets
        p_any = gate * (1 - (1 - per_pellet_hit) ** weapon.pellets)
    p_shot_hit = float(np.mean(p_any)) + p_head
    exp_shot = float(np.mean(damage)) + p_head * head_damage
    p_hit = 1 - (1 - min(1.0, p_shot_hit)) ** mode.shots
    return p_hit, exp_shot * mode.shots, 1 - (1 - p_head) ** mode.shots


def _dodge_fails(atk: np.ndarray, agility: int, luck: int, rules: RulesetDef) -> tuple[np.ndarray, np.ndarray, float]:
    """Per attack total: (chance the dodge fails outright, chance of a glancing hit, chance of a dodge
    crit failure)."""
    d_luck = _luck_pass(luck, rules.luck_threshold)
    d_normal = (FACES > rules.crit_failure_max) & (FACES < rules.crit_success_min)
    defence = agility * FACES
    a = atk[:, None]
    below = (defence[None, :] < a) & d_normal[None, :]
    equal = (defence[None, :] == a) & d_normal[None, :]
    above = (defence[None, :] >= a) & d_normal[None, :]
    return below.mean(1) + d_luck * 0.5 * equal.mean(1), (1 - d_luck) * above.mean(1), \
        float(np.mean(FACES <= rules.crit_failure_max))


def sniper_odds(content: Content, rules: RulesetDef, shooter: Unit, target: Unit, weapon: Weapon, mode: Mode,
                part: str, *, target_sees: bool, cover: int) -> tuple[float, float, float]:
    """8.12.5: (hit chance, expected damage, kill-by-headshot chance) of a sniper shot at `part`."""
    from engine.rules.xcom_trpg.sniper import DODGE_AGILITY, DODGE_LUCK, need, part_damage

    stat = attack_stat(shooter, weapon)
    value = effective_stat(shooter, stat) + mode.stat_modifier + owner_bonus(shooter, weapon, stat)
    atk = value * FACES - penalty(shooter, weapon)
    if cover == PARTIAL:
        atk = np.floor(atk / 2 + 0.5)
    gate = _luck_pass(shooter_luck(shooter, weapon), rules.luck_threshold) * float(np.mean(FACES >= need(target, part)))
    damage = part_damage(content, weapon, target, part)
    power = weapon.damage * weapon.headshot_multiplier if damage is None else damage
    if target_sees and target.conscious:
        full, glance, boost = _dodge_fails(atk, effective_stat(target, "agility", dodge=True) + DODGE_AGILITY,
                                           effective_stat(target, "luck", dodge=True) + DODGE_LUCK, rules)
        p_full = float(np.mean(full)) + boost
        p_glance = float(np.mean(glance))
    else:
        p_full, p_glance = 1.0, 0.0
    p_hit = gate * (p_full + p_glance)
    if damage is None:
        return p_hit, gate * p_glance * round(power / 2), gate * p_full
    return p_hit, gate * (p_full * power + p_glance * round(power / 2)), 0.0
