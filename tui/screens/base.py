"""What every full screen shares: below the minimum size its content hides behind a notice."""

from __future__ import annotations

import os

from textual import events
from textual.app import ComposeResult
from textual.screen import Screen

from tui.widgets.panels import TooSmall

MIN_SIZE = (80, 24)
READY_ENV = "XENOTAC_READY_FILE"  # a file to append each screen's name to once it is drawn


class Sized(Screen):
    too_small = False

    def compose(self) -> ComposeResult:
        yield TooSmall()

    def on_mount(self) -> None:
        self._check_size(self.app.size.width, self.app.size.height)
        if os.environ.get(READY_ENV):
            self.call_after_refresh(self._announce)

    def _announce(self) -> None:
        """The screen's name, once its first frame is drawn: how benchmarks and end-to-end tests know
        which screen is up without reading its wording."""
        with open(os.environ[READY_ENV], "a", encoding="utf-8") as f:
            f.write(type(self).__name__ + "\n")

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.too_small = small
        self.set_class(small, "-too-small")
        if small:
            self.query_one(TooSmall).show_size(width, height, MIN_SIZE)
        self.refresh_bindings()
