"""The start-of-phase procedure of section 22, in its order, and the end of a phase (smoke and fire)."""

from __future__ import annotations

import attrs

from engine.rules.annihilation.book import Book
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
    energy = energy_regen(book, f)
    if energy != f.energy:
        out.append(Step("energy", f"Energy {f.energy} → {energy}"))
    f = attrs.evolve(f, energy=energy)
    allowance = tu_turn(book, f, encumbrance)
    f = attrs.evolve(f, tu_turn=allowance, tu_left=allowance if f.status == "awake" else 0, smoked=False)
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


def end(book: Book, f: Fighter, *, in_smoke: bool = False) -> tuple[Fighter, list[Step]]:
    """The end of the unit's phase: 4 more stun if it ends it in smoke (A-17.8). Fire and detonations are the map's
    (A-17.9, A-17.7): they damage through armour.hit and wounds.damage."""
    if not in_smoke or f.status == "dead":
        return f, []
    f = settle(book, attrs.evolve(f, stun=f.stun + book.settings.smoke_stun))
    return f, [Step("smoke", f"ends its phase in smoke: Stun +{book.settings.smoke_stun} → {f.stun}")]
