"""Section 13: the battle abilities whose effect is not a number folded in elsewhere.

Numbers that abilities add (Sneak, AP, Carry, DT, recoil, accuracy) live in the modules that compute them
(character, modifiers, actions, wounds); this module holds the abilities that decide something: Melee Charge,
Chi Strike Palm, Sneak Attack's tier shift, Inspire Allies, Tactical Scouting, Hacker, Lockpicker,
Engineering and the DR the defender's abilities add.
"""

from __future__ import annotations

from typing import Iterable

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.core.geometry import Pos, distance
from engine.rules.xxxzone.actions import TurnAp
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.checks import Check, check, roll_formula
from engine.rules.xxxzone.wounds import Condition, Vitals, fort_check

INSPIRE_RADIUS = 4  # 13: allies within D <= 4


def sneak_shift(attacker: frozenset[str], melee: bool, unaware: bool) -> int:
    """Sneak Attack: a melee hit on an unaware enemy moves up one tier (glancing → Minor → Severe → Mortal)."""
    return 1 if melee and unaware and "sneak_attack" in attacker else 0


def charge_ready(turn: TurnAp, melee_ap: int, abilities: frozenset[str]) -> bool:
    """Melee Charge: after spending at least twice a melee option's AP on movement this turn, that attack is free."""
    return "melee_charge" in abilities and turn.moved >= 2 * melee_ap


def full_charge(turn: TurnAp, abilities: frozenset[str]) -> bool:
    """Improved Charge: the whole turn's AP went into movement before the charge (DT -10)."""
    return "improved_charge" in abilities and turn.moved >= turn.maximum


def defence_dr(book: Book, defender: frozenset[str], *, chi_breath: bool = False, reaction_to_move: bool = False,
               penetration: int = 0, mechanical: bool = False,
               attacker: frozenset[str] = frozenset()) -> tuple[tuple[str, int], ...]:
    """DR the defender's abilities add (no armour HP spent): Moving Target against reaction fire triggered by its
    move, Chi Breath against attacks of penetration category below 2; Engineering lowers a machine's DR by 5."""
    st = book.settings
    out: list[tuple[str, int]] = []
    if reaction_to_move and "moving_target" in defender:
        out.append(("moving target", st.moving_target_dr))
    if chi_breath and penetration < 2:
        out.append(("chi breath", st.chi_breath_dr))
    if mechanical and "engineering" in attacker:
        out.append(("engineering", -5))
    return tuple(out)


@attrs.frozen(kw_only=True)
class Struck:
    condition: Condition
    rolls: tuple[Roll, ...]


def chi_strike(dice: Dice, book: Book, target: Vitals, c: Condition, wound_penalty: int) -> Struck:
    """Chi Strike Palm: a wound forces a Fort check, or the target is Stunned 1d3 turns and Disoriented 3."""
    f = fort_check(dice, book, target, "Chi Strike Palm: Fort", wound_penalty)
    if f.passed:
        return Struck(condition=c, rolls=(f.roll,))
    turns = roll_formula(dice, target.id, "Chi Strike Palm: stunned turns", book.settings.chi_stun_turns)
    c = attrs.evolve(c, stunned=max(c.stunned, turns.total),
                     disoriented=max(c.disoriented, book.settings.chi_disoriented_turns))
    return Struck(condition=c, rolls=(f.roll, turns))


def mark_holds(sees: bool, action: str, target: str, marked: str) -> bool:
    """Mark Target's +20 lasts until focus is lost: the marker loses sight of the target, or does anything but
    attack it or move."""
    return sees and (action == "move" or (action == "attack" and target == marked))


def inspired(inspirer: Pos, allies: Iterable[tuple[str, Pos, bool]]) -> tuple[str, ...]:
    """Inspire Allies: the allies within D <= 4 that failed a Will test within the past turn may re-roll it."""
    return tuple(aid for aid, at, failed in allies if failed and distance(inspirer, at) <= INSPIRE_RADIUS)


def scouted(armour_dr: int, penetration_needed: int) -> str:
    """Tactical Scouting: what the player learns of a seen, previously unknown enemy."""
    return f"armour DR {armour_dr}, penetration category {penetration_needed} needed"


def hack(dice: Dice, book: Book, who: str, score: int | None, security: int | None = None) -> Check | Rejected:
    """A field hack attempt (its 3d10! AP are paid first): `d100 + Hack - security > 100`."""
    if score is None:
        return Rejected("needs_ability", "hacking needs Hacker")
    sec = book.settings.hack_security if security is None else security
    return check(dice, who, "hack", "Hack", score, (("security", -sec),), book.settings.success_over)


def pick_lock(dice: Dice, book: Book, who: str, score: int | None) -> Check | Rejected:
    """A lock-picking attempt (its 3d10 AP are paid first): `d100 + Locksmith > 100`."""
    if score is None:
        return Rejected("needs_ability", "picking a lock needs Lockpicker")
    return check(dice, who, "pick lock", "Locksmith", score, (), book.settings.success_over)
