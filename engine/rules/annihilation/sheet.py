"""The unit panel's rows for an annihilation fighter (issue 12: TU, energy, stance, facing, wounds per body part,
bleeding and stun), in the kernel's `Row` so the client can print them as they come."""

from __future__ import annotations

from engine.core.ruleset import Row
from engine.rules.annihilation.armour import SIDES
from engine.map import hexes
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.fighter import Fighter, stamina_effective

_FACING = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def facing_name(book: Book, facing: int) -> str:
    """N, NE... on squares; the six of engine.map.hexes on hexes."""
    return hexes.NAMES[facing % 6] if book.settings.grid == "hex" else _FACING[facing % 8]


def rows(book: Book, f: Fighter) -> tuple[Row, ...]:
    stm = stamina_effective(book, f)
    bleed = f.open_wounds + (book.settings.internal_bleeding if f.beyond_saving else 0)
    alert = "" if f.status == "awake" else f.status
    out = [Row("Health", f" {f.health}/{f.character.stats.health} ", max(0, f.health), f.character.stats.health,
               alert=alert),
           Row("TU", f" {f.tu_left}/{f.tu_turn} ", f.tu_left, f.tu_turn),
           Row("Energy", f" {f.energy}/{stm} ", f.energy, stm),
           Row("Stun", f" {f.stun} ", alert="stunned" if f.stun and f.stun >= f.health else ""),
           Row("Stance", f" {f.stance}, facing {facing_name(book, f.facing)} ")]
    wounded = [(k, p) for k, p in f.wounds if p.total]
    for key, part in wounded:
        lost = " lost" if key in f.lost else ""
        out.append(Row(book.body[key].name, f" {part.open} open / {part.total}{lost} ",
                       alert="lost" if lost else ("bleeding" if part.open else "")))
    if bleed:
        out.append(Row("Bleeding", f" −{bleed} Health a turn ", alert="cannot be saved" if f.beyond_saving else ""))
    a = f.armour
    out.append(Row("Armour", f" AV {a.av} · " + " ".join(f"{s} {getattr(a, s)}" for s in SIDES) + " "))
    return tuple(out)
