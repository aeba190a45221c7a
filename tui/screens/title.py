"""The title menu: New mission, Resume, Replays, Squad, Help, Quit."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui import keys
from tui.screens.base import Sized
from tui.widgets.keybar import KeyBar
from tui.widgets.panels import StatusLine

LOGO = r"""
 __  __ ___ _ __   ___ | |_ __ _  ___
 \ \/ // _ \ '_ \ / _ \| __/ _` |/ __|
  >  <|  __/ | | | (_) | || (_| | (__
 /_/\_\\___|_| |_|\___/ \__\__,_|\___|
"""
WARM_UP = 0.2  # seconds after the menu is mounted; a choice made sooner loads the content itself
CHOICES = (("new", "New mission"), ("resume", "Resume"), ("campaign", "Campaign"), ("replays", "Replays"),
           ("squad", "Squad"), ("help", "Help"), ("quit", "Quit"))


class Title(Sized):
    BINDINGS = keys.bindings("title")

    def compose(self) -> ComposeResult:
        with Vertical(id="title-box"):
            yield Static(LOGO, id="logo")
            yield Static("Squad tactics with auditable dice · keyboard only", id="tagline")
            yield OptionList(*(Option(label, id=cid) for cid, label in CHOICES), id="menu")
        yield StatusLine(id="status")
        yield KeyBar()
        yield from super().compose()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self.set_timer(WARM_UP, self.app.warm_up)  # the engine and content load once the menu is on screen

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_pick(event.option.id or "")

    def action_pick(self, choice: str) -> None:
        app = self.app
        if choice == "new":
            from tui.screens.newmission import NewMission

            app.push_screen(NewMission())
        elif choice == "resume":
            path = latest_unfinished(app.saves)
            if path is None:
                self.query_one(StatusLine).message = f"✗ No unfinished mission in {app.saves}"
                return
            problem = app.open_log(path)
            if problem:
                self.query_one(StatusLine).message = f"✗ {problem}"
        elif choice == "campaign":
            from tui.screens.campaigns import choose

            choose(app)
        elif choice == "replays":
            from tui.screens.replays import Replays

            app.push_screen(Replays())
        elif choice == "squad":
            from tui.screens.roster import RosterScreen

            app.push_screen(RosterScreen())
        elif choice == "help":
            self.action_help()
        elif choice == "quit":
            app.exit()

    def action_help(self) -> None:
        from tui.screens.help import Help

        self.app.push_screen(Help("title", self))


def latest_unfinished(folder):
    from engine.log import writer as log

    for path in log.list_logs(folder):
        if not log.is_finished(path):
            return path
    return None
