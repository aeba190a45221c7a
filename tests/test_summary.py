"""The mission summary's count of losses (tui/screens/summary.py): a side's kills are the other turn-taking sides'
dead, never the civilians, whose losses get their own line once the mission is over."""

from __future__ import annotations

import re

import pytest

from engine.core.dice import seed_from_int
from engine.play.game import Game
from engine.play.simulate import play_out
from tui.screens.summary import summary_lines


@pytest.mark.slow
def test_kills_count_the_hostiles_dead_and_civilians_have_their_own_line(content, tmp_path):
    path = tmp_path / "terror.jsonl"
    game = Game.new(content, "xcom-trpg", "terror", seed_from_int(3), path)
    play_out(game)
    state = game.state
    game.close()
    lines = summary_lines(path, content)
    dead = {side: sum(u.status == "dead" for u in state.side_units(side)) for side in ("xcom", "aliens", "civilians")}
    xcom = next(line for line in lines if line.startswith("X-COM"))
    aliens = next(line for line in lines if line.startswith("Aliens"))
    assert re.search(rf"kills {dead['aliens']},", xcom) and re.search(rf"kills {dead['xcom']},", aliens)
    civilians = state.side_units("civilians")
    assert civilians  # terror has them
    assert f"Civilians lost {dead['civilians']} dead · {len(civilians) - dead['civilians']} standing" in lines
