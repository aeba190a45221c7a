"""Armour (section 18): the suit's AV in tenths and its five side totals, and the damage procedure of A-18.2."""

from __future__ import annotations

import attrs

from engine.rules.annihilation import schema as s
from engine.rules.annihilation.space import Side

SIDES: tuple[Side, ...] = ("front", "left", "right", "rear", "under")


@attrs.frozen(kw_only=True)
class ArmourState:
    """What is left of a suit: AV in tenths (AV10) so the 10% wear stays exact, and the side totals."""

    kind: str
    av10: int
    sv: int
    front: int
    left: int
    right: int
    rear: int
    under: int

    @classmethod
    def of(cls, a: s.Armour) -> "ArmourState":
        return cls(kind=a.name, av10=10 * a.av, sv=a.sv, front=a.front, left=a.left, right=a.right, rear=a.rear,
                   under=a.under)

    @property
    def av(self) -> int:
        return self.av10 // 10


@attrs.frozen
class Hit:
    """One hit through armour: what reached the character, and what the armour became."""

    armour: ArmourState
    through: int  # damage to the character
    stopped: bool  # D ≤ AV: fully stopped, armour unharmed
    wear: int  # SV − AV taken off the side total and, in tenths, off AV
    excess: int  # what the side total went below zero by, dealt as damage
    useless: bool  # the side was already at 0
    text: str


def hit(armour: ArmourState, side: Side, damage: int) -> Hit:
    """A-18.2 for one hit of `damage` on `side`."""
    total = getattr(armour, side)
    if total <= 0:
        return Hit(armour, damage, False, 0, 0, True, f"{damage} on {side}: {side} armour useless → {damage}")
    av = armour.av
    if damage <= av:
        return Hit(armour, 0, True, 0, 0, False, f"{damage} on {side}: {damage} ≤ AV {av}, stopped")
    through = damage - av
    wear = armour.sv - av
    left = total - wear
    excess = max(0, -left)
    after = attrs.evolve(armour, av10=max(0, armour.av10 - wear), **{side: max(0, left)})
    text = (f"{damage} on {side}: {damage} − AV {av} = {through}; wear SV {armour.sv} − {av} = {wear}, "
            f"{side} {total} → {max(0, left)}, AV10 {armour.av10} → {after.av10}")
    if excess:
        text += f"; excess {excess} → {through + excess}"
    return Hit(after, through + excess, False, wear, excess, False, text)
