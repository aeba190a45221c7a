"""Spectating from the log, not from the screen: the replay viewer following a log as it is written.

A watcher sees what the player's squad sees (the viewer keeps the fog of war until the mission
ends), at the watcher's own terminal size. A late joiner starts at the newest record and can step
back through what it missed, with every roll's audit. New records are read every POLL seconds;
if the watcher stands at the newest record, the view moves on with the game. The viewer only
reads: nothing a watcher does can reach the game.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from textual import events

from engine.log import writer as log
from engine.play.timeline import Timeline
from tui.app import XenotacApp
from tui.fog import Fog
from tui.replay import Replay
from tui.screens.viewer import Viewer
from tui.serve import status

POLL = 0.5  # seconds between looks at the log's size


def open_timeline(content, path: Path, tries: int = 20) -> Timeline:
    """The log as far as it is written; a record half-written at that moment is waited for, briefly."""
    for _ in range(tries - 1):
        timeline = Timeline(content, path)
        if not torn(timeline):
            return timeline
        time.sleep(0.05)
    return Timeline(content, path)


def torn(timeline: Timeline) -> bool:
    """The last line is still being written (the player's game is in the middle of appending it)."""
    return timeline.broken is not None and str(timeline.broken).find("torn record") >= 0


class Follow(Viewer):
    def __init__(self, timeline: Timeline, player: str, online: Path | None = None) -> None:
        super().__init__(timeline)
        self.player = player
        self.online = online
        if self.replay.stops:
            self.n = self.replay.stops[-1]  # a late joiner sees the current state at once
        self.log_bytes = self._file_size()
        self.player_left = False  # the player's game has ended or was left

    def _file_size(self) -> int:
        try:
            return self.timeline.path.stat().st_size
        except OSError:
            return -1

    def on_mount(self) -> None:  # Textual runs Viewer.on_mount after this one
        self.set_interval(POLL, self.poll)
        self.call_later(self.say, f"Watching {self.player} live · ←→ step back · tab/⏎ a roll's audit · "
                                  "end: newest · esc leaves")

    def _top(self, state) -> str:
        mark = "● LIVE" if not self.timeline.ended and not self.player_left else "■"
        return f"{mark} {self.player} · " + super()._top(state)

    def poll(self) -> None:
        if self.filling:  # the fog pass of a long log is still running on its worker
            return
        self._check_player()
        size = self._file_size()
        if size == self.log_bytes or size <= 0:
            return
        try:
            timeline = Timeline(self.timeline.content, self.timeline.path)
        except (log.LogError, OSError, ValueError):
            return  # a line being written right now: the next poll reads it whole
        if torn(timeline):
            return
        self.log_bytes = size
        self.adopt(timeline)

    def adopt(self, timeline: Timeline) -> None:
        """Carry on with the longer log. What was already worked out stays valid (records never
        change), so the state cache and the fog's memory move over and only new records are folded."""
        at_end = not self.replay.stops or self.n == self.replay.stops[-1]
        was_over = self.timeline.ended
        timeline._states.update(self.timeline._states)  # noqa: SLF001 - states after the same records
        fog = Fog(timeline)
        fog._memory = self.fog._memory  # noqa: SLF001 - each record's memory depends only on its branch
        self.timeline, self.replay, self.fog = timeline, Replay(timeline), fog
        new = len(self.replay.stops) - self.replay.index.get(self.n, len(self.replay.stops) - 1) - 1
        if at_end and self.replay.stops:
            self.n, self.roll = self.replay.stops[-1], 0
        elif new > 0:
            self.say(f"● {new} new record(s) since the one on show · end goes to the newest")
        if timeline.ended and not was_over:
            self.say(f"{self.player}'s mission is over: a shows the aliens' view, f the whole map, the seed is out")
        self.update_view()

    def _check_player(self) -> None:
        """Say once when the player stops playing this log (the mission may still be unfinished)."""
        if self.online is None or self.player_left or self.timeline.ended:
            return
        sessions = status.read_online(self.online)
        if not sessions:
            return
        playing = any(s.get("player") == self.player and s.get("doing") == "playing"
                      and self.timeline.path.name == Path(str(s.get("log") or "")).name for s in sessions)
        if not playing:
            self.player_left = True
            self.say(f"{self.player} has left this mission (unfinished); esc goes back to the lobby")
            self.update_view()


class WatchApp(XenotacApp):
    CSS_PATH = str(Path(__file__).resolve().parent.parent / "xenotac.tcss")  # the client's, not beside this file

    def __init__(self, content, saves: Path, keymap, timeline: Timeline, player: str, online: Path | None) -> None:
        super().__init__(content, saves, keymap)
        self.follow = Follow(timeline, player, online)

    def on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # not XenotacApp's first screen: the following viewer
        self.push_screen(self.follow)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="xenotac watch")
    p.add_argument("log")
    p.add_argument("--player", required=True)
    p.add_argument("--online")
    args = p.parse_args(argv)
    from tui import keys
    from tui.cli.common import load_content
    from tui.saves import saves_dir

    content = load_content(None)
    try:
        keymap = keys.load(keys.default_path())
        timeline = open_timeline(content, Path(args.log))
    except (keys.KeyMapError, log.LogError, OSError) as exc:
        print(f"xenotac: {exc}", file=sys.stderr)
        return 2
    app = WatchApp(content, saves_dir(None), keymap, timeline, args.player,
                   Path(args.online) if args.online else None)
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
