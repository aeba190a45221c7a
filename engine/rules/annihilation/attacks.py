"""Physical attacks (A-14.10) and throwing with scatter (A-14.11)."""

from __future__ import annotations

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.core.geometry import NEIGHBOURS, Pos
from engine.map import hexes
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.character import weapon_bonus
from engine.rules.annihilation.fighter import Fighter
from engine.rules.annihilation.fire import accuracy
from engine.rules.annihilation.schema import SIZES
from engine.rules.annihilation.space import steps


@attrs.frozen
class Strike:
    chance: int
    damage: int
    text: str


def physical(book: Book, f: Fighter, at: Pos, target: Pos, *, weapon_power: int = 0, family: str | None = None,
             arms: tuple[str, ...] = ("right_arm",)) -> Rejected | Strike:
    """A-14.10: an adjacent target; to-hit `Acc_eff` + the melee weapon's skill bonus; damage `Str + Wp`
    (Wp 0 until the engine defines melee weapons); no range or mode modifiers."""
    if steps(book.settings.grid, at, target) > book.settings.physical_reach:
        return Rejected("out_of_reach", "A physical attack reaches the adjacent squares only")
    acc = accuracy(book, f, arms)
    skill = acc * weapon_bonus(book, f.character, family) // 100 if family else 0
    damage = book.value("physical_damage", **f.character.stats.env(), weapon_power=weapon_power)
    return Strike(acc + skill, damage, f"Acc {acc} + skill {skill}; damage Str {f.character.stats.strength} "
                                       f"+ Wp {weapon_power} = {damage}")


def throw_range(book: Book, f: Fighter, size: str) -> int:
    """A-14.11: `floor(Str / 4)` spaces, halved for items of size C or larger."""
    reach = book.value("throw_range", **f.character.stats.env())
    if SIZES.index(size) >= SIZES.index(book.settings.throw_halved_from):
        reach //= 2
    return reach


@attrs.frozen
class Throw:
    chance: int
    reach: int
    text: str


def throw_odds(book: Book, f: Fighter, size: str, spaces: int) -> Rejected | Throw:
    """A-14.11: `Trw + skill − 2 × D`, skill = the thrown-explosives column-2 bonus as a % of Trw.
    Arm wounds do not lower Trw (A-19.7 interpretation)."""
    reach = throw_range(book, f, size)
    if spaces > reach:
        return Rejected("too_far", f"Throw range {reach} spaces; the target is {spaces}")
    trw = f.character.stats.throwing
    skill = trw * weapon_bonus(book, f.character, "thrown_explosives") // 100
    penalty = book.settings.throw_penalty_per_space * spaces
    return Throw(trw + skill - penalty, reach, f"Trw {trw} + skill {skill} − range "
                                               f"{book.settings.throw_penalty_per_space}×{spaces} {penalty}")


def scatter(book: Book, dice: Dice, actor: str, target: Pos, spaces: int,
            open_cell=lambda cell: True) -> tuple[Pos, list[Roll]]:
    """A-14.11: a miss lands `d(1 + floor(D/4))` spaces from the target in direction d8 (1 = N, clockwise), stopping
    at the last open square before a wall (`open_cell` says which squares are open). On hexes the die picks one of
    six ways (1 = NE, clockwise; the hex mod rolls a d6)."""
    st = book.settings
    way, i1 = dice.d(st.scatter_die, actor, "scatter direction")
    sides = book.value("scatter_distance", distance=spaces)
    far, i2 = dice.d(sides, actor, "scatter distance")
    hexed = st.grid == "hex"  # six ways on hexes, each step from the row it is on
    way_index = (way - 1) * (6 if hexed else len(NEIGHBOURS)) // st.scatter_die
    dx, dy = NEIGHBOURS[way_index] if not hexed else (0, 0)
    named = hexes.NAMES[way_index] if hexed else _DIRECTION[(way - 1) * 8 // st.scatter_die]
    cell = target
    for _ in range(far):
        nxt = hexes.neighbours(cell)[way_index] if hexed else (cell[0] + dx, cell[1] + dy)
        if not open_cell(nxt):
            break
        cell = nxt
    rolls = [Roll(actor=actor, purpose="scatter direction", expr=f"1d{st.scatter_die}", faces=(way,),
                  formula=f"d{st.scatter_die} {way} → {named}", total=way,
                  index=i1),
             Roll(actor=actor, purpose="scatter distance", expr=f"1d{sides}", faces=(far,),
                  formula=f"d{sides} {far} spaces", total=far, index=i2)]
    return cell, rolls


_DIRECTION = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
