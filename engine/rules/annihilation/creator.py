"""A-3.1 and A-4.4 through the `Creation` seam: a new human has nothing to choose but a name; each of the fourteen
stats is rolled 7d10 + 10 when it is made, and it starts with the military baseline of skills. A roster recruit
deploys in a squad place of forces.toml as a pre-made template of its own (units.toml), with the place's kit,
armour, glyph and AI profile but none of the place's own skills."""

from __future__ import annotations

import re

import attrs

from engine.content import missions
from engine.core.commands import Rejected
from engine.core.creation import Draft, Form, Number, Points
from engine.core.dice import Dice
from engine.core.records import added
from engine.core.ruleset import Row
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.character import (Character, Stats, baseline, buy, level_of, roll_stats,
                                                  skill_slots, spent_slots)
from engine.rules.annihilation.deploy_schema import Kept
from engine.rules.annihilation.experience import Veteran, promote
from engine.rules.annihilation.outfit import AnnihilationOutfitter, Outfit
from engine.rules.annihilation.schema import STATS
from engine.rules.annihilation.soldier import Soldier

ID = "annihilation"
RACE = "human"  # the player's soldiers; the source's aliens are not recruits
SHORT = {"time_units": "TU", "stamina": "Sta", "health": "Hlt", "bravery": "Bra", "reactions": "Rea",
         "accuracy": "Acc", "throwing": "Trw", "strength": "Str", "senses": "Sns", "intelligence": "Int",
         "appearance": "App", "personality": "Per", "education": "Edu", "psychic": "Psy"}
KEPT_MAX = 200  # a kept stat's ceiling: past 99 it rises only on a roll of 100
LABEL = {"plasma": "Plasma", "fusion": "Fusion", "thrown_explosives": "Thrown expl.", "alien_languages": "Alien langs",
         "rocket_launchers": "Rockets", "grenade_launchers": "Grenade l.", "sniper_rifles": "Sniper rifles"}


@attrs.frozen(kw_only=True)
class Recruit:
    """What the roster keeps of an annihilation character, as a campaign keeps it: the fourteen stats (improved by
    use, A-6.1), the skill percentages, the rank, missions survived, enemies downed and the uses carried over to
    the next mission. A record written before these were kept has the military baseline and is a Rookie."""

    name: str
    stats: dict[str, int]
    rolled: str  # "7d10+10 each: TU 46, Sta 52, ..."
    skills: dict[str, int] = attrs.field(factory=dict)  # skill id -> percentage; empty: the baseline
    rank: str = "rookie"
    missions: int = 0
    kills: int = 0
    uses: dict[str, int] = attrs.field(factory=dict)  # stat -> uses carried over, the non-zero ones
    skill_uses: dict[str, int] = attrs.field(factory=dict)
    # kept by a campaign (downtime.py): Health and wounds still healing from the last mission, limbs to regrow,
    # how many healing timers were set (the running one's key ends in it), and death
    hurt: int = added(0)
    wounds: int = added(0)
    limbs: int = added(0)
    heals: int = added(0)
    dead: bool = added(False)
    outfit: Outfit | None = added(None)  # the kit chosen before a mission (outfit.py); None: the squad place's


def _id(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def _tid(name: str) -> str:
    return f"roster_{_id(name)}"


class AnnihilationCreation:
    record = Recruit

    def __init__(self, content) -> None:
        self.content = content
        tables = content.rules[ID]
        self.units = tables["units"]
        self.book = Book.of({k: v for k, v in tables.items()
                             if k not in ("units", "forces", "ground", "difficulty", "campaign")})
        self.order = sorted(self.book.levels, key=lambda k: self.book.levels[k].order)
        self.outfitter = AnnihilationOutfitter(content, self.book)

    def _range(self) -> tuple[int, int]:
        f = self.book.settings.stat_roll
        return f.evaluate({}, lambda sides: 1)[0], f.evaluate({}, lambda sides: sides)[0]

    def _sure(self) -> int:
        """A-4.1: the slots every recruit has before its Education is rolled (that of the lowest roll)."""
        return self.book.value("skill_slots", **{**{s: 0 for s in STATS}, "education": self._range()[0]})

    def _base(self, skill: str) -> int:
        return self.book.levels[self.book.skills[skill].baseline].order

    def _wanted(self, draft: Draft) -> dict[str, str]:
        """The levels bought above the baseline (A-4.4), by skill."""
        return {k: self.order[v] for k, v in draft.numbers.items()
                if k in self.book.skills and 0 <= v < len(self.order) and v > self._base(k)}

    def _spent(self, numbers: dict[str, int]) -> int:
        """A-4.2, A-4.4: each skill's slot cost above its free baseline."""
        lv = self.book.levels
        return sum(lv[self.order[v]].slots - lv[self.order[self._base(k)]].slots for k, v in numbers.items()
                   if k in self.book.skills and self._base(k) < v < len(self.order))

    def draft(self, picks: dict[str, str] | None = None) -> Draft:
        return Draft(picks=dict(picks or {}), numbers={k: self._base(k) for k in self.book.skills})

    def form(self, draft: Draft) -> Form:
        numbers = []
        for key, sk in self.book.skills.items():
            value = draft.numbers.get(key, self._base(key))
            level = self.book.levels[self.order[min(max(value, 0), len(self.order) - 1)]]
            cost = self._spent({key: value})
            numbers.append(Number(id=key, label=LABEL.get(key, sk.name)[:13], value=value, low=self._base(key),
                                  high=len(self.order) - 1, short=key,
                                  note=f"{self.order[level.order].capitalize()}" + (f", {cost} slot"
                                       f"{'s' if cost != 1 else ''}" if cost else "")))
        return Form(title=f"{self.book.races[RACE].name} recruit (A-3.1, A-4 skill slots)",
                    numbers=tuple(numbers), points=Points(self._spent(draft.numbers), self._sure()))

    def refusal(self, draft: Draft, number: str, value: int) -> str | None:
        why = self._level(number, value)
        if why or number not in self.book.skills:
            return why
        return self._budget(draft.set(number, value),
                            f"{self.book.skills[number].name} {self.order[value].capitalize()}")

    def _level(self, number: str, value: int) -> str | None:
        """Why a skill cannot be at that level (A-4.2, A-4.4), whatever the slots."""
        if number in STATS:
            return f"{number}: an annihilation recruit's stats are rolled, not chosen"
        if number not in self.book.skills:
            return f"{number} is not a skill; one of {', '.join(self.book.skills)}"
        name = self.book.skills[number].name
        if value < self._base(number):
            return (f"{name}: a military operative is {self.order[self._base(number)].capitalize()} for free "
                    "(A-4.4), never lower")
        if value >= len(self.order):
            return f"{name}: {self.order[-1].capitalize()} is the highest level (A-4.2)"
        return None

    def _budget(self, draft: Draft, what: str) -> str | None:
        spent = self._spent(draft.numbers)
        if spent > self._sure():
            return f"{what}: {spent} slots in all; {self._sure()} are sure before Edu is rolled (A-4.1)"
        return None

    def check(self, draft: Draft) -> list[str]:
        out = [f"{p} is not a choice: an annihilation recruit has none" for p in draft.picks]
        out += [why for n, v in draft.numbers.items() if (why := self._level(n, v))]
        over = self._budget(draft, "The skills")
        return out + ([over] if over else [])

    def preview(self, draft: Draft) -> tuple[Row, ...]:
        low, high = self._range()
        text = self.book.settings.stat_roll.text
        high_edu = self.book.value("skill_slots", **{**{s: 0 for s in STATS}, "education": high})
        return (Row("Stats", f"Stats: all 14 rolled {text} ({low}–{high}) on save, in A-3.2's order"),
                Row("Skills", f"Skills: Edu/4 slots ({self._sure()}–{high_edu}); level 0 Unskilled … 6 Master, "
                              f"above the free baseline (A-4.4); {self._sure()} are sure before Edu is rolled"),
                Row("Kit", "Kit: the weapon, clips, grenades and armour of the squad place it takes"))

    def create(self, draft: Draft, dice: Dice):
        stats, rolls = roll_stats(self.book, dice, _id(draft.name))
        bought = buy(self.book, stats, baseline(self.book), self._wanted(draft))
        if isinstance(bought, Rejected):  # within the sure slots, so only a changed content refuses
            raise ValueError(bought.reason)
        values = attrs.asdict(stats)
        text = f"{self.book.settings.stat_roll.text.replace(' ', '')} each: " + \
            ", ".join(f"{SHORT[s]} {values[s]}" for s in STATS)
        return Recruit(name=draft.name, stats=values, rolled=text, skills=dict(bought[0])), tuple(rolls)

    def validate(self, record: Recruit) -> list[str]:
        if sorted(record.stats) != sorted(STATS):
            return [f".stats: expected exactly {', '.join(STATS)}"]
        low, high = self._range()
        out = [f".stats.{s}: {str(v)[:12]} is outside 0 to {KEPT_MAX}" for s, v in record.stats.items()
               if not 0 <= v <= KEPT_MAX]  # rolled {low}-{high}, then lowered by wounds, raised by use
        out += [f".skills.{k}: unknown skill" for k in record.skills if k not in self.book.skills]
        out += [f".skills.{k}: {v} is not a percentage" for k, v in record.skills.items() if not 0 <= v <= 100]
        out += [f".rank: unknown rank {record.rank!r}"] if record.rank not in self.book.ranks else []
        out += [f".uses.{k}: unknown stat" for k in record.uses if k not in STATS]
        out += [f".skill_uses.{k}: unknown skill" for k in record.skill_uses if k not in self.book.skills]
        out += [f".{k}: {str(v)[:12]} is negative" for k, v in
                (("hurt", record.hurt), ("wounds", record.wounds), ("limbs", record.limbs), ("heals", record.heals))
                if v < 0]
        return out + (self.outfitter.problems(record.outfit) if record.outfit else [])

    def describe(self, record: Recruit, wide: bool = False) -> tuple[str, str]:
        shown = ("time_units", "health", "reactions", "accuracy", "education")
        cells = " ".join(f"{SHORT[s]} {record.stats[s]}" if wide else f"{SHORT[s]}{record.stats[s]}" for s in shown)
        total = skill_slots(self.book, Stats(**record.stats))
        slots = f"{total - spent_slots(self.book, record.skills or dict(baseline(self.book)))}/{total}"
        rank = self.book.ranks[record.rank].name
        if wide:
            return self.book.races[RACE].name, f"{cells}  slots {slots}  {rank}, {record.missions} missions"
        return self.book.races[RACE].name, f"{cells}  slots {slots}" + (f" {rank}" if record.rank != "rookie" else "")

    def made(self, record: Recruit) -> str:
        return record.rolled

    def starters(self) -> tuple:
        return ()  # a new campaign begins with recruits made by the creation rules

    def places(self, mission_id: str) -> int:
        return len(missions.squad_places(self.content, ID, mission_id))

    def deploy(self, mission_id: str, records: list[Recruit], alone: bool = False):
        units, placed = {}, {}
        for record, place in zip(records, missions.squad_places(self.content, ID, mission_id)):
            kept = Kept(skills=dict(record.skills), rank=record.rank, missions=record.missions, kills=record.kills,
                        uses=dict(record.uses), skill_uses=dict(record.skill_uses))
            kit = self.outfitter.fitted(self.units[place], record.outfit)
            units[_tid(record.name)] = attrs.evolve(kit, name=record.name, race=RACE, stats=dict(record.stats),
                                                    skills={}, kept=kept)
            placed[place] = _tid(record.name)
        return missions.with_forces(self.content, ID, mission_id, placed, {"units": units}, alone)

    def train(self, record: Recruit, numbers: dict[str, int]) -> Recruit | str:
        """A-4.1, A-4.2: skill levels bought after creation with the slots the rolled Education gives and the
        levels held do not take (`slots 8/12`), each at the difference in slot cost; never a level lower."""
        held = record.skills or dict(baseline(self.book))
        skills, cost = dict(held), 0
        for key, value in numbers.items():
            why = self._level(key, value)
            if why:
                return f"{record.name}: {why}"
            now = self.book.levels[level_of(self.book, held.get(key, 0))]
            if value <= now.order:
                return f"{record.name}: {self.book.skills[key].name} is {self.order[now.order].capitalize()} already"
            cost += self.book.levels[self.order[value]].slots - now.slots
            skills[key] = self.book.levels[self.order[value]].chance
        total = skill_slots(self.book, Stats(**record.stats))
        left = total - spent_slots(self.book, held)
        if cost > left:
            return f"{record.name}: that costs {cost} slots; {left} of {total} are left (Edu {record.stats['education']})"
        return attrs.evolve(record, skills=skills)

    def debrief(self, records: list[Recruit], state, dice: Dice):
        """After a mission: each deployed character as its unit ends it (practice.debrief wrote it); the dead
        leave the roster; then the A-5.2 quotas (or A-5.3 odds) promote from the top down."""
        by_template = {u.template: u for u in state.units.values()}
        kept: list[Recruit] = []
        for r in records:
            unit = by_template.get(_tid(r.name))
            if unit is None or not isinstance(unit.record, Soldier):
                kept.append(r)
            elif unit.status != "dead":
                kept.append(_recruit(r, unit.record.fighter.character))
        fought = {r.name for r in kept if _tid(r.name) in by_template}
        veterans = [Veteran(id=r.name, rank=r.rank, missions=r.missions, kills=r.kills, survived=r.name in fought)
                    for r in kept]
        moved, rolls = promote(self.book, dice, veterans)  # Squaddies: practice.debrief
        return [attrs.evolve(r, rank=moved.get(r.name, r.rank)) for r in kept], tuple(rolls)

    def improve(self, record: Recruit, dice: Dice):
        return f"{record.name}: an annihilation recruit's experience (A-6) is not played between missions yet"


def _recruit(r: Recruit, c: Character) -> Recruit:
    """The roster's record of a character as a mission left it."""
    return attrs.evolve(r, stats=c.stats.env(), skills=dict(c.skills), rank=c.rank, missions=c.missions,
                        kills=c.kills, uses={k: v for k, v in c.uses.env().items() if v},
                        skill_uses=dict(c.skill_uses))
