"""The logs in the save folder: ⏎ opens a finished one's summary or resumes an unfinished one; v views any."""

from __future__ import annotations

import time

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.log import writer as log
from tui import keys
from tui.screens.base import Sized
from tui.widgets.keybar import KeyBar
from tui.widgets.panels import StatusLine


class Replays(Sized):
    BINDINGS = keys.bindings("list")

    def compose(self) -> ComposeResult:
        folder = self.app.saves
        self.paths = log.list_logs(folder)
        said = keys.fill(self.app._keymap, "{open} opens (finished: summary, unfinished: resume) · "  # noqa: SLF001
                         "{view_replay} views the replay", "list")
        yield Static(Text(f"Mission logs in {folder} — newest first · {said}"), id="replays-head")
        options = [Option(self._label(self.app.content, p), id=str(i)) for i, p in enumerate(self.paths)]
        yield OptionList(*options, id="replays")
        yield StatusLine(id="status")
        yield KeyBar()
        yield from super().compose()

    @staticmethod
    def _label(content, path) -> Text:
        """Two lines a log: its state, when and its file; then what (mission, ruleset, outcome or whose turn, phase)."""
        from tui import loginfo

        state = "finished  " if log.is_finished(path) else "UNFINISHED"
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
        return Text.assemble((f"{state} {when}  ", "bold"), path.name, f"\n    {loginfo.line(content, path)}")

    def on_mount(self) -> None:
        menu = self.query_one(OptionList)
        if not self.paths:
            self.query_one(StatusLine).message = "No mission logs yet: start a new mission from the title menu"
        else:
            menu.highlighted = 0  # so Enter opens the newest at once
        menu.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        menu = self.query_one(OptionList)
        if menu.highlighted is None or not self.paths:
            return
        problem = self.app.open_log(self.paths[menu.highlighted])
        if problem:
            self.query_one(StatusLine).message = f"✗ {problem}"

    def action_view(self) -> None:
        menu = self.query_one(OptionList)
        if menu.highlighted is None or not self.paths:
            return
        problem = self.app.view_log(self.paths[menu.highlighted])
        if problem:
            self.query_one(StatusLine).message = f"✗ {problem}"

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_help(self) -> None:
        from tui.screens.help import Help

        self.app.push_screen(Help("list", self))
