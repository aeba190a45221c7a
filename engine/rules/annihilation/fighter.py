"""A character in battle: health, stun, energy, TUs, wounds by body part, armour, stance and facing.

A Fighter is a frozen value; every rule returns a new one. Its character (the stats a campaign keeps) changes in
battle only by the permanent −1 Stamina per wound (A-19.7). It is the unit's `Unit.record` once the ruleset is
plugged in: plain values only, tagged for the log (engine.core.records).
"""

from __future__ import annotations

from typing import Literal

import attrs

from engine.core.records import record
from engine.rules.annihilation.armour import ArmourState
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.character import Character

Status = Literal["awake", "unconscious", "dead"]
Stance = Literal["standing", "kneeling", "prone"]


@attrs.frozen
class Part:
    """The wounds of one body part: open ones bleed and hinder; `total` counts every wound of this mission."""

    open: int = 0
    total: int = 0


@record("annihilation.fighter")
@attrs.frozen(kw_only=True, slots=False)  # a __dict__: records.evolve copies it in one step
class Fighter:
    character: Character
    armour: ArmourState
    health: int
    stun: int = 0
    energy: int
    tu_turn: int = 0  # this turn's allowance
    tu_left: int = 0
    wounds: tuple[tuple[str, Part], ...] = ()  # body.toml id -> its wounds; a part not here has none
    pain_killed: int = 0  # open torso wounds whose Stamina penalty a pain killer suppresses
    beyond_saving: bool = False  # eight wounds on the torso
    lost: tuple[str, ...] = ()  # limbs blown off
    status: Status = "awake"
    stance: Stance = "standing"
    facing: int = 0
    smoked: bool = False  # took its smoke contact stun this turn
    burned: bool = False  # took its fire damage this turn

    def part(self, part_id: str) -> Part:
        return dict(self.wounds).get(part_id, Part())

    def open_on(self, book: Book, kind: str) -> int:
        """Open wounds on every part of a kind ("leg": both legs together, A-8.1)."""
        return sum(p.open for k, p in self.wounds if book.body[k].part == kind)

    @property
    def open_wounds(self) -> int:
        return sum(p.open for _, p in self.wounds)

    def with_part(self, part_id: str, part: Part) -> "Fighter":
        rest = tuple((k, p) for k, p in self.wounds if k != part_id)
        return attrs.evolve(self, wounds=tuple(sorted(rest + ((part_id, part),))))


def stamina_effective(book: Book, f: Fighter) -> int:
    """A-8.4: `Stm − 5 × open torso wounds`, less those a pain killer suppressed (A-20.3), at least 0."""
    torso = max(0, f.open_on(book, "torso") - f.pain_killed)
    return book.value("stamina_effective", **f.character.stats.env(), torso_wounds=torso)


def tu_turn(book: Book, f: Fighter, encumbrance: int) -> int:
    """A-8.1: `max(0, TU − ENC − 5 × open leg wounds)`."""
    return book.value("tu_turn", time_units=f.character.stats.time_units, encumbrance=encumbrance,
                      leg_wounds=f.open_on(book, "leg"))


def energy_regen(book: Book, f: Fighter) -> int:
    """A-8.4: Energy regains `floor(Stm_eff / 2)` at the start of each turn, capped at `Stm_eff`."""
    stm = stamina_effective(book, f)
    return min(stm, f.energy + book.value("energy_regen", stamina_effective=stm))


def deploy(book: Book, character: Character, encumbrance: int = 0, facing: int = 0) -> Fighter:
    """A battle's start: full Health, Energy = Stm_eff (A-8.4), the turn's TUs, armour as the table gives it."""
    f = Fighter(character=character, armour=ArmourState.of(book.armour[character.armour]),
                health=character.stats.health, energy=0, facing=facing)
    allowance = tu_turn(book, f, encumbrance)
    return attrs.evolve(f, energy=stamina_effective(book, f), tu_turn=allowance, tu_left=allowance)
