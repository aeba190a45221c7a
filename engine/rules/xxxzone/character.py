"""Sections 1-3 and 12: an operative's record, its effective attributes, derived statistics and encumbrance.

Derived statistics are always computed from settings.toml's formulas over the effective attributes (the starred
attribute of a pre-gen counts +1) plus the abilities' bonuses; the printed numbers are never copied (section 3).
"""

from __future__ import annotations

from typing import Callable, Literal, TypeVar

import attrs

from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.checks import value
from engine.rules.xxxzone.schema import ATTRIBUTES, Attributes, KitEntry

SHORT = {"strength": "Str", "perception": "Per", "endurance": "End", "charisma": "Cha", "intelligence": "Int",
         "agility": "Agi", "luck": "Lck"}


@attrs.frozen(kw_only=True)
class Operative:
    """One character as a campaign keeps it: the ruleset's own numbers, typed."""

    id: str
    name: str
    codename: str = ""
    gender: str = ""
    blurb: str = ""
    attributes: Attributes
    star: str = ""  # the attribute printed with `*` (+1 effective)
    abilities: tuple[str, ...] = ()  # an ability listed twice has rank 2 (Action Boy, Scientist)
    armour: str
    kit: tuple[KitEntry, ...] = ()
    drawn: str = ""  # the weapon in hand when a battle starts
    ruleset: str = "xxxzone"

    def printed(self, name: str) -> int:
        return getattr(self.attributes, name)

    def effective(self, name: str) -> int:
        return self.printed(name) + (1 if name == self.star else 0)

    def env(self) -> dict[str, int]:
        return {name: self.effective(name) for name in ATTRIBUTES}

    def rank(self, ability: str) -> int:
        return self.abilities.count(ability)

    def has(self, ability: str) -> bool:
        return ability in self.abilities

    def sheet(self, name: str) -> str:
        """`Agi*10`: the printed value, starred."""
        return f"{SHORT[name]}{'*' if name == self.star else ' '}{self.printed(name)}"


@attrs.frozen(kw_only=True)
class Derived:
    accuracy: int
    action_points: int
    carry: int
    max_capacity: int
    fortitude: int
    fortitude_poison: int  # against poison or toxin (+20, 35 with Poison Resistance)
    sneak: int
    sight: int
    willpower: int
    hack: int | None  # only with Hacker
    locksmith: int | None  # only with Lockpicker
    toughness: int  # Minor wounds ignored per battle (0 without Toughness)
    improved_toughness: int  # Severe wounds carrying no penalty (0 without Improved Toughness)
    medkit_uses: int  # uses per med-kit


T = TypeVar("T")


def per_operative(work: Callable[[Operative, Book], T]) -> Callable[[Operative, Book], T]:
    """`work(op, book)` once per operative and book object: both are immutable, and the rules ask for an operative's
    numbers at every step it takes. Keyed by identity (hashing an operative reads all its fields); an entry holds
    both, so their ids are not reused while it is kept."""
    kept: dict[tuple[int, int], tuple[Operative, Book, T]] = {}

    def cached(op: Operative, book: Book) -> T:
        hit = kept.get((id(op), id(book)))
        if hit is not None and hit[0] is op and hit[1] is book:
            return hit[2]
        if len(kept) > 4096:
            kept.clear()
        got = work(op, book)
        kept[(id(op), id(book))] = (op, book, got)
        return got

    cached.__doc__ = work.__doc__
    return cached


def bonus(op: Operative, book: Book, stat: str) -> int:
    return sum(getattr(book.abilities[a].bonus, stat) for a in op.abilities if a in book.abilities)


@per_operative
def derive(op: Operative, book: Book) -> Derived:
    s, env = book.settings, op.env()

    def f(formula) -> int:
        return value(formula, env)

    fortitude = f(s.fortitude)
    poison = s.poison_resistance_bonus if op.has("poison_resistance") else s.poison_bonus
    return Derived(
        accuracy=f(s.accuracy), action_points=f(s.action_points) + bonus(op, book, "ap"),
        carry=f(s.carry) + bonus(op, book, "carry"), max_capacity=f(s.max_capacity) + bonus(op, book, "max_capacity"),
        fortitude=fortitude, fortitude_poison=fortitude + poison,
        sneak=f(s.sneak) + bonus(op, book, "sneak"), sight=f(s.sight), willpower=f(s.willpower),
        hack=f(s.hack) if op.has("hacker") else None,
        locksmith=f(s.locksmith) if op.has("lockpicker") else None,
        toughness=f(s.toughness) if op.has("toughness") else 0,
        improved_toughness=f(s.improved_toughness) if op.has("improved_toughness") else 0,
        medkit_uses=f(s.medkit_uses) if op.has("medic") else 1)


def pregen(book: Book, cid: str) -> Operative:
    c = book.characters[cid]
    return Operative(id=cid, name=c.name, codename=c.codename, attributes=c.attributes, star=c.star,
                     abilities=tuple(c.abilities), armour=c.armour, kit=tuple(c.kit), drawn=c.drawn)


def enemy(book: Book, kind: str, n: int = 1) -> Operative:
    """One enemy of a kind from enemies.toml, as the same record the rules read for an operative."""
    e = book.enemies[kind]
    return Operative(id=f"{kind}_{n}", name=f"{e.name} {n}", attributes=e.attributes, abilities=tuple(e.abilities),
                     armour=e.armour, kit=tuple(e.kit), drawn=e.drawn, ruleset="xxxzone")


def squad_pool(book: Book) -> tuple[Operative, ...]:
    """The ten pre-generated operatives of section 12, the default squad pool."""
    return tuple(pregen(book, cid) for cid in book.characters)


def weapons_of(op: Operative, book: Book) -> tuple[str, ...]:
    """Every weapon the operative can attack with: its kit's, those its abilities grant, and bare hands."""
    kit = [e.item for e in op.kit if e.item in book.weapons]
    granted = [book.abilities[a].grants for a in op.abilities if book.abilities[a].grants]
    return tuple(dict.fromkeys([*kit, *granted, "unarmed"]))


@per_operative
def load(op: Operative, book: Book) -> float:
    """Kilograms carried: armour, every item, and each weapon's spare magazines (section 2's placeholders)."""
    total = book.armour[op.armour].weight
    for e in op.kit:
        total += book.gear(e.item).weight * e.count
        if e.spares:
            total += book.items[book.weapons[e.item].ammo[0]].weight * e.spares
    return total


Burden = Literal["free", "burdened", "overloaded"]


def encumbrance(op: Operative, book: Book, extra: float = 0.0) -> Burden:
    """Free at or below Carry; burdened up to Max (cautious moves only, no weapons); overloaded above (no move,
    except Atlas Strong up to twice Max at three times the AP)."""
    d, carried = derive(op, book), load(op, book) + extra
    if carried <= d.carry:
        return "free"
    if carried <= d.max_capacity:
        return "burdened"
    return "overloaded"
