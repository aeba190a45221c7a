"""A short list to pick one entry from: the soldier list (`S`) and the item to throw. It only picks; the
screen that opened it acts on the value it returns (None when closed)."""

from __future__ import annotations

from typing import TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from tui import keys

T = TypeVar("T")
ROWS = 16  # entries shown at once inside a 24-line terminal


class Picker(ModalScreen[T]):
    BINDINGS = keys.bindings("menu", ("menu_up", "menu_down", "choose", "back"))

    def __init__(self, title: str, entries: list[tuple[str, T]], index: int = 0) -> None:
        super().__init__()
        self.title_text = title
        self.entries = entries
        self.index = index

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static(self.title_text, id="menu-title")
            yield Static(self._body(), id="menu-body")
            said = self.app._keymap  # noqa: SLF001 - the keys as remapped
            yield Static(f"{keys.said(said, 'menu_up', 1)}/{keys.said(said, 'menu_down', 1)} choose  "
                         f"{keys.said(said, 'choose', 1)} pick  {keys.said(said, 'back', 1, 'menu')} close",
                         id="menu-keys")

    def _body(self) -> Text:
        first = max(0, min(self.index - ROWS // 2, len(self.entries) - ROWS))
        rows = [Text(("▶ " if i == self.index else "  ") + label, style="bold" if i == self.index else "")
                for i, (label, _value) in enumerate(self.entries[first:first + ROWS], start=first)]
        return Text("\n").join(rows)

    def action_move(self, step: int) -> None:
        self.index = (self.index + step) % len(self.entries)
        self.query_one("#menu-body", Static).update(self._body())

    def action_choose(self) -> None:
        self.dismiss(self.entries[self.index][1])

    def action_back(self) -> None:
        self.dismiss(None)
