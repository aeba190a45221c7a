"""A yes/no question over the current screen."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from tui import keys


class Confirm(ModalScreen[bool]):
    BINDINGS = keys.bindings("confirm")

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question, id="question")
            said = self.app._keymap  # noqa: SLF001 - the keys as remapped, so the hint stays true
            yield Static(keys.fill(said, "{yes}  yes      {no}  no", "confirm"), id="answers")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
