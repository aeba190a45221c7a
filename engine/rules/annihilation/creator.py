"""A-3.1 and A-4.4 through the `Creation` seam: a new human has nothing to choose but a name; each of the fourteen
stats is rolled 7d10 + 10 when it is made, and it starts with the military baseline of skills. A roster recruit
deploys in a squad place of forces.toml as a pre-made template of its own (units.toml), with the place's kit,
armour, glyph and AI profile but none of the place's own skills."""

from __future__ import annotations

import re

import attrs

from engine.content import missions
from engine.core.creation import Draft, Form
from engine.core.dice import Dice
from engine.core.ruleset import Row
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.character import roll_stats, skill_slots, Stats
from engine.rules.annihilation.schema import STATS

ID = "annihilation"
RACE = "human"  # the player's soldiers; the source's aliens are not recruits
SHORT = {"time_units": "TU", "stamina": "Sta", "health": "Hlt", "bravery": "Bra", "reactions": "Rea",
         "accuracy": "Acc", "throwing": "Trw", "strength": "Str", "senses": "Sns", "intelligence": "Int",
         "appearance": "App", "personality": "Per", "education": "Edu", "psychic": "Psy"}


@attrs.frozen(kw_only=True)
class Recruit:
    """What the roster keeps of an annihilation recruit: the fourteen stats as rolled, and the rolls."""

    name: str
    stats: dict[str, int]
    rolled: str  # "7d10+10 each: TU 46, Sta 52, ..."


def _id(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


class AnnihilationCreation:
    record = Recruit

    def __init__(self, content) -> None:
        self.content = content
        tables = content.rules[ID]
        self.units = tables["units"]
        self.book = Book.of({k: v for k, v in tables.items() if k not in ("units", "forces", "ground")})

    def _range(self) -> tuple[int, int]:
        f = self.book.settings.stat_roll
        return f.evaluate({}, lambda sides: 1)[0], f.evaluate({}, lambda sides: sides)[0]

    def draft(self, picks: dict[str, str] | None = None) -> Draft:
        return Draft(picks=dict(picks or {}))

    def form(self, draft: Draft) -> Form:
        return Form(title=f"{self.book.races[RACE].name} recruit (A-3.1: every stat rolled)")

    def refusal(self, draft: Draft, number: str, value: int) -> str | None:
        return f"{number}: an annihilation recruit's stats are rolled, not chosen"

    def check(self, draft: Draft) -> list[str]:
        out = [f"{p} is not a choice: an annihilation recruit has none" for p in draft.picks]
        return out + [f"{n}: an annihilation recruit's stats are rolled, not chosen" for n in draft.numbers]

    def preview(self, draft: Draft) -> tuple[Row, ...]:
        low, high = self._range()
        text = self.book.settings.stat_roll.text
        low_edu = self.book.value("skill_slots", **{**{s: 0 for s in STATS}, "education": low})
        high_edu = self.book.value("skill_slots", **{**{s: 0 for s in STATS}, "education": high})
        return (Row("Stats", f"Stats: all 14 rolled {text} ({low}–{high}) on save, in A-3.2's order"),
                Row("Skills", f"Skills: the military baseline (A-4.4); {low_edu}–{high_edu} skill slots by "
                              "Education"),
                Row("Kit", "Kit: the weapon, clips, grenades and armour of the squad place it takes"))

    def create(self, draft: Draft, dice: Dice):
        stats, rolls = roll_stats(self.book, dice, _id(draft.name))
        values = attrs.asdict(stats)
        text = f"{self.book.settings.stat_roll.text.replace(' ', '')} each: " + \
            ", ".join(f"{SHORT[s]} {values[s]}" for s in STATS)
        return Recruit(name=draft.name, stats=values, rolled=text), tuple(rolls)

    def validate(self, record: Recruit) -> list[str]:
        if sorted(record.stats) != sorted(STATS):
            return [f".stats: expected exactly {', '.join(STATS)}"]
        low, high = self._range()
        return [f".stats.{s}: {str(v)[:12]} is outside {low} to {high}" for s, v in record.stats.items()
                if not low <= v <= high]

    def describe(self, record: Recruit, wide: bool = False) -> tuple[str, str]:
        shown = ("time_units", "health", "reactions", "accuracy", "education")
        cells = " ".join(f"{SHORT[s]} {record.stats[s]}" if wide else f"{SHORT[s]}{record.stats[s]}" for s in shown)
        slots = skill_slots(self.book, Stats(**record.stats))
        return self.book.races[RACE].name, f"{cells}  slots {slots}"

    def made(self, record: Recruit) -> str:
        return record.rolled

    def places(self, mission_id: str) -> int:
        return len(missions.squad_places(self.content, ID, mission_id))

    def deploy(self, mission_id: str, records: list[Recruit]):
        units, placed = {}, {}
        for record, place in zip(records, missions.squad_places(self.content, ID, mission_id)):
            tid = f"roster_{_id(record.name)}"
            units[tid] = attrs.evolve(self.units[place], name=record.name, race=RACE, stats=dict(record.stats),
                                      skills={})
            placed[place] = tid
        return missions.with_forces(self.content, ID, mission_id, placed, {"units": units})

    def improve(self, record: Recruit, dice: Dice):
        return f"{record.name}: an annihilation recruit's experience (A-6) is not played between missions yet"
