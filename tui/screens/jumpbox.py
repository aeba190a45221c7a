"""The viewer's jump box: `g`, a turn number or `#record`, ⏎. A small line editor kept in the status line, not a
pushed screen, so keys typed ahead in one packet ("g12⏎") land in order and nothing has to take focus first."""

from __future__ import annotations

import attrs

from tui.replay import Replay

MAX_TYPED = 12


@attrs.frozen
class Jump:
    """What a finished jump asks for: the record to show and what to say, or the one-line problem."""

    n: int = 0
    said: str = ""
    problem: str = ""


class JumpBox:
    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.typed: str | None = None  # None: the box is closed

    @property
    def open(self) -> bool:
        return self.typed is not None

    def start(self) -> None:
        self.typed = ""

    def prompt(self) -> str:
        return f"Go to turn (1-{len(self.replay.turns)}) or #record: {self.typed}▏ · ⏎ goes, esc cancels"

    def key(self, key: str, character: str | None) -> Jump | str | None:
        """One key: a Jump when ⏎ ends it, "" when the box closes without going, the prompt to show otherwise."""
        typed = self.typed or ""
        if key == "escape" or (key == "backspace" and not typed):
            self.typed = None
            return ""
        if key == "enter":
            self.typed = None
            return self.parse(typed.strip())
        if key == "backspace":
            self.typed = typed[:-1]
        elif character and character.isprintable() and len(typed) < MAX_TYPED:
            self.typed = typed + character
        return self.prompt()

    def parse(self, text: str) -> Jump:
        digits = text.lstrip("#").strip()
        if not digits.isdigit():
            return Jump(problem=f"{text!r} is not a turn number (or # and a record number)")
        value = int(digits)
        if text.startswith("#"):
            n = self.replay.stop_at_or_before(value)
            if n is None:
                return Jump(problem=f"Record {value} is before the first command")
            return Jump(n=n, said=f"Record {value}" + (
                "" if n == value else f" is not a command: showing record {n}, before it"))
        if not 1 <= value <= len(self.replay.turns):
            return Jump(problem=f"There is no turn {value}: this log has turns 1-{len(self.replay.turns)}")
        turn = self.replay.turns[value - 1]
        return Jump(n=turn.n, said=f"Turn {value}: phase {turn.phase}, {self.replay.sides.name(turn.side)}")
