"""Sections 14.2, 14.3 and 15 as pure functions: training days and limits, the Luck binge, build times and costs.

The campaign issue will drive these between battles; they are here so that the operatives made now are the ones
a campaign keeps, and so that the spec's vectors 53-57 hold.
"""

from __future__ import annotations

import math

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.character import SHORT, Operative
from engine.rules.xxxzone.checks import roll_formula, value
from engine.rules.xxxzone.generation import can_learn
from engine.rules.xxxzone.wounds import Wounds


def attribute_days(book: Book, op: Operative, attribute: str, facility: str) -> int | Rejected:
    """Days to raise an attribute by 1 at a facility: `3 + 3*current`, up to the facility's cap."""
    fac = book.facilities.get(facility)
    if fac is None or attribute not in fac.trains:
        return Rejected("wrong_facility", f"{SHORT[attribute]} is not trained at {fac.name if fac else facility}")
    current = op.printed(attribute)
    if current + 1 > fac.trains[attribute]:
        return Rejected("cap", f"the {fac.name} trains {SHORT[attribute]} up to {fac.trains[attribute]}; "
                               f"{op.name} has {current}")
    return value(book.campaign.attribute_days, {"current": current})


def ability_days(book: Book, op: Operative, ability: str) -> int | Rejected:
    """Days to learn an ability: 3 x its required score (the sum of both for two requirements)."""
    refused = can_learn(op, book, ability)
    if refused is not None:
        return refused
    a = book.abilities[ability]
    needs = a.second_rank if op.rank(ability) else a.requires
    return book.campaign.ability_days_per_point * sum(needs.values())


def build_hours(man_days: int, engineers: int) -> int | Rejected:
    """`ceil(24 * ManDays / Engineers)`."""
    if engineers < 1:
        return Rejected("no_engineers", "building needs at least one engineer assigned")
    return math.ceil(24 * man_days / engineers)


@attrs.frozen
class Cost:
    man_days: int
    funding: int


def cost(book: Book, facility: str, layer: int = 1, excavated: bool = True) -> Cost:
    """A facility's cost: an Excavation on layer n costs n F; a Missile Silo over ground not fully excavated
    costs its extra once."""
    fac = book.facilities[facility]
    funding = fac.funding * (layer if fac.per_layer else 1)
    if excavated:
        return Cost(fac.man_days, funding)
    return Cost(fac.man_days + fac.unexcavated_man_days, funding + fac.unexcavated_funding)


def new_base(book: Book) -> tuple[Cost, Cost]:
    """The flat price of a new base, and the sum of its components' prices (the man-days agree; the F do not)."""
    parts = [cost(book, f) for f in book.campaign.new_base]
    flat = Cost(book.campaign.new_base_man_days, book.campaign.new_base_funding)
    return flat, Cost(sum(p.man_days for p in parts), sum(p.funding for p in parts))


def gamble(dice: Dice, book: Book, op: Operative) -> tuple[Operative, bool, tuple[Roll, ...]]:
    """14.3: a week's binge for 1F: `d10 > Luck` raises Luck (to 10 at most); `d100 <= 5*Luck` refunds the F."""
    luck = op.printed("luck")
    up, i = dice.d(10, op.id, "gambling: Luck")
    back, j = dice.d(100, op.id, "gambling: refund")
    raised = up > luck and luck < book.campaign.luck_max
    refund = back <= 5 * luck
    rolls = (Roll(actor=op.id, purpose="gambling: Luck", expr="1d10", faces=(up,),
                  formula=f"d10 {up} {'>' if up > luck else '≤'} Luck {luck}", total=up, index=i),
             Roll(actor=op.id, purpose="gambling: refund", expr="1d100", faces=(back,),
                  formula=f"d100 {back} {'≤' if refund else '>'} {5 * luck}", total=back, index=j))
    if raised:
        op = attrs.evolve(op, attributes=attrs.evolve(op.attributes, luck=luck + 1))
    return op, refund, rolls


def heal_days(dice: Dice, book: Book, op: Operative, tier: str) -> Roll:
    """8.2: days for one wound to heal (Fast Healing: the shorter dice)."""
    t = book.wounds[tier]
    return roll_formula(dice, op.id, f"healing a {t.name}", t.heal_fast if op.has("fast_healing") else t.heal)


def can_deploy(op: Operative, w: Wounds) -> Rejected | None:
    """8.2 (Interpretation): an unhealed Severe, Mortal or Lethal wound keeps an operative convalescing; unhealed
    Minor wounds go into battle with their penalty."""
    serious = w.severe + w.spared_severe + w.mortal + w.lethal
    if serious:
        return Rejected("convalescing", f"{op.name} is convalescing ({serious} serious wound"
                                        f"{'s' if serious > 1 else ''} to heal)")
    return None
