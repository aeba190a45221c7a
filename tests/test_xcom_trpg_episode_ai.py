"""xcom-trpg 4.8 with the AI and the client: the squad's AI confirms its episode end when it has nothing better to
do, a confirmed soldier has no budget left, and the turn's label (the top bar) counts the extra turns left."""

from __future__ import annotations

from engine.content import missions
from engine.core.commands import Act, EndTurn, Rejected
from engine.core.dice import seed_from_int
from engine.play.game import Game
from engine.play.verify import verify
from engine.rules.xcom_trpg import episode


def _held(content, tmp_path, extra: int = 2) -> Game:
    """`defend` with both sides ending their turns until the hold is done (phase 9: met 9, last 10)."""
    game = Game.new(content, "xcom-trpg", "defend", seed_from_int(7), tmp_path / "defend.jsonl", extra_turns=extra)
    for _ in range(40):
        if episode.of(game.state) is not None:
            return game
        assert not isinstance(game.submit(EndTurn(side=game.state.side)), Rejected)
    raise AssertionError("the objectives were never done")


def test_the_squad_ai_confirms_the_episode_end_with_nothing_in_sight(content, tmp_path):
    game = _held(content, tmp_path)
    assert (game.state.phase, game.state.side) == (9, missions.PLAYER)
    squad = [u.id for u in game.state.side_units(missions.PLAYER) if u.conscious]
    while game.state.winner is None and game.state.side == missions.PLAYER:
        game.ai_step()
    assert (game.state.winner, game.state.ended, game.state.phase) == (
        missions.PLAYER, "held to the end of phase 8; the squad confirmed the episode's end", 9)
    assert episode.of(game.state).confirmed == tuple(squad)  # each soldier, none walking on first
    game.close()
    assert verify(content, game.path).failure is None


def test_the_ai_fights_on_while_a_hostile_is_in_sight(content, tmp_path):
    game = _held(content, tmp_path)
    soldier = next(u for u in game.state.side_units(missions.PLAYER) if u.conscious)
    alien = next(u for u in game.state.side_units("aliens") if u.conscious)
    assert episode.ai_confirm(game.ruleset, game.state, soldier, [alien]) is None
    assert episode.ai_confirm(game.ruleset, game.state, soldier, []) == Act(unit=soldier.id, action="end_episode")
    assert episode.ai_confirm(game.ruleset, game.state, alien, []) is None  # only the squad confirms
    game.close()


def test_a_confirmed_soldier_has_no_budget_and_the_label_counts_the_extra_turns(content, tmp_path):
    game = _held(content, tmp_path)
    assert game.ruleset.turn(game.state).label == "X-COM turn, 1 extra turn left"  # phase 9 of last 10
    a = next(u.id for u in game.state.side_units(missions.PLAYER) if u.conscious)
    assert game.ruleset.budget(game.state, game.state.units[a]).can_act
    game.submit(Act(unit=a, action="end_episode"))
    assert not game.ruleset.budget(game.state, game.state.units[a]).can_act
    game.submit(EndTurn(side=missions.PLAYER))
    assert game.ruleset.turn(game.state).label == "Alien turn, 1 extra turn left"
    game.submit(EndTurn(side=game.state.side))
    assert (game.state.phase, game.ruleset.turn(game.state).label) == (10, "X-COM turn, last extra turn")
    game.close()


def test_without_extra_turns_the_label_is_the_side_s_turn(content, tmp_path):
    game = Game.new(content, "xcom-trpg", "defend", seed_from_int(7), None)
    assert game.ruleset.turn(game.state).label == "X-COM turn"
    game.close()


def test_the_battle_help_says_how_to_end_the_episode():
    from tui.screens.help import INTRO

    assert "{actions}: all else" in INTRO["battle"] and "psionics, episode end" in INTRO["battle"]


def test_the_battle_screen_s_top_bar_counts_the_extra_turns_at_80_columns(content, tmp_path):
    from tui.screens import readout
    from tui.session import Session

    game = _held(content, tmp_path)
    line = readout.top_line(Session(game), 0, 80)
    assert line == "Defend · Phase 9/14 · X-COM turn, 1 extra turn left · 6/6 ready · in sight 0"
    game.close()
