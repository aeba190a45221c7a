"""The lobby's two lists: games being played now (⏎ watches one live) and every player's finished
missions (⏎ or v opens the replay viewer, with the revealed seed: every roll's audit)."""

from __future__ import annotations

import time
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.log import writer as log
from tui.serve import accounts, status
from tui.screens.base import Sized
from tui.widgets.keybar import KeyBar
from tui.widgets.panels import StatusLine

MOST = 300  # finished missions listed, newest first


class _List(Sized):
    BINDINGS = [Binding("enter", "open", "open"), Binding("escape,backspace,q", "back", "back")]
    HEAD = ""

    def compose(self) -> ComposeResult:
        yield Static(Text(self.HEAD), id="replays-head")
        yield OptionList(id="lobby-list")
        yield StatusLine(id="status")
        yield KeyBar()
        yield from super().compose()

    def on_mount(self) -> None:
        self.fill()
        self.query_one(OptionList).focus()

    def say(self, text: str) -> None:
        self.query_one(StatusLine).message = text

    def on_option_list_option_selected(self, _event: OptionList.OptionSelected) -> None:
        self.action_open()

    def action_back(self) -> None:
        self.app.pop_screen()

    def fill(self) -> None:
        raise NotImplementedError

    def action_open(self) -> None:
        raise NotImplementedError


class LiveGames(_List):
    HEAD = "Games being played now · ⏎ watches live (their squad's view; nothing you press reaches them)"

    def on_mount(self) -> None:  # after _List.on_mount has filled the list once
        self.set_interval(2.0, self.fill)

    def fill(self) -> None:
        app = self.app
        menu = self.query_one(OptionList)
        games = [s for s in status.read_online(status.online_path(app.root))
                 if s.get("doing") == "playing" and s.get("log")]
        ids = [s.get("id") for s in games]
        if ids == getattr(self, "shown_ids", None) and menu.option_count:
            return  # the same games: keep the highlight where the watcher put it
        self.shown_ids = ids
        menu.clear_options()
        for s in games:
            what = status.describe(app.content, app.root / str(s["log"]))
            watchers = len(s.get("watchers") or [])
            menu.add_option(Option(f"{s.get('player', '?'):<16} {what}" + (f" · {watchers} watching" if watchers else ""),
                                   id=str(s.get("id"))))
        if games:
            menu.highlighted = 0
            self.say(f"{len(games)} game(s) live · ⏎ watches · esc back")
        else:
            self.say("Nobody is playing right now · esc back")

    def action_open(self) -> None:
        menu = self.query_one(OptionList)
        if menu.highlighted is None or not menu.option_count:
            self.say("✗ Nobody is playing right now")
            return
        session = menu.get_option_at_index(menu.highlighted).id
        self.app.exit({"do": "watch", "session": int(session)})


def finished_logs(root: Path) -> list[tuple[str, Path]]:
    """(player, log) of every finished mission on the host, newest first."""
    out = []
    players = root / "players"
    if not players.is_dir():
        return []
    for folder in players.iterdir():
        try:
            name = accounts.check_name(folder.name)
        except accounts.BadName:
            continue
        if folder.is_symlink() or not folder.is_dir():
            continue
        out += [(name, p) for p in log.list_logs(folder) if not p.is_symlink() and log.is_finished(p)]
    out.sort(key=lambda item: item[1].stat().st_mtime_ns, reverse=True)
    return out[:MOST]


class Finished(_List):
    BINDINGS = [Binding("v", "open", "view replay", show=False)]
    HEAD = "Finished missions of every player · ⏎/v replays one with every roll's audit (tab, ⏎)"

    def fill(self) -> None:
        app = self.app
        self.logs = finished_logs(app.root)
        menu = self.query_one(OptionList)
        menu.clear_options()
        for i, (player, path) in enumerate(self.logs):
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
            menu.add_option(Option(f"{player:<12} {when}  {status.describe(app.content, path)}", id=str(i)))
        if self.logs:
            menu.highlighted = 0
            self.say(f"{len(self.logs)} finished mission(s) · ⏎ replays · esc back")
        else:
            self.say("No mission on this host has ended yet · esc back")

    def action_open(self) -> None:
        menu = self.query_one(OptionList)
        if menu.highlighted is None or not self.logs:
            return
        problem = self.app.view_log(self.logs[menu.highlighted][1])
        if problem:
            self.say(f"✗ {problem}")
