"""The AIs of a game, kept so that what they remember follows from the log alone.

An AI's memory grows as it decides: what its side saw at each of its turns, the cell each unit walks to,
the commands the rules refused. None of that is in the commands, so a resumed mission used to start its
AIs blank and play on differently. Now a command the AI gave is marked `"ai": true` in its record, every
checkpoint carries each AI's memory (`engine.ai.memory`), and a resume restores it and replays the AI's
decisions over the marked records since that checkpoint: the AI is consulted on the same states, in the
same order, is refused the same commands, and so ends up remembering exactly what the uninterrupted AI
did. Resume stays flat: at most one checkpoint's worth of records is replayed, when the AI is first needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import codec
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.model import State

if TYPE_CHECKING:
    from engine.ai import memory
    from engine.ai.planner import Ai
    from engine.play.game import Game

MAX_TRIES = 64  # refusals the AI may meet on one state before its command is taken; each one skips a unit


class Minds:
    def __init__(self, game: "Game") -> None:
        self.game = game
        self.live: dict[str, "Ai"] = {}
        self.saved: dict[str, memory.Memory] = {}  # side -> memory from the checkpoint a resume started at
        self.trail: list[tuple[State, dict[str, Any], bool]] = []  # (state, command, the AI's) since then
        self.lost: list[str] = []  # sides whose logged commands were not this AI's: it cannot retrace them

    def get(self, side: str) -> "Ai":
        """The side's AI, made on first use: from the checkpoint's memory, brought up to the last record."""
        ai = self.live.get(side)
        if ai is None:
            from engine.ai import memory
            from engine.ai.planner import Ai  # when an AI first plays: not before the client's first frame

            ai = Ai(self.game.ruleset, side)
            saved = self.saved.pop(side, None)
            if saved is not None:
                memory.apply(ai, saved)
            turn = self.game.ruleset.turn
            for state, command, by_ai in self.trail:
                if by_ai and turn(state).side == side and not self._retrace(ai, state, command):
                    self.lost.append(side)
                    break
            self.live[side] = ai
        return ai

    def restore(self, checkpoint: dict[str, Any]) -> None:
        """The memories a checkpoint holds (none in logs older than format 2: those AIs start blank)."""
        from engine.ai import memory  # a resume's: not before a new game's first frame

        minds = checkpoint.get("ai", {})
        if not isinstance(minds, dict):
            raise ValueError("the checkpoint's AI memory is not an object")
        self.saved = {str(side): memory.decode(data) for side, data in minds.items()}
        self.trail = []

    def record(self, state: State, command: dict[str, Any], by_ai: bool) -> None:
        """A command applied to `state`, for an AI made later to retrace (it is cleared at each checkpoint)."""
        self.trail.append((state, command, by_ai))

    def snapshots(self) -> dict[str, Any]:
        """The memory of every AI that has played, for a checkpoint; past it, the trail is not needed.
        An AI has played if it is live, was in the last checkpoint, or gave a command since: the same
        sides whether or not the game was resumed in between."""
        turn = self.game.ruleset.turn
        for side in sorted(set(self.saved) | {turn(state).side for state, _c, by_ai in self.trail if by_ai}):
            self.get(side)
        self.trail = []
        from engine.ai import memory

        return {side: memory.snapshot(ai) for side, ai in sorted(self.live.items())}

    def _retrace(self, ai: "Ai", state: State, command: dict[str, Any]) -> bool:
        """Consult the AI on `state` until it gives the logged command, telling it of each command the
        rules refuse, exactly as the driver did. False if it would have given another command."""
        want = codec.canonical(command)
        for _ in range(MAX_TRIES):
            mine = ai.next_command(state)
            if codec.canonical(codec.dump_command(mine)) == want:
                return True
            if self.game.faces is None:
                return False
            result = self.game.ruleset.decide(state, mine, Dice(self.game.faces, state.dice))
            if not isinstance(result, Rejected):
                return False
            ai.rejected(mine, result)
        return False
