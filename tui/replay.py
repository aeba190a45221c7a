"""Where the replay viewer stands in a log, and what that record holds. No Textual here.

The viewer stops at every command and undo record in log order, undone ones included; turns and
"next dice" move along the same stops. An undo record shows the state it went back to. Until the
mission has ended a record tells what the squad saw of it (engine.log.view), as every reader does.
"""

from __future__ import annotations

import bisect
from typing import Any

from engine.content.missions import PLAYER
from engine.core.model import State
from engine.log.story import record_lines, sides_of
from engine.log.view import Eyes, Told, ended, everything, hidden_line
from engine.play.timeline import Timeline
from tui.chronicle import CRIT, roll_line


def rolls_of(record: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(event, roll) for every roll of a record, in the order explain() lists them."""
    return [(e, r) for e in record.get("events", []) for r in e.get("rolls") or []]


def names_in(state: State) -> dict[str, str]:
    return {u.id: u.name for u in state.units.values()}


class Replay:
    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.sides = sides_of(timeline.content, timeline.ruleset.id)  # what its messages call the sides
        records = timeline.records
        # the chain can blame a line it already read (changed, found by the next one's hash): stop before it
        limit = timeline.broken.line if timeline.broken and timeline.broken.line else max(records) + 1
        self.stops = [n for n, r in records.items() if r.get("kind") in ("command", "undo") and n < limit]
        self.index = {n: i for i, n in enumerate(self.stops)}
        self.last = max(records)
        self.width = len(str(self.last))  # of a record number in the roll log
        self.final_branch = set(timeline.branch(timeline.final))
        self.turns = [t for t in timeline.turns if t.n in self.final_branch and t.n < limit]
        self._turn_starts = [t.n for t in self.turns]
        self.dice = [n for n in self.stops if rolls_of(records[n])]
        self._explained: dict[int, list[str]] = {}
        self.opened = ended(records.items())  # the mission is over: everything is told
        self.eyes = Eyes(timeline.ruleset, PLAYER)
        self._told: dict[int, Told] = {}

    # -- where ----------------------------------------------------------------------------------

    def record(self, n: int) -> dict[str, Any]:
        return self.timeline.records[n]

    def state_record(self, n: int) -> int:
        """The record whose state stop n shows: itself, or for an undo the record it went back to."""
        record = self.record(n)
        return record["base"] if record.get("kind") == "undo" else n

    def undone(self, n: int) -> bool:
        return self.record(n).get("kind") == "command" and n not in self.final_branch

    def turn_index(self, n: int) -> int:
        return max(0, bisect.bisect_right(self._turn_starts, n) - 1)

    def step(self, n: int, by: int) -> int | None:
        i = self.index[n] + by
        return self.stops[i] if 0 <= i < len(self.stops) else None

    def turn(self, n: int, by: int) -> int | None:
        """The start of the next turn, or of this one (then the one before) going back."""
        if not self.turns:
            return None
        i = self.turn_index(n)
        if by > 0:
            return self.turns[i + 1].n if i + 1 < len(self.turns) else None
        if n > self.turns[i].n:
            return self.turns[i].n
        return self.turns[i - 1].n if i > 0 else None

    def dice_stop(self, n: int, by: int) -> int | None:
        """The next (or previous) record that rolled dice."""
        if by > 0:
            i = bisect.bisect_right(self.dice, n)
            return self.dice[i] if i < len(self.dice) else None
        i = bisect.bisect_left(self.dice, n) - 1
        return self.dice[i] if i >= 0 else None

    def stop_at_or_before(self, line: int) -> int | None:
        i = bisect.bisect_right(self.stops, line) - 1
        return self.stops[i] if i >= 0 else None

    # -- what -----------------------------------------------------------------------------------

    def told(self, n: int) -> Told:
        """Record n as the squad saw it; whole once the mission has ended."""
        record = self.record(n)
        events = record.get("events", [])
        if self.opened or record.get("kind") != "command":
            return everything(events)
        if n not in self._told:
            before = self.timeline.state_at(record["base"])
            self._told[n] = everything(events) if before.winner is not None else \
                self.eyes.tell(before, self.timeline.state_at(n), events)
        return self._told[n]

    def rolls(self, n: int) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
        """(index among the record's rolls, the event as seen, the roll) for each roll of record n the squad saw."""
        out = []
        i = 0
        for event, shown in zip(self.record(n).get("events", []), self.told(n).shown):
            for roll in event.get("rolls") or []:
                if shown is not None and roll in (shown.get("rolls") or []):
                    out.append((i, shown, roll))
                i += 1
        return out

    def unseen_actor(self, n: int) -> bool:
        """Whether record n's command was given to a unit the squad did not see (before the end)."""
        record = self.record(n)
        uid = record.get("command", {}).get("unit")
        if self.opened or record.get("kind") != "command" or uid is None:
            return False
        return self.eyes.sees(uid, self.timeline.state_at(record["base"]), self.timeline.state_at(n)) is False

    def heading(self, n: int, names: dict[str, str]) -> str:
        record = self.record(n)
        if record.get("kind") == "undo":
            return f"↶ undo, back to record {record['base']}"
        if self.unseen_actor(n):
            return "out of sight"
        command = record["command"]
        kind = command.get("kind", "?").replace("_", " ")
        who = names.get(command.get("unit", ""), command.get("unit"))
        if "side" in command:
            who = self.sides.name(command["side"])
        text = f"{who}: {kind}" if who else kind
        if command.get("target"):
            text += f" → {names.get(command['target'], command['target'])}"
        elif command.get("cell"):
            text += " at {},{}".format(*command["cell"])
        elif command.get("path"):
            text += " to {},{}".format(*command["path"][-1])
        return text

    def story(self, n: int, names: dict[str, str]) -> list[str]:
        record = self.record(n)
        before = self.timeline.state_at(record["base"]) if record.get("kind") == "command" else None
        told = self.told(n)
        lines = record_lines(told.events, names, self.timeline.content.terrain,
                             before.grid.tile if before else lambda _pos: None, self.sides)
        return lines + ([hidden_line(told.hidden)] if told.hidden else [])

    def roll_log(self, n: int, names: dict[str, str]) -> tuple[list[str], int]:
        """The rolls of n's turn up to n, on n's branch: a line per earlier record, a line per roll of
        n itself; and the index of n's first roll line."""
        record = self.record(n)
        if record.get("kind") not in ("command", "undo"):
            return [], 0
        start = self.turns[self.turn_index(n)].n if self.turns else 0
        own = record.get("kind") == "command"  # an undo has no rolls of its own
        earlier = []
        k = self.timeline.base.get(n) if own else record["base"]
        while k is not None and k >= start and k in self.timeline.base:
            earlier.append(k)
            k = self.timeline.base[k]
        lines = []
        for k in reversed(earlier):
            told = self.told(k)
            for event in told.events:
                line = roll_line(event, names)
                if line:
                    lines.append(f"{k:>{self.width}}  {line}")
            if told.hidden:
                lines.append(f"{k:>{self.width}}  {hidden_line(told.hidden)}")
        first = len(lines)
        if own:
            for i, _event, roll in self.rolls(n):
                who = names.get(roll["actor"], roll["actor"])
                lines.append(f"{n:>{self.width}}.{i + 1} {who} · {roll['purpose']} · {roll['formula']}"
                             f"{CRIT.get(roll.get('crit') or '', '')}")
            if self.told(n).hidden:
                lines.append(f"{n:>{self.width}}  {hidden_line(self.told(n).hidden)}")
        return lines, first

    def explanation(self, n: int, i: int) -> list[str]:
        """Timeline.explain(n) cut to its head and roll i's own lines (the whole text if the cut fails)."""
        lines, head, blocks = self._cut(n)
        if blocks is None or not 0 <= i < len(blocks):
            return lines
        return head + [""] + blocks[i]

    def explained(self, n: int) -> list[str]:
        """Timeline.explain(n) for `audit --explain`: until the mission has ended, only the rolls the squad saw,
        the others counted, and no word of a command given out of its sight."""
        lines, head, blocks = self._cut(n)
        if self.opened or self.record(n).get("kind") != "command":
            return lines
        hidden = self.told(n).hidden
        if not hidden and not self.unseen_actor(n):
            return lines
        if blocks is None:  # a text that does not cut into rolls: only that they were rolled
            return [f"Record {n}: out of sight", hidden_line(hidden)]
        if self.unseen_actor(n):
            head = [f"Record {n}: out of sight", *head[1:]]
        gap = [""] if self.timeline.seed is not None else []
        out = list(head)
        for i, _event, _roll in self.rolls(n):
            out += gap + blocks[i]
        return out + (gap + [hidden_line(hidden)] if hidden else [])

    def _cut(self, n: int) -> tuple[list[str], list[str], list[list[str]] | None]:
        """Timeline.explain(n), its head and each roll's lines (None when the text does not cut that way)."""
        lines = self._explained.get(n)
        if lines is None:
            lines = self._explained[n] = self.timeline.explain(n)
        count = len(rolls_of(self.record(n)))
        if self.timeline.seed is None:  # no derivation: the head, then one line a roll
            cut = len(lines) - count
            head, blocks = lines[:cut], [[line] for line in lines[cut:]]
        else:
            parts: list[list[str]] = [[]]
            for line in lines:
                if line:
                    parts[-1].append(line)
                else:
                    parts.append([])
            head, blocks = parts[0], parts[1:]
        return lines, head, blocks if len(blocks) == count else None
