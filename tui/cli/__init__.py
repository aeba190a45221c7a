"""The `xenotac` command: one module per subcommand, each with `add_parser(sub)` and `run(args)`.

Headless subcommands never import Textual; `play`, `resume`, a bare `xenotac` and the viewer do.
Bad input gets one line on stderr and exit 2; a failed verification exits 1; success exits 0.
"""

from __future__ import annotations

import argparse
import gc
import sys
from typing import Sequence

from tui.cli import audit, campaign, content, play, preview, replay, resolve, roster, simulate
from tui.cli.common import EXIT_BAD_INPUT, BadInput, Parser
from tui.serve import command as serve

SUBCOMMANDS = {"play": play, "resume": play, "simulate": simulate, "map": preview, "replay": replay,
               "audit": audit, "resolve": resolve, "content": content, "roster": roster, "campaign": campaign,
               "serve": serve}


def build_parser() -> Parser:
    p = Parser(prog="xenotac", description="Keyboard-only squad tactics with auditable dice.")
    p.add_argument("--saves", metavar="DIR", help="save folder (default: $XENOTAC_SAVES or saves/)")
    p.add_argument("--content", metavar="DIR", action="append",
                   help="a whole content folder instead of the built-in content/, or a mod folder (one holding "
                        "mod.toml) layered over it; repeat for several mods, in order")
    p.add_argument("--keys", metavar="FILE", help="key map TOML for the client (default: $XENOTAC_KEYS or "
                                                  "~/.config/xenotac/keys.toml)")
    sub = p.add_subparsers(dest="cmd", parser_class=Parser)
    for module in dict.fromkeys(SUBCOMMANDS.values()):  # each once, in the order of the help text
        module.add_parser(sub)
    return p


CLIENT = (None, "play", "resume")  # the commands whose start-up ends in a first frame


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    collecting = gc.isenabled()
    if args.cmd in CLIENT:  # start-up makes long-lived objects only: the client collects again after its first frame
        gc.disable()
    try:
        code = _dispatch(args)
        sys.stdout.flush()  # here, so a closed pipe is caught below and not at exit
        return code
    except BadInput as exc:
        print(f"xenotac: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `xenotac replay LOG --story | head`: the reader has all it wanted
        _quiet_stdout()
        return 0
    finally:
        if collecting:
            gc.enable()


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's own flush at exit finds no closed pipe to complain of."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _dispatch(args: argparse.Namespace) -> int:
    try:
        return SUBCOMMANDS.get(args.cmd, play).run(args)  # no subcommand: the title menu
    except BrokenPipeError:
        raise
    except Exception as exc:
        problem = _one_line(exc)
        if problem is None:
            raise
        raise problem from None


def _one_line(exc: Exception) -> BadInput | None:
    """The problem a player can act on as a BadInput, None for any other. The error classes are imported here,
    once something went wrong: the roster's module brings the engine, which the title menu's first frame never needs."""
    from engine.log.errors import LogError
    from engine.play.roster import RosterError

    if isinstance(exc, (LogError, RosterError)):
        return BadInput(str(exc))
    if isinstance(exc, OSError):
        return BadInput(f"{exc.filename or ''}: {exc.strerror}".lstrip(": "))
    return None
