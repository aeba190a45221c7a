"""The lobby of a host: play, resume, replays, watch a live game, finished missions of anyone, help.

It is the normal client's App with another first screen. Whatever needs a game or a live viewer
ends the lobby with a choice (`{"do": "play" | "resume" | "watch" | "quit", ...}`) that it writes
to the pipe the host gave it (XENOTAC_CHOICE_FD); the host starts that program in the same
terminal and brings the lobby back when it ends. Replays and finished missions open right here.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from pathlib import Path

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from engine.log import writer as log
from tui.app import XenotacApp
from tui.screens.base import Sized
from tui.screens.help import Help
from tui.screens.newmission import NewMission
from tui.screens.title import Title, latest_unfinished
from tui.serve import status
from tui.widgets.keybar import KeyBar
from tui.widgets.lines import Lines
from tui.widgets.panels import StatusLine, TopBar

HERE = Path(__file__).resolve().parent
REFRESH = 2.0  # seconds between looks at who is online
CHOICES = (("resume", "Resume"), ("new", "New mission"), ("replays", "My replays"), ("watch", "Watch a live game"),
           ("finished", "Finished missions"), ("squad", "Squad"), ("help", "Help"), ("quit", "Quit"))
DOING = {"lobby": "in the lobby", "login": "logging in"}
HELP = """\
A shared xenotac host. Everything you do is saved in your own folder as you do it: a dropped
connection loses nothing, and the next login offers to resume.

Resume carries on your newest unfinished mission; New mission starts one (on a host the dice
always get a secret random seed). My replays lists your logs: ⏎ resumes or summarises, v replays.

Watch a live game follows someone's mission from its log: what their squad sees (the fog holds
until the end), at your terminal's size. Step back through what you missed (←/→, pgup/pgdn), open
a roll's audit (tab, ⏎); end goes to the newest record. Nothing you press reaches their game.

Finished missions: everyone's, with the whole map and the revealed seed, so every die can be
re-derived. Squad: the characters your new missions deploy first."""


class HostedNewMission(NewMission):
    """The new-mission form without the seed: a chosen seed would let anyone who knows it foretell the dice."""

    BINDINGS = [Binding("s", "start", "start mission")]

    def on_mount(self) -> None:  # Textual runs NewMission.on_mount after this one
        self.query_one("#seed").display = False
        for label in self.query(".label"):
            if str(label.render()).startswith("Seed"):
                label.display = False
        self.call_later(self._hint)

    def _hint(self) -> None:
        self.query_one(StatusLine).message = "Tab/⇧Tab: next field · ↑↓ choose · s starts · the dice get a secret seed"

    def action_start(self) -> None:
        self._start()


class LobbyHelp(Help):
    def __init__(self) -> None:
        super().__init__("title")

    def _text(self) -> str:
        lines = ["HELP — the host's lobby", ""]
        for block in HELP.split("\n\n"):
            lines += textwrap.wrap(" ".join(block.split()), 70) + [""]  # 70: room for a scroll bar
        lines.append("r resume · n new · p replays · w watch · f finished · s squad · q quit · esc closes")
        return "\n".join(lines)


class Lobby(Title, inherit_bindings=False):
    """The first screen. A Title, so the screens opened from it come back to it as they do at home."""

    BINDINGS = [Binding("r", "pick('resume')", "resume"), Binding("n", "pick('new')", "new"),
                Binding("p", "pick('replays')", "replays"), Binding("w", "pick('watch')", "watch"),
                Binding("f", "pick('finished')", "finished"), Binding("s", "pick('squad')", "squad"),
                Binding("question_mark", "help", "help"), Binding("q", "pick('quit')", "quit")]

    def compose(self) -> ComposeResult:
        yield TopBar(id="top")
        with Horizontal(id="lobby-body"):
            with Vertical(id="lobby-left"):
                yield OptionList(*(Option(label, id=cid) for cid, label in CHOICES), id="lobby-menu")
            yield Lines(id="lobby-online")
        yield StatusLine(id="status")
        yield KeyBar()
        yield from Sized.compose(self)

    def on_mount(self) -> None:  # then Title's (focus) and Sized's (the size check), as Textual calls them
        app = self.app
        self.query_one(TopBar).set_lines([f"xenotac host · you are {app.player} · ? help"])
        menu = self.query_one(OptionList)
        resume = latest_unfinished(app.saves)
        if resume is not None:
            menu.replace_option_prompt("resume", f"Resume {status.short(app.content, resume)}"[:36])
        else:
            menu.disable_option("resume")
        menu.highlighted = 0 if resume is not None else 1
        self.query_one(StatusLine).message = app.note or (
            "Your mission was left unfinished: ⏎ resumes it" if resume is not None else "Welcome! n starts a mission")
        self.refresh_online()
        self.set_interval(REFRESH, self.refresh_online)

    def refresh_online(self) -> None:
        app = self.app
        sessions = status.read_online(status.online_path(app.root))
        out = [Text(f"Online now ({len(sessions)})", style="bold")]
        for s in sessions:
            out.append(Text(f"{s.get('player', '?')}", style="bold"))
            out[-1].append(f" {online_words(app, s)}", style="")
        if len(sessions) == 0:
            out.append(Text("(the host has not said yet)", style="dim"))
        self.query_one("#lobby-online", Lines).set_lines(out)

    def action_pick(self, choice: str) -> None:
        app = self.app
        if choice == "watch":
            from tui.serve.lists import LiveGames

            app.push_screen(LiveGames())
        elif choice == "finished":
            from tui.serve.lists import Finished

            app.push_screen(Finished())
        elif choice == "new":
            app.push_screen(HostedNewMission())
        elif choice == "quit":
            app.exit({"do": "quit"})
        else:
            super().action_pick(choice)

    def action_help(self) -> None:
        self.app.push_screen(LobbyHelp())


def online_words(app, s: dict) -> str:
    doing = s.get("doing")
    if doing == "playing":
        path = app.root / str(s.get("log") or "")
        what = status.describe(app.content, path) if s.get("log") else "a new mission"
        watchers = len(s.get("watchers") or [])
        return f"plays {what}" + (f" · {watchers} watching" if watchers else "")
    if doing == "watching":
        return f"watches {s.get('watching_player', '?')}"
    return DOING.get(str(doing), str(doing))


class LobbyApp(XenotacApp):
    CSS_PATH = [str(HERE.parent / "xenotac.tcss"), str(HERE / "lobby.tcss")]

    def __init__(self, content, root: Path, player: str, note: str = "", keymap: dict[str, str] | None = None) -> None:
        super().__init__(content, root / "players" / player, keymap)
        self.root, self.player, self.note = root, player, note

    def on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # not XenotacApp's first screen (the title menu): the lobby
        self.push_screen(Lobby())

    # a game is the host's to start, in its own process: the lobby hands back what to start

    def start_mission(self, ruleset: str, mission: str, seed: int) -> str | None:
        self.exit({"do": "play", "ruleset": ruleset, "mission": mission})
        return None

    def open_log(self, path: Path) -> str | None:
        if path.parent == self.saves and not log.is_finished(path):
            self.exit({"do": "resume", "log": path.name})
            return None
        return super().open_log(path)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="xenotac lobby")
    p.add_argument("--root", required=True)
    p.add_argument("--player", required=True)
    p.add_argument("--note", default="")
    args = p.parse_args(argv)
    from tui import keys
    from tui.cli.common import load_content

    content = load_content(None)
    try:
        keymap = keys.load(keys.default_path())
    except keys.KeyMapError as exc:
        keymap, args.note = {}, f"✗ Your key map is not used: {exc}"
    app = LobbyApp(content, Path(args.root), args.player, args.note, keymap)
    choice = app.run()
    fd = os.environ.get("XENOTAC_CHOICE_FD")
    if isinstance(choice, dict) and fd and fd.isdigit():
        os.write(int(fd), json.dumps(choice).encode())
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
