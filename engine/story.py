"""Plain sentences for events: the client's message log and `xenotac replay LOG`."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, Mapping

from engine import log

SIDE_NAMES = {"xcom": "X-COM", "aliens": "Aliens", "draw": "Nobody"}


def describe(event: Mapping[str, Any], names: Mapping[str, str]) -> str | None:
    """One line for an event in its JSON form, or None for bookkeeping."""
    kind = event.get("kind")
    who = names.get(event.get("unit") or event.get("actor") or "", event.get("unit") or event.get("actor") or "")
    if kind == "phase":
        return f"── PHASE {event['phase']} ──"
    if kind == "side":
        return f"{SIDE_NAMES.get(event['side'], event['side'])} turn"
    if kind == "spawned":
        unit = event["unit"]
        return f"{unit['name']} ({unit['side']}) deploys with {unit['hp']} HP"
    if kind == "moved":
        x, y = event["path"][-1]
        return f"{who} moves to {x},{y}"
    if kind == "resolved":
        return event["text"]
    if kind == "tile":
        x, y = event["pos"]
        return f"cover at {x},{y} is destroyed ({event['tile']})"
    if kind == "ended":
        return f"MISSION OVER: {SIDE_NAMES.get(event['winner'], event['winner'])} — {event['reason']}"
    if kind == "changed":
        changes = event["changes"]
        if "status" in changes and changes["status"] != "active":
            return f"{who} is {changes['status']}"
        if "morale" in changes and event["cause"] not in ("new turn",):
            return f"{who}: morale {changes['morale']} ({event['cause']})"
        if "hp" in changes:
            return f"{who}: HP {changes['hp']}"
    return None


def story(path: Path) -> Iterator[str]:
    names: dict[str, str] = {}
    for n, _off, raw in log.read_lines(path):
        record = log.parse(raw, n)
        kind = record.get("kind")
        if kind == "undo":
            yield f"line {n}: (undo back to line {record.get('base')})"
        elif kind == "reveal":
            yield f"line {n}: seed revealed: {record.get('seed')}"
        for event in record.get("events", []):
            if event.get("kind") == "spawned":
                names[event["unit"]["id"]] = event["unit"]["name"]
            text = describe(event, names)
            if text:
                yield f"line {n}: {text}"
