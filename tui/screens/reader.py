"""A long list of lines to scroll and search: the full mission log."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Input, RichLog, Static

from tui import keys


class Reader(Screen[None]):
    BINDINGS = keys.bindings("reader")

    def __init__(self, title: str, lines: list[str]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = list(lines)
        self.matches: list[int] = []
        self.at = -1

    def compose(self) -> ComposeResult:
        yield Static(f"{self.title_text} — {len(self.lines)} lines · ↑↓ PgUp PgDn scroll · "
                     + self._keys("{search} search · {next_match}/{prev_match} next/prev · {back} close"),
                     id="reader-head")
        yield RichLog(id="reader-log", wrap=True, max_lines=None)
        yield Input(placeholder="search, then ⏎", id="reader-search")

    def on_mount(self) -> None:
        log = self.query_one(RichLog)
        for line in self.lines:
            log.write(line)
        self.query_one(Input).display = False
        log.focus()

    def action_search(self) -> None:
        box = self.query_one(Input)
        box.display = True
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        needle = event.value.strip().lower()
        self.matches = [i for i, line in enumerate(self.lines) if needle and needle in line.lower()]
        self.at = -1
        event.input.display = False
        self.query_one(RichLog).focus()
        if not self.matches:
            self.query_one("#reader-head", Static).update(f"No line contains {event.value!r}")
            return
        self.action_next_match(1)

    def _keys(self, text: str) -> str:
        return keys.fill(self.app._keymap, text, "reader")  # noqa: SLF001 - the keys as remapped

    def action_next_match(self, step: int) -> None:
        if not self.matches:
            return
        self.at = (self.at + step) % len(self.matches)
        line = self.matches[self.at]
        self.query_one("#reader-head", Static).update(
            f"Match {self.at + 1}/{len(self.matches)}: line {line + 1} · "
            + self._keys("{next_match}/{prev_match} next/prev · {back} close"))
        log = self.query_one(RichLog)
        log.scroll_to(y=self._row_of(line), animate=False)

    def _row_of(self, index: int) -> int:
        """Wrapped rows before line `index`: each written line may take several rows."""
        width = max(1, self.query_one(RichLog).scrollable_content_region.width)
        return sum(max(1, -(-len(line) // width)) for line in self.lines[:index])

    def action_back(self) -> None:
        box = self.query_one(Input)
        if box.has_focus:
            box.display = False
            self.query_one(RichLog).focus()
            return
        self.dismiss(None)
