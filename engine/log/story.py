"""Plain sentences for events: the client's message log and `xenotac replay LOG`."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, Mapping

from engine.log import reading

SIDE_NAMES = {"xcom": "X-COM", "aliens": "Aliens", "draw": "Nobody"}


def describe(event: Mapping[str, Any], names: Mapping[str, str]) -> str | None:
    """One line for an event in its JSON form, or None for bookkeeping."""
    kind = event.get("kind")
    uid = event.get("unit") if kind != "spawned" else None  # a spawned event carries the whole unit
    uid = uid or event.get("actor") or ""
    who = names.get(uid, uid)
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
    """Every event as a sentence; a damaged log stops at the damage, with a note."""
    names: dict[str, str] = {}
    records, broken = reading.records(path)
    for n, record in records:
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
    if broken:
        yield f"warning: {broken}; the story stops there"
