"""Entry points that need the terminal client: the title menu, `play`, `resume` and `replay`.

Everything that can be wrong with the command line is checked before Textual starts, so a bad
option is one line on stderr and the terminal is never left in the alternate screen.
"""

from __future__ import annotations

import argparse
import threading
from pathlib import Path
from typing import Any, Callable, TypeVar

from tui import keys

T = TypeVar("T")


def _keymap(args: argparse.Namespace) -> dict[str, str]:
    from tui.cli.common import BadInput

    try:
        return keys.load(Path(args.keys) if getattr(args, "keys", None) else keys.default_path())
    except keys.KeyMapError as exc:
        raise BadInput(str(exc)) from None


def viewer_app(args: argparse.Namespace, content, path: Path):
    """`xenotac replay LOG`: the viewer on its own. The log is read here, before Textual starts, so a
    bad one is a LogError (one line, exit 2) and never a half-drawn screen."""
    from engine.play.timeline import Timeline
    from tui.saves import saves_dir
    from tui.app import XenotacApp

    keymap = _keymap(args)
    timeline = Timeline(content, path, Path(args.seed_file) if args.seed_file else None)
    return XenotacApp(content, saves_dir(args.saves), keymap, replay=timeline)


def view(args: argparse.Namespace, content, path: Path) -> int:
    app = viewer_app(args, content, path)
    app.run()
    return app.return_code or 0


def run(args: argparse.Namespace) -> int:
    from tui.cli.common import BadInput, load_content, log_ruleset
    from tui.saves import saves_dir

    keymap = _keymap(args)
    saves = saves_dir(args.saves)
    made = None
    if args.cmd is None and not args.content:  # the title menu: drawn first, the built-in content loads after
        from tui.app import XenotacApp

        app = XenotacApp(lambda: load_content(None), saves, keymap, casual=False)
        message = app.run()
        if message:
            print(message)
        return app.return_code or 0
    resumed = _resume_path(args.log, saves, BadInput, args.recover) if args.cmd == "resume" else None
    if args.cmd == "play":  # the mission's ruleset alone: the first battle frame comes sooner
        content = load_content(args.content, [args.ruleset])
    elif resumed is not None:
        content = load_content(args.content, log_ruleset(resumed))
    else:
        content = load_content(args.content)
    if args.cmd in ("play", "resume"):
        from tui import squad
        from tui.cli.common import mission_at, secret
        from tui.saves import log_path, stamp
        from tui.session import Session
    loadout = None
    if args.cmd == "play":
        from engine.core.ruleset import make as ruleset_of
        from tui.cli.common import check_playable

        check_playable(content, args.ruleset)
        mission = mission_at(content, args.mission, args.difficulty)
        check_playable(content, args.ruleset, mission)
        seed, public = secret(args.seed)
        tag = f"seed{public}" if public is not None else stamp()  # a secret seed's name says nothing of it
        squad = [] if args.no_roster else squad.squad_for(content, saves, args.ruleset, mission, BadInput)
        saves.mkdir(parents=True, exist_ok=True)
        path = _out_path(args.out, BadInput) if args.out else log_path(saves, mission, tag)

        def start(chars):
            return Session.new(content, args.ruleset, mission, seed, path, casual=args.casual, squad=chars,
                               public=public)

        outfitter = ruleset_of(args.ruleset, content, None).loadout() if squad else None
        if outfitter is None:
            made = aside(lambda: start(squad))
        else:  # the roster soldiers are outfitted on the loadout screen first; the log starts after it
            loadout = (outfitter, mission, squad, start)
    from tui.app import XenotacApp  # Textual's app and its start-up run while a new log's first records go to disk

    session = made  # waited for as the app mounts: Textual starts meanwhile
    if args.cmd == "resume":
        session = Session.resume(content, resumed, recover=args.recover)
    app = XenotacApp(content, saves, keymap, session=session, casual=bool(getattr(args, "casual", False)),
                     whole=(lambda: load_content(args.content)) if args.cmd in ("play", "resume") else None,
                     loadout=loadout)
    message = app.run()
    if app.start_error is not None:
        raise app.start_error
    if message:
        print(message)
    return app.return_code or 0


def campaign(args: argparse.Namespace, book) -> int:
    """`xenotac campaign resume`: the client on the campaign screen of a campaign already opened."""
    from tui.app import XenotacApp
    from tui.saves import saves_dir

    keymap = _keymap(args)
    app = XenotacApp(book.content, saves_dir(args.saves), keymap, campaign=book)
    message = app.run()
    if message:
        print(message)
    return app.return_code or 0


def aside(make: Callable[[], T]) -> Callable[[], T]:
    """`make()` in a thread from now on; the function returned waits for it and gives what it gave or raises what it
    raised. A new session writes its seed file and its log's first records, each fsynced, while the main thread
    imports Textual's app and starts it; the app waits for it as it mounts, before its first frame, and hands a
    problem back to `run`, which raises it once the terminal is restored: still one line. No module is imported by
    both (tests/test_startup.py)."""
    done: dict[str, Any] = {}

    def work() -> None:
        try:
            done["value"] = make()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, as if it had called make() itself
            done["error"] = exc

    thread = threading.Thread(target=work, name="xenotac-start", daemon=True)
    thread.start()

    def result() -> T:
        thread.join()
        if "error" in done:
            raise done["error"]
        return done["value"]
    return result


def _out_path(given: str, bad) -> Path:
    """`play --out FILE`: a new log of that name; an existing file is never overwritten."""
    path = Path(given)
    if path.suffix != ".jsonl":
        raise bad(f"{path}: a mission log's name ends in .jsonl")
    if path.exists() or path.is_symlink():
        raise bad(f"{path}: already exists; a new mission needs a new file")
    return path


def _resume_path(given: str | None, saves: Path, bad, recover: bool = False) -> Path:
    from engine.log import writer as log
    from tui.screens.title import latest_unfinished

    if given:
        path = Path(given)
        if path.is_dir():
            raise bad(f"{path}: is a directory, not a log")
        if not path.exists():
            raise bad(f"{path}: no such file")
        if log.is_finished(path) and not recover:
            raise bad(f"{path}: that mission is over; see it with `xenotac audit {path}`")
        return path
    path = latest_unfinished(saves)
    if path is None:
        raise bad(f"no unfinished mission in {saves}; start one with `xenotac play`")
    return path
