"""`xenotac resolve` under xxxzone: one shot staged on an open field, decided by the game's own attack."""

from __future__ import annotations

import json
from pathlib import Path

from cli_run import run

SHOT = Path(__file__).resolve().parent.parent / "docs" / "scenarios" / "xxxzone" / "shot.toml"


def test_the_shot_is_written_in_seven_steps_with_the_dice_given(capsys):
    code, out, err = run(["resolve", str(SHOT), "--dice", "57", "--json"], capsys)
    assert (code, err) == (0, "")
    got = json.loads(out)
    # Accuracy 85 + 5×Per 5 = 110, − 2×7 squares between + Aim 20 = 116; Zhetan Agi 4, crate 20 adjacent, DR 55
    assert got["rolls"][0]["formula"] == ("d100 57 + AdjAcc 116 − Agi 4 = 169, − cover 20 (crate, adjacent) = 149, "
                                          "− DR 55 = 94 ≤ 100: glancing hit")
    assert got["units"]["zhetan"]["armour_hp_lost"] == 1 and got["units"]["zhetan"]["status"] == "active"


def test_a_low_roll_hits_the_crate(capsys):
    code, out, _ = run(["resolve", str(SHOT), "--dice", "3"], capsys)
    assert code == 0 and "= 95 ≤ 100: hits the crate" in out and "Zhetan in Power Armour: no wounds" in out


def test_a_bad_scenario_is_refused_with_located_messages(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(SHOT.read_text().replace('template = "zhetan"', 'template = "sectoid"'))
    code, _, err = run(["resolve", str(bad)], capsys)
    assert code != 0 and "[units.zhetan].template: unknown template 'sectoid'" in err


def test_trials_count_the_armour_worn(capsys):
    code, out, _ = run(["resolve", str(SHOT), "--trials", "100", "--json"], capsys)
    assert code == 0
    zhetan = json.loads(out)["units"]["zhetan"]
    assert 0.5 < zhetan["mean_armour_hp_lost"] < 1.0 and zhetan["p_dead"] == 0
