"""The completed alien roster, their explosives and the climates in whole AI-vs-AI missions: a winter or desert farm
plays out and its log verifies; over a few seeds of each mission the squad both wins and loses (`simulate
--trials 20`'s table is in docs/rules-notes.md and the CHANGELOG)."""

from __future__ import annotations

import pytest

from engine.map import climate
from engine.play import balance, preview, simulate
from engine.play.verify import verify
from engine.core.dice import seed_from_int

ID = "annihilation"


def _climates(content):
    from engine.core.ruleset import make

    return make(ID, content, None).climates


def test_a_winter_or_desert_farm_plays_out_and_its_log_verifies(content, tmp_path):
    drawn = _climates(content)
    seed = next(s for s in range(1, 40) if climate.choose(
        preview.battlefield(content, ID, "defend", s)[0]["mission"]["map_seed"], drawn) != "temperate")
    path = tmp_path / "cold.jsonl"
    simulate.run(content, ID, "defend", seed_from_int(seed), path, max_phases=3).close()
    assert verify(content, path).failure is None
    assert {"sand", "snow"} & set(preview.battlefield(content, ID, "defend", seed)[1].grid.tile_ids)


@pytest.mark.slow
@pytest.mark.parametrize("mission", ["eliminate", "crash", "defend", "terror", "vip", "infiltrate"])
def test_the_squad_both_wins_and_loses_over_eight_seeds(content, mission):
    winners = {balance.play(content, ID, mission, "normal", seed, None).winner for seed in range(1, 9)}
    assert {"xcom", "aliens"} <= winners, winners
