"""The battle screen: the map, the selected soldier, the logs and the keys valid right now.

Its own mode is moving (the cursor previews a path); targeting, throwing and looking are screens pushed
over it (tui/screens/modes.py) that return the command to give, and the alien turn is played by
tui/alien_turn.py while the screen is in mode `aliens`. Only this screen and the session submit commands.
"""

from __future__ import annotations

from textual import events
from textual.reactive import reactive

from engine.core.commands import Act, Combo, Command, EndTurn, Face, Move, Rejected, Reload, Wait
from engine.map import levels
from engine.map.grid import Pos
from engine.log.story import turn_name
from tui import keys, scene
from tui.alien_turn import AlienTurn
from tui.screens import allowed, readout, walking
from tui.screens.board import ALWAYS, Board
from tui.session import Session

ALIEN_DELAY = 0.35  # seconds between visible alien steps; any key skips


class BattleScreen(Board):
    BINDINGS = keys.bindings("battle", keys.BATTLE_MODES["move"])
    keyset = "move"

    mode: reactive[str] = reactive("move", init=False)
    """What the keys do now: move, aliens (the AI plays, any key skips the delay) or over."""

    def __init__(self, session: Session, alien_delay: float = ALIEN_DELAY) -> None:
        super().__init__(session, None)
        self.aliens = AlienTurn(self, session, alien_delay, self._alien_step, self._aliens_done)
        self._select(self._first_ready())

    def on_mount(self) -> None:
        self.update_view()
        if self.session.over:
            self.call_later(self._finish)
        elif not self.session.players_turn:
            self._start_aliens()
        else:
            self.say(self.keys_said(f"Phase {self.session.state.phase}: your turn. Move the cursor, {{move}} to move, "
                                    "{fire} to fire, {help} for help"))
            self.call_later(self._ask)  # a mission resumed while an interrupt asks the squad
        for note in self.session.game.notes:  # what resume had to do: a torn record set aside, a recovery
            self.session.chronicle.say(f"note: {note}")
            self.say(f"note: {note}")

    # -- drawing ---------------------------------------------------------------------------------

    def overlay(self) -> scene.Overlay:
        unit = self.unit
        if self.mode != "move" or unit is None:
            return scene.Overlay(selected=self.selected if self.mode == "move" else None)
        budget = self.session.ruleset.budget(self.session.state, unit)
        acted = tuple(self.session.chronicle.acted.values())  # where the hostiles seen acting were last seen
        if walking.by_places(self.session, unit):  # the path's squares on the storey shown, those paid first
            shown, reach = walking.shown(self.session, unit, self._route(), self.level)
            return scene.Overlay(cursor=self.cursor, selected=self.selected, path=shown, reach=reach,
                                 area=walking.zone(self.session), marked=acted)
        path = self.path()
        reach = next((i for i in range(len(path)) if budget.walk.cost(unit.pos, path[:i + 1]) > budget.moves_left),
                     len(path))  # the cells of the path this turn pays for
        return scene.Overlay(cursor=self.cursor, selected=self.selected, path=path, reach=reach,
                             area=walking.zone(self.session), marked=acted)

    def info(self) -> list:
        if self.mode == "aliens":
            return [f"{self.session.chronicle.sides.name('aliens')} are moving…", "Any key skips the wait."]
        cost = walking.cost(self.session, self.unit, self._route()) if self.mode == "move" else None
        return readout.cell_info(self.session, self.cursor, self.unit if self.mode == "move" else None,
                                 self.path() if self.mode == "move" else (), self.key_hint, self.level, cost)

    def path(self) -> tuple[Pos, ...]:
        """The cells of the path the cursor previews (tui/screens/allowed.py reads it too)."""
        if walking.by_places(self.session, self.unit):
            return levels.split(self._route())[0]
        return walking.path(self.session, self.unit, self.cursor)

    def _route(self) -> tuple:
        """On a map with storeys or jumps: the previewed path as places (x, y, level)."""
        return walking.route(self.session, self.unit, self.cursor, self.level)

    # -- which keys work now: the footer shows these, a refused key says why (tui/screens/allowed.py) --

    def availability(self, action: str) -> str | None:
        general = super().availability(action)
        if general or action in ALWAYS:
            return general
        return allowed.refusal(self, action)

    def on_key(self, event: events.Key) -> None:
        if self.mode == "aliens" and event.key not in self.keys_of("quit"):
            event.stop()
            event.prevent_default()  # no refusal: any key only skips the wait
            self.aliens.skip()

    # -- keys ------------------------------------------------------------------------------------

    def action_cycle(self, step: int) -> None:
        """The next soldier who can still act; the spent ones are skipped (the soldier list shows them)."""
        squad = self.session.squad()
        ids = [u.id for u in squad]
        ready = {u.id for u in self.session.ready()}
        start = ids.index(self.selected) if self.selected in ids else -1
        order = [ids[(start + step * k) % len(ids)] for k in range(1, len(ids) + 1)]
        self._select(next(uid for uid in order if uid in ready))
        self.say(f"{self.unit.name} selected")
        self.update_view()

    def action_soldiers(self) -> None:
        """The soldier list: everyone in the squad, what is left of their turn; ⏎ selects one."""
        from tui.screens.picker import Picker

        entries = readout.squad_entries(self.session)
        ids = [uid for _label, uid in entries]
        index = ids.index(self.selected) if self.selected in ids else 0
        self.app.push_screen(Picker("The squad", entries, index), self._picked_soldier)

    def _picked_soldier(self, uid: str | None) -> None:
        if uid is None:
            self.say("")
            return
        self._select(uid)
        self.say(f"{self.unit.name} selected")
        self.update_view()

    def action_go(self) -> None:
        if walking.by_places(self.session, self.unit):
            cells, zs = levels.split(self._route())
            self._do(Move(unit=self.selected or "", path=cells, levels=zs if self.session.state.grid.storeys else ()))
            return
        self._do(Move(unit=self.selected or "", path=self.path()))

    def action_combo(self) -> None:
        self._do(Combo(unit=self.selected or "", path=self.path()))

    def action_reload(self) -> None:
        self._do(Reload(unit=self.selected or ""))

    def action_wait(self) -> None:
        self._do(Wait(unit=self.selected or ""))

    def action_turn(self, step: int) -> None:
        """Turn in place one facing step clockwise (1) or back (-1): eight ways on squares, six on hexes. The
        ruleset prices it or refuses it (one without facing says so)."""
        unit = self.unit
        ways = 6 if self.session.state.grid.hexes else 8
        self._do(Face(unit=unit.id, facing=(unit.facing + step) % ways))

    def action_operate(self) -> None:
        """Open or close a door next to the soldier, or work on the objective: the one under the
        cursor if it can be used, else the first."""
        uses = allowed.uses(self.session, self.unit)
        action, cell = next(((a, c) for a, c in uses if c == self.cursor), uses[0])
        self._do(Act(unit=self.selected or "", action=action, cell=cell))

    def action_actions(self) -> None:
        """The action menu: psionics, speeches, items, melee... whatever the ruleset offers the soldier now."""
        from tui.screens.actions import ActionMenu

        found = allowed.options(self.session, self.unit)
        self.app.push_screen(ActionMenu(f"{self.unit.name}: actions", found), self._chosen)

    def action_inventory(self) -> None:
        """The inventory screen: it returns the chosen move's command, which is submitted here."""
        from tui.screens.inventory import InventoryScreen

        found = self.session.ruleset.inventory(self.session.state, self.unit)
        self.app.push_screen(InventoryScreen(f"{self.unit.name}: inventory", found), self._chosen)

    def action_fire(self) -> None:
        from tui.screens.modes import TargetScreen

        unit, state = self.unit, self.session.state
        modes = self.session.ruleset.shot_modes(state, unit)
        mode = modes[0].id if modes else ""

        def order(h) -> tuple:  # the ones that can be hit first, then the nearest
            preview = self.session.ruleset.preview_shot(state, unit.id, h.id, mode)
            return (isinstance(preview, Rejected), self.session.ruleset.distance(unit.pos, h.pos), h.id)

        targets = [h.id for h in sorted(self.visible_hostiles(), key=order)]
        self._push(TargetScreen(self.session, unit.id, targets, mode, origin=self.origin, palette=self.palette))

    def action_fire_cell(self) -> None:
        """Fire at the cell under the cursor, or at a cell the squad knows an unseen enemy stands in."""
        from tui.screens.modes import CellScreen

        unit = self.unit
        known = sorted({tuple(c) for _, c in self.session.ruleset.suspects(self.session.state, self.session.side)})
        cursor = self.cursor if self.cursor != unit.pos or not known else known[0]
        mode = self.session.ruleset.shot_modes(self.session.state, unit)[0].id
        self._push(CellScreen(self.session, unit.id, cursor, mode, origin=self.origin, palette=self.palette))

    def action_throw(self) -> None:
        """With more than one thing to throw, the player picks it first."""
        items = allowed.throwables(self.session, self.unit)
        if len(items) == 1:
            self._throw_mode(items[0].item)
            return
        from tui.screens.picker import Picker

        unit = self.unit
        entries = [(f"{t.label} ×{t.count}", t.item) for t in items]
        self.app.push_screen(Picker(f"{unit.name}: throw what?", entries), self._throw_mode)

    def _throw_mode(self, item: str | None) -> None:
        from tui.screens.modes import ThrowScreen

        if item is None:
            self.say("")
            return
        unit = self.unit
        reach = self.session.ruleset.throw_range(self.session.state, unit, item)
        d = self.session.ruleset.distance
        near = [h for h in self.visible_hostiles() if d(unit.pos, h.pos) <= reach]
        cursor = min(near, key=lambda h: d(unit.pos, h.pos)).pos if near else unit.pos
        self._push(ThrowScreen(self.session, unit.id, item, cursor, origin=self.origin, palette=self.palette))

    def action_look(self) -> None:
        from tui.screens.modes import LookScreen

        self._push(LookScreen(self.session, self.selected, self.cursor, origin=self.origin, palette=self.palette))

    def action_cancel(self) -> None:
        self._back("")

    def action_undo(self) -> None:
        result = self.session.undo()
        if isinstance(result, Rejected):
            self.refuse(result)
            return
        self._back("Undone")

    def action_end_turn(self) -> None:
        ready = self.session.ready()
        if not ready:
            self._end_turn(True)
            return
        from tui.screens.dialogs import Confirm

        names = ", ".join(u.name for u in ready)
        self.app.push_screen(Confirm(f"{names} still can act.\nEnd the turn anyway?"), self._end_turn)

    def _end_turn(self, yes: bool | None) -> None:
        if not yes:
            self.say("The turn goes on")
            return
        result = self.session.submit(EndTurn(side=self.session.side))
        if isinstance(result, Rejected):
            self.refuse(result)
            return
        self._start_aliens()

    # -- modes pushed over the screen, and what they return ---------------------------------------

    def _push(self, screen) -> None:
        """A mode screen returns a command (or None when cancelled); a refused one opens the mode again
        as it was, with the reason, as if it had never been left."""
        def chosen(command: Command | None) -> None:
            self.origin = screen.origin
            if command is None:
                self._back("")
                return
            refused = self._do(command)
            if refused is not None:
                self._push(screen.again(f"✗ {refused.reason}"))

        self.app.push_screen(screen, chosen)

    def _chosen(self, command: Act | None) -> None:
        if command is None:
            self.say("")
            return
        self._do(command)

    def _back(self, text: str) -> None:
        """Back to moving, the cursor on the soldier."""
        self.mode = "move"
        if self.unit:
            self.cursor = self.unit.pos
        self.say(text)
        self.update_view()

    # -- doing -----------------------------------------------------------------------------------

    def _do(self, command: Command) -> Rejected | None:
        """Submit; a refusal is said and returned, an accepted command moves play on."""
        result = self.session.submit(command)
        if isinstance(result, Rejected):
            self.refuse(result)
            self.update_view()
            self._ask()  # a question still open is asked again: nothing else may be sent
            return result
        if self.session.over:
            self.update_view()
            self._finish()
            return None
        if not self.session.players_turn:  # an initiative slot passed to the other side: it plays on
            self._start_aliens()
            return None
        if self._ask():
            return None
        self.mode = "move"
        unit = self.unit
        if unit is None or not self.session.ruleset.budget(self.session.state, unit).can_act:
            self._select(self._first_ready() or self.selected)
        else:
            self.cursor = unit.pos
        last = self.session.chronicle.messages[-1] if self.session.chronicle.messages else ""
        if not self.session.ready():
            last += self.keys_said("  — everyone has acted: {end_turn} ends the turn")
        self.say(last)
        self.update_view()
        return None

    def _ask(self) -> bool:
        """An interrupt asks the squad a question: the answer is the only command it may give now."""
        turn = self.session.ruleset.turn(self.session.state)
        if not turn.choices:
            return False
        from tui.screens.actions import ChoiceMenu

        self.mode = "move"
        self.update_view()
        self.app.push_screen(ChoiceMenu(turn.label, list(turn.choices), turn.decline), self._do)
        return True

    def _select(self, uid: str | None) -> None:
        self.selected = uid
        unit = self.unit
        if unit is not None:
            self.cursor = unit.pos

    def _first_ready(self) -> str | None:
        ready = self.session.ready()
        if ready:
            return ready[0].id
        squad = [u for u in self.session.squad() if u.conscious]
        return squad[0].id if squad else None

    # -- the other side's turn --------------------------------------------------------------------

    def _start_aliens(self) -> None:
        self.mode = "aliens"
        self.say(f"{turn_name('aliens', self.session.chronicle.sides)} — any key skips the wait")  # "Goon turn"
        self.update_view()
        self.aliens.start()

    def _aliens_done(self) -> None:
        if self.session.over:
            self._finish()
            return
        if self._ask():
            return
        self.mode = "move"
        self._select(self._first_ready())
        acted = len(self.session.chronicle.acted)
        seen = f" — {acted} hostile{'s' if acted > 1 else ''} seen acting, underlined on the map" if acted else ""
        self.say(f"Phase {self.session.state.phase}: your turn{seen}")
        self.update_view()

    def _alien_step(self) -> None:
        """The view follows the hostile that just acted, if the squad sees it."""
        unit = self.session.state.units.get(self.session.chronicle.last_actor or "")
        if unit is not None and unit.side != self.session.side and unit.id in self.session.chronicle.spotted:
            self.cursor = unit.pos
        self.update_view()

    def _finish(self) -> None:
        from tui import squad
        from tui.screens.summary import Summary, summary_lines

        self.mode = "over"
        if self.session.game.header.get("campaign") is not None:  # the campaign screen below debriefs it
            self.dismiss(self.session)
            return
        path, content = self.session.path, self.session.content
        kept = squad.debrief(self.app.content, self.app.saves, self.session.game.header, self.session.state)
        self.app.switch_screen(Summary(path, content, summary_lines(path, content) + kept if kept else None))
