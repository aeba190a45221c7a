"""Plain sentences for events: the client's message log and `xenotac replay LOG`."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

import attrs
from engine.core.geometry import Pos
from engine.log import reading
from engine.log.view import View, hidden_line
from engine.map.terrain import Terrain

SIDE_NAMES = {"xcom": "X-COM", "aliens": "Aliens", "civilians": "Civilians", "draw": "Nobody"}  # a ruleset may rename
TURN_WORDS = {"aliens": "Alien"}
ALIENS = "aliens"


@attrs.frozen
class Sides:
    """What the messages call each side under one ruleset: the shared names, or its `sides.toml` (neo-troops' squad
    are the Varans, their enemies the Goons)."""

    names: Mapping[str, str] = SIDE_NAMES
    turns: Mapping[str, str] = TURN_WORDS
    own: bool = False  # the ruleset names its sides: the readers that showed side ids (audit rows, deployments) too

    def name(self, side: str) -> str:
        return self.names.get(side, side)

    def label(self, side: str) -> str:
        """A side where the readers showed its id (`xcom`): the ruleset's own name for it, if it has one."""
        return self.name(side) if self.own else side

    def foes(self, side: str) -> str:
        """What the top bar calls the side's enemies: `hostiles`, or the ruleset's own name for them."""
        return self.name(ALIENS if side != ALIENS else "xcom") if self.own else "hostiles"

    def turn(self, side: str) -> str:
        return self.turns.get(side, self.name(side))


SHARED = Sides()


def sides_of(content, ruleset_id: str | None) -> Sides:
    """The side names of a ruleset in a loaded bundle: its own `sides.toml` over the shared ones. Any ruleset may
    declare that file in its Schema, with a model of its own holding `name` and `turn` (neo-troops' `schema.Side`)."""
    own = content.rules.get(ruleset_id or "", {}).get("sides", {}) if content is not None else {}
    if not own:
        return SHARED
    return Sides(names={**SIDE_NAMES, **{k: v.name for k, v in own.items()}},
                 turns={**TURN_WORDS, **{k: v.turn or v.name for k, v in own.items()}}, own=True)


def turn_name(side: str, sides: Sides = SHARED) -> str:
    """ "X-COM turn", "Alien turn": whose turn it is, in words."""
    return f"{sides.turn(side)} turn"


def verdict(winner: str, reason: str, sides: Sides = SHARED) -> str:
    """The end in words, grammar and all: "X-COM wins", "Aliens win", "a draw" (a phase limit's verdict)."""
    if winner == "draw":
        return f"a draw, nobody wins — {reason}"
    name = sides.name(winner)
    return f"{name} {'win' if name.endswith('s') else 'wins'} — {reason}"


def describe(event: Mapping[str, Any], names: Mapping[str, str], sides: Sides = SHARED) -> str | None:
    """One line for an event in its JSON form, or None for bookkeeping. Tile changes are told a record at a
    time, by `tile_lines`, which knows what each cell was."""
    kind = event.get("kind")
    uid = event.get("unit") if kind != "spawned" else None  # a spawned event carries the whole unit
    uid = uid or event.get("actor") or ""
    who = names.get(uid, uid)
    if kind == "phase":
        return f"── PHASE {event['phase']} ──"
    if kind == "side":
        return turn_name(event["side"], sides)
    if kind == "spawned":
        unit = event["unit"]
        return f"{unit['name']} ({sides.label(unit['side'])}) deploys with {unit['hp']} HP"
    if kind == "moved":
        if event.get("out_of_sight"):  # engine.log.view: a move seen to leave the side's sight
            return f"{who} moves out of sight"
        if not event["path"]:  # a record of two moves: the first seen in none of its cells, the second seen
            return f"{who} moves"
        x, y = event["path"][-1]
        return f"{who} moves to {x},{y}"
    if kind == "resolved":
        return event["text"]
    if kind == "ended":
        return f"MISSION OVER: {verdict(event['winner'], event['reason'], sides)}"
    if kind == "changed":
        changes = event["changes"]
        if "status" in changes and changes["status"] != "active":
            return f"{who} is {changes['status']}"
        numbers = changes.get("record") if isinstance(changes.get("record"), dict) else {}
        if "morale" in numbers and event["cause"] not in ("new turn",):  # a record's morale, as a patch logs it
            return f"{who}: morale {numbers['morale']} ({event['cause']})"
        if "hp" in changes:
            return f"{who}: HP {changes['hp']}"
    return None


def tile_words(terrain: Mapping[str, Terrain], pos: Pos, old: str | None, new: str) -> str:
    """One tile change as what happened: a door opens or closes, a wall or cover is destroyed."""
    x, y = pos
    now = terrain.get(new)
    was = terrain.get(old) if old is not None else None
    if was is None or now is None:
        return f"{x},{y} is now {now.name.lower() if now else new}"
    if was.opens_to == new:
        return f"{was.name} at {x},{y} opens"
    if was.closes_to == new:
        return f"{now.name} at {x},{y} closes"
    if was.unlocks_to == new:
        return f"{was.name} at {x},{y} is unlocked"
    if was.destroyed == new:
        return f"{was.name} at {x},{y} is destroyed"
    return f"{was.name} at {x},{y} becomes {now.name.lower()}"


def _drift(was: Terrain | None, now: Terrain | None) -> str | None:
    """Smoke (a tile that fades) spreads, thins or clears; None for any other change."""
    if was is None or now is None:
        return None
    if now.fades_to is not None:
        return f"{was.name} thins" if was.fades_to is not None else f"{now.name} spreads"
    return f"{was.name} clears" if was.fades_to is not None else None


def tile_lines(terrain: Mapping[str, Terrain] | None, before: Callable[[Pos], str | None],
               events: Iterable[Mapping[str, Any]]) -> list[str]:
    """A record's tile changes in words, in order. `before` is each cell's tile before the record (None if
    unknown). Smoke is told once per record and kind (one blast, one phase's thinning), not once per cell."""
    terrain = terrain or {}
    was: dict[Pos, str | None] = {}
    lines: list[str] = []
    drifts: dict[str, list[Pos]] = {}
    for event in events:
        pos = (event["pos"][0], event["pos"][1])
        old = was[pos] if pos in was else before(pos)
        new = event["tile"]
        was[pos] = new
        drift = _drift(terrain.get(old) if old else None, terrain.get(new))
        if drift is None:
            lines.append(tile_words(terrain, pos, old, new))
            continue
        if drift not in drifts:
            drifts[drift] = []
            lines.append(drift)  # filled in below, when every cell of it is known
        drifts[drift].append(pos)
    return [_where(line, drifts[line]) if line in drifts else line for line in lines]


def _where(drift: str, cells: list[Pos]) -> str:
    if len(cells) == 1:
        return f"{drift} at {cells[0][0]},{cells[0][1]}"
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    return f"{drift} over {len(cells)} cells round {(min(xs) + max(xs)) // 2},{(min(ys) + max(ys)) // 2}"


def record_lines(events: list[Mapping[str, Any]], names: Mapping[str, str], terrain: Mapping[str, Terrain] | None,
                 before: Callable[[Pos], str | None], sides: Sides = SHARED) -> list[str]:
    """A record's story: a line per event that tells something, its tile changes together where the first is."""
    tiles = tile_lines(terrain, before, [e for e in events if e.get("kind") == "tile"])
    out = []
    for event in events:
        if event.get("kind") == "tile":
            out += tiles
            tiles = []
        else:
            text = describe(event, names, sides)
            if text:
                out.append(text)
    return out


def story(path: Path, terrain: Mapping[str, Terrain] | None = None,
          ground: Callable[[Pos], str] | None = None, view: View | None = None, sides: Sides = SHARED) -> Iterator[str]:
    """Every event as a sentence; a damaged log stops at the damage, with a note. `ground` is the map's own
    tile per cell, so tile changes are told as what happened; without it they say what a cell became. With a
    `view`, only what its side saw, and for each record how many rolls were made out of its sight."""
    names: dict[str, str] = {}
    changed: dict[int, dict[Pos, str]] = {1: {}}  # the cells changed so far, after each record of the branch
    records, broken = reading.records(path)
    for n, record in records:
        kind = record.get("kind")
        if kind == "undo":
            yield f"line {n}: (undo back to line {record.get('base')})"
        elif kind == "reveal":
            yield f"line {n}: seed revealed: {record.get('seed')}"
        events = record.get("events", [])
        for event in events:
            if event.get("kind") == "spawned":
                names[event["unit"]["id"]] = event["unit"]["name"]
        told = view.feed(n, record) if view is not None else None
        tiles = changed.get(record.get("base", n - 1), {})
        for line in record_lines(told.events if told else events, names, terrain,
                                 lambda p: tiles.get(p) or (ground(p) if ground else None), sides):
            yield f"line {n}: {line}"
        if told and told.hidden:
            yield f"line {n}: {hidden_line(told.hidden)}"
        tile_events = [e for e in events if e.get("kind") == "tile"]
        if kind == "command":  # a record without tile changes shares its base's cells
            changed[n] = {**tiles, **{(e["pos"][0], e["pos"][1]): e["tile"] for e in tile_events}} \
                if tile_events else tiles
    if broken:
        yield f"warning: {broken}; the story stops there"
