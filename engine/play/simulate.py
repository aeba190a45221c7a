"""AI against AI to the end of a mission, every command logged like a player's."""

from __future__ import annotations

from pathlib import Path

from engine.ai.planner import Ai
from engine.core.commands import EndTurn, Rejected
from engine.content.models import Content
from engine.play.game import Game


def run(content: Content, ruleset_id: str, mission_id: str, seed: bytes, path: Path | None,
        max_phases: int | None = None, casual: bool = False, public: int | None = None) -> Game:
    game = Game.new(content, ruleset_id, mission_id, seed, path, casual=casual, max_phases=max_phases, public=public)
    play_out(game)
    return game


def play_out(game: Game, sides: tuple[str, ...] | None = None) -> None:
    """Let the AI play the given sides (all by default) until the mission ends or a human side is up."""
    ais = {side: Ai(game.ruleset, side) for side in (sides or game.state.sides)}
    while game.state.winner is None and game.ruleset.turn(game.state).side in ais:
        ai = ais[game.ruleset.turn(game.state).side]
        command = ai.next_command(game.state)
        result = game.submit(command)
        if isinstance(result, Rejected):
            if isinstance(command, EndTurn):
                raise RuntimeError(f"the AI cannot end its turn: {result}")
            ai.rejected(command, result)
