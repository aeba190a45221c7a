"""The battle screen: the map, the selected soldier, the logs and the keys valid right now.

Modes: `move` (the cursor previews a path), `target` (Tab cycles visible hostiles, the preview
shows the odds), `throw` (the cursor picks the blast cell), `look`, `aliens` (the AI plays, any
key skips the delay) and `over`.
"""

from __future__ import annotations

import numpy as np
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen

from engine.content import missions
from engine.core.commands import Act, Combo, EndTurn, Move, Rejected, Reload, Shoot, Throw, Wait
from engine.map.grid import Pos, distance
from engine.core.model import Unit
from tui import keys, scene
from tui.screens import readout
from tui.screens.base import Sized
from tui.session import Session
from tui.widgets.keybar import KeyBar
from tui.widgets.mapview import MapView
from tui.widgets.panels import Card, InfoPanel, LogTail, StatusLine, TopBar, UnitPanel, objective_lines

ALWAYS = {"help", "quit", "full_log"}
BY_MODE = {
    "move": {"cursor", "go", "cycle", "fire", "throw", "reload", "operate", "actions", "combo", "wait", "end_turn",
             "undo", "look", "cancel"},
    "target": {"cycle_target", "fire_mode", "shoot", "cancel"},
    "throw": {"cursor", "cycle_target", "lob", "cancel"},
    "look": {"cursor", "cycle_target", "cancel"},
    "aliens": set(),
    "over": set(),
}
ALIEN_DELAY = 0.35  # seconds between visible alien steps; any key skips


class BattleScreen(Sized, Screen[None]):
    BINDINGS = keys.bindings("battle")

    mode: reactive[str] = reactive("move", init=False)
    """What the keys do now: move, target, throw, look, aliens or over."""

    def __init__(self, session: Session, alien_delay: float = ALIEN_DELAY) -> None:
        super().__init__()
        self.session = session
        self.alien_delay = alien_delay
        self.palette = scene.Palette(session.content)
        self.selected: str | None = None
        self.cursor: Pos = (0, 0)
        self.origin: Pos = (0, 0)
        self.targets: list[str] = []
        self.target_i = 0
        self.fire_mode = "single"
        self.item: str | None = None
        self._skip = False
        self._stepping = False
        self._select(self._first_ready())

    # -- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TopBar(id="top")
        with Horizontal(id="body"):
            yield MapView(id="map")
            with Vertical(id="side"):
                yield UnitPanel(self.session.content, id="unit")
                yield InfoPanel(id="info")
        with Horizontal(id="logs"):
            yield LogTail("Rolls", id="rolls")
            yield LogTail("Messages", id="messages")
        yield StatusLine(id="status")
        yield KeyBar(id="keys")
        yield from super().compose()

    def on_mount(self) -> None:
        self.update_view()
        if self.session.over:
            self.call_later(self._finish)
        elif not self.session.players_turn:
            self._start_aliens()
        else:
            self.say(f"Phase {self.session.state.phase}: your turn. Move the cursor, ⏎ to move, f to fire, ? for help")
        for note in self.session.game.notes:  # what resume had to do: a torn record set aside, a recovery
            self.session.chronicle.say(f"note: {note}")
            self.say(f"note: {note}")

    def on_map_view_resized(self, _message: MapView.Resized) -> None:
        self.update_view()

    # -- drawing ---------------------------------------------------------------------------------

    @property
    def unit(self) -> Unit | None:
        return self.session.state.units.get(self.selected or "")

    def update_view(self) -> None:
        if not self.is_mounted:
            return
        state = self.session.state
        chron = self.session.chronicle
        map_view = self.query_one(MapView)
        width, height = map_view.size.width, map_view.size.height
        if width and height:
            self.origin = scene.follow(self.origin, self.cursor, (width, height), (state.grid.width, state.grid.height))
            frame = scene.draw(self.palette, state, self.session.side, chron.visible, chron.explored,
                               chron.last_seen, self._overlay())
            map_view.show(frame.window(*self.origin, width, height))
        unit = self.unit
        ruleset = self.session.ruleset
        self.query_one(UnitPanel).card = Card(unit, ruleset.sheet(state, unit), ruleset.budget(state, unit)) \
            if unit else None
        self.query_one(InfoPanel).set_lines(self._info())
        self.query_one(TopBar).set_lines([readout.top_line(self.session, len(self._visible_hostiles()))])
        self._write_logs()
        self.refresh_bindings()

    def _overlay(self) -> scene.Overlay:
        unit = self.unit
        state = self.session.state
        selected = self.selected if self.mode != "aliens" else None
        if self.mode == "move" and unit is not None:
            path = self._path()
            budget = self.session.ruleset.budget(state, unit)
            return scene.Overlay(cursor=self.cursor, selected=selected, path=path, reach=budget.moves_left,
                                 area=self._zone())
        if self.mode == "target":
            marked = tuple(state.units[t].pos for t in self.targets)
            target = self._target()
            return scene.Overlay(cursor=self.cursor, selected=selected, marked=marked,
                                 target=target.pos if target else None)
        if self.mode == "throw" and unit is not None and self.item:
            reach = self.session.ruleset.throw_range(state, unit, self.item)
            area = scene.cells_within((state.grid.height, state.grid.width), unit.pos, reach)
            return scene.Overlay(cursor=self.cursor, selected=selected, area=area, target=self.cursor)
        return scene.Overlay(cursor=self.cursor if self.mode == "look" else None, selected=selected)

    def _path(self) -> tuple[Pos, ...]:
        unit = self.unit
        if unit is None or self.cursor == unit.pos:
            return ()
        state = self.session.state
        x, y = self.cursor
        if not self.session.chronicle.explored[y, x] or not state.grid.walkable[y, x]:
            return ()
        return tuple(state.grid.path(unit.pos, self.cursor, self._hostile_cells()))

    def _hostile_cells(self) -> list[Pos]:
        seen = self.session.chronicle.visible
        return [u.pos for u in self.session.state.units.values()
                if u.side != self.session.side and u.status != "dead" and seen[u.pos[1], u.pos[0]]]

    def _zone(self):
        """The ground an objective is about (the extraction point, the zone to hold), shaded while moving."""
        setup = getattr(self.session.ruleset, "setup", None)
        if setup is None:
            return None
        cells = [c for o in missions.objectives(setup.mission).values() if o.kind in ("extract", "hold")
                 for c in setup.spawns.get(o.zone, ())]
        if not cells:
            return None
        grid = self.session.state.grid
        area = np.zeros((grid.height, grid.width), dtype=bool)
        for x, y in cells:
            area[y, x] = True
        return area

    def _objectives(self) -> list:
        setup = getattr(self.session.ruleset, "setup", None)
        if setup is None:
            return []
        found = missions.statuses(self.session.content, setup.mission, setup.spawns, self.session.state)
        return objective_lines(found)

    def _uses(self) -> list[tuple[str, Pos]]:
        setup = getattr(self.session.ruleset, "setup", None)
        unit = self.unit
        if setup is None or unit is None:
            return []
        return missions.uses(self.session.content, setup.mission, setup.spawns, self.session.state, unit)

    def _info(self) -> list:
        return self._cell_or_shot() + self._objectives()

    def _cell_or_shot(self) -> list:
        if self.mode == "target":
            return readout.shot_info(self.session, self.unit, self._target(), self.target_i, len(self.targets),
                                     self.fire_mode)
        if self.mode == "throw":
            return readout.throw_info(self.session, self.unit, self.item, self.cursor)
        if self.mode == "aliens":
            return ["Aliens are moving…", "Any key skips the wait."]
        path = self._path() if self.mode == "move" else ()
        return readout.cell_info(self.session, self.cursor, self.unit if self.mode == "move" else None, path)

    def _write_logs(self) -> None:
        chron = self.session.chronicle
        self.query_one("#rolls", LogTail).show(chron.rolls)
        self.query_one("#messages", LogTail).show(chron.messages)

    def say(self, text: str) -> None:
        self.query_one(StatusLine).message = text

    def refuse(self, why: Rejected | str) -> None:
        self.say(f"✗ {why.reason if isinstance(why, Rejected) else why}")

    # -- which keys work now ----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.too_small:
            return action in ("help", "quit")
        if action in ALWAYS:
            return True
        if action in ("cursor", "cycle", "cycle_target", "fire_mode", "go", "shoot", "lob", "fire", "throw",
                      "reload", "operate", "actions", "combo", "wait", "end_turn", "undo", "look", "cancel"):
            if action not in BY_MODE.get(self.mode, set()):
                return False
            return self._possible(action)
        return True

    def _possible(self, action: str) -> bool | None:
        """None greys a key out in the help; False hides it from the footer."""
        unit = self.unit
        state = self.session.state
        if action == "cancel" and self.mode == "move":
            return unit is not None and self.cursor != unit.pos
        if action == "fire_mode":
            return unit is not None and len(self.session.content.weapons[unit.weapon].modes) > 1
        if action == "undo":
            return self.session.game.history[-1].n > self.session.chronicle.turn_start \
                and self.session.game.undo_problem() is None
        if action in ("go", "combo"):
            return bool(self._path())
        if action in ("fire", "throw", "reload", "wait"):
            return unit is not None and self.session.ruleset.budget(state, unit).can_act
        if action == "operate":
            return unit is not None and self.session.ruleset.budget(state, unit).can_act and bool(self._uses())
        if action == "actions":
            return unit is not None and bool(self._options())
        return True

    # -- keys ------------------------------------------------------------------------------------

    async def on_key(self, event: events.Key) -> None:
        if self.mode == "aliens" and event.key not in self._keys_of("quit"):
            event.stop()
            event.prevent_default()
            self._skip = True
            self._run_aliens()
            return
        if event.key not in self.active_bindings and event.key not in ("ctrl+q", "ctrl+c"):
            self.say(f"✗ {self._why(event.key) or keys.display(event.key) + ' does nothing here'}: press ? for the keys")

    def _why(self, key: str) -> str | None:
        """Why a key of this mode does nothing right now."""
        keymap = self.app._keymap  # noqa: SLF001
        unit = self.unit
        for k in keys.BATTLE:
            action = k.action.split("(")[0]
            if key not in keymap.get(k.id, k.keys).split(",") or action not in BY_MODE.get(self.mode, set()):
                continue
            if action == "undo":
                problem = self.session.game.undo_problem()
                return problem.reason if problem else "Undo stops at the start of your turn"
            if action in ("fire", "throw", "reload", "wait") and unit is not None:
                return f"{unit.name} cannot act any more this turn"
            if action == "operate" and unit is not None:
                return f"Nothing next to {unit.name} to open, close or work on"
            if action == "actions" and unit is not None:
                return f"{unit.name} has nothing else to do now"
            if action in ("go", "combo"):
                return "Move the cursor to where the soldier should go first"
            if action == "fire_mode" and unit is not None:
                return f"The {self.session.content.weapons[unit.weapon].name.lower()} has one fire mode"
        return None

    def _keys_of(self, binding_id: str) -> list[str]:
        keymap = self.app._keymap  # noqa: SLF001 - Textual keeps the applied keymap here
        for k in keys.BATTLE:
            if k.id == binding_id:
                return keymap.get(binding_id, k.keys).split(",")
        return []

    def action_cursor(self, dx: int, dy: int) -> None:
        grid = self.session.state.grid
        x, y = self.cursor
        self.cursor = (min(max(x + dx, 0), grid.width - 1), min(max(y + dy, 0), grid.height - 1))
        self.update_view()

    def action_cycle(self, step: int) -> None:
        squad = [u for u in self.session.squad() if u.conscious]
        if not squad:
            return
        ids = [u.id for u in squad]
        i = ids.index(self.selected) if self.selected in ids else -1
        self._select(ids[(i + step) % len(ids)])
        self.say(f"{self.unit.name} selected" if self.unit else "")
        self.update_view()

    def action_go(self) -> None:
        path = self._path()
        if self.unit is None or not path:
            self.refuse("Move the cursor to where the soldier should go")
            return
        self._do(Move(unit=self.unit.id, path=path))

    def action_combo(self) -> None:
        path = self._path()
        if self.unit is None or not path:
            self.refuse("Move the cursor where the combo move should end")
            return
        self._do(Combo(unit=self.unit.id, path=path))

    def action_reload(self) -> None:
        if self.unit:
            self._do(Reload(unit=self.unit.id))

    def action_operate(self) -> None:
        """Open or close a door next to the soldier, or work on the objective: the one under the
        cursor if it can be used, else the objective first."""
        uses = self._uses()
        if self.unit is None or not uses:
            self.refuse("Nothing next to the soldier to open, close or work on")
            return
        action, cell = next(((a, c) for a, c in uses if c == self.cursor), uses[0])
        self._do(Act(unit=self.unit.id, action=action, cell=cell))

    def _options(self) -> list:
        unit = self.unit
        offer = getattr(self.session.ruleset, "options", None)
        return offer(self.session.state, unit) if unit is not None and offer else []

    def action_actions(self) -> None:
        """The action menu: psionics, speeches, items, melee... whatever the ruleset offers the soldier now."""
        from tui.screens.actions import ActionMenu

        options = self._options()
        if self.unit is None or not options:
            self.refuse("Nothing else to do now")
            return
        self.app.push_screen(ActionMenu(f"{self.unit.name}: actions", options), self._chosen)

    def _chosen(self, command: Act | None) -> None:
        if command is None:
            self.say("")
            return
        self._do(command)

    def action_wait(self) -> None:
        if self.unit:
            self._do(Wait(unit=self.unit.id))

    def action_fire(self) -> None:
        unit = self.unit
        if unit is None:
            return
        hostiles = self._visible_hostiles()
        if not hostiles:
            self.refuse("No hostile in sight")
            return
        state = self.session.state
        mode = next(iter(self.session.content.weapons[unit.weapon].modes))

        def order(h: Unit) -> tuple:
            preview = self.session.ruleset.preview_shot(state, unit.id, h.id, mode)
            return (isinstance(preview, Rejected), distance(unit.pos, h.pos), h.id)

        self.targets = [h.id for h in sorted(hostiles, key=order)]
        self.target_i = 0
        self.fire_mode = next(iter(self.session.content.weapons[unit.weapon].modes))
        self.mode = "target"
        self.cursor = self.session.state.units[self.targets[0]].pos
        self.say("Tab: next target · m: fire mode · ⏎/f: fire · esc/⌫: cancel")
        self.update_view()

    def action_cycle_target(self, step: int) -> None:
        if self.mode != "target":
            hostiles = self._visible_hostiles()
            if not hostiles:
                self.refuse("No hostile in sight")
                return
            self.targets = [h.id for h in hostiles]
            self.target_i = -1 if step > 0 else 0
        self.target_i = (self.target_i + step) % len(self.targets)
        self.cursor = self.session.state.units[self.targets[self.target_i]].pos
        self.update_view()

    def action_fire_mode(self) -> None:
        unit = self.unit
        if unit is None:
            return
        modes = list(self.session.content.weapons[unit.weapon].modes)
        self.fire_mode = modes[(modes.index(self.fire_mode) + 1) % len(modes)] if self.fire_mode in modes else modes[0]
        self.say(f"Fire mode: {self.session.content.weapons[unit.weapon].modes[self.fire_mode].name}")
        self.update_view()

    def action_shoot(self) -> None:
        target = self._target()
        if self.unit is None or target is None:
            return
        self._do(Shoot(unit=self.unit.id, target=target.id, mode=self.fire_mode))

    def action_throw(self) -> None:
        unit = self.unit
        if unit is None:
            return
        items = self.session.ruleset.throwables(self.session.state, unit)
        if not items:
            self.refuse(f"{unit.name} carries nothing to throw")
            return
        self.item = items[0]
        reach = self.session.ruleset.throw_range(self.session.state, unit, self.item)
        near = [h for h in self._visible_hostiles() if distance(unit.pos, h.pos) <= reach]
        self.cursor = min(near, key=lambda h: distance(unit.pos, h.pos)).pos if near else unit.pos
        self.mode = "throw"
        self.say("Move the cursor to the blast cell · ⏎/t: throw · esc/⌫: cancel")
        self.update_view()

    def action_lob(self) -> None:
        unit = self.unit
        if unit is None or not self.item:
            return
        seen = self.session.chronicle.visible
        declared = next((u.id for u in self.session.state.units_at(self.cursor)
                         if u.side != self.session.side and seen[u.pos[1], u.pos[0]]), None)
        self._do(Throw(unit=unit.id, item=self.item, cell=self.cursor, target=declared))

    def action_look(self) -> None:
        self.mode = "look"
        self.say("Look: move the cursor · Tab: next hostile · esc/⌫: done")
        self.update_view()

    def action_cancel(self) -> None:
        self.mode = "move"
        if self.unit:
            self.cursor = self.unit.pos
        self.say("")
        self.update_view()

    def action_undo(self) -> None:
        result = self.session.undo()
        if isinstance(result, Rejected):
            self.refuse(result)
            return
        self.mode = "move"
        if self.unit:
            self.cursor = self.unit.pos
        self.say("Undone")
        self.update_view()

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

    def action_full_log(self) -> None:
        from tui.screens.reader import Reader

        self.app.push_screen(Reader("Mission log", self.session.chronicle.journal))

    def action_help(self) -> None:
        from tui.screens.help import Help

        self.app.push_screen(Help("battle", self))

    def action_quit(self) -> None:
        self.app.exit(f"Saved: {self.session.path}\nContinue with: xenotac resume")

    # -- doing -----------------------------------------------------------------------------------

    def _do(self, command) -> None:
        result = self.session.submit(command)
        if isinstance(result, Rejected):
            self.refuse(result)
            self.update_view()
            return
        if self.session.over:
            self.update_view()
            self._finish()
            return
        self.mode = "move"
        unit = self.unit
        if unit is None or not self.session.ruleset.budget(self.session.state, unit).can_act:
            self._select(self._first_ready() or self.selected)
        elif unit is not None:
            self.cursor = unit.pos
        last = self.session.chronicle.messages[-1] if self.session.chronicle.messages else ""
        if not self.session.ready():
            last += "  — everyone has acted: e ends the turn"
        self.say(last)
        self.update_view()

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

    def _target(self) -> Unit | None:
        if not self.targets:
            return None
        return self.session.state.units.get(self.targets[self.target_i % len(self.targets)])

    def _visible_hostiles(self) -> list[Unit]:
        seen = self.session.chronicle.visible
        return [u for u in self.session.state.units.values()
                if missions.hostile(self.session.side, u.side) and u.status != "dead" and seen[u.pos[1], u.pos[0]]]

    # -- the other side's turn --------------------------------------------------------------------

    def _start_aliens(self) -> None:
        self.mode = "aliens"
        self._skip = False
        self.say("Alien turn — any key skips the wait")
        self.update_view()
        self._next_tick(self.alien_delay)

    def _alien_tick(self) -> None:
        if self.mode != "aliens" or self._stepping:
            return
        if self._skip:
            self._run_aliens()
            return
        before = len(self.session.chronicle.messages)
        if not self._step():
            return
        seen = len(self.session.chronicle.messages) > before
        self._next_tick(self.alien_delay if seen else 0.0)

    def _next_tick(self, delay: float) -> None:
        if delay > 0:
            self.set_timer(delay, self._alien_tick)
        else:
            self.call_later(self._alien_tick)

    def _run_aliens(self) -> None:
        """Play the rest of the alien turn at once (a key was pressed)."""
        for _ in range(1000):
            if not self._step():
                return

    def _step(self) -> bool:
        """One AI command; False once the turn is over (and the screen is back to the player)."""
        if self.mode != "aliens":
            return False
        if self.session.players_turn or self.session.over:
            self._aliens_done()
            return False
        self._stepping = True
        try:
            self.session.ai_step()
        finally:
            self._stepping = False
        self.update_view()
        if self.session.players_turn or self.session.over:
            self._aliens_done()
            return False
        return True

    def _aliens_done(self) -> None:
        if self.session.over:
            self.mode = "over"
            self._finish()
            return
        self.mode = "move"
        self._select(self._first_ready())
        self.say(f"Phase {self.session.state.phase}: your turn")
        self.update_view()

    def _finish(self) -> None:
        from tui.screens.summary import Summary

        self.mode = "over"
        self.app.switch_screen(Summary(self.session.path, self.session.content))
