"""Section 10: spot checks per unit (not per cell), conspicuous and cautious targets, facing arcs, awareness and
the alert radius of an unsuppressed shot.

A spot check is a roll like every other: `d100 + chance > 100`, so its success chance is exactly `chance` %.
"""

from __future__ import annotations

from typing import Iterable

from engine.core.dice import Dice
from engine.core.geometry import Pos, distance
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.checks import Check, check
from engine.rules.xxxzone.lines import in_front


def facing(a: Pos, b: Pos) -> Pos:
    """The facing after moving, attacking or turning from a towards b: a unit step."""
    return ((b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1]))


def conspicuous(moved_quickly: bool, fired_unsuppressed: bool, on_fire: bool) -> bool:
    return moved_quickly or fired_unsuppressed or on_fire


def spot_chance(book: Book, sight: int, d: int, sneak: int, *, front: bool, conspicuous: bool = False,
                concealed: bool = False, hidden: bool = False, line_of_sight: bool = True) -> int:
    """The chance (0-100) that a spotter with `sight` sees a target at D = `d`."""
    if not line_of_sight or hidden:
        return 0
    if d <= 1:
        return 100
    if conspicuous and (front or d <= sight):
        return 100
    st = book.settings
    chance = 100 - st.spot_falloff * max(0, d - sight) - sneak - (st.concealment_penalty if concealed else 0)
    chance = max(0, min(100, chance))
    return chance if front else chance // 2


def spot(dice: Dice, book: Book, spotter: str, target: str, chance: int) -> Check:
    """The check itself; a certain or impossible one still rolls nothing."""
    return check(dice, spotter, f"spot {target}", "spot", chance, (), book.settings.success_over)


def sure(chance: int) -> bool | None:
    """True or False when no die is needed, None when the check must be rolled."""
    return True if chance >= 100 else False if chance <= 0 else None


def sees(book: Book, spotter: Pos, spotter_facing: Pos, sight: int, target: Pos, sneak: int, **kw: bool) -> int:
    """spot_chance from positions: the front arc is the half-plane ahead of the spotter's facing."""
    return spot_chance(book, sight, distance(spotter, target), sneak, front=in_front(spotter, spotter_facing, target),
                       **kw)


def alerted(book: Book, shooter: Pos, enemies: Iterable[tuple[str, Pos]], suppressed: bool) -> tuple[str, ...]:
    """An unsuppressed shot alerts every enemy within D <= 20; suppressed shots and melee alert no one."""
    if suppressed:
        return ()
    return tuple(eid for eid, at in enemies if distance(shooter, at) <= book.settings.alert_radius)
