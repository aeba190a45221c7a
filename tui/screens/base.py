"""What every full screen shares: below the minimum size its content hides behind a notice."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.screen import Screen

from tui.widgets.panels import TooSmall

MIN_SIZE = (80, 24)


class Sized(Screen):
    too_small = False

    def compose(self) -> ComposeResult:
        yield TooSmall()

    def on_mount(self) -> None:
        self._check_size(self.app.size.width, self.app.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.too_small = small
        self.set_class(small, "-too-small")
        if small:
            self.query_one(TooSmall).show_size(width, height, MIN_SIZE)
        self.refresh_bindings()
