"""Rows of text drawn with the Line API: a new set of lines repaints only the rows that changed.

Textual repaints a whole widget on `update`; over SSH every repainted cell costs bytes, so the
battle screen's panels compare rows and refresh just the ones that differ.
"""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget


class Lines(Widget):
    """Logical lines, wrapped to the width when `wrap` is set; `tail` keeps the last rows that fit."""

    DEFAULT_CSS = "Lines { height: auto; }"

    def __init__(self, *, wrap: bool = True, tail: bool = False, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.wrap = wrap
        self.tail = tail
        self._lines: list[Text] = []
        self._rows: list[Text] = []
        self._strips: dict[int, Strip] = {}

    @property
    def lines(self) -> list[Text]:
        return self._lines

    def set_lines(self, lines: list[Text | str]) -> None:
        self._lines = [line if isinstance(line, Text) else Text(line) for line in lines]
        self._relayout()

    def plain(self) -> str:
        return "\n".join(row.plain for row in self._rows)

    def _wrapped(self) -> list[Text]:
        width = self.size.width
        if not self.wrap or width <= 0:
            return list(self._lines)
        rows: list[Text] = []
        for line in self._lines:
            if line.cell_len <= width:
                rows.append(line)
            else:
                rows.extend(line.wrap(self.app.console, width, overflow="fold"))
        return rows

    def _relayout(self) -> None:
        rows = self._wrapped()
        if self.tail and self.size.height:
            rows = rows[-self.size.height:]
        old = self._rows
        self._rows = rows
        width = self.size.width
        if len(rows) != len(old) and self.styles.height is not None and self.styles.height.is_auto:
            self._strips.clear()
            self.refresh(layout=True)
            return
        for y in range(max(len(old), len(rows))):
            a = old[y] if y < len(old) else None
            b = rows[y] if y < len(rows) else None
            if a is None or b is None or a != b or a.style != b.style:
                self._strips.pop(y, None)
                if width:
                    self.refresh(Region(0, y, width, 1))

    def on_resize(self) -> None:
        self._strips.clear()
        self._rows = []
        self._relayout()
        self.refresh()

    def get_content_height(self, container, viewport, width: int) -> int:
        if not self.wrap:
            return len(self._lines)
        return sum(max(1, -(-line.cell_len // max(1, width))) for line in self._lines)

    def render_line(self, y: int) -> Strip:
        style = self.rich_style
        width = self.size.width
        if y >= len(self._rows):
            return Strip.blank(width, style)
        strip = self._strips.get(y)
        if strip is None:
            text = self._rows[y].copy()
            text.stylize_before(style)
            text.end = ""
            # an empty line renders as a segment without a style, which NO_COLOR's filter cannot take
            segments = [s for s in text.render(self.app.console) if s.text]
            strip = Strip(segments, text.cell_len).crop_extend(0, width, style)
            self._strips[y] = strip
        return strip
