"""Section 13 (Loot Drops, More Loot): what a won mission's squad salvages from the enemies it took down, in F."""

from __future__ import annotations

from engine.core.dice import Dice, Roll
from engine.rules.xxxzone.battle import Combatant
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.creator import Recruit


def salvage(book: Book, state, home: list[Recruit], dice: Dice) -> tuple[int, tuple[Roll, ...], tuple[str, ...]]:
    """13 (Interpretation): after a won mission each item an enemy killed, stunned or down still holds (in
    hand or on the belt; not its spare magazines) is salvaged on d100 <= 50, or the best of Loot Drops (70)
    and More Loot (85) among the operatives who came home; each salvaged item is worth `salvage_worth` F."""
    camp = book.campaign
    chance, why = camp.salvage, ""
    for r in home:
        for ability, pct in (("loot_drops", camp.salvage_loot_drops), ("more_loot", camp.salvage_more_loot)):
            if ability in r.abilities and pct > chance:
                chance, why = pct, f" ({book.abilities[ability].name}: {r.name})"
    rolls, notes, salvaged = [], [], 0
    for u in state.units.values():
        c = u.record
        if not isinstance(c, Combatant) or u.side not in state.sides[1:]:
            continue
        if c.condition.can_act and not c.condition.stunned:  # dead, down or stunned: its kit is there to take
            continue
        for item in [h.item for h in c.hands] + list(c.belt):
            name = book.gear(item).name
            face, index = dice.d(100, c.id, f"salvage: {name}")
            got = face <= chance
            salvaged += got
            rolls.append(Roll(actor=c.id, purpose=f"salvage: {name}", expr="1d100", faces=(face,),
                              formula=f"d100 {face} {'≤' if got else '>'} {chance}", total=face, index=index))
            notes.append(f"Salvage: {c.op.name}'s {name}: d100 {face} {'≤' if got else '>'} {chance}{why}: "
                         + ("salvaged" if got else "lost"))
    if rolls:
        worth = salvaged * camp.salvage_worth
        notes.append(f"Salvage: {salvaged} of {len(rolls)} enemy items, {salvaged} × {camp.salvage_worth}F = "
                     f"{worth}F")
        return worth, tuple(rolls), tuple(notes)
    return 0, (), ()
