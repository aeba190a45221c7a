"""The map viewport: a Line API widget that frames a tcod console and repaints only changed rows."""

from __future__ import annotations

import numpy as np
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from tui.scene import BOLD, DIM, ITALIC, REVERSE, UNDERLINE, Frame


class MapView(Widget):
    """Shows a `Frame` the size of the widget; the screen draws it, this widget only frames it."""

    class Resized(Message):
        """The viewport changed size: the screen should draw a frame of the new size."""

        def __init__(self, map_view: "MapView", size: Size) -> None:
            super().__init__()
            self.map_view = map_view
            self.size = size

        @property
        def control(self) -> "MapView":
            return self.map_view

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._frame: Frame | None = None
        self._strips: list[Strip | None] = []
        self._styles: dict[int, Style] = {}
        self.repainted = 0  # rows repainted so far: tests and the benchmark read it

    def show(self, frame: Frame) -> None:
        """Take a new frame; refresh only the rows whose cells differ from the last one."""
        old = self._frame
        self._frame = frame
        rows = frame.attrs.shape[0]
        if old is None or old.attrs.shape != frame.attrs.shape:
            self._strips = [None] * rows
            self.repainted += rows
            self.refresh()
            return
        changed = ((old.console.rgb != frame.console.rgb) | (old.attrs != frame.attrs)).any(axis=1)
        width = frame.attrs.shape[1]
        for y in np.flatnonzero(changed).tolist():
            self._strips[y] = None
            self.repainted += 1
            self.refresh(Region(0, y, width, 1))

    def on_resize(self, event) -> None:
        self.post_message(self.Resized(self, self.size))

    def render_line(self, y: int) -> Strip:
        frame = self._frame
        if frame is None or y >= len(self._strips):
            return Strip.blank(self.size.width, self.rich_style)
        strip = self._strips[y]
        if strip is None:
            strip = self._strips[y] = self._row(frame, y)
        return strip.crop_extend(0, self.size.width, self.rich_style)

    def _row(self, frame: Frame, y: int) -> Strip:
        """Cells with one style are joined into one segment: fewer escape codes over the wire."""
        rgb = frame.console.rgb[y]
        fg, bg = rgb["fg"].astype(np.int64), rgb["bg"].astype(np.int64)
        keys = ((fg[:, 0] << 16 | fg[:, 1] << 8 | fg[:, 2]) << 32 | (bg[:, 0] << 16 | bg[:, 1] << 8 | bg[:, 2]) << 8
                | frame.attrs[y].astype(np.int64))
        starts = [0, *(np.flatnonzero(keys[1:] != keys[:-1]) + 1).tolist(), len(keys)]
        text = "".join(map(chr, rgb["ch"].tolist()))
        segments = [Segment(text[a:b], self._style(int(keys[a]))) for a, b in zip(starts, starts[1:])]
        return Strip(segments, len(keys))

    def _style(self, key: int) -> Style:
        style = self._styles.get(key)
        if style is None:
            fg, bg, attr = key >> 32, (key >> 8) & 0xFFFFFF, key & 0xFF
            style = Style(color=f"#{fg:06x}", bgcolor=f"#{bg:06x}", bold=bool(attr & BOLD),
                          underline=bool(attr & UNDERLINE), reverse=bool(attr & REVERSE), dim=bool(attr & DIM),
                          italic=bool(attr & ITALIC))
            self._styles[key] = style
        return style

    def row_text(self, y: int) -> str:
        """The characters of one row, for tests."""
        if self._frame is None:
            return ""
        return "".join(map(chr, self._frame.console.rgb[y]["ch"].tolist()))
