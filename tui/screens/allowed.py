"""Which of the battle screen's keys work now, and for those that do not, why: the footer shows the working ones
(`check_action`) and a refused key says the reason. Also what the selected soldier can use, act or throw now,
which the keys open. Everything here reads the screen; nothing changes it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.content import missions
from engine.core.model import Unit
from engine.core.ruleset import Option, Throwable
from engine.map.grid import Pos
from tui.screens import walking
from tui.screens.board import no_cell_shots
from tui.session import Session

if TYPE_CHECKING:
    from tui.screens.battle import BattleScreen


def uses(session: Session, unit: Unit | None) -> list[tuple[str, Pos]]:
    """The doors and objectives next to the soldier it can work on, as (action, cell)."""
    setup = session.ruleset.setup
    if setup is None or unit is None:
        return []
    return missions.uses(session.content, setup.mission, setup.spawns, session.state, unit)


def options(session: Session, unit: Unit | None) -> list[Option]:
    return session.ruleset.options(session.state, unit) if unit is not None else []


def throwables(session: Session, unit: Unit | None) -> list[Throwable]:
    return session.ruleset.throwables(session.state, unit) if unit is not None else []


def locked(screen: BattleScreen, unit: Unit) -> str:
    """A locked door next to the unit opens only by the ruleset's own action (a picked lock), if it has one."""
    grid, terrain = screen.session.state.grid, screen.session.content.terrain
    cell = next((c for c in grid.neighbours(unit.pos)
                 if grid.inside(c) and terrain[grid.tile(c)].unlocks_to), None)
    if cell is None:
        return ""
    return screen.keys_said(f"The door at {cell[0]},{cell[1]} is locked: {{actions}} lists what {unit.name} can do")


def refusal(screen: BattleScreen, action: str) -> str | None:
    """Why a battle key does nothing now, or None when it works (after the checks every board makes)."""
    session = screen.session
    if screen.mode == "aliens":
        return f"{session.chronicle.sides.name('aliens')} are moving: any key skips the wait"
    if screen.mode == "over":
        return "The mission is over"
    unit = screen.unit
    if action in ("cursor", "look", "end_turn", "soldiers"):
        return None
    if action == "cycle":
        return None if session.ready() else screen.keys_said("Everyone has acted: {end_turn} ends the turn")
    if action == "undo":
        problem = session.game.undo_problem()
        if problem:
            return problem.reason
        return None if session.game.history[-1].n > session.chronicle.turn_start \
            else "Undo stops at the start of your turn"
    if unit is None:
        return "No soldier selected"
    if action == "combo" and not session.ruleset.budget(session.state, unit).dash_label:
        return f"{session.ruleset.title} has no second kind of move: {screen.key_hint('move')} moves"
    if action in ("go", "combo"):
        return None if screen.path() else walking.no_path(session, unit, screen.cursor, screen.level)
    if action == "cancel":
        return None if screen.cursor != unit.pos else "Nothing to cancel: the cursor is on the soldier"
    if not session.ruleset.budget(session.state, unit).can_act:
        return f"{unit.name} cannot act any more this turn"
    if action == "fire" and not screen.visible_hostiles():
        return "No hostile in sight"
    if action == "fire_cell":
        modes = session.ruleset.shot_modes(session.state, unit)
        return no_cell_shots(session, unit) or (None if modes else f"{unit.name} holds nothing to fire")
    if action == "throw" and not throwables(session, unit):
        return f"{unit.name} carries nothing to throw"
    if action == "operate" and not uses(session, unit):
        return locked(screen, unit) or f"Nothing next to {unit.name} to open, close or work on"
    if action == "actions" and not options(session, unit):
        return f"{unit.name} has nothing else to do now"
    if action == "inventory" and session.ruleset.inventory(session.state, unit) is None:
        return f"{session.ruleset.title} has no inventory to manage in battle"
    return None
