"""A hit on a unit from start to end: what the round does (weapon, ammunition or grenade), the side it hits,
the armour, the wounds; a blast on everyone in it; explosives primed, tripped and detonated (A-17.7); the motion
sensor (A-13.3)."""

from __future__ import annotations

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.core.geometry import Pos
from engine.rules.annihilation import armour
from engine.rules.annihilation.blast import Delivery, falloff, side_hit, spaces_from
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.fighter import Fighter
from engine.rules.annihilation.space import Side, between, side_on
from engine.rules.annihilation.wounds import Wounding, damage


@attrs.frozen
class Round:
    """What one round does: damage, blast radius (-1: none), damage type, how it counts at a blast's centre."""

    damage: int
    radius: int
    type: str
    delivery: Delivery


def round_of(book: Book, weapon_id: str, loaded: str | None) -> Rejected | Round:
    """Section 15-16, A-15.9: a clip or laser round does the weapon's damage; a cannon or rocket its ammunition's
    (a missile at the centre); a grenade launcher fires a size-A grenade from the explosives table (a grenade)."""
    w = book.weapons[weapon_id]
    if w.feed in ("clip", "charges"):
        return Round(w.damage, -1, "armor_piercing", "missile")
    if w.feed == "ammo":
        a = book.ammo.get(loaded or "")
        if a is None or a.weapon != weapon_id:
            return Rejected("no_ammo", f"The {w.name} has no ammunition loaded")
        return Round(a.damage, a.radius, a.type, "missile")
    e = book.explosives.get(loaded or "")
    if e is None or e.size != "A":
        return Rejected("no_ammo", f"The {w.name} fires size-A grenades; none is loaded")
    return Round(e.damage, e.radius, e.type, "grenade")


@attrs.frozen
class Hurt:
    side: Side
    armour: armour.Hit
    wounding: Wounding

    @property
    def fighter(self) -> Fighter:
        return self.wounding.fighter

    @property
    def rolls(self) -> tuple[Roll, ...]:
        return self.wounding.rolls


def strike(book: Book, dice: Dice, target: Fighter, amount: int, side: Side, actor: str) -> Hurt:
    """Damage on one side: through the armour (A-18.2), then Health and wounds (section 19)."""
    through = armour.hit(target.armour, side, amount)
    f = attrs.evolve(target, armour=through.armour)
    return Hurt(side, through, damage(book, dice, f, through.through, actor))


def shot(book: Book, dice: Dice, target: Fighter, at: Pos, origin: Pos, amount: int, actor: str) -> Hurt:
    """A bullet that hit: the side facing the shooter (A-7.7)."""
    return strike(book, dice, target, amount, side_on(book.settings.grid, target.facing, at, origin), actor)


def blast_on(book: Book, dice: Dice, centre: Pos, rnd: Round, victims: list[tuple[str, Fighter, Pos]],
             launched_from: Pos | None = None, heights: dict[str, int] | None = None) -> list[tuple[str, int, Hurt]]:
    """A-17.4-A-17.6: every unit in the blast, in the order given, takes the falloff damage on its side; units
    beyond the edge take nothing and roll nothing. `heights`: a victim's storey above the blast's (A-7.5)."""
    out = []
    for uid, f, pos in victims:
        spaces = spaces_from(book, centre, pos, (heights or {}).get(uid, 0))
        amount = falloff(rnd.damage, spaces, max(rnd.radius, 0))
        if amount <= 0:
            continue
        side = side_hit(centre, pos, f.facing, rnd.delivery, launched_from, book.settings.grid)
        out.append((uid, amount, strike(book, dice, f, amount, side, uid)))
    return out


@attrs.frozen
class Primed:
    """A primed explosive (A-17.7): whose phase counts its fuse and the turn it goes off at that phase's end."""

    item: str
    side: str
    turn: int  # the turn it detonates, at the end of `side`'s phase; 0 for proximity grenades and mines


def prime(book: Book, item: str, side: str, turn: int, delay: int = 0) -> Rejected | Primed:
    """A-17.7: a delay of 0 to 5 turns: 0 goes off at the end of this phase, n at the end of the same side's phase
    n turns later. Proximity grenades and mines wait for a unit instead."""
    e = book.explosives.get(item)
    if e is None:
        return Rejected("not_explosive", f"{item!r} cannot be primed")
    if e.trigger != "timer":
        return Primed(item, side, 0)
    if not 0 <= delay <= book.settings.priming_delay_max:
        return Rejected("bad_delay", f"A delay is 0 to {book.settings.priming_delay_max} turns")
    return Primed(item, side, turn + delay)


def goes_off(book: Book, primed: Primed, lies_at: Pos, *, entered: Pos | None = None,
             phase_ends: tuple[str, int] | None = None) -> bool:
    """A-17.7: a timed one at the end of its side's phase on its turn; a proximity grenade when a unit enters a
    square within 1 of it; a land mine when a unit enters its square."""
    trigger = book.explosives[primed.item].trigger
    if trigger == "timer":
        return phase_ends is not None and phase_ends[0] == primed.side and phase_ends[1] >= primed.turn
    if entered is None:
        return False
    if trigger == "mine":
        return entered == lies_at
    return max(abs(entered[0] - lies_at[0]), abs(entered[1] - lies_at[1])) <= book.settings.proximity_reach


def sensed(book: Book, user: Pos, others: list[tuple[str, Pos, bool]], dzs: tuple[int, ...] = ()) -> list[str]:
    """A-13.3: the units within range distance 20 that spent TUs on movement since the user's last phase;
    no line of sight needed. `dzs`: each one's height above the user in levels (A-7.4; none: all level)."""
    per = book.settings.height_adds_to_range
    return [uid for i, (uid, pos, moved) in enumerate(others)
            if moved and between(book.settings.grid, user, pos, dzs[i] if dzs else 0, per)
            <= book.settings.motion_sensor_range]
