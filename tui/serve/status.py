"""Who is online and what they play: a small JSON file the host rewrites and every lobby reads.

`ROOT/run/online.json` lists the sessions; `ROOT/run/watchers-ID.json` tells one player's game who
is watching it. Both are replaced whole (written aside, then renamed), so a reader never sees half.
What a log is about (mission, ruleset, phase) is read from the log itself, from its end.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from engine.log import writer as log
from engine.log.story import sides_of
from tui.loginfo import progress, title  # shared with the Replays menu


def run_dir(root: Path) -> Path:
    return root / "run"


def online_path(root: Path) -> Path:
    return run_dir(root) / "online.json"


def watchers_path(root: Path, session: int) -> Path:
    return run_dir(root) / f"watchers-{session}.json"


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


def read_online(path: Path) -> list[dict[str, Any]]:
    """The sessions of the online table; [] if there is none (no host, or it has not written yet)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    sessions = data.get("sessions") if isinstance(data, dict) else None
    return [s for s in sessions if isinstance(s, dict)] if isinstance(sessions, list) else []


def read_watchers(path: Path) -> list[str] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    names = data.get("watchers") if isinstance(data, dict) else None
    return [str(n) for n in names] if isinstance(names, list) else None


def short(content, path: Path) -> str:
    """`Eliminate · phase 3`: a log in a menu line."""
    try:
        p = progress(path)
    except (log.LogError, OSError, KeyError, TypeError, ValueError):
        return path.name
    mission = content.missions.get(p["mission"])
    return f"{mission.name if mission is not None else p['mission']} · phase {p['phase']}"


def describe(content, path: Path) -> str:
    """`Eliminate (xcom-trpg) · phase 3, X-COM turn`, or why the log cannot say."""
    try:
        p = progress(path)
    except (log.LogError, OSError, KeyError, TypeError, ValueError) as exc:
        return f"{path.name}: {exc}"
    text = title(content, p)
    sides = sides_of(content, p["ruleset"])
    if p["finished"] or p["winner"]:
        return f"{text} · over: {sides.name(p['winner'])} won" if p["winner"] != "draw" \
            else f"{text} · over: a draw"
    if p["phase"]:
        text += f" · phase {p['phase']}"
        if p["side"]:
            text += f", {sides.turn(p['side'])} turn"
    return text
