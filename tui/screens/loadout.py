"""The loadout before a mission: the roster soldiers who deploy, each one's loadout lines (armour, weapon, sights,
clips, what rides on the belt) and the options of the line picked, with what the kit amounts to and the last
refusal shown as it changes. Every change goes to the ruleset's `Outfitter` (engine.core.loadout); the screen
returns the outfitted characters, or None to go back without changes. In a campaign with stores (`held`) each
soldier is offered what the stores hold less what the others take, and a squad the stores cannot fit together is
not accepted."""

from __future__ import annotations

import attrs
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from engine.core.creation import Character
from engine.core.loadout import Held, Outfitter, Pick, left_for, shortfall
from tui import keys
from tui.screens.base import Sized
from tui.screens.squadpick import cut
from tui.widgets.keybar import KeyBar
from tui.widgets.panels import StatusLine

ROWS = 13  # list rows at once at 80x24: the title, the summary's lines, the status line and the key bar take the rest
COUNT = (("-", "one fewer"), ("+", "one more"))  # a count line's two choices
SQUAD, LINES, OPTIONS = range(3)  # the columns, left to right
WIDTHS = (16, 30, 26)  # each column's text at 80 wide (loadout-* in xenotac.tcss, less the marks): longer is cut


class Loadout(Sized):
    BINDINGS = keys.bindings("loadout")

    def __init__(self, outfitter: Outfitter, mission: str, squad: list[Character], held: Held | None = None) -> None:
        super().__init__()
        self.outfitter = outfitter
        self.mission = mission
        self.squad = list(squad)
        self.held = held
        self.column = SQUAD
        self.cursor = [0, 0, 0]  # the highlighted row of each column

    def compose(self) -> ComposeResult:
        yield Static(f"Loadout for {self.mission} · ←→ soldier/line/option · ↑↓ row", id="loadout-title")
        with Horizontal(id="loadout"):
            yield Static(id="loadout-squad")
            yield Static(id="loadout-lines")
            yield Static(id="loadout-options")
        yield Static(id="loadout-summary")
        yield StatusLine(id="status")
        yield KeyBar()
        yield from super().compose()

    def on_mount(self) -> None:
        super().on_mount()
        self.cursor[OPTIONS] = self._current(self._pick())
        self._show()

    # -- what is highlighted ---------------------------------------------------------------------------

    def _left(self, place: int) -> dict[str, int] | None:
        """What the stores have left for the soldier in `place` once the others' kits are issued."""
        if self.held is None:
            return None
        return left_for(self.held, [self.outfitter.needs(self.mission, i, c.record)
                                    for i, c in enumerate(self.squad) if i != place])

    def _picks(self) -> tuple[Pick, ...]:
        place = self.cursor[SQUAD]
        return self.outfitter.picks(self.mission, place, self.squad[place].record, self._left(place))

    def _pick(self) -> Pick:
        return self._picks()[self.cursor[LINES]]

    @staticmethod
    def _options(pick: Pick) -> tuple[tuple[str, str], ...]:
        return COUNT if pick.count else pick.options

    def _rows(self, column: int) -> int:
        if column == SQUAD:
            return len(self.squad)
        return len(self._picks()) if column == LINES else len(self._options(self._pick()))

    def _current(self, pick: Pick) -> int:
        """The option row the line's value is on (a count: "+")."""
        options = self._options(pick)
        return next((i for i, (_id, label) in enumerate(options) if label == pick.value), len(options) - 1)

    # -- drawing ---------------------------------------------------------------------------------------

    def _column(self, column: int, rows: list[str], marked: int | None = None) -> Text:
        at = self.cursor[column]
        top = min(max(0, at - ROWS + 1), max(0, len(rows) - ROWS))
        out = []
        for i, row in enumerate(rows[top:top + ROWS], start=top):
            here = i == at
            mark = "▶" if here and column == self.column else ("›" if here else " ")
            tick = "•" if i == marked else " "
            out.append(Text(f"{mark}{tick}{cut(row, WIDTHS[column])}", style="reverse" if here and column == self.column else
                            ("bold" if here else "")))
        if len(rows) > ROWS:
            out.append(Text(f" {top + 1}-{top + len(out)} of {len(rows)}", style="dim"))
        return Text("\n").join(out)

    def _show(self, message: str = "") -> None:
        picks = self._picks()
        pick = picks[self.cursor[LINES]]
        options = self._options(pick)
        self.query_one("#loadout-squad", Static).update(self._column(SQUAD, [c.record.name for c in self.squad]))
        self.query_one("#loadout-lines", Static).update(
            self._column(LINES, [f"{p.label}: {p.value}" for p in picks]))
        self.query_one("#loadout-options", Static).update(
            self._column(OPTIONS, [label for _id, label in options], None if pick.count else self._current(pick)))
        who = self.squad[self.cursor[SQUAD]].record
        lines = self.outfitter.summary(self.mission, self.cursor[SQUAD], who)
        self.query_one("#loadout-summary", Static).update("\n".join((f"{who.name}:", *lines)))
        self.query_one(StatusLine).message = message or "⏎ starts the mission with this kit · esc: back, unchanged"

    # -- keys ------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.too_small and action not in ("back", "help"):
            return False
        if action == "count":
            return self._pick().count
        return True

    def action_move(self, step: int) -> None:
        self.cursor[self.column] = (self.cursor[self.column] + step) % self._rows(self.column)
        for later in range(self.column + 1, OPTIONS + 1):  # what lies right of it is another soldier's or line's
            self.cursor[later] = 0
        if self.column < OPTIONS:
            self.cursor[OPTIONS] = self._current(self._pick())
        self._show()
        self.refresh_bindings()

    def action_column(self, step: int) -> None:
        self.column = (self.column + step) % (OPTIONS + 1)
        self._show()
        self.refresh_bindings()

    def action_set(self) -> None:
        """On an option: it is chosen; left of the options: one column right, towards them."""
        if self.column < OPTIONS:
            self.action_column(1)
            return
        pick = self._pick()
        self._choose(pick, self._options(pick)[self.cursor[OPTIONS]][0])

    def action_count(self, step: int) -> None:
        self._choose(self._pick(), "+" if step > 0 else "-")

    def _choose(self, pick: Pick, option: str) -> None:
        place = self.cursor[SQUAD]
        got = self.outfitter.choose(self.mission, place, self.squad[place].record, pick.id, option, self._left(place))
        if isinstance(got, str):
            self._show(f"✗ {got}")
            return
        self.squad[place] = attrs.evolve(self.squad[place], record=got)
        picks = self._picks()  # a new weapon may bring or take away the clips line
        self.cursor[LINES] = min(self.cursor[LINES], len(picks) - 1)
        self.cursor[OPTIONS] = min(self.cursor[OPTIONS], len(self._options(picks[self.cursor[LINES]])) - 1)
        now = next((p.value for p in picks if p.id == pick.id), "")
        self._show(f"{got.name}: {pick.label} {now}".rstrip())
        self.refresh_bindings()

    def action_accept(self) -> None:
        if self.held is not None:
            why = shortfall(self.held, [self.outfitter.needs(self.mission, i, c.record)
                                        for i, c in enumerate(self.squad)], self.outfitter.name)
            if why:
                self._show(f"✗ {why[0].upper()}{why[1:]}")
                return
        self.dismiss(self.squad)

    def action_back(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        from tui.screens.help import Help

        self.app.push_screen(Help("loadout", self))
