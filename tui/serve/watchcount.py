"""On a host, the player's game says who is watching it: a note each time the watchers change.

The host names the file in XENOTAC_WATCHERS and rewrites it whole when someone starts or stops
watching; the client only reads it.
"""

from __future__ import annotations

from pathlib import Path

from tui.serve.status import read_watchers

EVERY = 1.0  # seconds between looks


def words(names: list[str]) -> str:
    if not names:
        return "Nobody is watching now"
    shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    return f"👁 {len(names)} watching: {shown}"


def follow(app, path: Path) -> None:
    seen: list[list[str]] = [[]]  # nobody, until the file says otherwise

    def look() -> None:
        names = read_watchers(path)
        if names is not None and names != seen[0]:
            seen[0] = names
            app.notify(words(names), title="Spectators", timeout=8)

    app.set_interval(EVERY, look)
