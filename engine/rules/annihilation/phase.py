"""The start-of-phase procedure of section 22, in its order, and the end of a phase (smoke and fire)."""

from __future__ import annotations

import attrs

from engine.core import records
from engine.core.dice import Dice, Roll
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.hits import strike
from engine.rules.annihilation.fighter import Fighter, energy_regen, stamina_effective, tu_turn
from engine.rules.annihilation.wounds import settle


@attrs.frozen
class Step:
    """One line of the procedure, for the log: what it did to the unit."""

    name: str
    text: str


def start(book: Book, f: Fighter, encumbrance: int, *, in_smoke: bool = False) -> tuple[Fighter, list[Step]]:
    """Section 22 for one unit of the side whose phase starts: bleeding, death check, stun recovery,
    consciousness, energy, TU refresh, smoke."""
    st = book.settings
    if f.status == "dead":
        return f, []
    out: list[Step] = []
    bleed = f.open_wounds + (st.internal_bleeding if f.beyond_saving else 0)
    if bleed:
        f = attrs.evolve(f, health=f.health - bleed)
        out.append(Step("bleeding", f"Health −{bleed} → {f.health}"))
    if f.health < -f.character.stats.bravery:
        f = attrs.evolve(f, status="dead", tu_left=0, tu_turn=0)
        out.append(Step("death", f"Health {f.health} < −Brv {f.character.stats.bravery}: dies"))
        return f, out
    stm = stamina_effective(book, f)
    recovery = book.value("stun_recovery", stamina_effective=stm)
    if f.stun:
        f = attrs.evolve(f, stun=max(0, f.stun - recovery))
        out.append(Step("stun", f"Stun −{recovery} → {f.stun}"))
    if f.status == "unconscious" and f.health > 0 and f.stun < f.health:
        f = attrs.evolve(f, status="awake")
        out.append(Step("wakes", f"Health {f.health} > 0 and Stun {f.stun} < Health: wakes"))
    elif st.bleeding_fells and f.status == "awake" and (f.health <= 0 or f.stun >= f.health):
        f = attrs.evolve(f, status="unconscious")  # bleeding brought it down (no TUs below)
        out.append(Step("faints", f"Health {f.health} ≤ 0: unconscious" if f.health <= 0
                        else f"Stun {f.stun} ≥ Health {f.health}: unconscious"))
    energy = energy_regen(book, f)
    if energy != f.energy:
        out.append(Step("energy", f"Energy {f.energy} → {energy}"))
    f = records.evolve(f, {"energy": energy})  # every unit at every start of phase: copied in one step
    allowance = tu_turn(book, f, encumbrance)
    f = records.evolve(f, {"tu_turn": allowance, "tu_left": allowance if f.status == "awake" else 0, "smoked": False,
                           "burned": False})
    out.append(Step("tu", f"TU {f.tu_left} of {allowance}"))
    if in_smoke:
        f, line = smoke_contact(book, f)
        out.append(line)
    return f, out


def smoke_contact(book: Book, f: Fighter) -> tuple[Fighter, Step]:
    """A-17.8: entering or starting the phase in smoke: 4 stun, at most once a turn."""
    if f.smoked:
        return f, Step("smoke", "already took its smoke this turn")
    f = settle(book, attrs.evolve(f, stun=f.stun + book.settings.smoke_stun, smoked=True))
    return f, Step("smoke", f"Stun +{book.settings.smoke_stun} → {f.stun}")


def fire_contact(book: Book, dice: Dice, f: Fighter) -> tuple[Fighter, Step, tuple[Roll, ...]]:
    """A-17.9: entering or ending the phase in a burning square: 10 incendiary damage on the under armour, at most
    once a turn."""
    if f.burned or f.status == "dead":
        return f, Step("fire", "already burned this turn"), ()
    hurt = strike(book, dice, f, book.settings.fire_damage, "under", f.character.id)
    return attrs.evolve(hurt.fighter, burned=True), Step("fire", hurt.armour.text), hurt.rolls


def end(book: Book, dice: Dice, f: Fighter, *, in_smoke: bool = False,
        on_fire: bool = False) -> tuple[Fighter, list[Step], tuple[Roll, ...]]:
    """The end of the unit's phase: 4 more stun if it ends it in smoke (A-17.8), the fire of a burning square
    (A-17.9). Grenades whose delay ran out are the map's (hits.goes_off)."""
    out: list[Step] = []
    rolls: tuple[Roll, ...] = ()
    if in_smoke and f.status != "dead":
        f = settle(book, attrs.evolve(f, stun=f.stun + book.settings.smoke_stun))
        out.append(Step("smoke", f"ends its phase in smoke: Stun +{book.settings.smoke_stun} → {f.stun}"))
    if on_fire:
        f, line, rolls = fire_contact(book, dice, f)
        out.append(line)
    return f, out, rolls
