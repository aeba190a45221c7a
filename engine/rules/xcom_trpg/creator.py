"""xcom-trpg's rules of creation (creation.py) through the `Creation` seam, and roster characters deployed in a
mission's first squad places (each keeps its rolled HP, and the place's glyph and kit unless it has its own)."""

from __future__ import annotations

import attrs

from engine.content.models import Content, Missions
from engine.rules.xcom_trpg.models import UnitTemplate
from engine.core.creation import Choice, Draft, Form, Number, Points, unchanged
from engine.core.dice import Dice
from engine.core.ruleset import Row
from engine.rules.xcom_trpg import creation as c
from engine.rules.xcom_trpg.tables import ID, xcom

SHORT = {"strength": "Str", "agility": "Agi", "intelligence": "Int", "bravery": "Bra", "charisma": "Cha",
         "luck": "Lck", "psionics": "Psi"}
KIT = (("armor", "Armour", "armor"), ("weapon", "Weapon", "weapons"))  # pick id, label, table


class XcomCreation:
    record = c.Recruit

    def __init__(self, content: Content) -> None:
        self.content = content

    def _race(self, draft: Draft) -> str:
        race = draft.picks.get("race", "")
        return race if race in c.playable_races(self.content) else c.playable_races(self.content)[0]

    def draft(self, picks: dict[str, str] | None = None) -> Draft:
        picks = dict(picks or {})
        race = self._race(Draft(picks=picks))
        picks.setdefault("race", race)
        return Draft(picks=picks, numbers={s: c.limits(self.content, race, s)[0]
                                           for s in c.stat_names(self.content)})

    def form(self, draft: Draft) -> Form:
        content, race_id = self.content, self._race(draft)
        race = c.races(content)[race_id]
        names = {r: c.races(content)[r].name for r in c.playable_races(content)}
        choices = [Choice("race", "Race", tuple(names.items()), race_id)]
        for pick, label, table in KIT:
            options = (("", "the squad place's"),) + tuple((k, v.name) for k, v in self._kit(race_id, table).items())
            choices.append(Choice(pick, label, options, draft.picks.get(pick, ""), after=True))
        numbers = []
        for stat in c.stat_names(content):
            low, high = c.limits(content, race_id, stat)
            value = draft.numbers.get(stat, low)
            mod, note = race.modifiers.get(stat, 0), ""
            if mod:
                note += f"  final {value + mod} ({mod:+d} {race.name.lower()})"
            if stat in race.fixed:
                note += "  placed automatically"
            if stat == "psionics" and race.psi_locked and value:
                note += "  locked until initiation"
            numbers.append(Number(stat, stat.capitalize(), value, low, high, note.strip(), SHORT.get(stat, "")))
        total = c.budget(content, race_id)
        title = f"{race.name} ({'epic, ' if race.epic else ''}{total} points)"
        return Form(title=title, choices=tuple(choices), numbers=tuple(numbers),
                    points=Points(sum(n.value for n in numbers), total))

    def refusal(self, draft: Draft, number: str, value: int) -> str | None:
        race = self._race(draft)
        if number not in c.stat_names(self.content):
            return f"{number} is not a stat; one of {', '.join(c.stat_names(self.content))}"
        why = c.refusal(self.content, race, number, value)
        points = self.form(draft).points
        if why is None and value > draft.numbers.get(number, 0) and points.left <= 0:
            why = f"no points left: {c.article(c.races(self.content)[race])} has {points.total}"
        return why

    def _kit(self, race_id: str, table: str) -> dict:
        """What a recruit of the race may take: any armour; a weapon its hands may fire (an alien one only in alien
        hands, the biometric lock of 8.4), and not a thrown one (grenades are items, not the weapon)."""
        own = xcom(self.content)
        if table != "weapons":
            return getattr(own, table)
        alien = c.races(self.content)[race_id].alien
        return {k: w for k, w in own.weapons.items() if not w.thrown and (alien or not w.alien)}

    def _picks(self, draft: Draft) -> list[str]:
        own, out = xcom(self.content), []
        for pick, _label, table in KIT:
            chosen = draft.picks.get(pick)
            if chosen and chosen not in getattr(own, table):
                out.append(f"unknown {'armour' if pick == 'armor' else pick} {chosen!r}")
            elif chosen and chosen not in self._kit(self._race(draft), table):
                item = getattr(own, table)[chosen].name
                out.append(f"a {c.races(self.content)[self._race(draft)].name.lower()} cannot take the "
                           f"{item.lower()}: {'thrown, an item' if own.weapons[chosen].thrown else 'its biometric lock (8.4)'}")
        out += [f"{p} is not a choice; one of race, armor, weapon" for p in draft.picks
                if p not in ("race", "armor", "weapon")]
        return out

    def check(self, draft: Draft) -> list[str]:
        race = draft.picks.get("race", "")
        if race not in c.playable_races(self.content):
            return c.check(self.content, race, draft.numbers)  # the unknown race, and the ones there are
        return c.check(self.content, race, c.complete(self.content, race, draft.numbers)) + self._picks(draft)

    def preview(self, draft: Draft) -> tuple[Row, ...]:
        race = self._race(draft)
        strength = draft.numbers.get("strength", 1)
        low, high = c.hp_range(self.content, race, strength)
        final = strength + c.races(self.content)[race].modifiers.get("strength", 0)
        rows = [Row("HP", f"HP {low}–{high}, rolled once on save with final strength {final}")]
        rows += [Row("Guideline", f"⚠ {a.split(' (')[0]} (a guideline)", alert="guideline")
                 for a in c.advice(self.content, race, draft.numbers)]
        return tuple(rows)

    def create(self, draft: Draft, dice: Dice):
        try:
            ch, roll = c.create(self.content, draft.name, draft.picks.get("race", ""), dict(draft.numbers), dice,
                                armor=draft.picks.get("armor", ""), weapon=draft.picks.get("weapon", ""))
        except c.Refused as exc:
            raise ValueError(str(exc)) from None
        return ch, (roll,)

    def validate(self, record: c.Recruit) -> list[str]:
        return c.validate(self.content, record)

    def describe(self, record: c.Recruit, wide: bool = False) -> tuple[str, str]:
        final = c.final_stats(self.content, record)
        race = c.races(self.content)[record.race].name
        psi = c.psi_word(self.content, record)
        if wide:
            cells = [f"{SHORT.get(k, k)} {final[k]}" + (f"({v}{final[k] - v:+d})" if final[k] != v else "")
                     for k, v in record.stats.items()]
            return race, f"{' '.join(cells)}  HP {record.hp}  {psi}"
        stats = " ".join(f"{SHORT.get(k, k)[:1]}{final[k]}" for k in record.stats)
        return race, f"{stats}  HP {record.hp:<3} {psi.replace(' until initiation', '')}"

    def made(self, record: c.Recruit) -> str:
        return record.hp_roll

    def slots(self, mission_id: str) -> list[str]:
        """The squad places roster characters may take: all but the ones an objective names (the VIP)."""
        mission = self.content.missions[mission_id]
        if mission.ruleset != ID:  # its squad is another ruleset's
            return []
        kept = {o.unit for o in mission.objectives.values() if o.unit}
        return [t for t in mission.squad if t not in kept]

    def starters(self) -> tuple:
        return ()  # a new campaign begins with recruits made by the creation rules

    def places(self, mission_id: str) -> int:
        return len(self.slots(mission_id))

    def deploy(self, mission_id: str, records: list[c.Recruit], alone: bool = False) -> Content:
        content = self.content
        if not records:
            return content
        mission = content.missions[mission_id]
        units, squad = dict(xcom(content).units), list(mission.squad)
        for ch, slot in zip(records, self.slots(mission_id)):
            base = units[slot]
            tid = f"roster_{c.key(ch.name)}"
            units[tid] = UnitTemplate(name=ch.name, race=ch.race, faction=base.faction, stats=dict(ch.stats),
                                      armor=ch.armor or base.armor, weapon=ch.weapon or base.weapon,
                                      items=dict(base.items), magazines=base.magazines, glyph=base.glyph, ai=base.ai,
                                      hp=ch.hp, psi_awakened=ch.psi_awakened)
            squad[squad.index(slot)] = tid
        if alone:  # the slots nobody took stay empty
            empty = set(self.slots(mission_id)[len(records):])
            squad = [t for t in squad if t not in empty]
        table = dict(content.missions)
        table[mission_id] = attrs.evolve(mission, squad=squad)
        missions = Missions(table, content.missions.difficulties) if isinstance(content.missions, Missions) else table
        rules = {**content.rules, ID: {**content.rules[ID], "units": units}}
        return attrs.evolve(content, rules=rules, missions=missions)

    def improve(self, record: c.Recruit, dice: Dice):
        try:
            return c.initiate(self.content, record, dice)
        except c.Refused as exc:
            return str(exc)

    def train(self, record: c.Recruit, numbers: dict[str, int]):
        return f"{record.name}: an xcom-trpg soldier has nothing to train between missions"

    def debrief(self, records: list[c.Recruit], state, dice: Dice):
        return unchanged(records)  # a mission changes nothing this roster keeps
