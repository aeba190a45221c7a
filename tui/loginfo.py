"""What a log is about, read from its header and its end without folding it: the mission, the ruleset, the
phase, whose turn, and how it ended. The Replays menu and the host's lists show it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.log import writer as log
from engine.log.story import sides_of, verdict


def progress(path: Path) -> dict[str, Any]:
    """mission, ruleset, phase and side of a log, read from its header and its last phase record."""
    header = log.read_header(path)
    out: dict[str, Any] = {"mission": header["mission"]["id"], "ruleset": header["ruleset"], "phase": 0,
                           "side": None, "finished": False, "winner": None}
    lines, _size = log.tail(path, "phase")
    for _offset, _length, raw in lines:
        if raw.startswith(b'{"n":1,'):
            continue
        try:
            record = json.loads(raw)
        except ValueError:
            continue  # a record still being written
        if record.get("kind") == "reveal":
            out["finished"] = True
        for event in record.get("events", []) if isinstance(record.get("events"), list) else []:
            kind = event.get("kind") if isinstance(event, dict) else None
            if kind == "phase":
                out["phase"] = event.get("phase", 0)
            elif kind == "side":
                out["side"] = event.get("side")
            elif kind == "ended":
                out["winner"] = event.get("winner")
    return out



def title(content, p: dict[str, Any]) -> str:
    """`Terror site @veteran (xcom-trpg)`: a log's mission, level and ruleset from its `progress`."""
    mission = content.missions.get(p["mission"])
    name = mission.name if mission is not None else p["mission"]
    level = p["mission"].partition("@")[2]
    return f"{name}{' @' + level if level else ''} ({p['ruleset']})"


def line(content, path: Path) -> str:
    """`Terror site @veteran (xcom-trpg) · Aliens win · phase 12`, or why the log cannot say."""
    try:
        p = progress(path)
    except (log.LogError, OSError, KeyError, TypeError, ValueError) as exc:
        return f"cannot read: {exc}"
    text = title(content, p)
    sides = sides_of(content, p["ruleset"])
    if p["winner"]:
        text += f" · {verdict(p['winner'], '', sides).rstrip(' —')}"
    elif p["side"]:
        text += f" · {sides.name(p['side'])} to play"
    return text + (f" · phase {p['phase']}" if p["phase"] else "")
