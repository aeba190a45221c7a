"""Characters: the 14 statistics (A-3), skills and their levels (A-4).

A character is what a campaign keeps between missions. A skill is kept as its hidden percentage (A-6.1
interpretation): its level is derived from it, never stored beside it.
"""

from __future__ import annotations

import operator

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.schema import STATS


@attrs.frozen(kw_only=True)
class Stats:
    """A-3.2, in its order."""

    time_units: int
    stamina: int
    health: int
    bravery: int
    reactions: int
    accuracy: int
    throwing: int
    strength: int
    senses: int
    intelligence: int
    appearance: int
    personality: int
    education: int
    psychic: int

    def env(self) -> dict[str, int]:
        """The stats by name, in A-3.2 order: every formula's numbers (attrs.asdict took longer than the formula)."""
        return dict(zip(_NAMES, _VALUES(self)))


_NAMES = tuple(a.name for a in attrs.fields(Stats))
_VALUES = operator.attrgetter(*_NAMES)
ZERO = Stats(**{name: 0 for name in STATS})


@attrs.frozen(kw_only=True)
class Character:
    id: str
    name: str
    stats: Stats
    skills: tuple[tuple[str, int], ...] = ()  # skill id -> skill percentage; a skill not here is at 0
    race: str = "human"
    armour: str = "none"
    rank: str = "rookie"
    missions: int = 0  # survived
    kills: int = 0  # enemies downed
    uses: Stats = ZERO  # uses of each stat carried over to the next mission
    skill_uses: tuple[tuple[str, int], ...] = ()

    def skill(self, skill_id: str) -> int:
        return dict(self.skills).get(skill_id, 0)


def roll_stats(book: Book, dice: Dice, actor: str) -> tuple[Stats, list[Roll]]:
    """A-3.1: each stat rolled separately (`7d10 + 10`), in the order of A-3.2."""
    rolls = [book.roll("stat_roll", dice, actor, name) for name in STATS]
    return Stats(**{name: r.total for name, r in zip(STATS, rolls)}), rolls


def recruit(book: Book, dice: Dice, race: str, char_id: str, name: str) -> tuple[Character, list[Roll]]:
    """A new character of a race: every stat rolled (A-3.1) but a fixed Health the race gives (A-21.2); a human
    gets the military baseline (A-4.4), an alien its race's level in the families of its own weapons."""
    r = book.races[race]
    stats, rolls = roll_stats(book, dice, char_id)
    if r.health:
        stats = attrs.evolve(stats, health=r.health)
    if r.weapons:
        chance = book.levels[r.skill].chance
        skills = tuple(sorted({(book.weapons[w].family, chance) for w in r.weapons}))
    else:
        skills = baseline(book)
    return Character(id=char_id, name=name, stats=stats, skills=skills, race=race, armour=r.armour), rolls


def skill_slots(book: Book, stats: Stats) -> int:
    """A-4.1: `floor(Edu / 4)`."""
    return book.value("skill_slots", **stats.env())


def spent_slots(book: Book, skills: dict[str, int]) -> int:
    """A-4.2, A-4.4: the slots a character's skill levels cost above the free military baseline."""
    lv = book.levels
    return sum(max(0, lv[level_of(book, skills.get(k, 0))].slots - lv[sk.baseline].slots)
               for k, sk in book.skills.items())


def level_of(book: Book, percentage: int) -> str:
    """The highest level whose column-1 chance is at most the skill percentage (A-6.1 interpretation)."""
    fitting = [(lv.order, key) for key, lv in book.levels.items() if lv.chance <= percentage]
    return max(fitting)[1]


def baseline(book: Book) -> tuple[tuple[str, int], ...]:
    """A-4.4: a military operative's free levels, as skill percentages."""
    return tuple((key, book.levels[sk.baseline].chance) for key, sk in book.skills.items()
                 if book.levels[sk.baseline].order > 0)


def buy(book: Book, stats: Stats, held: tuple[tuple[str, int], ...],
        wanted: dict[str, str]) -> Rejected | tuple[tuple[tuple[str, int], ...], int]:
    """A-4.2, A-4.4: raise skills to the wanted levels; each costs the difference in slot cost from the level held.
    Returns the new skill percentages and the slots spent, or why not."""
    skills = dict(held)
    spent = 0
    for skill_id, level in wanted.items():
        if skill_id not in book.skills:
            return Rejected("unknown_skill", f"No skill {skill_id!r}")
        if level not in book.levels:
            return Rejected("unknown_level", f"No level {level!r}")
        now = book.levels[level_of(book, skills.get(skill_id, 0))]
        target = book.levels[level]
        if target.order <= now.order:
            return Rejected("not_higher", f"{book.skills[skill_id].name} is already {level_of(book, skills.get(skill_id, 0))}")
        spent += target.slots - now.slots
        skills[skill_id] = target.chance
    slots = skill_slots(book, stats)
    if spent > slots:
        return Rejected("no_slots", f"That needs {spent} skill slots; Edu {stats.education} gives {slots}")
    return tuple(skills.items()), spent


def weapon_bonus(book: Book, character: Character, family: str) -> int:
    """A-4.2 column 2 for the character's level in a weapon family: the % of Acc (or Trw) added to the to-hit."""
    return book.levels[level_of(book, character.skill(family))].bonus


def is_medic(book: Book, character: Character) -> bool:
    """A-4.5: the Medic skill at the settings' level or better."""
    need = book.levels[book.settings.medic_level].order
    return book.levels[level_of(book, character.skill("medic"))].order >= need


def skill_test(book: Book, dice: Dice, character: Character, skill_id: str) -> Roll:
    """A-4.2 column 1: `d100 ≤ chance` succeeds; Unskilled (0%) always fails. total 1 = success."""
    chance = book.levels[level_of(book, character.skill(skill_id))].chance
    face, index = dice.d(100, character.id, skill_id)
    ok = face <= chance
    return Roll(actor=character.id, purpose=skill_id, expr="1d100", faces=(face,),
                formula=f"d100 {face} {'≤' if ok else '>'} {book.skills[skill_id].name} {chance}% "
                        f"{'✓' if ok else '✗'}", total=int(ok), index=index)


def spots(dice: Dice, character: Character) -> Roll:
    """A-7.6 (optional): an enemy in smoke or darkness is spotted on `d100 ≤ Sns`. total 1 = spotted."""
    sns = character.stats.senses
    face, index = dice.d(100, character.id, "spot")
    ok = face <= sns
    return Roll(actor=character.id, purpose="spot", expr="1d100", faces=(face,),
                formula=f"d100 {face} {'≤' if ok else '>'} Sns {sns} {'✓' if ok else '✗'}", total=int(ok), index=index)
