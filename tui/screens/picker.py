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
ROWS = 16  # lines of entries shown at once inside a 24-line terminal
WIDTH = 60  # the characters of a line inside #menu-box (64 wide, less border and padding)


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
        first, last = window([lines(label) for label, _value in self.entries], self.index)
        rows = [Text(("▶ " if i == self.index else "  ") + label, style="bold" if i == self.index else "")
                for i, (label, _value) in enumerate(self.entries[first:last], start=first)]
        return Text("\n").join(rows)

    def action_move(self, step: int) -> None:
        self.index = (self.index + step) % len(self.entries)
        self.query_one("#menu-body", Static).update(self._body())

    def action_choose(self) -> None:
        self.dismiss(self.entries[self.index][1])

    def action_back(self) -> None:
        self.dismiss(None)


def lines(label: str) -> int:
    """The lines an entry takes once wrapped (a long order wraps, so counting entries would overflow the box)."""
    return max(1, -(-(len(label) + 2) // WIDTH))


def window(heights: list[int], index: int) -> tuple[int, int]:
    """The entries [first, last) to show: `index` among them, about centred, within ROWS lines."""
    first, last, used = index, index + 1, heights[index] if heights else 0
    grew = True
    while grew:
        grew = False
        for side in ("up", "down") if index - first <= last - index else ("down", "up"):
            if side == "up" and first > 0 and used + heights[first - 1] <= ROWS:
                first, used, grew = first - 1, used + heights[first - 1], True
                break
            if side == "down" and last < len(heights) and used + heights[last] <= ROWS:
                last, used, grew = last + 1, used + heights[last], True
                break
    return first, last
