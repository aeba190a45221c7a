"""Healing in battle (section 20): one dose per application from a kit in hand, on the user or an adjacent unit."""

from __future__ import annotations

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.core.geometry import Pos
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.character import is_medic
from engine.rules.annihilation.fighter import Fighter, Part, stamina_effective
from engine.rules.annihilation.moves import Price, pay
from engine.rules.annihilation.space import steps


@attrs.frozen
class Kit:
    """A medi kit, aid kit or bandages (items.toml) and the doses left in it."""

    item: str
    doses: tuple[tuple[str, int], ...]

    @classmethod
    def full(cls, book: Book, item: str) -> "Kit":
        return cls(item, tuple(book.items[item].doses.items()))

    def left(self, dose: str) -> int:
        return dict(self.doses).get(dose, 0)


@attrs.frozen
class Treatment:
    healer: Fighter
    patient: Fighter  # the healer itself when it treats itself
    kit: Kit
    rolls: tuple[Roll, ...]
    text: str


def dose_tu(book: Book, healer: Fighter, kit: Kit) -> int:
    """A-20.1: 10 TU with a medi kit, 40 with an aid kit or bandages; half for a medic (A-4.5)."""
    item = book.items[kit.item]
    return item.medic_tu if is_medic(book, healer.character) else item.tu


def treat(book: Book, dice: Dice, healer: Fighter, kit: Kit, dose: str, *, patient: Fighter | None = None,
          part: str | None = None, at: Pos = (0, 0), patient_at: Pos = (0, 0)) -> Rejected | Treatment:
    """A-13.2, A-20.2: one dose on the healer (no `patient`) or on a unit in an adjacent square."""
    if healer.status != "awake":
        return Rejected("not_now", "An unconscious character treats nobody")
    if patient is not None and steps(book.settings.grid, at, patient_at) > 1:
        return Rejected("too_far", "A dose reaches the user's square and the eight around it")
    if patient is not None and patient.status == "dead":
        return Rejected("dead", "No dose helps the dead")
    if kit.left(dose) < 1:
        return Rejected("no_dose", f"No {dose.replace('_', ' ')} left in the {book.items[kit.item].name}")
    paid = pay(healer, Price(dose_tu(book, healer, kit), 0), f"a {dose.replace('_', ' ')} dose")
    if isinstance(paid, Rejected):
        return paid
    target = paid if patient is None else patient
    rolls: tuple[Roll, ...] = ()
    if dose == "bandage":
        if part is None or target.part(part).open < 1:
            return Rejected("no_wound", "Choose a body part with an open wound")
        old = target.part(part)
        target = target.with_part(part, Part(open=old.open - 1, total=old.total))
        torso_open = target.open_on(book, "torso")
        target = attrs.evolve(target, pain_killed=min(target.pain_killed, torso_open))
        text = f"{book.body[part].name}: one wound closed ({old.open - 1} open)"
    elif dose == "heal":
        if target.beyond_saving:
            text = "no effect: eight torso wounds (A-19.5)"
        else:
            face, index = dice.d(book.settings.heal_die, healer.character.id, "heal")
            before = target.health
            target = attrs.evolve(target, health=min(target.character.stats.health, before + face))
            rolls = (Roll(actor=healer.character.id, purpose="heal", expr=f"1d{book.settings.heal_die}",
                          faces=(face,), formula=f"d{book.settings.heal_die} {face}: Health {before} → "
                                                 f"{target.health}", total=face, index=index),)
            text = f"Health {before} → {target.health}"
    elif dose == "stimulant":
        target = attrs.evolve(target, stun=0)
        if target.status == "unconscious" and target.health > 0:
            target = attrs.evolve(target, status="awake")
        text = f"Stun 0, {target.status}"
    else:  # pain killer
        target = attrs.evolve(target, pain_killed=target.open_on(book, "torso"))
        target = attrs.evolve(target, energy=stamina_effective(book, target))
        text = f"torso penalties suppressed, Energy {target.energy}"
    kit = Kit(kit.item, tuple((d, n - (d == dose)) for d, n in kit.doses))
    if patient is None:
        return Treatment(target, target, kit, rolls, text)
    return Treatment(paid, target, kit, rolls, text)
