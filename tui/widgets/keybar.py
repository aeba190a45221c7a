"""The footer: the keys that do something right now, wrapped to the width instead of cut off."""

from __future__ import annotations

from typing import Callable

from rich.text import Text

from tui import keys
from tui.widgets.lines import Lines

MOVE_HINT = ("←↑↓→/hjkl", "cursor")  # the diagonals are in the help
ROWS = 2  # the footer's rows at 80 columns: pieces close up to one space rather than take a third


class KeyBar(Lines):
    """Reads the screen's active bindings: check_action decides what shows; `words(key id, words)` may reword a
    key (the battle screen's second move is the ruleset's)."""

    def __init__(self, *, id: str | None = None, words: Callable[[str, str], str] | None = None) -> None:
        super().__init__(wrap=False, id=id)
        self._entries: list[tuple[str, str]] = []
        self._words = words or (lambda _id, w: w)

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._changed)
        self._changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def on_resize(self) -> None:
        self._entries = []
        self._changed(self.screen)

    def _changed(self, _screen) -> None:
        entries = self.entries()
        if entries != self._entries:
            self._entries = entries
            self.set_lines(self.layout_rows(entries, self.size.width or 80))

    def entries(self) -> list[tuple[str, str]]:
        seen: dict[str, list[str]] = {}
        words: list[str] = []
        cursor = False
        for key, active in self.screen.active_bindings.items():
            binding = active.binding
            if not active.enabled:
                continue
            if binding.id in keys.MOVES:
                cursor = True
                continue
            if not binding.show:
                continue
            word = self._words(binding.id or "", binding.description)
            if word not in seen:
                seen[word] = []
                words.append(word)
            seen[word].append(keys.display(key))
        out = [("/".join(seen[w][:2]), w) for w in words]
        if cursor:
            out.insert(0, MOVE_HINT)
        return out

    @staticmethod
    def layout_rows(entries: list[tuple[str, str]], width: int) -> list[Text]:
        """`key:word` pieces, two spaces apart (one when two would take another row), as plain text: one run
        of one style per row is the cheapest thing to send over a slow link, and reads well without colour."""
        for gap in ("  ", " "):
            rows: list[str] = [""]
            for key, word in entries:
                piece = f"{key}:{word}"
                if rows[-1] and len(rows[-1]) + len(gap) + len(piece) > width:
                    rows.append("")
                rows[-1] += (gap if rows[-1] else "") + piece
            if len(rows) <= ROWS:
                break
        return [Text(row) for row in rows]
