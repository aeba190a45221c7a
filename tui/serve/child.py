"""What the host runs inside a session's pseudo-terminal: `lobby`, `game` (the normal `xenotac`
command line) or `watch` (the live viewer). Nothing else can be started.

The host starts this in a new session; taking the pty as the controlling terminal is what lets
the kernel deliver SIGWINCH on a resize and SIGHUP when the connection drops.
"""

from __future__ import annotations

import fcntl
import sys
import termios


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    except OSError:
        pass  # run by hand from a shell: that terminal is already ours
    if not argv or argv[0] not in ("lobby", "game", "watch"):
        print("xenotac: the host runs only lobby, game or watch", file=sys.stderr)
        return 2
    kind, rest = argv[0], argv[1:]
    if kind == "game":
        from tui.cli import main as game

        return game(rest)
    if kind == "lobby":
        from tui.serve.lobby import main as lobby

        return lobby(rest)
    from tui.serve.follow import main as watch

    return watch(rest)


if __name__ == "__main__":
    sys.exit(main())
