"""A log skimmed for `audit --stats`: the rolls, the units' sides and the branch, one line at a time.

`audit.read` parses every line whole and keeps them all; on a long log most lines are moves that rolled
nothing, whose bulk is the unit records they change (an annihilation soldier is about 2 KB), and keeping
them all makes the parse itself slower (every object a fresh allocation). Here a line the game wrote as it
writes a command or a checkpoint (its head and its chain hash at the usual places, no `\\u` escape) that
rolled nothing (every `"rolls"` in it is `"rolls":[]`) and spawned no unit is read only as far as its number,
base and chain hash; any other line is parsed, used and dropped. Anything out of the ordinary (an older
format, a break in the chain, a line that does not parse, a record of a shape a reader cannot use) answers
None, and the caller reads the log the whole way (`audit.read`), which words the problem as always.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from engine.log import reading
from engine.log import writer as log
from engine.log.chain import collector_paused

HEAD = re.compile(rb'\{"n":(\d+),"kind":"(command|checkpoint)"(?:,"base":(\d+),"command":)?')


def rolls(path: Path) -> tuple[list[tuple[int, list[dict[str, Any]]]], dict[str, str], set[int]] | None:
    """(line, its rolls) for each command that rolled, each unit's side, and the commands on the final branch;
    None when the log needs the whole reading."""
    with collector_paused():
        try:
            return _rolls(path)
        except (log.LogError, KeyError, TypeError, ValueError, AttributeError):
            return None


def _rolls(path: Path) -> tuple[list[tuple[int, list[dict[str, Any]]]], dict[str, str], set[int]] | None:
    rolled: list[tuple[int, list[dict[str, Any]]]] = []
    sides: dict[str, str] = {}
    bases: dict[int, int] = {}
    head = 1
    prev = log.GENESIS
    reveal = None
    last = 0
    for n, _offset, raw in log.read_lines(path):
        if reveal is not None:
            return None  # a record after the reveal
        last = n
        kind, base = _skimmed(raw, n, prev)
        if kind is None:
            record = log.parse(raw, n)
            if record.get("n") != n or record.get("prev") != prev:
                return None
            if n == 1:
                if record.get("format") != log.FORMAT or record.get("version") != log.VERSION:
                    return None  # another file, or an older format: upcast record by record by the whole reading
                reading.check_header(record)
                prev = log.line_hash(raw)
                continue
            if reading._shape(record):
                return None
            kind, base = record["kind"], record.get("base")
            if kind == "command":
                found = []
                for event in record["events"]:
                    if event["kind"] == "spawned":
                        unit = event["unit"]
                        sides[unit["id"]] = unit["side"]
                    found.extend(event["rolls"])
                if found:
                    rolled.append((n, found))
            elif kind == "reveal":
                reveal = n
        elif n == 1:
            return None
        if kind == "command":
            bases[n], head = base, n
        elif kind == "undo":
            head = base
        prev = log.line_hash(raw)
    if last < 2 and not bases:
        return None  # a header alone: the whole reading says what it says of one
    alive = set()
    while head in bases:
        alive.add(head)
        head = bases[head]
    return rolled, sides, alive


def _skimmed(raw: bytes, n: int, prev: str) -> tuple[str | None, int | None]:
    """(kind, base) of a line that need not be parsed, else (None, None)."""
    m = HEAD.match(raw)
    if m is None or int(m.group(1)) != n or log.parse_prev(raw) != prev or b"\\u" in raw:
        return None, None
    if m.group(2) == b"checkpoint":
        return ("checkpoint", None) if m.group(3) is None else (None, None)
    if m.group(3) is None or raw[m.end():m.end() + 1] != b"{" or b'},"events":[' not in raw \
            or raw.count(b'"rolls"') != raw.count(b'"rolls":[]') or b'"spawned"' in raw:
        return None, None
    return "command", int(m.group(3))
