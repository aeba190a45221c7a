"""What the hands let go of after a command (A-19.5, A-19.10; settings `drops_held`): an unconscious or dead
character's hands, and the hand of an arm blown off, drop what they hold to the unit's square (the floor, A-12.2),
where it is picked up again at floor → hand (8 TU); a strapped item they gripped is let hang on its strap."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.core.events import Event, UnitChanged
from engine.core.model import State
from engine.core.reducer import fold
from engine.rules.annihilation.inventory import ARM_OF, HANDS, Carried
from engine.rules.annihilation.soldier import Soldier, changes

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation


def _let_go(c: Carried, hands: tuple[str, ...]) -> Carried:
    if c.place in hands or (c.place == "both_hands" and hands):
        return attrs.evolve(c, place="floor", gripped=())
    if set(c.gripped) & set(hands):
        return attrs.evolve(c, gripped=())
    return c


def settle(rs: Annihilation, state: State, events: list[Event]) -> list[Event]:
    """After a command: every unit it changed whose hands can no longer hold lets go, in unit order."""
    if not rs.book.settings.drops_held:
        return []
    touched = {e.unit for e in events if isinstance(e, UnitChanged)}
    if not touched:
        return []
    now = fold(state, events)
    out: list[Event] = []
    for uid in sorted(touched):
        u = now.units.get(uid)
        if u is None or not isinstance(u.record, Soldier):
            continue
        f = u.record.fighter
        hands = HANDS if f.status != "awake" else tuple(h for h in HANDS if ARM_OF[h] in f.lost)
        kit = tuple(_let_go(c, hands) for c in u.record.kit) if hands else u.record.kit
        if kit != u.record.kit:
            why = "unconscious" if f.status == "unconscious" else "dead" if f.status == "dead" else "its arm lost"
            out.append(UnitChanged(unit=uid, changes=changes(u, attrs.evolve(u.record, kit=kit)),
                                   cause=f"lets go of what it held ({why})"))
    return out
