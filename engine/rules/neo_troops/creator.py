"""Character creation for neo-troops (Interpretation, docs/rules-notes.md): the source has no point-buy, only
§20's unit data, so a player picks a varan type of characters.toml and the weapon it holds first; every number is
the type's, nothing is rolled. A roster varan deploys in a squad place of forces.toml as a character of its own,
with the place's glyph and AI profile."""

from __future__ import annotations

import re

import attrs

from engine.content import missions
from engine.core.creation import Choice, Draft, Form, unchanged
from engine.core.dice import Dice
from engine.core.records import added
from engine.core.ruleset import Row

ID = "neo-troops"


@attrs.frozen(kw_only=True)
class Recruit:
    """What the roster keeps of a neo-troops varan: its type (a characters.toml id) and the weapon held first."""

    name: str
    type: str
    held: str = ""  # "" = the type's first weapon
    # kept by a campaign (downtime.py): severe wounds and severed limbs to regenerate at the next rest (N-19.4),
    # how many rests were set (the running one's key ends in it), and death
    severe: int = added(0)
    severed: tuple[str, ...] = added(())
    rests: int = added(0)
    dead: bool = added(False)


def _id(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


class NeoCreation:
    record = Recruit

    def __init__(self, content) -> None:
        self.content = content
        tables = content.rules[ID]
        self.characters, self.weapons = tables["characters"], tables.get("weapons", {})
        named = {t for f in tables.get("forces", {}).values() for t in f.squad}
        varans = [k for k, c in self.characters.items() if c.varan]
        self.types = [k for k in varans if k not in named] or varans  # the types, not the squad's own varans

    def _type(self, draft: Draft) -> str:
        chosen = draft.picks.get("type", "")
        return chosen if chosen in self.types else self.types[0]

    def _held(self, draft: Draft) -> str:
        weapons = self.characters[self._type(draft)].weapons
        chosen = draft.picks.get("held", "")
        return chosen if chosen in weapons else (weapons[0] if weapons else "")

    def draft(self, picks: dict[str, str] | None = None) -> Draft:
        picks = dict(picks or {})
        picks.setdefault("type", self._type(Draft(picks=picks)))
        picks.setdefault("held", self._held(Draft(picks=picks)))
        return Draft(picks=picks)

    def form(self, draft: Draft) -> Form:
        kind = self._type(draft)
        c = self.characters[kind]
        types = tuple((k, self.characters[k].name) for k in self.types)
        held = tuple((w, self.weapons[w].name if w in self.weapons else w) for w in c.weapons)
        choices = [Choice("type", "Varan type", types, kind)]
        if held:
            choices.append(Choice("held", "Held weapon", held, self._held(draft)))
        return Form(title=f"{c.name} (§20.1: the type's numbers, nothing rolled)", choices=tuple(choices))

    def refusal(self, draft: Draft, number: str, value: int) -> str | None:
        return f"{number}: a varan's numbers are its type's, not chosen"

    def check(self, draft: Draft) -> list[str]:
        out = []
        kind = draft.picks.get("type", "")
        if kind not in self.types:
            return [f"unknown varan type {kind!r}; one of {', '.join(self.types)}"]
        held = draft.picks.get("held", "")
        if held and held not in self.characters[kind].weapons:
            out.append(f"{held!r}: a {self.characters[kind].name} carries "
                       f"{', '.join(self.characters[kind].weapons) or 'no weapon'}")
        out += [f"{p} is not a choice; one of type, held" for p in draft.picks if p not in ("type", "held")]
        return out + [f"{n}: a varan's numbers are its type's, not chosen" for n in draft.numbers]

    def preview(self, draft: Draft) -> tuple[Row, ...]:
        c = self.characters[self._type(draft)]
        return (Row("Numbers", f"AV {c.av} · HP {c.hp} · move {c.move_m} m, run {c.run_m} m · "
                               f"Acc +{c.accuracy} Fgt +{c.fighter} Per +{c.perception}"),
                Row("Kit", "Kit: " + (", ".join([self._weapon(w) for w in c.weapons] + [self._item(i) for i in c.items])
                                      or "nothing")))

    def _item(self, i: str) -> str:
        items = self.content.rules[ID].get("items", {})
        return items[i].name if i in items else i

    def _weapon(self, w: str) -> str:
        return self.weapons[w].name if w in self.weapons else w

    def create(self, draft: Draft, dice: Dice):
        return Recruit(name=draft.name, type=self._type(draft), held=self._held(draft)), ()

    def validate(self, record: Recruit) -> list[str]:
        if record.type not in self.characters or not self.characters[record.type].varan:
            return [f".type: unknown varan type {record.type!r}"]
        if record.held and record.held not in self.characters[record.type].weapons:
            return [f".held: a {self.characters[record.type].name} carries no {record.held!r}"]
        return [f".{k}: {v} is negative" for k, v in (("severe", record.severe), ("rests", record.rests)) if v < 0]

    def describe(self, record: Recruit, wide: bool = False) -> tuple[str, str]:
        c = self.characters[record.type]
        return c.name, f"AV {c.av} HP {c.hp} {self._weapon(record.held or c.weapons[0]) if c.weapons else ''}"

    def made(self, record: Recruit) -> str:
        return f"a {self.characters[record.type].name}, its numbers from characters.toml"

    def starters(self) -> tuple:
        return ()  # a new campaign begins with recruits made by the creation rules

    def places(self, mission_id: str) -> int:
        return len(missions.squad_places(self.content, ID, mission_id))

    def deploy(self, mission_id: str, records: list[Recruit], alone: bool = False):
        rows, placed = {}, {}
        for record, place in zip(records, missions.squad_places(self.content, ID, mission_id)):
            tid = f"roster_{_id(record.name)}"
            base, slot = self.characters[record.type], self.characters[place]
            weapons = list(base.weapons)
            if record.held in weapons:
                weapons.remove(record.held)
                weapons.insert(0, record.held)
            rows[tid] = attrs.evolve(base, name=record.name, glyph=slot.glyph, behaviour=slot.behaviour,
                                     weapons=weapons)
            placed[place] = tid
        return missions.with_forces(self.content, ID, mission_id, placed, {"characters": rows}, alone)

    def improve(self, record: Recruit, dice: Dice):
        return f"{record.name}: a varan has no roll between missions"

    def train(self, record: Recruit, numbers: dict[str, int]):
        return f"{record.name}: a varan has nothing to train"

    def debrief(self, records: list[Recruit], state, dice: Dice):
        return unchanged(records)  # a mission changes nothing this roster keeps
