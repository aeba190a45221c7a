"""The xcom-trpg ruleset (../shared/rules/xcom-trpg.md): the primary one and the default.

Turns run by side: in each phase the squad acts first (the Vanguard's side), each soldier taking
its 2 actions in any order the player likes, then the aliens. See docs/rules-notes.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from engine.content import field as shared_field
from engine.content import missions
from engine.content.models import Content
from engine.content.scenario import Verdict
from engine.core.commands import (Act, Combo, Command, EndTurn, Face, Move, Rejected, Reload, Shoot, StartMission, Throw,
                                  Wait)
from engine.core.dice import Dice
from engine.core.events import Event, Moved
from engine.core.geometry import COMPASS
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.core.ruleset import (Plain, Budget, Later, Mode, Setup, Sheet, ShotPreview, Throwable, ThrowPreview, Turn,
                                 actor, closed, register)
from engine.log.story import turn_name
from engine.map.grid import Pos, distance
# The rule table (`hooks`) lists every rule module's actions, options, turn hooks and referees in order; the turn's
# flow, shooting and explosives are modules of their own, which the class's methods call.
from engine.rules.xcom_trpg import (ai_special, episode, explosives, flow, hooks, scale, shooting, tables, throw_preview,
                                    tranquilizer)
from engine.rules.xcom_trpg import sheet as _sheet  # what the client reads: the unit sheet, odds lines, throwables
from engine.rules.xcom_trpg.damage import Ledger
from engine.rules.xcom_trpg.shooting import ShotContext, facing_towards  # noqa: F401 - the rule modules' names
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier

if TYPE_CHECKING:  # `resolve`'s scenario and referee (scenario.py, referee.py) are imported when first asked for
    from engine.rules.xcom_trpg import scenario as _scenario
    from engine.rules.xcom_trpg.scenario import Action


def _resolve_scenario():
    """`resolve`'s scenario module, imported when first asked for: a battle never needs it."""
    from engine.rules.xcom_trpg import scenario

    return scenario


AI_COMBO_STAMINA = 2  # the AI plans a combo only with a point of stamina to spare past its price


@register("xcom-trpg")
class XcomTrpg(Plain):
    id = "xcom-trpg"
    audit_dice = (100,)  # every contest is stat×1d100; scatter and HP dice are not worth a table
    storeys = 1  # one level: its maps have raised floors, no storeys
    schema = tables.SCHEMA  # content/xcom-trpg/: its stat system, races, armour, weapons, units, psionics, items
    scenario = Later(lambda: _resolve_scenario().Scenario)  # `resolve`'s scenario file (README: Scenarios for resolve)

    def __init__(self, content: Content, setup: Setup | None) -> None:
        self.content = content
        self.rules = xcom(content).rulesets[self.id]
        self.setup = setup
        self._last_sight: tuple[State, str, np.ndarray] | None = None
        self.staged: tuple | None = None  # resolve's last staged scene (arena.decide)

    # -- the kernel's entry point -------------------------------------------------------------

    def decide(self, state: State, command: Command, dice: Dice) -> Rejected | list[Event]:
        if isinstance(command, StartMission):
            return self._start(state, dice)
        shut = closed(state)
        if shut is not None:
            return shut
        for guard in hooks.GUARDS:
            why = guard(self, state, command)
            if why is not None:
                return why
        events = _HANDLERS[type(command)](self, state, command, dice)
        if isinstance(events, Rejected):
            return events
        return events + self._check_end(state, events, dice)

    # -- mission flow ----------------------------------------------------------------------------

    def _start(self, state: State, dice: Dice) -> Rejected | list[Event]:
        return flow.start(self, state, dice)

    def _begin_side(self, state: State, side: str, dice: Dice, ledger: Ledger | None = None) -> list[Event]:
        return flow.begin_side(self, state, side, dice, ledger)

    def _panic(self, state: State, unit: Unit, dice: Dice) -> list[Event]:
        return flow.panic(self, state, unit, dice)

    def _end_turn(self, state: State, cmd: EndTurn, dice: Dice) -> Rejected | list[Event]:
        return flow.end_turn(self, state, cmd, dice)

    def _check_end(self, state: State, events: list[Event], dice: Dice) -> list[Event]:
        return flow.check_end(self, state, events, dice)

    def _act(self, state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
        """The ruleset's own actions, each in its module (hooks.ACTS)."""
        handler = hooks.ACTS.get(cmd.action)
        if handler is None:
            return Rejected("unknown_action", f"xcom-trpg has no {cmd.action!r} action; it has "
                                              f"{', '.join(sorted(hooks.ACTS))}")
        return handler(self, state, cmd, dice)

    def options(self, state: State, unit: Unit) -> list[hooks.Option]:
        """What the unit could do now beyond moving and shooting: the client's action menu, the AI's choices."""
        if not (unit.conscious and unit.side == state.side and state.winner is None) \
                or episode.stopped(self, state, Act(unit=unit.id, action=episode.ACTION)) is not None:
            return []
        return [o for provider in hooks.OPTIONS for o in provider(self, state, unit)]

    # -- unit commands ---------------------------------------------------------------------------

    def _actor(self, state: State, uid: str, actions: int = 0) -> Unit | Rejected:
        unit = actor(state, uid)
        if isinstance(unit, Rejected):
            return unit
        if soldier(unit).actions < actions:
            left = "no actions" if soldier(unit).actions == 0 else f"{soldier(unit).actions} action"
            return Rejected("no_actions", f"{unit.name} has {left} left this turn")
        return unit

    def _enterable(self, state: State, unit: Unit, cell: Pos) -> bool:
        return self._step_problem(state, unit, cell, words=False) is None

    def _step_problem(self, state: State, unit: Unit, cell: Pos, words: bool = True) -> str | None:
        grid = state.grid
        if not grid.inside(cell):
            return f"{cell} is off the map"
        if not grid.walkable[cell[1], cell[0]]:
            return f"{self.content.terrain[grid.tile(cell)].name} at {cell} blocks the way"
        others = [u for u in state.units_at(cell) if u.id != unit.id]
        blocker = next((u for u in others if u.side != unit.side), None)
        if blocker is not None:  # a civilian in the way is not "a hostile"; an unseen one keeps its name
            if not words:
                return "blocked"
            if blocker.id in self.spotted(state, unit.side):
                return f"{blocker.name} stands at {cell}"
            return f"someone unseen is in the way at {cell}"
        cap = self.rules.cell_capacity
        if cap and len(others) >= cap:
            return f"{cell} is full"
        return None

    def _path_problem(self, state: State, unit: Unit, path: tuple[Pos, ...]) -> Rejected | None:
        if not path:
            return Rejected("empty_path", "A move needs at least one cell")
        here = unit.pos
        for cell in path:
            if distance(here, cell) != 1:
                return Rejected("not_adjacent", f"{cell} is not next to {here}")
            problem = self._step_problem(state, unit, cell)
            if problem:
                return Rejected("blocked", problem[0].upper() + problem[1:])
            here = cell
        return None

    def _move(self, state: State, cmd: Move, dice: Dice) -> Rejected | list[Event]:
        unit = self._actor(state, cmd.unit, 1)
        if isinstance(unit, Rejected):
            return unit
        if soldier(unit).combo:
            return Rejected("combo_done", f"{unit.name} made a combo move: the move cannot be split (4.3)")
        cost = scale.move_actions(self.rules, len(cmd.path))
        if cost > soldier(unit).actions:
            return Rejected("too_far", f"{unit.name} has {soldier(unit).actions} action(s): {len(cmd.path)} cells are "
                                       f"{cost} sectors of {self.rules.cells_per_sector} cells (1.3)")
        bad = self._path_problem(state, unit, cmd.path)
        if bad:
            return bad
        return self._walk(unit, cmd.path, actions=soldier(unit).actions - cost, cause="move")

    def walked(self, state: State, command: Move | Combo) -> State | Rejected:
        # the move's own rule, without decide's hooks (melee on the way, psionic holds): its dice are never rolled
        events = (self._move if isinstance(command, Move) else self._combo)(state, command, None)
        return events if isinstance(events, Rejected) else fold(state, events)

    def _walk(self, unit: Unit, path: tuple[Pos, ...], *, actions: int, cause: str, **extra: object) -> list[Event]:
        before = path[-2] if len(path) > 1 else unit.pos
        ledger = Ledger({unit.id: unit})
        turn = {"moved": True, **({"combo": True} if cause == "combo" else {})}
        ledger.set(unit.id, cause, actions=actions, **turn, **extra)
        return [Moved(unit=unit.id, path=tuple(path), facing=facing_towards(before, path[-1])), *ledger.events]

    def _combo(self, state: State, cmd: Combo, dice: Dice) -> Rejected | list[Event]:
        unit = self._actor(state, cmd.unit, self.rules.actions_per_turn)
        if isinstance(unit, Rejected):
            if unit.code == "no_actions":
                return Rejected("no_combo", "A combo replaces a whole turn: it needs every action unspent (4.3)")
            return unit
        if soldier(unit).moved:
            return Rejected("no_combo", f"{unit.name} has already moved this turn")
        if not soldier(unit).infinite_stamina and soldier(unit).stamina < self.rules.combo_stamina:
            return Rejected("no_stamina", f"{unit.name} has no stamina for a combo")
        if len(cmd.path) > self.rules.combo_move * self.rules.cells_per_sector:
            return Rejected("too_far", f"A combo moves at most {self.rules.combo_move} sectors "
                                       f"({self.rules.combo_move * self.rules.cells_per_sector} cells)")
        bad = self._path_problem(state, unit, cmd.path)
        if bad:
            return bad
        stamina = soldier(unit).stamina if soldier(unit).infinite_stamina else soldier(unit).stamina - self.rules.combo_stamina
        # the ultracombo (3.5): with inspiration's 3 actions the same stamina leaves 2
        return self._walk(unit, cmd.path, actions=soldier(unit).actions - 1, cause="combo", stamina=stamina)

    def _face(self, state: State, cmd: Face, dice: Dice) -> Rejected | list[Event]:
        unit = self._actor(state, cmd.unit)
        if isinstance(unit, Rejected):
            return unit
        if not 0 <= cmd.facing < 8:
            return Rejected("bad_facing", "Facing is 0-7, clockwise from north")
        if cmd.facing == unit.facing:
            return Rejected("no_change", f"{unit.name} already faces that way")
        ledger = Ledger(state.units)
        ledger.set(unit.id, f"turns to face {COMPASS[cmd.facing]}", facing=cmd.facing)
        return list(ledger.events)

    def _wait(self, state: State, cmd: Wait, dice: Dice) -> Rejected | list[Event]:
        unit = self._actor(state, cmd.unit, 1)
        if isinstance(unit, Rejected):
            return unit
        ledger = Ledger(state.units)
        ledger.set(unit.id, "waits", actions=0)
        return list(ledger.events)

    def _reload(self, state: State, cmd: Reload, dice: Dice) -> Rejected | list[Event]:
        unit = self._actor(state, cmd.unit, 1)
        if isinstance(unit, Rejected):
            return unit
        weapon = xcom(self.content).weapons[soldier(unit).weapon]
        if soldier(unit).ammo >= weapon.ammo:
            return Rejected("full", f"{weapon.name} is already loaded ({soldier(unit).ammo}/{weapon.ammo})")
        if weapon.darts:  # 8.12.4: the quick reload, a dart of a random kind
            return tranquilizer.quick_reload(self, state, unit, dice)
        if soldier(unit).magazines <= 0:
            return Rejected("no_magazines", f"{unit.name} has no spare magazine for the {weapon.name.lower()}")
        ledger = Ledger(state.units)
        rec = soldier(unit)
        ledger.set(unit.id, "reload", ammo=weapon.ammo, magazines=rec.magazines - 1, actions=rec.actions - 1)
        return list(ledger.events)

    # -- shooting --------------------------------------------------------------------------------

    def target_sees(self, state: State, target: Unit, shooter: Unit) -> bool:
        return shooting.target_sees(self, state, target, shooter)

    def shot_context(self, state: State, shooter_id: str, target_id: str, mode_id: str,
                     check_turn: bool = True) -> ShotContext | Rejected:
        return shooting.shot_context(self, state, shooter_id, target_id, mode_id, check_turn)

    def preview_shot(self, state: State, shooter: str, target: str, mode: str) -> ShotPreview | Rejected:
        return shooting.preview_shot(self, state, shooter, target, mode)

    def _shoot(self, state: State, cmd: Shoot, dice: Dice) -> Rejected | list[Event]:
        return shooting.shoot(self, state, cmd, dice)

    # -- explosives ------------------------------------------------------------------------------

    def throw_range(self, state: State, unit: Unit, item: str) -> int:
        return explosives.throw_range(self, state, unit, item)

    def _throw(self, state: State, cmd: Throw, dice: Dice) -> Rejected | list[Event]:
        return explosives.throw(self, state, cmd, dice)

    def _explosive(self, state: State, thrower: Unit, weapon_id: str, cell: Pos, declared: Unit | None,
                   dice: Dice) -> list[Event]:
        return explosives.explosive(self, state, thrower, weapon_id, cell, declared, dice)

    # -- what the client and the AI ask ---------------------------------------------------------

    def turn(self, state: State) -> Turn:
        """Side turns (4.1): the side's player picks any of its units."""
        if state.winner is not None:
            return Turn(side="")
        return Turn(side=state.side, label=episode.label(self, state, turn_name(state.side)))

    def spotted(self, state: State, side: str) -> frozenset[str]:
        """Sight is by cell in xcom-trpg: a unit standing in a cell the side sees is seen."""
        return shared_field.in_cells(state, side, self.visible(state, side))

    def budget(self, state: State, unit: Unit) -> Budget:
        full = self.rules.actions_per_turn
        can = unit.conscious and unit.side == state.side and soldier(unit).actions > 0 and state.winner is None \
            and unit.id not in episode.confirmed(state)  # one that confirmed its episode end acts no more (4.8)
        combo = 0
        if can and soldier(unit).actions >= full and not soldier(unit).moved and (  # >=: inspiration's 3 (3.5)
                soldier(unit).infinite_stamina or soldier(unit).stamina >= self.rules.combo_stamina):
            combo = self.rules.combo_move * self.rules.cells_per_sector
        per_action = self.rules.cells_per_sector
        moves = 0 if soldier(unit).combo or not can else soldier(unit).actions * per_action
        spare = soldier(unit).infinite_stamina or soldier(unit).stamina >= AI_COMBO_STAMINA
        return Budget(label=f"actions {soldier(unit).actions}/{full}", can_act=can, moves_left=moves, dash_moves=combo,
                      dash_label="combo", step=per_action if moves else 0, dash_spare=spare)

    def aptitude(self, unit: Unit, stats: tuple[str, ...]) -> int:
        return sum(soldier(unit).stats.get(s, 0) for s in stats)

    def shaken(self, unit: Unit, below: float) -> bool:
        rec = soldier(unit)
        return rec.morale_max > 0 and rec.morale < below

    def inventory(self, state: State, unit: Unit) -> None:
        return None  # no inventory screen: its kit is not moved about in battle

    def marks(self, state: State, side: str) -> tuple:
        return ()  # nothing of its own drawn over the tiles

    def change_note(self, before: Unit, after: Unit, cause: str) -> str | None:
        old, new = soldier(before).morale, soldier(after).morale
        return None if old == new else f"morale {old} → {new} ({new - old:+d}, {cause})"

    def check_scenario(self, sc: _scenario.Scenario) -> list[str]:
        return _resolve_scenario().check(self.content, sc)

    def scenario_units(self, sc: _scenario.Scenario, setup: Dice):
        return _resolve_scenario().make_units(self.content, sc, setup)

    def unit_report(self, before: Unit, after: Unit):
        return _resolve_scenario().report(before, after)

    def referee(self, units: dict[str, Unit], action: Action, dice: Dice) -> Verdict | Rejected:
        from engine.rules.xcom_trpg.referee import referee

        return referee(self, units, action, dice)

    def trial_plan(self, units: dict[str, Unit], action: Action):
        """`resolve --trials` on bare faces for a plain shot (trials.py), or None for the full referee."""
        from engine.rules.xcom_trpg import trials

        return trials.plan(self.content, self.id, units, action, self.referee)

    def trial_tally(self, action: Action, verdict: Verdict) -> dict:
        return {}  # its trials report only the kernel's numbers (README: resolve)

    def ai_special(self, state: State, unit: Unit, in_sight: list[Unit], has_shot: bool) -> Command | None:
        return ai_special.choose(self, state, unit, in_sight, has_shot)

    def ai_chore(self, state: State, unit: Unit, in_sight: list[Unit], stage: str) -> Command | None:
        return ai_special.chore(self, state, unit, in_sight, stage)

    def shot_modes(self, state: State, unit: Unit) -> list[Mode]:
        return ai_special.shot_modes(self, unit)

    def name(self, thing: str) -> str:
        return (xcom(self.content).weapons.get(thing) or xcom(self.content).items[thing]).name

    def behaviour(self, unit: Unit) -> str:
        return ai_special.behaviour(self, unit)

    def roster(self, mission_id: str) -> list[missions.Member] | None:
        mission = self.content.missions.get(mission_id)
        if mission is None or mission.ruleset != self.id:
            return None
        units, weapons = xcom(self.content).units, xcom(self.content).weapons
        return missions.members(missions.own_forces(mission), lambda t: (
            units[t].name, units[t].glyph, weapons[units[t].weapon].name.lower()))

    @property
    def title(self) -> str:
        return self.rules.name

    @property
    def sight_range(self) -> int:
        return self.rules.vision_radius

    def creation(self):
        from engine.rules.xcom_trpg.creator import XcomCreation

        return XcomCreation(self.content)

    def downtime(self):
        from engine.rules.xcom_trpg.downtime import XcomDowntime

        return XcomDowntime(self.content)

    def sight_levels(self, state: State, side: str) -> np.ndarray:
        return self.visible(state, side)[np.newaxis]  # one level

    def visible(self, state: State, side: str) -> np.ndarray:
        last = self._last_sight
        if last is not None and last[0] is state and last[1] == side:  # the AI asks for cells, then for units
            return last[2]
        seen = shared_field.sight(state, side, self.rules.vision_radius)
        seen.flags.writeable = False  # shared by every caller of the same state
        self._last_sight = (state, side, seen)  # the state itself is kept, so `is` never matches a newer one
        return seen

    def sheet(self, state: State, unit: Unit) -> Sheet:
        return _sheet.sheet(unit, self.content)

    def throwables(self, state: State, unit: Unit) -> list[Throwable]:
        return _sheet.throwables(self, state, unit)

    def preview_throw(self, state: State, thrower: str, item: str, cell: Pos) -> ThrowPreview | Rejected:
        return throw_preview.preview(self, state, thrower, item, cell)

    def distance(self, a: Pos, b: Pos) -> int:
        return distance(a, b)  # 1.3: Chebyshev, 8 neighbours

    def blast(self, state: State, item: str, cell: Pos) -> tuple[Pos, ...]:
        return (cell,)  # 8.10: a grenade hits everyone in the cell it lands in


# The handler of each kernel command, looked up once per decision (a class-level table, not one built per call).
_HANDLERS = {Move: XcomTrpg._move, Combo: XcomTrpg._combo, Face: XcomTrpg._face, Shoot: XcomTrpg._shoot,
             Throw: XcomTrpg._throw, Reload: XcomTrpg._reload, Wait: XcomTrpg._wait, EndTurn: XcomTrpg._end_turn,
             Act: XcomTrpg._act}
