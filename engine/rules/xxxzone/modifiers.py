"""Step 1 of the attack (6.1, 6.4, 6.6, 6.7) and the DT the weapon brings after abilities (6, 11.4, 13).

Every modifier is additive points and comes back labelled, so the roll log and the targeting panel can show
what made the number: `AdjAcc = 140 + aim 20 − distance 8 = 152`.
"""

from __future__ import annotations

import attrs

from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.character import Operative, derive
from engine.rules.xxxzone.schema import Item, Weapon

Mods = tuple[tuple[str, int], ...]


@attrs.frozen(kw_only=True)
class Shooter:
    """What an attacker brings to step 1: any entity, operative or alien."""

    id: str
    accuracy: int
    strength: int  # effective
    perception: int
    agility: int
    abilities: frozenset[str] = frozenset()
    wound_penalty: int = 0  # the revised 8.2 total
    disoriented: bool = False


@attrs.frozen(kw_only=True)
class Situation:
    """Everything about this attack beyond distance: what the player declared and what the state says."""

    distance: int  # d: squares between (Chebyshev distance - 1)
    aims: int = 0  # Aim stacks on this target (Sniper allows more than one)
    use_scope: bool = True  # Dead Eye may aim without the scope and keep the bonus
    reaction: bool = False  # overwatch reaction fire
    target_moving_target: bool = False  # the target has Moving Target and this fire was triggered by its move
    marked: bool = False  # an ally Marked this target
    target_wounded: bool = False  # the target has an un-ignored wound (Executioner)
    unaware: bool = False  # the target has not spotted the attacker
    teamwork: bool = False  # an ally with Teamwork! made the same kind of roll at it this round
    concealed: bool = False  # smoke on the line of sight
    lion_ignores: bool = False  # Lion's Eye: an Aimed target's concealment is ignored
    chi_breath_melee: bool = False  # the target keeps Chi Breath and this is melee
    earlier_actions: int = 0  # attack actions with this weapon earlier this turn (recoil)
    roll_index: int = 0  # which roll of a burst or spray
    multi: bool = False  # a burst or spray
    aimed_before: bool = False  # Aimed before this burst or spray (Very Steady Aim)


def shooter_of(op: Operative, book: Book, wound_penalty: int = 0, disoriented: bool = False) -> Shooter:
    return Shooter(id=op.id, accuracy=derive(op, book).accuracy, strength=op.effective("strength"),
                   perception=op.effective("perception"), agility=op.effective("agility"),
                   abilities=frozenset(op.abilities), wound_penalty=wound_penalty, disoriented=disoriented)


def required_strength(book: Book, weapon: Weapon | Item) -> int:
    """6.6: the printed requirement, less the campaign switch for guns (minimum 1)."""
    relief = book.settings.gun_strength_relief if getattr(weapon, "kind", "") in ("gun", "launcher") else 0
    return max(1, weapon.strength - relief) if relief else weapon.strength


def strength_penalty(book: Book, required: int, strength: int) -> int:
    """6.6: `5*(deficit+1)` when the deficit is 1 or more."""
    deficit = required - strength
    return book.settings.strength_step * (deficit + 1) if deficit > 0 else 0


def max_aims(book: Book, s: Shooter) -> int:
    """Sniper stacks Aim `1 + floor(Agi/2)` times; everyone else once."""
    return 1 + s.agility // 2 if "sniper" in s.abilities else 1


def distance_penalty(book: Book, s: Shooter, weapon: Weapon, sit: Situation) -> tuple[int, str]:
    """6.1/6.7: 2 per square; the scope when Aimed; Eagle's Eye's free squares after Aim."""
    st, d = book.settings, sit.distance
    aimed = sit.aims > 0
    if weapon.scope and aimed and sit.use_scope:
        if d < st.scope_reach:
            return st.scope_close_penalty * (st.scope_reach - d), "scope too close"
        d -= st.scope_reach
    if aimed and "eagles_eye" in s.abilities:
        d = max(0, d - min(s.perception, weapon.range))
    return st.distance_penalty * d, "distance"


def recoil(book: Book, s: Shooter, weapon: Weapon, sit: Situation) -> int:
    """6.4 (Interpretation): each roll of a burst or spray takes RecEff, plus RecEff per earlier attack action
    with the same weapon this turn; Very Steady Aim spares an Aimed burst's first roll."""
    eff = max(0, weapon.recoil - (book.settings.steady_aim_recoil if "steady_aim" in s.abilities else 0))
    per_roll = eff if sit.multi else 0
    if sit.multi and sit.roll_index == 0 and sit.aimed_before and "very_steady_aim" in s.abilities:
        per_roll = 0
    return per_roll + eff * sit.earlier_actions


def modifiers(book: Book, s: Shooter, weapon: Weapon, sit: Situation) -> Mods:
    """Every modifier of 6.1 that applies, labelled, in the order of the table."""
    st = book.settings
    out: list[tuple[str, int]] = []
    penalty, label = distance_penalty(book, s, weapon, sit)
    out.append((label, -penalty))
    if sit.aims:
        stacks = min(sit.aims, max_aims(book, s))
        if not weapon.scope or sit.use_scope or "dead_eye" in s.abilities:
            out.append((f"aim ×{stacks}" if stacks > 1 else "aim", st.aim_bonus * stacks))
    if sit.reaction and "guardian" not in s.abilities:
        out.append(("overwatch", -st.overwatch_penalty))
    out.append(("strength", -strength_penalty(book, required_strength(book, weapon), s.strength)))
    out.append(("recoil", -recoil(book, s, weapon, sit)))
    out.append(("wounds", -s.wound_penalty))
    if s.disoriented:
        out.append(("disoriented", -st.disoriented_penalty))
    if sit.reaction and sit.target_moving_target:
        out.append(("moving target", -st.moving_target_accuracy))
    if sit.marked:
        out.append(("marked", st.mark_target_bonus))
    if sit.target_wounded and "executioner" in s.abilities:
        out.append(("executioner", st.executioner_bonus))
    if sit.unaware and "shadow_attack" in s.abilities:
        out.append(("shadow attack", st.shadow_attack_bonus))
    if sit.teamwork and "teamwork" in s.abilities:
        out.append(("teamwork", st.teamwork_bonus))
    if sit.concealed and not (sit.lion_ignores and sit.aims and "lions_eye" in s.abilities):
        out.append(("concealment", -st.concealment_penalty))
    if sit.chi_breath_melee and weapon.kind == "melee":
        out.append(("chi breath", -st.chi_breath_melee_penalty))
    return tuple((label, v) for label, v in out if v)


def adjusted(accuracy: int, mods: Mods) -> tuple[int, str]:
    """`AdjAcc = 110 − distance 16 = 94`."""
    value = accuracy + sum(v for _, v in mods)
    shown = "".join(f" {'+' if v > 0 else '−'} {label} {abs(v)}" for label, v in mods)
    return value, f"AdjAcc = {accuracy}{shown} = {value}"


def adj_acc(book: Book, s: Shooter, weapon: Weapon, sit: Situation) -> tuple[int, str]:
    return adjusted(s.accuracy, modifiers(book, s, weapon, sit))


def weapon_dt(book: Book, abilities: frozenset[str], weapon: Weapon, *, vs_human: bool = False,
              suppressed: bool = False, full_charge: bool = False) -> tuple[int, Mods]:
    """A weapon's DT after the attacker's abilities (the target's End is added in step 5)."""
    st = book.settings
    mods: list[tuple[str, int]] = []
    if "bloody_mess" in abilities:
        mods.append(("bloody mess", -st.bloody_mess_dt))
    if vs_human and "femme_fatale" in abilities:
        mods.append(("femme fatale", -st.femme_fatale_dt))
    if vs_human and weapon.blade and "combat_surgeon" in abilities:
        mods.append(("combat surgeon", -st.combat_surgeon_dt))
    if suppressed and "silent_attack" in abilities:
        mods.append(("silent attack", -st.silent_attack_dt))
    if full_charge and weapon.kind == "melee" and "improved_charge" in abilities:
        mods.append(("improved charge", -st.improved_charge_dt))
    if weapon.unarmed and "chi_strike_palm" in abilities:
        mods.append(("chi strike palm", -st.chi_strike_dt))
    return weapon.dt + sum(v for _, v in mods), tuple(mods)


def explosive_dt(book: Book, abilities: frozenset[str], item: Item) -> tuple[int, int]:
    """11.4: an explosion's DT and penetration category: Explosives Expert (the pre-gens' Grenadier) takes 5 off,
    already folded into their printed values, and adds a penetration category."""
    expert = "explosives_expert" in abilities
    dt = item.dt - (book.settings.explosives_expert_dt if expert else 0)
    if "bloody_mess" in abilities:
        dt -= book.settings.bloody_mess_dt
    return dt, 1 if expert else 0
