"""The battlefield every battle mode draws: the map, the selected soldier's sheet, the info box, the logs,
the status line and the keys that work now.

Each mode is a screen built on Board (moving is the battle screen; targeting, throwing and looking are
pushed over it and return their command). A mode says what the map overlays, what the info box tells and,
in one place, whether each of its keys works now: `availability(action)` gives the reason it does not, or
None. The footer shows the keys with None; a refused key says the reason.
"""

from __future__ import annotations

import attrs
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical

from engine.content import missions
from engine.core.commands import Rejected
from engine.core.ruleset import NO_CELL_SHOTS
from engine.core.model import Unit
from engine.map.grid import Pos
from tui import keys, scene
from tui.screens import readout
from tui.screens.base import Sized
from tui.session import Session
from tui.widgets.keybar import KeyBar
from tui.widgets.mapview import MapView
from tui.widgets.panels import (Card, InfoPanel, InSight, LogTail, Objectives, StatusLine, TopBar, UnitPanel,
                                card_lines, objective_lines)

ALWAYS = ("help", "quit", "full_log")  # every mode has them, and they always work
TURNS = ("turn_left", "turn_right")  # turning in place, one facing step each way
SIDE = (31, 60)  # the side panel's least and most width: the map takes the rest, up to the whole map
SIDE_FRAME = 2  # the side panel's border and padding (xenotac.tcss #side): its lines have 2 columns less
LOGS = 5  # the logs' least height (a border and four lines); taller terminals give them what the map cannot use


def room(width: int, height: int, grid: tuple[int, int]) -> tuple[int, int]:
    """(side panel width, logs height) that give the map the room it can use, up to the whole map."""
    side = min(max(width - grid[0], SIDE[0]), SIDE[1])
    rows = height - 4  # the top bar, the status line, the two lines of keys
    return side, min(max(rows - grid[1], LOGS), max(LOGS, rows * 2 // 5))


class Board(Sized):
    keyset = ""
    """Which share of the battle keys this mode takes (keys.BATTLE_MODES)."""

    mode = ""
    """The mode's name, for the help's heading."""

    card_gives_way = False
    """Whether the soldier's sheet shrinks to its name and budget when the info box would not fit beside it
    (targeting: the odds of every mode come before the shooter's wounds and kit)."""

    def __init__(self, session: Session, selected: str | None, cursor: Pos = (0, 0), origin: Pos = (0, 0),
                 palette: scene.Palette | None = None) -> None:
        super().__init__()
        self.session = session
        self.palette = palette or scene.Palette(session.content)
        self.selected = selected
        self.cursor = cursor
        self.origin = origin  # the map's top-left cell on screen
        self.side_width = SIDE[0]  # set by lay_out
        self.level = 0  # the storey shown: it follows the selected unit, and the level keys look up and down
        self._followed: tuple[str, int] | None = None  # (unit, its storey) the level last followed
        self.mode_actions = {keys.action_of(k)[0] for k in keys.BATTLE if k.id in keys.BATTLE_MODES[self.keyset]}

    def compose(self) -> ComposeResult:
        yield TopBar(id="top")
        with Horizontal(id="body"):
            yield MapView(id="map")
            with Vertical(id="side"):
                yield UnitPanel(self.session.content, id="unit")
                yield InSight(id="sight")
                yield InfoPanel(id="info")
                yield Objectives(id="goals")
        with Horizontal(id="logs"):
            yield LogTail("Rolls", id="rolls")
            yield LogTail("Messages", id="messages")
        yield StatusLine(id="status")
        yield KeyBar(id="keys", words=self.footer_words)
        yield from super().compose()

    def on_map_view_resized(self, _message: MapView.Resized) -> None:
        self.update_view()

    def on_mount(self) -> None:  # Textual runs every class's handler: Sized's too, and the mode's own
        self.palette.mono = self.app.no_color  # Textual took NO_COLOR out of the environment and keeps it here
        self.lay_out(self.app.size.width, self.app.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self.lay_out(event.size.width, event.size.height)

    def lay_out(self, width: int, height: int) -> None:
        """The map gets the room it can use (up to the whole map); the panels take the rest."""
        grid = self.session.state.grid
        side, logs = room(width, height, (grid.width, grid.height))
        self.side_width = side
        self.query_one("#side").styles.width = side
        self.query_one("#logs").styles.height = logs

    # -- what a mode draws ------------------------------------------------------------------------

    def overlay(self) -> scene.Overlay:
        return scene.Overlay(selected=self.selected)

    def info(self) -> list:
        """The info box above the objectives."""
        return readout.cell_info(self.session, self.cursor, None, (), self.key_hint, self.level)

    def availability(self, action: str) -> str | None:
        """Why `action` does nothing right now, or None when it works; the modes add their own."""
        if action in ALWAYS:
            return None
        if action not in self.mode_actions:
            return f"{action.replace('_', ' ')} is not a key of this mode"
        if action == "spotted" and not self.visible_hostiles():
            return "No hostile in sight"
        if action == "level" and self.session.state.grid.levels == 1:
            return "This map has one level"
        return None

    def hidden_keys(self) -> tuple[str, ...]:
        """Keys the help leaves out here: the level keys on a map of one level, the inventory key under a ruleset
        whose soldiers have none to manage (as the footer does)."""
        state, side = self.session.state, self.session.side
        first = next(iter(state.side_units(side)), None)
        none = first is None or self.session.ruleset.inventory(state, first) is None
        dark = first is None or no_cell_shots(self.session, first) is not None
        return ((("level_up", "level_down") if state.grid.levels == 1 else ()) + (("inventory",) if none else ())
                + (("fire_cell",) if dark else ()))

    def action_level(self, step: int) -> None:
        """Show the storey above (1) or below (-1) the one shown."""
        levels = self.session.state.grid.levels
        if not 0 <= self.level + step < levels:
            self.refuse("No level above: this is the top" if step > 0 else "No level below: this is the ground")
            return
        self.level += step
        self.say(f"Level {self.level}" + (" (the ground)" if self.level == 0 else ""))
        self.update_view()

    def _follow(self) -> None:
        """The shown storey follows the selected unit: when another is selected, or it climbs."""
        unit = self.unit
        if unit is not None and (unit.id, unit.z) != self._followed:
            self._followed = (unit.id, unit.z)
            self.level = unit.z

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
        self._follow()
        if width and height:
            self.origin = scene.follow(self.origin, scene.on_screen(state.grid, self.cursor), (width, height),
                                       scene.world(state.grid))
            marks = self.session.ruleset.marks(state, self.session.side)
            if state.grid.storeys:
                frame = scene.draw(self.palette, state, self.session.side, chron.visible_levels[self.level],
                                   chron.explored_levels[self.level], chron.last_seen, self.overlay(),
                                   chron.remembered, marks, self.level,
                                   self.session.ruleset.spotted(state, self.session.side))
            else:
                frame = scene.draw(self.palette, state, self.session.side, chron.visible, chron.explored,
                                   chron.last_seen, self.overlay(), chron.remembered, marks,
                                   spotted=self.session.ruleset.spotted(state, self.session.side))
            map_view.show(scene.laid_out(state.grid, frame).window(*self.origin, width, height))
        unit, ruleset = self.unit, self.session.ruleset
        card = Card(unit, ruleset.sheet(state, unit), ruleset.budget(state, unit)) if unit else None
        info, goals = self.info(), self._objectives()
        if card is not None and self.card_gives_way and not self._fits(card, info, goals):
            card = attrs.evolve(card, compact=True)
        self.query_one(UnitPanel).card = card
        self.query_one(InfoPanel).set_lines(info)
        self.query_one(Objectives).set_lines(goals)
        spotted = self.visible_hostiles()
        self.query_one(InSight).show(spotted, self.cursor, self.key_hint("spotted"))
        self.query_one(TopBar).set_lines([readout.top_line(self.session, len(spotted), self.size.width, self.level)])
        self.query_one("#rolls", LogTail).show(chron.rolls)
        self.query_one("#messages", LogTail).show(chron.messages)
        self.refresh_bindings()

    def _fits(self, card: Card, info: list, goals: list) -> bool:
        """Whether the whole sheet, the in-sight line, the info box and the objectives fit the side panel's rows."""
        side = self.query_one("#side")
        width, height = max(1, self.side_width - SIDE_FRAME), side.content_region.height
        if not height:
            return True
        lines = card_lines(self.session.content, card) + [Text(str(x)) if not isinstance(x, Text) else x
                                                          for x in info] + list(goals)
        return 1 + sum(max(1, -(-line.cell_len // width)) for line in lines) <= height

    def _objectives(self) -> list:
        setup = self.session.ruleset.setup
        if setup is None:
            return []
        content = self.session.content
        names = {m.template: m.name for m in self.session.ruleset.roster(setup.mission_id) or []}
        lost = {oid: missions.lost_if(o, names) for oid, o in missions.objectives(setup.mission).items()}
        state = self.session.state
        seen = self.session.ruleset.spotted(state, self.session.side)
        return objective_lines(missions.statuses(content, setup.mission, setup.spawns, state, seen), lost,
                               self.side_width - SIDE_FRAME)

    def say(self, text: str) -> None:
        self.query_one(StatusLine).message = text

    def refuse(self, why: Rejected | str) -> None:
        self.say(f"✗ {why.reason if isinstance(why, Rejected) else why}")

    # -- keys ------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.too_small:
            return action in ("help", "quit")
        return self.availability(action) is None

    def on_key(self, event: events.Key) -> None:
        """A key that does nothing now says why, in one line."""
        if event.key in self.active_bindings or event.key in ("ctrl+q", "ctrl+c") or self.too_small:
            return
        reasons = (self.availability(action) for action in self._actions_on(event.key))
        why = next((r for r in reasons if r), None)
        self.refuse(why or f"{keys.display(event.key)} does nothing here: press {self.key_hint('help')} for the keys")

    def _actions_on(self, key: str) -> list[str]:
        keymap = self.app._keymap  # noqa: SLF001 - Textual keeps the applied keymap here
        return [keys.action_of(k)[0] for k in keys.BATTLE if k.id in keys.BATTLE_MODES[self.keyset]
                and key in keymap.get(k.id, k.keys).split(",")]

    def keys_of(self, binding_id: str) -> list[str]:
        keymap = self.app._keymap  # noqa: SLF001
        return next((keymap.get(k.id, k.keys).split(",") for k in keys.BATTLE if k.id == binding_id), [])

    def key_words(self, key_id: str, words: str) -> str:
        """A key's word in the footer and the help as the ruleset has it: the second kind of move (the `Combo`
        command) is xcom-trpg's combo, xxxzone's cautious walk, and not there in the other rulesets."""
        if key_id != "combo":
            return words
        unit = self.unit or next(iter(self.session.squad()), None)
        label = self.session.ruleset.budget(self.session.state, unit).dash_label if unit is not None else ""
        return label or "no second move"

    def footer_words(self, key_id: str, words: str) -> str:
        """The footer's word for a key: the two turn keys share one piece ("[/]:turn"); the help names each."""
        return "turn" if key_id in TURNS else self.key_words(key_id, words)

    def key_hint(self, binding_id: str, most: int = 1) -> str:
        """The key that does `binding_id`, as the footer shows it: every hint follows a remapped key."""
        return keys.said(self.app._keymap, binding_id, most)  # noqa: SLF001

    def keys_said(self, text: str) -> str:
        """`text` with each `{binding_id}` replaced by its keys: "{move}: move" -> "⏎: move"."""
        return keys.fill(self.app._keymap, text)  # noqa: SLF001

    def centre_on(self, cell: Pos) -> None:
        """Scroll the map so `cell` is in the middle of the view (as far as the map's edges allow)."""
        view = self.query_one(MapView).size
        grid = self.session.state.grid
        at = scene.on_screen(grid, cell)
        wanted = (at[0] - view.width // 2, at[1] - view.height // 2)
        self.origin = scene.follow(wanted, at, (view.width, view.height), scene.world(grid))

    def action_spotted(self) -> None:
        """The cursor, and the view, to the next hostile in sight (the in-sight bar marks it)."""
        hostiles = self.visible_hostiles()
        at = next((i for i, u in enumerate(hostiles) if u.pos == self.cursor), -1)
        unit = hostiles[(at + 1) % len(hostiles)]
        self.cursor = unit.pos
        self.centre_on(unit.pos)
        self.say(f"{unit.name} ({unit.glyph}) at {unit.pos[0]},{unit.pos[1]}")
        self.update_view()

    def action_cursor(self, dx: int, dy: int) -> None:
        grid = self.session.state.grid
        x, y = grid.step(self.cursor, dx, dy)  # on hexes a neighbour hex (engine.map.hexes.step)
        self.cursor = (min(max(x, 0), grid.width - 1), min(max(y, 0), grid.height - 1))
        self.update_view()

    def action_full_log(self) -> None:
        from tui.screens.reader import Reader

        self.app.push_screen(Reader("Mission log", self.session.chronicle.journal))

    def action_help(self) -> None:
        from tui.screens.help import Help

        self.app.push_screen(Help("battle", self, words=self.key_words))

    def action_quit(self) -> None:
        link = self.session.game.header.get("campaign")
        again = f"xenotac campaign resume {link['name']}" if isinstance(link, dict) else "xenotac resume"
        self.app.exit(f"Saved: {self.session.path}\nContinue with: {again}")

    # -- what the squad sees ---------------------------------------------------------------------

    def visible_hostiles(self) -> list[Unit]:
        seen = self.session.chronicle.spotted  # not every unit in a seen cell: a storey above, a cloak
        units = [u for u in self.session.state.units.values()
                 if missions.hostile(self.session.side, u.side) and u.status != "dead" and u.id in seen]
        return sorted(units, key=lambda u: (u.pos[1], u.pos[0], u.id))  # the bar reads like the map


def no_cell_shots(session: Session, unit: Unit) -> str | None:
    """Why the ruleset fires only at targets in sight (the fire-at-a-cell key is refused, left out of the help), or
    None when it has shots at a cell."""
    found = session.ruleset.preview_cell_shot(session.state, unit.id, unit.pos, "")
    return found.reason if isinstance(found, Rejected) and found.code == NO_CELL_SHOTS else None
