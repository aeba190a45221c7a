"""The Textual application: settings, the first screen, and starting or resuming a mission."""

from __future__ import annotations

import gc
import os
import secrets
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from textual.app import App

from tui.saves import log_path, stamp

if TYPE_CHECKING:  # the title menu's first frame needs none of the engine: it is imported after it
    from engine.content.models import Content
    from engine.play.timeline import Timeline
    from tui.session import Session


ESCAPE_DELAY_MS = 200  # an arrow key's bytes may arrive apart over SSH; a longer wait still reads them as one key


def remote_escape_delay() -> None:
    """How long a lone Esc waits for the rest of a key's sequence, suited to SSH: Textual reads $ESCDELAY
    (milliseconds, as curses does) once at import, so one set here is only the default."""
    if "ESCDELAY" not in os.environ:
        from textual import constants

        constants.ESCAPE_DELAY = ESCAPE_DELAY_MS / 1000


def _collect_again() -> None:
    """After the first frame: the garbage collector, off while starting (tui.cli.main), runs again; what start-up
    made (modules, classes, content) is set aside for good, so no collection walks it."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _is_title(screen) -> bool:
    from tui.screens.title import Title

    return isinstance(screen, Title)


class XenotacApp(App[str]):
    CSS_PATH = "xenotac.tcss"
    TITLE = "xenotac"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, content: Content | Callable[[], Content], saves: Path, keymap: dict[str, str] | None = None,
                 session: Session | Callable[[], Session] | None = None, casual: bool = False,
                 alien_delay: float | None = None,
                 replay: Timeline | None = None, whole: Callable[[], Content] | None = None,
                 campaign=None, loadout=None) -> None:
        """`content` may be a function that loads it: then it is loaded on first use, or by `warm_up`. `whole`: how
        to load every ruleset's content when `content` holds one ruleset's (`play`, `resume`) and a menu opens.
        `loadout`: (outfitter, mission, roster squad, a function making the session of an outfitted squad), when
        `play` has its soldiers outfitted first."""
        super().__init__()
        self._content, self._load = (None, content) if callable(content) else (content, None)
        self._whole = whole
        self._content_lock = threading.Lock()
        self.saves = saves
        self.casual = casual
        self._first_session = session  # or the function that waits for a new one: see `first_session`
        self.start_error: Exception | None = None
        self.first_replay = replay
        self.first_campaign = campaign  # an engine.campaign.ledger.Ledger: `campaign resume` opens its screen
        self.first_loadout = loadout
        self.alien_delay = alien_delay
        self.sessions: list[Session] = []
        if keymap:
            self.set_keymap(keymap)
        remote_escape_delay()

    async def on_event(self, event) -> None:
        """Esc and then a key typed soon after reach the terminal as Alt+key; no xenotac key uses Alt unless a
        key map binds it, so such a pair is taken as the two keys it was."""
        from textual import events

        if isinstance(event, events.Key) and event.key.startswith("alt+") and not self._alt_bound(event.key):
            base = event.key[4:]
            await super().on_event(events.Key("escape", "\x1b"))
            await super().on_event(events.Key(base, event.character if base and len(base) == 1 else None))
            return
        await super().on_event(event)

    def _alt_bound(self, key: str) -> bool:
        return any(key in keys.split(",") for keys in self._keymap.values())

    @property
    def content(self) -> Content:
        if self._content is None:
            with self._content_lock:  # the warm-up thread and a screen may both ask first
                if self._content is None:
                    assert self._load is not None
                    self._content = self._load()
        return self._content

    def to_menu(self) -> None:
        """Before a new title menu after a mission started from the command line: the content it read for its own
        ruleset is read again whole (in the menu's warm-up), so the menu offers every ruleset."""
        if self._whole is not None:
            with self._content_lock:
                self._content, self._load, self._whole = None, self._whole, None

    def warm_up(self) -> None:
        """After the title menu is drawn: the content, and the engine with it, load in a thread."""
        if self._content is None:
            self.run_worker(lambda: self.content, thread=True, exit_on_error=False)

    def on_mount(self) -> None:
        self.call_after_refresh(_collect_again)
        if os.environ.get("XENOTAC_WATCHERS"):  # a game on a host (xenotac serve): say who watches it
            from tui.serve import watchcount

            watchcount.follow(self, Path(os.environ["XENOTAC_WATCHERS"]))
        if self.first_campaign is not None:
            from tui.screens.campaign import CampaignScreen

            self.sessions.append(self.first_campaign)  # closed with the sessions when the app ends
            self.push_screen(CampaignScreen(self.first_campaign))
        elif self.first_loadout is not None:
            from tui.screens.loadout import Loadout

            outfitter, mission, squad, start = self.first_loadout
            self.push_screen(Loadout(outfitter, mission, squad), lambda chars: self._play_outfitted(start, chars))
        elif self.first_replay is not None:
            from tui.screens.viewer import Viewer

            self.push_screen(Viewer(self.first_replay))
        elif self._first_session is None:
            from tui.screens.title import Title

            self.push_screen(Title())
        else:
            try:
                session = self.first_session  # before the first frame: the battle is still the first screen drawn
            except Exception as exc:  # noqa: BLE001 - tui.launch raises it once the terminal is back
                self.start_error = exc
                self.exit(None, 2)
                return
            if session.over:
                self._summary(session.path)
            else:
                self.battle(session)

    def _play_outfitted(self, start, chars) -> None:
        """`play`'s loadout answered: Esc ends the client, as no mission began; else the mission, a problem
        starting it one line printed as the client ends."""
        from engine.log import writer as log

        if chars is None:
            self.exit("No mission started: the loadout was left with esc")
            return
        from tui import squad

        squad.keep_kits(self.content, self.saves, chars)  # a roster it cannot write is said at the mission's end
        try:
            session = start(chars)
        except (log.LogError, OSError) as exc:
            self.exit(str(exc), 2)
            return
        self.battle(session)

    @property
    def first_session(self) -> Session | None:
        """The session the client opens with. A new one `play` is still making (tui.launch.aside: its log is fsynced
        while Textual starts) is waited for here, and a problem making it is raised here."""
        if callable(self._first_session):
            self._first_session = self._first_session()
        return self._first_session

    def battle(self, session: Session) -> None:
        from tui.screens.battle import ALIEN_DELAY, BattleScreen

        self.sessions.append(session)
        delay = ALIEN_DELAY if self.alien_delay is None else self.alien_delay
        self._open(BattleScreen(session, alien_delay=delay))

    def _summary(self, path: Path) -> None:
        """Built before the screen opens, so a log that cannot be read stays a one-line problem."""
        from tui.screens.summary import Summary, summary_lines

        self._open(Summary(path, self.content, summary_lines(path, self.content)))

    def _open(self, screen) -> None:
        """Over the title menu, or instead of the form or list that chose it: menu → mission → menu."""
        if len(self.screen_stack) > 1 and not _is_title(self.screen):  # the first screen imports no title menu
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def start_mission(self, ruleset: str, mission: str, seed: int | None) -> str | None:
        """Starts a new mission from the menu; a problem comes back as one line. A ruleset with a loadout
        (`Ruleset.loadout()`) has the roster soldiers outfitted first, on the loadout screen; Esc there starts
        nothing. `seed` None: a secret seed of 32 random bytes, in a log whose name says nothing of it; a number:
        a public seed anyone can reproduce (the header says so)."""
        from engine.core.ruleset import make
        from engine.log import writer as log
        from tui import squad
        from tui.screens.loadout import Loadout

        try:
            chars = squad.squad_for(self.content, self.saves, ruleset, mission, log.LogError)
        except (log.LogError, OSError) as exc:
            return str(exc)
        outfitter = make(ruleset, self.content, None).loadout() if chars else None
        if outfitter is None:
            return self._launch(ruleset, mission, seed, chars)
        self.push_screen(Loadout(outfitter, mission, chars), lambda done: self._outfitted(ruleset, mission, seed, done))
        return None

    def _outfitted(self, ruleset: str, mission: str, seed: int | None, chars: list | None) -> None:
        """The loadout screen's answer: None, back to the form unchanged; else the mission, a problem starting it on
        the form's status line."""
        from tui import squad
        from tui.widgets.panels import StatusLine

        if chars is not None:
            squad.keep_kits(self.content, self.saves, chars)  # a roster it cannot write is said at the mission's end
        problem = None if chars is None else self._launch(ruleset, mission, seed, chars)
        if problem:
            for line in self.screen.query(StatusLine):
                line.message = f"✗ {problem}"

    def _launch(self, ruleset: str, mission: str, seed: int | None, chars: list) -> str | None:
        from engine.core.dice import seed_from_int
        from engine.log import writer as log
        from tui.session import Session

        try:
            if seed is None:
                secret, tag = secrets.token_bytes(32), stamp()
            else:
                secret, tag = seed_from_int(seed), f"seed{seed}"
            path = log_path(self.saves, mission, tag)
            session = Session.new(self.content, ruleset, mission, secret, path, casual=self.casual,
                                  squad=chars, public=seed)
        except (log.LogError, OSError) as exc:
            return str(exc)
        self.battle(session)
        return None

    def open_log(self, path: Path) -> str | None:
        from engine.log import writer as log
        from tui.session import Session

        try:
            if log.is_finished(path):
                self._summary(path)
                return None
            session = Session.resume(self.content, path)
        except (log.LogError, OSError, ValueError) as exc:  # CodecError is a ValueError
            return f"{path.name}: {exc}"
        self.battle(session)
        return None

    def view_log(self, path: Path) -> str | None:
        """Opens the replay viewer over the current screen; the log is read first, so a bad one stays one line."""
        from engine.log import writer as log
        from engine.play.timeline import Timeline
        from tui.screens.viewer import Viewer

        try:
            timeline = Timeline(self.content, path)
        except (log.LogError, OSError, ValueError) as exc:
            return f"{path.name}: {exc}"
        self.push_screen(Viewer(timeline))
        return None

    def on_unmount(self) -> None:
        for session in self.sessions:
            session.close()
