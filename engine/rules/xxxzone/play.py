"""The registered xxxzone ruleset: the kernel's questions answered by the rules core (../shared/rules/xxxzone.md).

Side turns, each entity spending its own AP (section 4): `Move` moves quickly (1 AP a square), `Combo` (the `c`
key) moves cautiously (2 AP a square); `Shoot` fires a mode `weapon:mode`; `Reload`, `Wait`, `EndTurn`; `Act`
for Aim, Hunker Down, Overwatch, Draw, Stow and Interact (acts.py)."""

from __future__ import annotations

import attrs
import numpy as np

from engine.content import missions
from engine.core.commands import (Act, Combo, Command, EndTurn, Face, Move, Rejected, Reload, Shoot, StartMission,
                                  Throw, Wait)
from engine.core.dice import Dice
from engine.core.events import Event
from engine.core.geometry import Pos, distance
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.core.ruleset import (Later, Plain, Budget, Clues, Hunt, Mode, Sheet, ShotPreview, Throwable, ThrowPreview,
                                 Turn, Walk, actor, closed, register)
from engine.rules.xxxzone import (acts, ai, blasts, feats, forces, marks, moving, seen, shooting, smoke,
                                   spraying, throwing, turns, units)
from engine.rules.xxxzone import sheet as panel
from engine.rules.xxxzone.actions import available
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.schema import SCHEMA
from engine.rules.xxxzone.units import battle as battle_of

ID = "xxxzone"


def _referee():
    """The `resolve` rules (referee.py), imported when first asked for: a battle never needs them."""
    from engine.rules.xxxzone import referee

    return referee


@register(ID)
class XxxZone(Plain):
    id = ID
    title = "XXXzone"
    sight_range = seen.RADIUS
    audit_dice = (100,)  # the shot, spot checks and every test are d100 rolls
    storeys = 1  # one level: its maps have raised floors, no storeys
    schema = SCHEMA

    def __init__(self, content, setup) -> None:
        self.content = content
        self.setup = setup
        self.book = Book.of(content.rules[ID])
        self._spotted: dict[tuple[int, str], tuple[State, frozenset[str]]] = {}
        self._cover: list = []  # the last resolve scenario's cover tiles, for its referee (scenario_units sets it)

    # -- the kernel's entry point ---------------------------------------------------------------

    def decide(self, state: State, command: Command, dice: Dice) -> Rejected | list[Event]:
        got = self._decide(state, command, dice)
        if isinstance(got, Rejected) and got.reason[:1].islower():  # the rules core words its reasons mid-sentence
            return Rejected(got.code, got.reason[0].upper() + got.reason[1:])
        return got

    def _decide(self, state: State, command: Command, dice: Dice) -> Rejected | list[Event]:
        if isinstance(command, StartMission):
            return turns.start(self, state, dice)
        shut = closed(state)
        if shut is not None:
            return shut
        if isinstance(command, EndTurn):
            events = turns.end_turn(self, state, command.side, dice)
            return events if isinstance(events, Rejected) else events + self._verdict(state, events)
        unit = self._actor(state, getattr(command, "unit", ""))
        if isinstance(unit, Rejected):
            return unit
        events = self._command(state, unit, command, dice)
        if isinstance(events, Rejected):
            return events
        now = fold(state, events)
        lost = feats.focus(self, now, command, unit.id)
        if lost:
            events += lost
            now = fold(now, lost)
        events += turns.sightings(self, now, dice, (unit.id,))
        return events + self._verdict(state, events)

    def _command(self, state: State, unit: Unit, command: Command, dice: Dice) -> Rejected | list[Event]:
        kinds = {Shoot: "shoot", Throw: "throw", Reload: "reload", Face: "turn"}  # as the Act it stands for
        doing = command.action if isinstance(command, Act) else kinds.get(type(command), "")
        wet = moving.swimming(self, state, unit, doing)
        if wet is not None:
            return wet
        if isinstance(command, Move):
            return moving.move(self, state, unit, command.path, "quickly", dice)
        if isinstance(command, Combo):
            return moving.move(self, state, unit, command.path, "cautiously", dice)
        if isinstance(command, Shoot):
            return self._shoot(state, unit, command, dice)
        if isinstance(command, Reload):
            return acts.reload(self, unit)
        if isinstance(command, Wait):
            return acts.wait(self, unit)
        if isinstance(command, Act):
            return acts.act(self, state, unit, command, dice)
        if isinstance(command, Throw):
            return throwing.throw(self, state, unit, command, dice)
        if isinstance(command, Face):
            return acts.face(self, unit, command)
        return Rejected("unknown_command", f"xxxzone has no {command.kind} command")

    def walked(self, state: State, command: Move | Combo) -> State | Rejected:
        unit = self._actor(state, command.unit)
        if isinstance(unit, Rejected):
            return unit
        return moving.ahead(self, state, unit, command.path, "quickly" if isinstance(command, Move) else "cautiously")

    def _actor(self, state: State, uid: str) -> Unit | Rejected:
        unit = actor(state, uid)
        if isinstance(unit, Rejected):
            return unit
        if unit.record.turn.ended:
            return Rejected("turn_over", f"{unit.name} has ended its actions for this turn")
        return unit

    def _shoot(self, state: State, unit: Unit, cmd: Shoot, dice: Dice) -> Rejected | list[Event]:
        c = unit.record
        which = shooting.mode_of(self.book, c, cmd.mode)
        if isinstance(which, Rejected):
            return which
        target = self._target(state, unit, cmd.target)
        if isinstance(target, Rejected):
            return target
        w = self.book.weapons[which[0]]
        spec = w.modes[which[1]]
        free = shooting.charging(self.book, c, *which)  # Melee Charge: the attack after the run costs nothing
        paid = shooting.actions.spend(c.turn, 0 if free else spec.ap, "melee" if w.kind == "melee" else "gun",
                                      frozenset(c.op.abilities), what=f"The {w.name} {which[1].replace('_', ' ')}")
        if isinstance(paid, Rejected):
            return paid
        if free:
            paid = attrs.evolve(paid, charged=True)
        if "teamwork" in c.op.abilities:  # its allies with Teamwork! get +10 at this target for the rest of the turn
            paid = attrs.evolve(paid, teamwork_at=cmd.target)
        if self.book.settings.repeat_recoil:  # 6.4: the next attack action with this weapon takes its recoil again
            paid = paid.attacked_with(which[0])
        if spec.cone:
            return spraying.spray(self, state, unit, target, *which, dice, paid)
        got = shooting.attack(self, state, unit, target, *which, dice, paid, mode_id=cmd.mode)
        return got if isinstance(got, Rejected) else got[0]

    def _target(self, state: State, unit: Unit, tid: str) -> Unit | Rejected:
        target = state.units.get(tid)
        if target is None or target.id == unit.id:
            return Rejected("no_target", "No such target")
        if target.status == "dead":
            return Rejected("dead", f"{target.name} is dead")
        if smoke.level(self.book, state, unit.pos, target.pos) == "hidden":
            return Rejected("hidden", f"{target.name} is hidden by the smoke: {self.book.settings.smoke_hidden} smoke "
                                      f"squares or more on the line")
        if target.id not in self.spotted(state, unit.side):
            return Rejected("not_spotted", "The squad has not spotted anyone there" if unit.side == missions.PLAYER
                            else "Not spotted")
        if not state.grid.sees(unit.pos, target.pos, self.sight_range):
            return Rejected("no_line_of_sight", f"{unit.name} has no line of fire to {target.name}")
        return target

    def _verdict(self, state: State, events: list[Event]) -> list[Event]:
        if self.setup is None:  # a staged field (resolve, tests): no mission to end
            return []
        return missions.ending(self.content, self.setup, state, events)

    # -- what the client and the AI ask -----------------------------------------------------------

    def turn(self, state: State) -> Turn:
        if state.winner is not None:
            return Turn(side="")
        return Turn(side=state.side, label=f"{'Squad' if state.side == missions.PLAYER else state.side} turn "
                                           f"{state.phase}")

    def spotted(self, state: State, side: str) -> frozenset[str]:
        key = (id(state), side)
        hit = self._spotted.get(key)
        if hit is not None and hit[0] is state:
            return hit[1]
        if len(self._spotted) > 64:
            self._spotted.clear()
        found = seen.spotted(self.book, state, side)
        self._spotted[key] = (state, found)
        return found

    def sight_levels(self, state: State, side: str) -> np.ndarray:
        return self.visible(state, side)[np.newaxis]  # one level

    def visible(self, state: State, side: str) -> np.ndarray:
        return seen.visible(state, side)

    def budget(self, state: State, unit: Unit) -> Budget:
        c = unit.record
        if c is None:
            return Budget(label="", can_act=False, moves_left=0)
        t = c.turn
        can = (unit.conscious and unit.side == state.side and state.winner is None and not t.ended
               and t.ap + t.restricted > 0)
        per = moving.step_cost(self, unit, "quickly")
        cautious = moving.step_cost(self, unit, "cautiously")
        per = cautious if isinstance(per, Rejected) else per
        moves = available(t, "move") if can and not t.rooted and not isinstance(cautious, Rejected) else 0
        costs = [spec for *_, spec in shooting.modes(self.book, c)]
        step = max(0, moves - min(costs)) if costs else moves
        combo = (moves // cautious) * per if isinstance(cautious, int) and cautious else 0
        label = panel.budget(c) + (f" +{t.restricted}" if t.restricted else "")
        water = moving.water(self, state, unit)  # swimming: the same price moving quickly or cautiously
        slow = Walk(cardinal=cautious, diagonal=cautious, currency="AP", water=water) \
            if water is not None and isinstance(cautious, int) else None
        unseen = not any(unit.id in units.battle(state).sightings(s) for s in state.sides if s != unit.side)
        return Budget(label=label, can_act=can, moves_left=moves, dash_moves=combo, dash_label="cautious",
                      step=step, walk=Walk(cardinal=per, diagonal=per, currency="AP", water=water), dash_walk=slow,
                      dash_prefer=unseen)  # the AI creeps while nobody has spotted it (issue 11's AI list)

    def preview_shot(self, state: State, shooter: str, target: str, mode: str) -> ShotPreview | Rejected:
        return ai.preview(self, state, shooter, target, mode)

    def preview_throw(self, state: State, thrower: str, item: str, cell: Pos) -> ThrowPreview | Rejected:
        return throwing.preview(self, state, thrower, item, cell)

    def options(self, state: State, unit: Unit) -> list:
        return acts.options(self, state, unit)

    def throwables(self, state: State, unit: Unit) -> list[Throwable]:
        return throwing.throwables(self, unit)

    def throw_range(self, state: State, unit: Unit, item: str) -> int:
        """In Chebyshev distance: the reach is counted in squares between (Str + 10)."""
        return unit.record.op.effective("strength") + self.book.settings.throw_reach_over_strength + 1

    def distance(self, a: Pos, b: Pos) -> int:
        return distance(a, b)

    def blast(self, state: State, item: str, cell: Pos) -> tuple[Pos, ...]:
        return blasts.cells(self, state, item, cell)

    def shot_modes(self, state: State, unit: Unit) -> list[Mode]:
        return ai.shot_modes(self, state, unit)

    def sheet(self, state: State, unit: Unit) -> Sheet:
        return ai.sheet(self, unit, moving.wet(self, state, unit.pos))

    def name(self, thing: str) -> str:
        book = self.book
        if thing in book.weapons or thing in book.items:
            return book.gear(thing).name
        return thing.replace("_", " ").capitalize()

    def roster(self, mission_id: str) -> list[missions.Member] | None:
        return forces.roster(self.book, mission_id, self.level(mission_id))

    def level(self, mission_id: str):
        """The mission's difficulty level where it changes the aliens (`level_forces`; older content: None)."""
        mission = self.content.missions.get(mission_id) if self.book.settings.level_forces else None
        return missions.difficulty(self.content, mission) if mission is not None else None

    def behaviour(self, unit: Unit) -> str:
        m = self.book.roster.get(unit.template)
        return m.behaviour if m is not None else "default"

    def shaken(self, unit: Unit, below: float) -> bool:
        return False  # xxxzone has no morale

    def aptitude(self, unit: Unit, stats: tuple[str, ...]) -> int:
        numbers = unit.record.op.env()
        return sum(numbers.get(s, 0) for s in stats)

    def inventory(self, state: State, unit: Unit) -> None:
        return None  # no inventory screen: its kit is not moved about in battle

    def marks(self, state: State, side: str) -> tuple:
        return marks.marks(self, state, side)

    def spot_chance(self, state: State, unit: Unit, cell: Pos, watcher: Pos, spotter: Unit | None) -> int:
        return ai.spot_chance(self, state, unit, cell, watcher, spotter)

    def heard(self, state: State, side: str) -> tuple:
        return battle_of(state).alarm(side, state.phase)  # an unsuppressed shot's alert radius (10)

    def change_note(self, before: Unit, after: Unit, cause: str) -> str | None:
        return None  # its unit changes are told by their events' own words

    def ai_special(self, state: State, unit: Unit, in_sight: list[Unit], has_shot: bool) -> Command | None:
        return ai.special(self, state, unit, in_sight, has_shot)

    def ai_hunt(self, state: State, unit: Unit, clues: Clues) -> Hunt | None:
        return ai.errand(self, state, unit, clues)

    def ai_chore(self, state: State, unit: Unit, in_sight: list[Unit], stage: str) -> Command | None:
        return ai.chore(self, state, unit, stage)

    # -- resolve: one shot staged on an open field (referee.py) ---------------------------------

    scenario = Later(lambda: _referee().Scenario)

    def check_scenario(self, sc) -> list[str]:
        return _referee().check(self, sc)

    def scenario_units(self, sc, setup):
        self._cover = list(sc.cover)
        return _referee().units(self, sc), []

    def unit_report(self, before, after):
        return _referee().report(self, before, after)

    def referee(self, units, action, dice):
        return _referee().referee(self, units, action, dice, self._cover)

    def trial_plan(self, units, action):
        from engine.rules.xxxzone import trials

        return trials.plan(self, units, action, self._cover)

    def trial_tally(self, action, verdict):
        """The shot's outcome at its target: the worst of its rolls (miss, cover, glancing, or a wound tier)."""
        return {action.target: {"outcome": verdict.outcome}} if verdict.outcome else {}

    def creation(self):
        from engine.rules.xxxzone.creator import XxxzoneCreation

        return XxxzoneCreation(self.content)

    def downtime(self):
        from engine.rules.xxxzone.downtime import XxxzoneDowntime

        return XxxzoneDowntime(self.content)
