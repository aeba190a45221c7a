"""A d6 "one shot, one save" ruleset that exists only for the tests: it proves that a rule system plugs in
through the registry and the `Ruleset` protocol alone, with no change outside this file.

Side turns; each unit has one action: walk up to 4 cells, or shoot (1d6 ≥ 4 hits, then the target saves on
1d6 ≥ 5, else it loses one of its 3 wounds). It plays the built-in missions with the built-in units. Its one table
of its own, `d6-stub/dice.toml` (`[standard] hit = 4, save = 5`), is optional: it proves a ruleset's content folder.
"""

from __future__ import annotations

import attrs
import numpy as np

from engine.content import field, missions
from engine.content.tables import Schema
from engine.core.commands import Act, Command, EndTurn, Move, Rejected, Shoot, StartMission, Wait
from engine.core.dice import Dice, Roll
from engine.core.events import (Event, MissionEnded, Moved, Noted, PhaseStarted, Resolved, SideStarted, UnitChanged,
                                UnitSpawned)
from engine.core.geometry import Pos, distance
from engine.core.model import State, Unit
from engine.core.records import Patch, record
from engine.core.reducer import fold
from engine.core.ruleset import Plain, Budget, Mode, Row, Sheet, ShotPreview, Turn, register

ID = "d6-stub"
STEPS, WOUNDS, SIGHT = 4, 3, 12


@attrs.frozen(kw_only=True)
class Odds:
    """One table of `d6-stub/dice.toml`: the face a shot needs to hit, and the face a save needs."""

    hit: int = 4
    save: int = 5


@record(f"{ID}.trooper")
@attrs.frozen(kw_only=True)
class Trooper:
    """The stub's own typed record on each unit (Unit.record): what its sheet counts beyond wounds."""

    weapon: str = ""
    actions: int = 0  # 1 on its side's turn until it acts
    shots: int = 0
    saves: int = 0  # wounds its armour saved


READY, SPENT = Patch(f"{ID}.trooper", {"actions": 1}), Patch(f"{ID}.trooper", {"actions": 0})


@record(f"{ID}.tally")
@attrs.frozen(kw_only=True)
class Tally:
    """The stub's own record of the battle (State.record): shots fired by everyone so far."""

    shots: int = 0


@register(ID)
class D6Stub(Plain):
    sight_range = SIGHT
    audit_dice = (6,)
    storeys = 1  # one level: its maps have raised floors, no storeys
    schema = Schema(files={"dice.toml": Odds}, optional=("dice.toml",),
                    check=lambda own, shared: [f"dice.toml: [{k}].{f}: expected a face 2 to 6, got {v}"
                                               for k, o in own["dice"].items() for f, v in attrs.asdict(o).items()
                                               if not 2 <= v <= 6])

    title = "d6 one shot, one save"

    def __init__(self, content, setup) -> None:
        self.content = content
        self.setup = setup
        odds = content.rules.get(ID, {}).get("dice", {}).get("standard", Odds())
        self.hit, self.save = odds.hit, odds.save

    # -- the kernel's entry point ---------------------------------------------------------------

    def decide(self, state: State, command: Command, dice: Dice) -> Rejected | list[Event]:
        if isinstance(command, StartMission):
            return self._start(state)
        if isinstance(command, EndTurn):
            return self._end_turn(state, command.side)
        unit = state.units.get(getattr(command, "unit", ""))
        if unit is None or unit.side != state.side or not unit.conscious or unit.record.actions < 1:
            return Rejected("not_now", "That unit cannot act now")
        if isinstance(command, Wait):
            return [UnitChanged(unit=unit.id, changes={"record": SPENT}, cause="waits")]
        if isinstance(command, Move):
            return self._move(state, unit, command.path)
        if isinstance(command, Shoot):
            return self._shoot(state, unit, command.target, dice)
        return Rejected("unknown_command", f"{ID} has no {command.kind}")

    def _start(self, state: State) -> list[Event]:
        events: list[Event] = []
        for m, cell in field.placements(self.roster(self.setup.mission_id), self.setup.mission, self.setup.spawns):
            t = self.content.rules["xcom-trpg"]["units"][m.template]  # the built-in units, as the missions name
            unit = Unit(id=m.uid, name=m.name, template=m.template, race=t.race, side=m.side, glyph=t.glyph, pos=cell,
                        facing=field.FACING.get(m.side, 0), hp=WOUNDS, hp_max=WOUNDS,
                        record=Trooper(weapon=t.weapon))
            events.append(UnitSpawned(unit=unit))
        return events + [PhaseStarted(phase=1), *self._side(state, missions.PLAYER, events)]

    def _side(self, state: State, side: str, spawned: list[Event] = ()) -> list[Event]:
        units = [e.unit for e in spawned if isinstance(e, UnitSpawned)] or list(state.units.values())
        return [SideStarted(side=side)] + [UnitChanged(unit=u.id, changes={"record": READY}, cause="turn")
                                           for u in units if u.side == side and u.conscious]

    def _end_turn(self, state: State, side: str) -> Rejected | list[Event]:
        if side != state.side:
            return Rejected("not_your_turn", f"It is {state.side}'s turn")
        acting = [s for s in state.sides if state.side_units(s)]
        following = acting[(acting.index(side) + 1) % len(acting)]
        out: list[Event] = [UnitChanged(unit=u.id, changes={"record": SPENT}, cause="turn ends")
                            for u in state.side_units(side) if u.record.actions]
        if following == acting[0]:
            if state.phase >= self.setup.max_phases:
                return out + [MissionEnded(winner="draw", reason=f"phase limit {self.setup.max_phases} reached")]
            out.append(PhaseStarted(phase=state.phase + 1))
        return out + self._side(state, following)

    def _move(self, state: State, unit: Unit, path: tuple[Pos, ...]) -> Rejected | list[Event]:
        cost = self.path_cost(state, unit, path)
        if isinstance(cost, Rejected):
            return cost
        return [Moved(unit=unit.id, path=path, facing=unit.facing),
                UnitChanged(unit=unit.id, changes={"record": SPENT}, cause="walks")]

    def walked(self, state: State, command: Move) -> State | Rejected:
        events = self._move(state, state.units[command.unit], command.path) if isinstance(command, Move) \
            else Rejected("unknown_command", "The stub walks by Move")
        return events if isinstance(events, Rejected) else fold(state, events)

    def path_cost(self, state: State, unit: Unit, path: tuple[Pos, ...]) -> Rejected | int:
        if not path or len(path) > STEPS:
            return Rejected("too_far", f"A unit walks 1 to {STEPS} cells")
        here = unit.pos
        for cell in path:
            if distance(here, cell) != 1 or not state.grid.walkable[cell[1], cell[0]] or state.units_at(cell):
                return Rejected("blocked", f"{cell[0]},{cell[1]} cannot be entered")
            here = cell
        return 1

    def _shoot(self, state: State, unit: Unit, target_id: str, dice: Dice) -> Rejected | list[Event]:
        target = state.units.get(target_id)
        if target is None or not target.conscious or not self._sees(state, unit, target):
            return Rejected("no_target", "No target in sight there")
        hit = _d6(dice, unit.id, "hit", self.hit)
        rolls = [hit]
        wounded = False
        if hit.total >= self.hit:
            save = _d6(dice, target.id, "save", self.save)
            rolls.append(save)
            wounded = save.total < self.save
        out: list[Event] = [Resolved(actor=unit.id, action="shoot", target=target.id, weapon=unit.record.weapon,
                                     rolls=tuple(rolls), outcome="wound" if wounded else "no wound",
                                     text=f"{unit.name} shoots {target.name}: {'wound' if wounded else 'no wound'}"),
                            UnitChanged(unit=unit.id, changes={"record": attrs.evolve(
                                unit.record, actions=0, shots=unit.record.shots + 1)}, cause="shoots"),
                            Noted(record=Tally(shots=(state.record or Tally()).shots + 1), cause="a shot")]
        if len(rolls) > 1 and not wounded:
            out.append(UnitChanged(unit=target.id, changes={"record": attrs.evolve(
                target.record, saves=target.record.saves + 1)}, cause="saves"))
        if wounded:
            hp = target.hp - 1
            out.append(UnitChanged(unit=target.id, changes={"hp": hp, **({"status": "dead"} if hp <= 0 else {})},
                                   cause="wounded"))
        return out + self._verdict(state, out)

    def _verdict(self, state: State, events: list[Event]) -> list[Event]:
        from engine.core.reducer import fold

        found = missions.verdict(self.content, self.setup.mission, self.setup.spawns, fold(state, events))
        return [MissionEnded(winner=found[0], reason=found[1])] if found else []

    # -- what the client and the AI ask -----------------------------------------------------------

    def _sees(self, state: State, unit: Unit, target: Unit) -> bool:
        return bool(state.grid.fov(unit.pos, SIGHT)[target.pos[1], target.pos[0]])

    def turn(self, state: State) -> Turn:
        return Turn(side="" if state.winner is not None else state.side)

    def spotted(self, state: State, side: str) -> frozenset[str]:
        return field.in_cells(state, side, self.visible(state, side))

    def budget(self, state: State, unit: Unit) -> Budget:
        can = unit.conscious and unit.side == state.side and unit.record.actions > 0 and state.winner is None
        return Budget(label=f"action {unit.record.actions}/1", can_act=can, moves_left=STEPS if can else 0)

    def preview_shot(self, state: State, shooter: str, target: str, mode: str) -> ShotPreview | Rejected:
        a, b = state.units[shooter], state.units[target]
        if not self._sees(state, a, b):
            return Rejected("no_line_of_sight", "Not in sight")
        p = (7 - self.hit) / 6 * (self.save - 1) / 6
        lines = (Row("Hit", f"1d6 ≥ {self.hit}: {100 * (7 - self.hit) / 6:.0f}%"), Row("Save", f"1d6 ≥ {self.save}: "
                                                                              f"{100 * (7 - self.save) / 6:.0f}%"))
        return ShotPreview(p_hit=p, expected_damage=p, distance=distance(a.pos, b.pos), reach=None, lines=lines)

    def sheet(self, state: State, unit: Unit) -> Sheet:
        return Sheet(rows=(Row("Wounds", f"{unit.hp}/{WOUNDS}", unit.hp, WOUNDS),
                           Row("Shots", f"{unit.record.shots} · saves {unit.record.saves}")))

    def throwables(self, state: State, unit: Unit) -> list:
        return []

    def roster(self, mission_id: str) -> list[missions.Member] | None:
        """Any built-in mission, with its own squad and enemies."""
        mission = self.content.missions.get(mission_id)
        if mission is None:
            return None
        units = self.content.rules["xcom-trpg"]["units"]
        return missions.members(missions.own_forces(mission), lambda t: (units[t].name, units[t].glyph, ""))

    def shot_modes(self, state: State, unit: Unit) -> list[Mode]:
        return [Mode("shot", "Shot", unit.record.actions > 0)]

    def name(self, thing: str) -> str:
        return thing.replace("_", " ").capitalize()

    def behaviour(self, unit: Unit) -> str:
        return "default"

    def shaken(self, unit: Unit, below: float) -> bool:
        return False  # the stub has no morale

    def aptitude(self, unit: Unit, stats: tuple[str, ...]) -> int:
        return 0  # the stub's troopers have no stats

    def inventory(self, state: State, unit: Unit) -> None:
        return None  # no inventory screen: its kit is not moved about in battle

    def marks(self, state: State, side: str) -> tuple:
        return ()  # nothing of its own drawn over the tiles

    def change_note(self, before: Unit, after: Unit, cause: str) -> str | None:
        return None  # its unit changes are told by their events' own words

    def ai_chore(self, state: State, unit: Unit, in_sight: list, stage: str) -> None:
        return None

    def options(self, state: State, unit: Unit) -> list:
        return []

    def throw_range(self, state: State, unit: Unit, item: str) -> int:
        return 0

    def preview_throw(self, state: State, thrower: str, item: str, cell: Pos) -> Rejected:
        return Rejected("not_throwable", f"{ID} has nothing to throw")

    def distance(self, a: Pos, b: Pos) -> int:
        return distance(a, b)

    def blast(self, state: State, item: str, cell: Pos) -> tuple[Pos, ...]:
        return (cell,)

    def sight_levels(self, state: State, side: str) -> np.ndarray:
        return self.visible(state, side)[np.newaxis]  # one level

    def visible(self, state: State, side: str) -> np.ndarray:
        return field.sight(state, side, SIGHT)

    scenario = None  # no `resolve` scenarios: the loader says so in one line

    def check_scenario(self, sc):
        return []

    def scenario_units(self, sc, setup):
        return {}, []

    def unit_report(self, before, after):
        raise ValueError(f"{ID} has no resolve")

    def referee(self, units, action, dice):
        raise ValueError(f"{ID} has no referee")

    def trial_plan(self, units, action):
        return None

    def trial_tally(self, action, verdict):
        return {}

    def ai_special(self, state: State, unit: Unit, in_sight: list[Unit], has_shot: bool) -> Act | None:
        return None

    def creation(self):
        return None  # no characters of its own for the roster


def _d6(dice: Dice, actor: str, purpose: str, need: int) -> Roll:
    face, index = dice.d(6, actor, purpose)
    mark = "✓" if face >= need else "✗"
    return Roll(actor=actor, purpose=purpose, expr="1d6", faces=(face,), formula=f"{purpose} 1d6={face}>={need} {mark}",
                total=face, index=index)
