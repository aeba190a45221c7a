"""The replay viewer: any log, record by record or turn by turn, as either side saw it, and why each die fell.

Jumps cost the same anywhere in a log: states come from the log's checkpoints (Timeline.state_at)
and each side's memory from snapshots (tui.fog), which a worker thread lays along the final branch
once the screen opens.
"""

from __future__ import annotations

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.worker import Worker, WorkerState, get_current_worker

from engine.map.grid import Pos
from engine.core.model import State
from engine.log.view import hidden_line
from engine.play.timeline import Timeline
from tui import fog, keys, scene
from tui.fog import Fog, Sight
from tui.replay import Replay, names_in
from tui.screens.base import Sized
from tui.screens.jumpbox import Jump, JumpBox
from tui.widgets.keybar import KeyBar
from tui.widgets.lines import Lines
from tui.widgets.mapview import MapView
from tui.widgets.panels import StatusLine, TopBar
from tui.widgets.rolllog import RollLog

FULL = "full"
NAVIGATION = {"step", "turn", "ends", "dice"}
FILL_AT_ONCE = 1500  # commands: a mission this long gets its fog pass before the first frame (~0.2 s)
STORY_LINES = 7  # of a record's story in the side panel: a start record deploys a dozen units


class Viewer(Sized):
    BINDINGS = keys.bindings("viewer")
    AUTO_FOCUS = ""  # nothing takes the keys but the screen (g types into the status line)

    def __init__(self, timeline: Timeline) -> None:
        super().__init__()
        self.timeline = timeline
        self.replay = Replay(timeline)
        self.fog = Fog(timeline)
        self.palette = scene.Palette(timeline.content)
        self.n = self.replay.stops[0] if self.replay.stops else 1  # the record on show
        self.view = "xcom"
        self.roll = 0  # the selected roll of record n
        self.origin: Pos = (0, 0)
        self.panned = False  # the player moved the view: it stays put until the next record
        self.level = 0  # the storey drawn, on a map with storeys (< and > look down and up)
        self.jump = JumpBox(self.replay)  # g: go to a turn or a record
        self.filling = True  # the fog pass is still running: far jumps show current sight only
        self.partial = False  # the map on show is such a jump

    # -- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TopBar(id="top")
        with Horizontal(id="body"):
            yield MapView(id="map")
            yield Lines(id="viewer-record")
        yield RollLog("Rolls this turn", id="viewer-rolls")
        yield StatusLine(id="status")
        yield KeyBar(id="keys")
        yield from super().compose()

    def on_mount(self) -> None:
        self.palette.mono = self.app.no_color  # Textual took NO_COLOR out of the environment and keeps it here
        self.lay_out(self.app.size.width, self.app.size.height)
        self.update_view()
        name = self.timeline.path.name
        if not self.replay.stops:
            self.say(f"{name}: nothing happened in this log yet")
        elif self.timeline.broken:
            self.say("✗ The log is damaged: the viewer shows the records before the damage (see the panel)")
        else:
            hint = ("{record_back} {record_forward} record · {turn_back} {turn_forward} turn · {next_dice} next "
                    "dice · {next_roll} a roll · {explain} why it fell · {help} help")
            self.say(keys.fill(self.app._keymap, hint, "viewer"))  # noqa: SLF001 - the keys as remapped
        if len(self.timeline.commands) <= FILL_AT_ONCE:
            self.fog.fill()
            self.filling = False
        else:
            self._fill()

    @work(thread=True, exclusive=True, group="fog")
    def _fill(self) -> None:
        worker = get_current_worker()
        self.fog.fill(lambda: worker.is_cancelled)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "fog" and event.state == WorkerState.SUCCESS:
            self.filling = False
            self.update_view()  # the memory a jump during the pass went without

    def on_map_view_resized(self, _message: MapView.Resized) -> None:
        self.update_view()

    def on_resize(self, event) -> None:
        self.lay_out(event.size.width, event.size.height)

    def lay_out(self, width: int, height: int) -> None:
        """As in battle: the map the room it can use, the panels the rest."""
        from tui.screens.board import room

        grid = self.state.grid
        side, logs = room(width, height, (grid.width, grid.height))
        self.query_one("#viewer-record").styles.width = side
        self.query_one("#viewer-rolls").styles.height = logs

    # -- what is on show -------------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.timeline.state_at(self.replay.state_record(self.n))

    def update_view(self) -> None:
        if not self.is_mounted:
            return
        state = self.state
        names = names_in(state)
        self._draw_map(state)
        self.query_one(TopBar).set_lines([self._top(state)])
        self.query_one("#viewer-record", Lines).set_lines(self._record_lines(names))
        lines, first = self.replay.roll_log(self.n, names)
        focus = first + self.roll if self._rolls() else None
        texts = [Text(line, style="reverse" if i == focus else ("bold" if i >= first else "dim"))
                 for i, line in enumerate(lines)]
        self.query_one(RollLog).show(texts or [Text("No dice rolled this turn so far", style="dim")], focus)
        self.refresh_bindings()

    def _view_words(self, view: str) -> str:
        """ "X-COM's fog", "Varans' fog", "full map": whose sight the map shows."""
        if view == FULL:
            return "full map"
        name = self.replay.sides.name(view)
        return f"{name}' fog" if name.endswith("s") else f"{name}'s fog"

    def _top(self, state: State) -> str:
        turn = f"turn {self.replay.turn_index(self.n) + 1}/{len(self.replay.turns)}" if self.replay.turns else "turn -"
        side = self.replay.sides.name(state.side) if state.side else "-"
        undone = " (undone)" if self.replay.undone(self.n) else ""
        view = self._view_words(self.view) + (" (memory loading)" if self.partial else "")
        level = f" · level {self.level}" if state.grid.storeys else ""
        return f"Record {self.n}/{self.replay.last}{undone} · {turn}: phase {state.phase}, {side} · {view}{level}"

    def _record_lines(self, names: dict[str, str]) -> list[Text]:
        out = [Text(self.timeline.path.name, style="dim")]
        if self.timeline.broken:  # a torn tail, or a line changed after it was written: say which and why
            out.append(Text(f"DAMAGED: {self.timeline.broken}; nothing after it is shown", style="bold"))
        out.append(Text(f"Record {self.n}", style="bold"))
        if self.replay.undone(self.n):
            out[-1].append(" UNDONE", style="bold reverse")
        if not self.replay.stops:
            return out
        out.append(Text(self.replay.heading(self.n, names)))
        count, hidden = len(self._rolls()), self.replay.told(self.n).hidden
        text = f"{count} dice: tab picks, ⏎ why" if count else "No dice in this record"
        if hidden:
            text = f"{text} · {hidden_line(hidden)}" if count else hidden_line(hidden)
        out.append(Text(text, style="dim"))
        story = self.replay.story(self.n, names)
        if story:
            out.append(Text(""))
            shown = story if len(story) <= STORY_LINES else story[:STORY_LINES - 1]
            out += [Text(line) for line in shown]
            if len(shown) < len(story):
                out.append(Text(f"… and {len(story) - len(shown)} more", style="dim"))
        return out

    def _rolls(self) -> list:
        """The rolls of the record on show the squad saw (all of them once the mission has ended)."""
        if not self.replay.stops:
            return []
        return self.replay.rolls(self.n)

    def _sight(self, state: State) -> tuple[str, Sight]:
        """(side drawn as friends, what it sees and remembers) for the view."""
        self.partial = False
        if self.view == FULL:
            return "xcom", fog.everything(state)
        n = self.replay.state_record(self.n)
        self.partial = self.filling and not self.fog.near(n)
        if self.partial:  # for now, what the side sees; its memory comes when the pass is done
            return self.view, fog.current(self.timeline.ruleset, state, self.view)
        return self.view, self.fog.at(n, self.view)

    def _draw_map(self, state: State) -> None:
        map_view = self.query_one(MapView)
        width, height = map_view.size.width, map_view.size.height
        if not (width and height):
            return
        side, sight = self._sight(state)
        visible = sight.visible

        def shown(uid: str | None) -> Pos | None:
            unit = state.units.get(uid or "")
            if unit is None or unit.side != side and not visible[unit.pos[1], unit.pos[0]]:
                return None  # the view does not give away what its side could not see
            return unit.pos

        command = self.replay.record(self.n).get("command", {}) if self.replay.stops else {}
        rolls = self._rolls()
        actor = rolls[self.roll][2]["actor"] if rolls else command.get("unit")
        target = shown(command.get("target"))
        if target is None and command.get("cell") and visible[command["cell"][1], command["cell"][0]]:
            target = tuple(command["cell"])
        path = tuple(tuple(p) for p in command.get("path", ()) if visible[p[1], p[0]])
        overlay = scene.Overlay(selected=actor if shown(actor) else None, target=target, path=path, reach=len(path))
        view, world = (width, height), scene.world(state.grid)
        # the target, then the selected roll's unit: that one always ends up in view
        focuses = [p for p in (target, shown(actor)) if p is not None] or [self._home(state, side)]
        for focus in focuses if not self.panned else ():
            if focus is not None:
                self.origin = scene.follow(self.origin, scene.on_screen(state.grid, focus), view, world)
        marks = self.timeline.ruleset.marks(state, side) if side in state.sides else ()
        if state.grid.storeys:  # the storey on show, its own fog; the units on the others marked
            seen, explored = sight.level(self.level)
            spotted = frozenset(state.units) if self.view == FULL else self.timeline.ruleset.spotted(state, side)
            frame = scene.draw(self.palette, state, side, seen, explored, sight.last_seen, overlay, sight.remembered,
                               marks, self.level, spotted)
        else:
            frame = scene.draw(self.palette, state, side, visible, sight.explored, sight.last_seen, overlay,
                               sight.remembered, marks)
        map_view.show(scene.laid_out(state.grid, frame).window(*self.origin, width, height))

    @staticmethod
    def _home(state: State, side: str) -> Pos | None:
        units = [u for u in state.side_units(side) if u.status != "dead"]
        return units[0].pos if units else None

    def say(self, text: str) -> None:
        self.query_one(StatusLine).message = text

    # -- which keys work now ----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.too_small:
            return action in ("help", "quit", "back")
        if self.jump.open:
            return action == "back"
        if action in ("help", "quit", "back", "jump"):
            return True
        return self._why(action, parameters) is None

    def _why(self, action: str, parameters: tuple[object, ...]) -> str | None:
        """Why an action does nothing right now; None if it does something."""
        by = parameters[0] if parameters and isinstance(parameters[0], int) else 1
        if action in NAVIGATION and self._target(action, by) is None:
            if not self.replay.stops:
                return "This log has no records to step through"
            if action == "dice":
                return f"No {'later' if by > 0 else 'earlier'} record rolled dice"
            if action == "turn" and by > 0:
                return "This is the last turn of the log"
            return f"This is the {'last' if by > 0 else 'first'} record of the log"
        if action == "view" and parameters == (FULL,) and not self.replay.opened:
            return "The full map opens when the mission ends: until then, each side's fog only"
        if action == "view" and parameters == ("aliens",) and not self.replay.opened:
            return "The aliens' view opens when the mission ends: until then it would show where they hide"
        if action in ("roll", "explain") and not self._rolls():
            return f"No dice were rolled in record {self.n}"
        if action == "level":
            levels = self.state.grid.levels
            if levels == 1:
                return "This map has one level"
            if not 0 <= self.level + by < levels:
                return "No level above: this is the top" if by > 0 else "No level below: this is the ground"
        return None

    def _target(self, action: str, by: int) -> int | None:
        if not self.replay.stops:
            return None
        if action == "step":
            return self.replay.step(self.n, by)
        if action == "turn":
            return self.replay.turn(self.n, by)
        if action == "dice":
            return self.replay.dice_stop(self.n, by)
        end = self.replay.stops[-1 if by > 0 else 0]
        return end if end != self.n else None

    def on_key(self, event: events.Key) -> None:
        # g opens the jump box here and not through its binding: bindings run later, in the App, so
        # digits typed ahead ("g12⏎" in one packet) would reach this screen before the box was open
        opens = not self.jump.open and event.key in self._keys("jump") and not self.too_small
        if self.jump.open or opens:
            event.stop()  # the keys are the jump box's: no binding sees them
            event.prevent_default()
            if opens:
                self.action_jump()
            else:
                self._type(event)
            return
        if event.key in self.active_bindings or event.key in ("ctrl+q", "ctrl+c"):
            return
        for k in keys.VIEWER:
            if event.key in self._keys(k.id):
                why = self._why(*keys.action_of(k))
                if why:
                    self.say(f"✗ {why}")
                    return
        self.say(f"✗ {keys.display(event.key)} does nothing here: press ? for the keys")

    def _keys(self, binding_id: str) -> list[str]:
        keymap = self.app._keymap  # noqa: SLF001 - the keymap Textual applies
        default = next(k.keys for k in keys.VIEWER if k.id == binding_id)
        return keymap.get(binding_id, default).split(",")

    # -- keys ------------------------------------------------------------------------------------

    def go(self, n: int, roll: int = 0) -> None:
        self.n, self.roll, self.panned = n, roll, False
        self.update_view()

    def action_pan(self, dx: int, dy: int) -> None:
        """Shift+arrows (or HJKL) move the view a quarter of itself over the map; the next record brings it back."""
        view, (width, height) = self.query_one(MapView).size, scene.world(self.state.grid)
        if view.width >= width and view.height >= height:
            self.say("✗ The whole map is in view")
            return
        x = min(max(self.origin[0] + dx * max(1, view.width // 4), 0), max(0, width - view.width))
        y = min(max(self.origin[1] + dy * max(1, view.height // 4), 0), max(0, height - view.height))
        self.origin, self.panned = (x, y), True
        self.update_view()
        self.say(f"View from {x},{y} · the next record brings it back")

    def action_step(self, by: int) -> None:
        self._move("step", by)

    def action_turn(self, by: int) -> None:
        self._move("turn", by)

    def action_ends(self, by: int) -> None:
        self._move("ends", by)

    def action_dice(self, by: int) -> None:
        self._move("dice", by)

    def _move(self, action: str, by: int) -> None:
        n = self._target(action, by)
        if n is None:
            self.say(f"✗ {self._why(action, (by,))}")
            return
        self.go(n)
        self.say("")

    def action_view(self, view: str) -> None:
        why = self._why("view", (view,))
        if why:
            self.say(f"✗ {why}")
            return
        self.view = view
        self.update_view()
        self.say(f"Showing the {self._view_words(view)}" + ("" if view == FULL else ": what that side had seen by now"))

    def action_level(self, by: int) -> None:
        why = self._why("level", (by,))
        if why:
            self.say(f"✗ {why}")
            return
        self.level += by
        self.update_view()
        self.say(f"Level {self.level}" + (" (the ground)" if self.level == 0 else ""))

    def action_roll(self, by: int) -> None:
        rolls = self._rolls()
        if not rolls:
            self.say(f"✗ {self._why('roll', ())}")
            return
        self.roll = (self.roll + by) % len(rolls)
        self.update_view()
        self.say(f"Roll {self.roll + 1} of {len(rolls)} · ⏎ shows why it fell as it did")

    def action_explain(self) -> None:
        if not self._rolls():
            self.say(f"✗ {self._why('explain', ())}")
            return
        from tui.screens.dispute import Dispute

        self.app.push_screen(Dispute(self.replay, self.n, self.roll), self._picked)

    def _picked(self, roll: int | None) -> None:
        """The dispute panel hands back the roll it ended on, so the log and the map follow it."""
        if roll is not None and roll != self.roll:
            self.roll = roll
            self.update_view()

    def action_jump(self) -> None:
        self.jump.start()
        self.say(self.jump.prompt())
        self.refresh_bindings()

    def _type(self, event: events.Key) -> None:
        answer = self.jump.key(event.key, event.character)
        if isinstance(answer, str):
            self.say(answer)
        if not self.jump.open:
            self.refresh_bindings()
        if isinstance(answer, Jump):
            if answer.problem:
                self.say(f"✗ {answer.problem}")
            else:
                self.say(answer.said)
                self.go(answer.n)

    def action_back(self) -> None:
        below = self.app.screen_stack[-2] if len(self.app.screen_stack) > 1 else None
        if isinstance(below, Sized):
            self.app.pop_screen()
        else:
            self.app.exit()

    def action_help(self) -> None:
        from tui.screens.help import Help

        self.app.push_screen(Help("viewer", self))
