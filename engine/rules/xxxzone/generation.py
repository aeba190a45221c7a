"""Section 14.1: a new operative (1d4+1 for each attribute in order, the 11.5 kit) and what it may learn.

Every refusal is a `Rejected(code, reason)` a player can act on; the roster and the creation screen show it.
"""

from __future__ import annotations

import re

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.character import SHORT, Operative
from engine.rules.xxxzone.checks import roll_formula
from engine.rules.xxxzone.schema import ATTRIBUTES, Attributes, KitEntry

ID = re.compile(r"[a-z][a-z0-9_]{0,31}$")
NAME_MAX = 40


def generate(dice: Dice, book: Book, oid: str, name: str, gender: str = "", blurb: str = "",
             kit: tuple[KitEntry, ...] | None = None) -> tuple[Operative, tuple[Roll, ...]] | Rejected:
    """Roll Str, Per, End, Cha, Int, Agi, Lck in that order; issue the kit (all of it unless chosen)."""
    refused = _names(oid, name)
    if refused is not None:
        return refused
    chosen = issue(book, kit)
    if isinstance(chosen, Rejected):
        return chosen
    rolls = tuple(roll_formula(dice, oid, f"generation {SHORT[a]}", book.settings.generation_roll)
                  for a in ATTRIBUTES)
    values = dict(zip(ATTRIBUTES, (r.total for r in rolls)))
    start = book.kits["starting"]
    guns = [e.item for e in chosen if e.item in book.weapons]
    op = Operative(id=oid, name=name.strip(), gender=gender.strip(), blurb=blurb.strip(),
                   attributes=Attributes(**values), armour=start.armour, kit=chosen, drawn=guns[0] if guns else "")
    return op, rolls


def _names(oid: str, name: str) -> Rejected | None:
    if not ID.match(oid):
        return Rejected("bad_id", f"id {oid!r}: lower-case letters, digits and _, starting with a letter, "
                                  "at most 32")
    if not name.strip():
        return Rejected("no_name", "an operative needs a name")
    if len(name.strip()) > NAME_MAX:
        return Rejected("long_name", f"a name of {len(name.strip())} characters; at most {NAME_MAX}")
    return None


def issue(book: Book, kit: tuple[KitEntry, ...] | None) -> tuple[KitEntry, ...] | Rejected:
    """The starting kit: each item at most as many as 11.5 allows, and the belt's drawable slots respected."""
    start = book.kits["starting"]
    limits = {e.item: e for e in start.items}
    if kit is None:
        return tuple(start.items)
    seen: set[str] = set()
    for e in kit:
        if e.item not in limits:
            return Rejected("not_issued", f"{_name(book, e.item)} is not part of the starting kit")
        if e.item in seen:
            return Rejected("twice", f"{_name(book, e.item)} is listed twice")
        seen.add(e.item)
        most = limits[e.item]
        if e.count > most.count or e.count < 1:
            return Rejected("too_many", f"{_name(book, e.item)}: 1 to {most.count}, not {e.count}")
        if e.spares > most.spares or e.spares < 0:
            return Rejected("too_many", f"{_name(book, e.item)}: up to {most.spares} spare magazines, "
                                        f"not {e.spares}")
    slots = sum(e.count for e in kit)
    if slots > start.belt:
        return Rejected("belt_full", f"{slots} items on an {start.belt}-item belt")
    return tuple(kit)


def _name(book: Book, item: str) -> str:
    return book.gear(item).name if item in book.weapons or item in book.items else repr(item)


def can_learn(op: Operative, book: Book, ability: str) -> Rejected | None:
    """Whether the operative meets an ability's requirements (section 13), and why not."""
    a = book.abilities.get(ability)
    if a is None:
        return Rejected("unknown_ability", f"no ability {ability!r}")
    if a.facility == "none":
        return Rejected("not_trainable", f"{a.name} belongs to one pre-generated operative and cannot be trained")
    rank = op.rank(ability)
    if rank >= a.ranks:
        return Rejected("known", f"{op.name} already has {a.name}"
                                 + (f" at rank {rank}" if a.ranks > 1 else ""))
    for need in a.after:
        if not op.has(need):
            return Rejected("needs_ability", f"{a.name} needs {book.abilities[need].name} first")
    needs = a.second_rank if rank == 1 else a.requires
    for attr, least in needs.items():
        if op.effective(attr) < least:
            return Rejected("attribute_low", f"{a.name}{' rank 2' if rank else ''} needs {SHORT[attr]} {least}; "
                                             f"{op.name} has {op.effective(attr)}")
    return None
