"""Laser and telescopic sights in play (section 13, A-14.7, A-14.8): fitted to a weapon before the mission
(units.toml `sights`, items.toml `sight = true`, no encumbrance), used or not shot by shot.

A shot that uses them names it in its mode: `Shoot.mode` "aimed+sight" (one sight: +10 TU, range penalty /2) or
"aimed+sights" (both: +15 TU, /4); a plain "aimed" uses none. They are offered only where they help: never on a
class without sights (shotguns, A-14.5), never on a sniper rifle's aimed shot (A-14.8 gives it both for free),
never in opportunity fire (A-14.7)."""

from __future__ import annotations

from engine.core.commands import Rejected
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.inventory import Carried

SUFFIX = {1: "+sight", 2: "+sights"}


def split(mode: str) -> tuple[str, int]:
    """A mode id as (firing mode, sights used): "aimed+sights" → ("aimed", 2)."""
    for n, tail in sorted(SUFFIX.items(), reverse=True):
        if mode.endswith(tail):
            return mode[: -len(tail)], n
    return mode, 0


def joined(mode: str, sights: int) -> str:
    return mode + SUFFIX.get(sights, "")


def named(mode: str) -> str:
    """A mode id in words: "aimed shot", "aimed shot with a sight", "aimed shot with both sights"."""
    plain, used = split(mode)
    return f"{plain} shot" + {0: "", 1: " with a sight", 2: " with both sights"}[used]


def helps(book: Book, weapon_id: str, mode: str) -> bool:
    """Whether a sight changes this shot at all (A-14.5: not a shotgun's; A-14.8: not a sniper's aimed)."""
    w = book.weapons[weapon_id]
    return book.classes[w.category].sights and not (w.sniper and mode == "aimed")


def usable(book: Book, gun: Carried, mode: str) -> int:
    """How many of the gun's fitted sights a shot in this mode may use (0, 1 or 2)."""
    return min(len(gun.sights), 2) if helps(book, gun.id, mode) else 0


def check(book: Book, gun: Carried, mode: str, sights: int) -> Rejected | None:
    """A shot asking for more sights than the gun has fitted, or for sights where they do nothing, is refused."""
    if sights == 0:
        return None
    w = book.weapons[gun.id]
    if not helps(book, gun.id, mode):
        why = (f"the {w.name}'s aimed shot has both sights' benefit already (A-14.8)" if w.sniper
               else f"sights give the {w.name} nothing (A-14.5)")
        return Rejected("no_sights", why[0].upper() + why[1:])
    if sights > len(gun.sights):
        return Rejected("no_sights", f"The {w.name} has {len(gun.sights) or 'no'} sight"
                                     f"{'s' if len(gun.sights) != 1 else ''} fitted")
    return None


def words(book: Book, gun: Carried, sights: int) -> str:
    """The sights a shot uses, for the log: "laser sight", "laser and telescopic sights"."""
    names = [book.items[s].name.lower() for s in gun.sights[:sights]]
    if not names:
        return ""
    return names[0] if len(names) == 1 else " and ".join(n.removesuffix(" sight") for n in names) + " sights"
