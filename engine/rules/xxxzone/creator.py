"""Section 14.1 through the `Creation` seam: a new operative has nothing to choose but a name and how much of the
11.5 starting kit it takes ("up to" 7 and 5 spare magazines, 3 Frag grenades: all unless fewer are set); each
attribute is rolled 1d4+1 in order when it is made. A roster operative deploys in a
squad place of forces.toml as a character of its own (`characters.toml`, `roster.toml` rows made for the mission),
keeping the place's glyph and AI profile."""

from __future__ import annotations

import attrs

from engine.content import missions
from engine.core.commands import Rejected
from engine.core.creation import Choice, Draft, Form, Number, unchanged
from engine.core.dice import Dice
from engine.core.records import added, lean
from engine.core.ruleset import Row
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.character import SHORT, Operative, derive
from engine.rules.xxxzone.generation import generate
from engine.rules.xxxzone.schema import ATTRIBUTES, Attributes, Character, KitEntry

ID = "xxxzone"
GENDERS = (("unstated", "Unstated"), ("female", "Female"), ("male", "Male"))


@attrs.frozen(kw_only=True)
class Kept:
    """A wound the operative brought home (8.2: it persists until it heals); `key` names its heal timer."""

    tier: str  # wounds.toml: minor, severe, mortal, lethal
    key: str  # "heal:Sable:3"
    ignored: bool = False  # a Minor wound Toughness ignored: no penalty, heals in a day
    spared: bool = False  # a Severe wound Improved Toughness spared: no penalty, heals normally


@lean  # a section 12 operative's own numbers came later: left out of the dump while at their default
@attrs.frozen(kw_only=True)
class Recruit:
    """What the roster keeps of an xxxzone operative: its rolled attributes and the rolls, written out, and
    what the campaign made of it since (abilities trained, wounds kept, the course it is on, death). The later
    fields have defaults, so a roster.toml from before the campaign still loads; a section 12 operative (`starters`)
    also keeps its starred attribute, armour, codename and drawn gun, a made one the starting kit's."""

    name: str
    attributes: Attributes
    rolled: str  # "Str 1d4+1: 3+1=4, Per ..."
    kit: tuple[KitEntry, ...] = ()  # what it was issued (11.5)
    gender: str = ""  # 14.1: a name, gender and blurb ("" unstated)
    abilities: tuple[str, ...] = ()  # trained (13); twice for a second rank
    wounds: tuple[Kept, ...] = ()
    course: str = ""  # the attribute or ability it is training, while its "train:" timer runs
    serial: int = 0  # the last wound key number given
    dead: bool = False
    star: str = added("")  # the attribute printed with `*` (+1 effective)
    armour: str = added("")  # "": the starting kit's (11.5)
    codename: str = added("")
    drawn: str = added("")  # "": the first gun of its kit


class XxxzoneCreation:
    record = Recruit

    def __init__(self, content) -> None:
        self.content = content
        self.book = Book.of(content.rules[ID])

    def draft(self, picks: dict[str, str] | None = None) -> Draft:
        picks = {"gender": GENDERS[0][0], **(picks or {})}
        return Draft(picks=picks, numbers={n.id: n.high for n in self._kit_numbers({})})

    def _kit_numbers(self, numbers: dict[str, int]) -> tuple[Number, ...]:
        """11.5's "up to": how many of each grenade and spare magazine the operative takes (all, unless fewer)."""
        out = []
        for e in self.book.kits["starting"].items:
            name = self.book.gear(e.item).name
            if e.spares:  # the creation screen gives a label 13 columns
                kind = "Pistol" if self.book.weapons[e.item].pistol else "Rifle"
                key, high, label, short = f"{e.item}_mags", e.spares, f"{kind} mags", kind.lower()
            elif e.count > 1:
                key, high, label, short = e.item, e.count, f"{name.split()[0]} grenades", name.split()[0].lower()
            else:
                continue
            out.append(Number(id=key, label=label, value=numbers.get(key, high), low=0, high=high,
                              note=f"up to {high}: {name}", short=short))
        return tuple(out)

    def form(self, draft: Draft) -> Form:
        gender = Choice("gender", "Gender", GENDERS, draft.picks.get("gender", GENDERS[0][0]))
        return Form(title="Operative (section 14.1: every attribute rolled)", choices=(gender,),
                    numbers=self._kit_numbers(draft.numbers))

    def refusal(self, draft: Draft, number: str, value: int) -> str | None:
        kit = {n.id: n for n in self._kit_numbers(draft.numbers)}
        if number not in kit:
            return f"{number}: an xxxzone operative's attributes are rolled, not chosen"
        n = kit[number]
        if not n.low <= value <= n.high:
            return f"{n.label} {value}: the starting kit has {n.low} to {n.high}"
        return None

    def check(self, draft: Draft) -> list[str]:
        out = [f"{p} is not a choice: an xxxzone operative has only gender" for p in draft.picks if p != "gender"]
        if draft.picks.get("gender", "") not in dict(GENDERS):
            out.append(f"gender {draft.picks['gender']!r}: one of {', '.join(g for g, _ in GENDERS)}")
        return out + [why for n, v in draft.numbers.items() if (why := self.refusal(draft, n, v)) is not None]

    def _kit(self, numbers: dict[str, int]) -> tuple[KitEntry, ...]:
        """The starting kit as the numbers cut it down; an item taken none of is left out."""
        out = []
        for e in self.book.kits["starting"].items:
            if e.spares:
                out.append(attrs.evolve(e, spares=numbers.get(f"{e.item}_mags", e.spares)))
            elif e.count > 1:
                if numbers.get(e.item, e.count):
                    out.append(attrs.evolve(e, count=numbers.get(e.item, e.count)))
            else:
                out.append(e)
        return tuple(out)

    def preview(self, draft: Draft) -> tuple[Row, ...]:
        roll = self.book.settings.generation_roll
        low, high = roll.evaluate({}, lambda sides: 1)[0], roll.evaluate({}, lambda sides: sides)[0]
        start = self.book.kits["starting"]
        kit = ", ".join(self._item(e) for e in self._kit(draft.numbers))
        return (Row("Attributes", f"Attributes: {', '.join(SHORT[a] for a in ATTRIBUTES)}, each {roll.text} "
                                  f"({low}–{high}), rolled in this order on save"),
                Row("Kit", f"Kit: {self.book.armour[start.armour].name}; {kit}"))

    def _item(self, e: KitEntry) -> str:
        name = self.book.gear(e.item).name
        return name + (f" ×{e.count}" if e.count > 1 else "") + (f" +{e.spares} mags" if e.spares else "")

    def create(self, draft: Draft, dice: Dice):
        gender = draft.picks.get("gender", "")
        made = generate(dice, self.book, _id(draft.name), draft.name, gender="" if gender == "unstated" else gender,
                        kit=self._kit(draft.numbers))
        if isinstance(made, Rejected):
            raise ValueError(made.reason)
        op, rolls = made
        text = ", ".join(f"{SHORT[a]} {r.formula}" for a, r in zip(ATTRIBUTES, rolls))
        made = Recruit(name=op.name, attributes=op.attributes, rolled=text, kit=op.kit, gender=op.gender)
        return made, tuple(rolls)

    def starters(self) -> tuple[Recruit, ...]:
        """The ten operatives of section 12 (characters.toml), the default squad pool a new campaign begins with;
        recruits made later are 14.1's."""
        return tuple(Recruit(name=c.name, attributes=c.attributes, rolled="pre-generated (section 12)",
                             kit=tuple(c.kit), abilities=tuple(c.abilities), star=c.star, armour=c.armour,
                             codename=c.codename, drawn=c.drawn) for c in self.book.characters.values())

    def _most(self, attribute: str, rolled: int) -> int:
        """The highest value a kept operative may have: rolled, or raised by training (14.2) or gambling (14.3)."""
        if attribute == "luck":
            return max(rolled, self.book.campaign.luck_max)
        return max([rolled, *(f.trains.get(attribute, 0) for f in self.book.facilities.values())])

    def validate(self, record: Recruit) -> list[str]:
        roll = self.book.settings.generation_roll
        low, high = roll.evaluate({}, lambda sides: 1)[0], roll.evaluate({}, lambda sides: sides)[0]
        out: list[str] = []
        printed = next((s.attributes.as_dict() for s in self.starters() if s.name == record.name), None)
        for a, v in record.attributes.as_dict().items():
            least, most = low, self._most(a, high)
            if printed is not None:  # a section 12 operative: its printed numbers, 0 to 10
                least, most = 0, max(most, printed[a])
            if not least <= v <= most:
                out.append(f".attributes.{a}: {v} is outside {least} to {most}")
        if record.star and record.star not in ATTRIBUTES:
            out.append(f".star: {record.star!r} is not an attribute")
        if record.armour and record.armour not in self.book.armour:
            out.append(f".armour: unknown armour {record.armour!r}")
        out += [f".kit: unknown item {e.item!r}" for e in record.kit
                if e.item not in self.book.weapons and e.item not in self.book.items]
        return out

    def describe(self, record: Recruit, wide: bool = False) -> tuple[str, str]:
        values = record.attributes.as_dict()
        stats = " ".join(f"{SHORT[a]} {values[a]}" if wide else f"{SHORT[a][:1]}{values[a]}" for a in ATTRIBUTES)
        row = self._row(record)
        op = Operative(id="recruit", name=row.name, attributes=row.attributes, star=row.star, armour=row.armour,
                       abilities=tuple(row.abilities), kit=tuple(row.kit), drawn=row.drawn)  # Action Boy's AP
        d = derive(op, self.book)
        return "Operative", f"{stats}  AP {d.action_points} Acc {d.accuracy}"

    def made(self, record: Recruit) -> str:
        return record.rolled

    def places(self, mission_id: str) -> int:
        return len(missions.squad_places(self.content, ID, mission_id))

    def _row(self, record: Recruit) -> Character:
        """The operative as a characters.toml row: its attributes, its armour (the starting kit's unless section 12
        gives one), its kit, its drawn gun (else the first)."""
        start = self.book.kits["starting"]
        kit = record.kit or tuple(start.items)
        guns = [e.item for e in kit if e.item in self.book.weapons]
        return Character(name=record.name, codename=record.codename, attributes=record.attributes,
                         star=record.star, armour=record.armour or start.armour,
                         drawn=record.drawn or (guns[0] if guns else ""), abilities=list(record.abilities),
                         kit=list(kit),
                         minor_wounds=sum(1 for w in record.wounds if w.tier == "minor" and not w.ignored))

    def deploy(self, mission_id: str, records: list[Recruit], alone: bool = False):
        places = missions.squad_places(self.content, ID, mission_id)
        characters, members, placed = {}, {}, {}
        for record, place in zip(records, places):
            tid = f"roster_{_id(record.name)}"
            characters[tid] = self._row(record)
            members[tid] = attrs.evolve(self.book.roster[place], character=tid, enemy="", name="")
            placed[place] = tid
        return missions.with_forces(self.content, ID, mission_id, placed,
                                    {"characters": characters, "roster": members}, alone)

    def improve(self, record: Recruit, dice: Dice):
        return f"{record.name}: an xxxzone operative has no roll between missions here (its training is not played)"

    def train(self, record: Recruit, numbers: dict[str, int]):
        return f"{record.name}: an xxxzone operative has nothing to train here"

    def debrief(self, records: list[Recruit], state, dice: Dice):
        return unchanged(records)  # a mission changes nothing this roster keeps


def _id(name: str) -> str:
    import re

    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")[:32] or "operative"
