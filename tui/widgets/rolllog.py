"""The replay viewer's roll log: the turn's rolls so far, with the selected roll always in sight."""

from __future__ import annotations

from rich.text import Text

from tui.widgets.lines import Lines


class RollLog(Lines):
    """Shows the newest rows that fit, unless that would hide the focused line: then from just above it."""

    def __init__(self, title: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = title
        self.focus_line: int | None = None

    def show(self, lines: list[Text | str], focus: int | None) -> None:
        self.focus_line = focus
        self.set_lines(lines)

    def _wrapped(self) -> list[Text]:
        width, height = self.size.width, self.size.height
        if width <= 0 or height <= 0:
            return list(self._lines)
        rows: list[Text] = []
        starts: list[int] = []  # the first row of each line
        for line in self._lines:
            starts.append(len(rows))
            rows.extend([line] if line.cell_len <= width else line.wrap(self.app.console, width, overflow="fold"))
        if len(rows) <= height:
            return rows
        start = len(rows) - height
        focus = self.focus_line
        if focus is not None and 0 <= focus < len(starts) and starts[focus] < start:
            end = starts[focus + 1] if focus + 1 < len(starts) else len(rows)
            # the line before too, for context, if the focused one still fits whole
            start = starts[focus - 1] if focus > 0 and end - starts[focus - 1] <= height else starts[focus]
        return rows[start:start + height]
