"""The inventory screen (`I`): what the soldier carries, where, how big, and the moves each thing can make now at the
ruleset's price (`Ruleset.inventory`: hands, straps, belt, backpack, the floor, loading and unloading). It only
picks: the chosen move's command goes back to the battle screen, which submits it, and the ruleset decides."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.core.commands import Command
from engine.core.ruleset import Inventory
from tui import keys

ROWS = 11  # things (or moves) shown at once: the 24-line terminal holds the frame, the summary and the key line
ROW = 60  # the characters a line of #menu-box holds (its width 64, less the border and padding; xenotac.tcss)


class InventoryScreen(ModalScreen[Command | None]):
    """Pick a thing carried (↑↓, ⏎), then one of its moves (↑↓, ⏎); Esc goes back a step, then closes."""

    BINDINGS = keys.bindings("inventory")

    def __init__(self, title: str, inventory: Inventory) -> None:
        super().__init__()
        self.title_text = title
        self.inventory = inventory
        self.index = 0
        self.move: int | None = None  # the move being picked, once a thing is chosen

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static(self.title_text, id="menu-title")
            yield Static(self._body(), id="menu-body")
            yield Static(self._keys(), id="menu-keys")

    def _body(self) -> str:
        summary = [f"{r.label}{r.text}" for r in self.inventory.lines]
        things = self.inventory.items
        if not things:
            return "\n".join(summary + ["", "Nothing carried."])
        if self.move is None:
            place = max(len(t.place) for t in things)
            rows = []
            for i, t in enumerate(things):  # one line each inside the box: a long name is cut, not wrapped
                tail = (f" ({t.size})" if t.size else "") + ("" if t.moves else " ·")
                room = ROW - 3 - place - len(tail)
                label = t.label if len(t.label) <= room else t.label[:room - 1] + "…"
                rows.append(f"{'▶ ' if i == self.index else '  '}{t.place:<{place}} {_escape(label)}{tail}")
            return "\n".join(summary + [""] + _window(rows, self.index))
        thing = things[self.index]
        rows = [f"{'▶ ' if i == self.move else '  '}{_escape(m.label)}" for i, m in enumerate(thing.moves)]
        note = thing.moves[self.move].note
        return "\n".join([f"{_escape(thing.label)} ({thing.place.lower()})", ""] + _window(rows, self.move)
                         + ([f"\n{_escape(note)}"] if note else []))

    def _keys(self) -> str:
        said = self.app._keymap  # noqa: SLF001 - the keys as remapped, so the hint stays true
        up, down = keys.said(said, "item_up", 1, "inventory"), keys.said(said, "item_down", 1, "inventory")
        choose, back = keys.said(said, "choose", 1, "inventory"), keys.said(said, "back", 1, "inventory")
        if self.move is None:
            return f"{up}/{down} thing  {choose} its moves  {back} close  (· = no move now)"
        return f"{up}/{down} move  {choose} do it  {back} back"

    def _refresh(self) -> None:
        self.query_one("#menu-body", Static).update(self._body())
        self.query_one("#menu-keys", Static).update(self._keys())

    def action_move(self, step: int) -> None:
        things = self.inventory.items
        if not things:
            return
        if self.move is None:
            self.index = (self.index + step) % len(things)
        else:
            self.move = (self.move + step) % len(things[self.index].moves)
        self._refresh()

    def action_choose(self) -> None:
        things = self.inventory.items
        if not things:
            return
        thing = things[self.index]
        if self.move is None:
            if not thing.moves:
                self.app.bell()
                self.query_one("#menu-keys", Static).update(f"The {thing.label} cannot be moved now")
                return
            self.move = 0
            self._refresh()
            return
        self.dismiss(thing.moves[self.move].command)

    def action_back(self) -> None:
        if self.move is not None:
            self.move = None
            self._refresh()
            return
        self.dismiss(None)

    def action_help(self) -> None:
        from tui.screens.help import Help

        self.app.push_screen(Help("inventory", self))


def _window(rows: list[str], at: int) -> list[str]:
    first = max(0, min(at - ROWS // 2, len(rows) - ROWS))
    return rows[first:first + ROWS]


def _escape(text: str) -> str:
    return text.replace("[", r"\[")
