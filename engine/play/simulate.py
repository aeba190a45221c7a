"""AI against AI to the end of a mission, every command logged like a player's."""

from __future__ import annotations

from pathlib import Path

from engine.content.models import Content
from engine.play.game import Game


def run(content: Content, ruleset_id: str, mission_id: str, seed: bytes, path: Path | None,
        max_phases: int | None = None, casual: bool = False, public: int | None = None) -> Game:
    game = Game.new(content, ruleset_id, mission_id, seed, path, casual=casual, max_phases=max_phases, public=public)
    play_out(game)
    return game


def play_out(game: Game, sides: tuple[str, ...] | None = None) -> None:
    """Let the AI play the given sides (all by default) until the mission ends or a human side is up."""
    playing = sides or game.state.sides
    while game.state.winner is None and game.ruleset.turn(game.state).side in playing:
        game.ai_step()  # the game's own AI: its memory is in the checkpoints
