"""Section 6.8 (Interpretation): Overwatch stores the remaining AP for one chosen weapon mode; whenever an enemy
the watcher can see finishes moving one square within range, it fires that mode if the stored AP cover it, and
keeps doing so while they last. The stored AP vanish at the start of the watcher's next turn (actions.start)."""

from __future__ import annotations

from engine.core.commands import Rejected
from engine.rules.xxxzone import actions
from engine.rules.xxxzone.actions import TurnAp
from engine.rules.xxxzone.battle import Combatant, Watch
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.lines import between
from engine.rules.xxxzone.shot import Shot


def declare(book: Book, turn: TurnAp, c: Combatant, weapon: str, mode: str) -> tuple[TurnAp, Watch] | Rejected:
    w = book.weapons.get(weapon)
    if w is None or weapon not in {h.item for h in c.hands}:
        return Rejected("not_drawn", f"{c.op.name} must hold the weapon to watch with")
    if mode not in w.modes:
        return Rejected("no_mode", f"the {w.name} has no {mode}")
    after = actions.do(book, turn, "overwatch", frozenset(c.op.abilities))
    if isinstance(after, Rejected):
        return after
    return after, Watch(weapon=weapon, mode=mode)


def triggered(book: Book, watch: Watch, turn: TurnAp, watcher: Combatant, mover: Combatant, sees: bool) -> bool:
    """Does this square of the mover's move draw a reaction shot?"""
    w = book.weapons[watch.weapon]
    d = between(watcher.at, mover.at)
    reach = 0 if w.kind == "melee" else w.range
    return (sees and watcher.condition.can_act and not watcher.condition.stunned and d <= reach
            and turn.overwatch >= w.modes[watch.mode].ap and watcher.side != mover.side)


def react(book: Book, watch: Watch, turn: TurnAp, mover: Combatant) -> tuple[TurnAp, Shot] | Rejected:
    """Pay the reaction from the stored AP; the shot takes the overwatch penalty (none with Guardian), and
    Moving Target's -10 and +10 DR since its move triggered it."""
    paid = actions.reaction(turn, book.weapons[watch.weapon].modes[watch.mode].ap)
    if isinstance(paid, Rejected):
        return paid
    return paid, Shot(weapon=watch.weapon, mode=watch.mode, reaction=True)
