"""The registered annihilation ruleset: the `Ruleset` protocol over the rules core of this package.

Side phases (A-2.3): the squad, then the aliens; each unit spends its TUs in its own side's phase, and what it
leaves is for opportunity fire in the enemy's. `decide` calls turns (the start of each phase, section 22), moving
(steps, doors, reaction fire), combat (shots, reloads, blasts) and acts (stances, the mission's objects); the
client's questions are answered in `queries`.
"""

from __future__ import annotations

import attrs
import numpy as np

from engine.content import missions
from engine.content.models import scaled
from engine.core.commands import (Act, Command, EndTurn, Face, Move, Rejected, Reload, Shoot, StartMission, Throw,
                                  Wait)
from engine.core.dice import Dice
from engine.core.events import Event, MissionEnded, UnitChanged
from engine.core.model import State, Unit
from engine.core.ruleset import Clues, Hunt, Later, actor, closed, register
from engine.rules.annihilation import (acts, clouds, combat, falls, floor, hazards, letgo, moving, practice, queries,
                                      spotting, stalking, turns)
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.deploy_schema import SCHEMA

ID = "annihilation"
OWN = ("units", "forces", "ground", "difficulty", "campaign")  # the tables deploy_schema adds to the rules' own


def _referee():
    """The `resolve` rules (referee.py), imported when first asked for: a battle never needs them."""
    from engine.rules.annihilation import referee

    return referee


@register(ID)
class Annihilation(queries.Queries):
    title = "X-COM Annihilation"
    audit_dice = (100, 20, 10, 4)  # to-hit, hit location, stats (7d10 + 10), wounds (1d4 per 10 damage)
    schema = SCHEMA
    scenario = Later(lambda: _referee().Scenario)  # `resolve`: one shot staged on an open field (referee.py)
    sight_range = 20  # A-7.6 (settings.toml vision_range)
    storeys = 1  # settings.toml `storeys` once the book is read

    def __init__(self, content, setup) -> None:
        self.content = content
        self.setup = setup
        tables = content.rules.get(ID, {})
        self.units, self.forces, self.ground, hardships = (tables.get(k, {}) for k in OWN[:4])
        level = (setup.mission.difficulty or content.default_difficulty()) if setup is not None else None
        self.level = content.difficulty.get(level) if level else None  # the shared level: alien numbers, the AI
        self.hardship = hardships.get(level)  # what the level does to the aliens (deploy_schema.Hardship)
        if tables.get("settings"):
            self.book = Book.of({k: v for k, v in tables.items() if k not in OWN})
            self.sight_range = self.book.settings.vision_range
            self.storeys = self.book.settings.storeys
            self.climates = tuple(self.book.settings.climates)
            self.hexes = self.book.settings.grid == "hex"  # the shared map read as hexes
        else:  # a bundle without `annihilation/` (an older one): nothing to play, no mission listed
            self.book = None
        self._walks: dict = {}
        self._sight: tuple | None = None
        self._haze: dict = {}  # clouds.seen_from's squares seen through smoke, for one map and one set of clouds
        self._held: dict = {}  # falls.settle's units found held up on one grid (by id: the unit object)
        self._spotted: dict = {}  # queries.spotted's answers on one grid, by what they read

    def decide(self, state: State, command: Command, dice: Dice) -> Rejected | list[Event]:
        if isinstance(command, StartMission):
            return turns.start(self, state, dice)
        shut = closed(state)
        if shut is not None:
            return shut
        if isinstance(command, EndTurn):
            events = turns.end_turn(self, state, command.side, dice)
        else:
            unit = self._actor(state, getattr(command, "unit", ""))
            if isinstance(unit, Rejected):
                return unit
            handler = _HANDLERS.get(type(command))
            if handler is None:
                return Rejected("unknown_command", f"annihilation has no {command.kind}: walk, turn, shoot, "
                                                   "throw, reload, wait or act")
            events = handler(self, state, unit, command, dice)
        if isinstance(events, Rejected):
            return events
        events = events + falls.settle(self, state, events, dice)  # nobody is left standing on open air
        events = events + letgo.settle(self, state, events)  # hands that can hold no more let go
        events = events + floor.settle(self, state, events)  # what is on the floor lies on the map
        events = events + spotting.settle(self, state, events, dice)  # optional: who makes out the smoke
        if not self.book.settings.uses_counted:
            return events + turns.verdict(self, state, events)
        events = events + practice.counted(self, state, command, events)
        events = events + turns.verdict(self, state, events)
        ends = [e for e in events if isinstance(e, MissionEnded)]
        if not ends:
            return events
        body = [e for e in events if not isinstance(e, MissionEnded)]
        return body + practice.debrief(self, state, body, dice) + ends  # before the verdict

    def _actor(self, state: State, uid: str) -> Unit | Rejected:
        unit = actor(state, uid, "phase")
        if isinstance(unit, Rejected):
            return unit
        if unit.record.done:
            return Rejected("done", f"{unit.name} has ended its phase")
        return unit

    def walked(self, state: State, command: Move) -> State | Rejected:
        unit = self._actor(state, command.unit)
        if isinstance(unit, Rejected) or not isinstance(command, Move):
            return unit if isinstance(unit, Rejected) else Rejected("unknown_command", "annihilation walks by Move")
        return moving.ahead(self, state, unit, command)

    def ai_hunt(self, state: State, unit: Unit, clues: Clues) -> Hunt | None:
        return stalking.hunt(self, state, unit, clues) if self._mine(state, unit) else None

    def roster(self, mission_id: str) -> list[missions.Member] | None:
        forces = self.forces.get(missions.base_id(mission_id))
        if forces is None:
            return None
        if self.level is not None and self.level.enemies_percent != 100:  # difficulty.toml's alien numbers
            forces = attrs.evolve(forces, enemies={k: scaled(n, self.level.enemies_percent)
                                                   for k, n in forces.enemies.items()})
        return missions.members(forces, self._looks)

    def _looks(self, template: str) -> tuple[str, str, str]:
        t = self.units[template]
        return t.name, t.glyph, self.book.weapons[t.weapon].name.lower() if t.weapon else "unarmed"

    def behaviour(self, unit: Unit) -> str:
        t = self.units.get(unit.template)
        return t.behaviour if t is not None else "default"

    def shaken(self, unit: Unit, below: float) -> bool:
        return False  # the source gives no morale rules (A-3, Bravery)

    def aptitude(self, unit: Unit, stats: tuple[str, ...]) -> int:
        numbers = unit.record.fighter.character.stats.env()
        return sum(numbers.get(s, 0) for s in stats)

    def change_note(self, before: Unit, after: Unit, cause: str) -> str | None:
        return None  # its unit changes are told by their events' own words

    def visible(self, state: State, side: str) -> np.ndarray:
        seen = self.sight_levels(state, side)
        return seen[0] if len(seen) == 1 else seen.any(axis=0)

    def sight_levels(self, state: State, side: str) -> np.ndarray:
        """Each unit's sight on its storey and onto the others through open air (engine.map.levels), cut by smoke on
        the ground (A-17.8, clouds.py)."""
        if self._sight is not None and self._sight[0] is state and self._sight[1] == side:
            return self._sight[2]
        seen = clouds.side_sight(self, state, side)
        self._sight = (state, side, seen)
        return seen

    # -- resolve: one described shot, decided as the game decides it (referee.py) ----------------------

    def check_scenario(self, sc):
        return _referee().check(self, sc)

    def scenario_units(self, sc, setup):
        return _referee().units_of(self, sc, setup)

    def unit_report(self, before, after):
        return _referee().report(self, before, after)

    def referee(self, units, action, dice):
        return _referee().referee(self, units, action, dice)

    def trial_plan(self, units, action):
        from engine.rules.annihilation import trials

        return trials.plan(self, units, action)

    def trial_tally(self, action, verdict):
        return _referee().tally(self, action, verdict)

    def creation(self):
        from engine.rules.annihilation.creator import AnnihilationCreation

        return AnnihilationCreation(self.content)

    def loadout(self):
        return self.creation().outfitter

    def downtime(self):
        from engine.rules.annihilation.downtime import AnnihilationDowntime

        return AnnihilationDowntime(self.content)


def _wait(rs: Annihilation, state: State, unit: Unit, cmd: Wait, dice: Dice) -> list[Event]:
    left = unit.record.fighter.tu_left
    return [UnitChanged(unit=unit.id, changes={"record": attrs.evolve(unit.record, done=True)},
                        cause=f"ends its phase, {left} TU kept for opportunity fire")]


_HANDLERS = {Move: hazards.move, Shoot: combat.shoot, Reload: combat.reload, Wait: _wait, Act: acts.act,
             Throw: acts.throw, Face: acts.face}
