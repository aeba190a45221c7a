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


SCENARIOS = SHOT.parent


def _resolve(name, dice, capsys):
    code, out, err = run(["resolve", str(SCENARIOS / f"{name}.toml"), "--dice", ",".join(map(str, dice)), "--json"],
                         capsys)
    assert code == 0, err
    return json.loads(out)


def test_every_action_type_has_its_scenario_and_resolves(capsys):
    assert {p.stem for p in SCENARIOS.glob("*.toml")} == {"shot", "spray", "throw", "medkit", "missile", "detonate",
                                                          "chi-breath"}
    for name in ("spray", "throw", "medkit", "missile", "detonate", "chi-breath"):
        code, out, err = run(["resolve", str(SCENARIOS / f"{name}.toml")], capsys)
        assert code == 0 and err == "", (name, err)


def test_the_spray_scenario_rolls_at_the_friend_first_then_the_zhetan_and_the_drone(capsys):
    got = _resolve("spray", [10, 10, 10, 50, 50, 50, 50, 50, 50] + [99] * 6, capsys)
    formulas = [r["formula"] for r in got["rolls"]]
    # Johnny at d 3: 105 − 6 − recoil 10 = 89; the Zhetan at d 7: 81 (the crate at 6,9 is off its line); the drone 77
    assert formulas[:3] == ["d100 10 + AdjAcc 89 − Agi 7 = 92 ≤ 100: miss"] * 3
    assert formulas[3] == "d100 50 + AdjAcc 81 − Agi 4 = 127, − DR 55 = 72 ≤ 100: glancing hit"
    assert formulas[6] == "d100 50 + AdjAcc 77 − Agi 7 = 120, − DR 25 = 95 ≤ 100: glancing hit"
    assert got["units"]["zhetan"]["armour_hp_lost"] == 3 and got["units"]["johnny"]["armour_hp_lost"] == 0


def test_the_throw_scenario_lands_past_the_crate_and_rolls_3_and_2(capsys):
    got = _resolve("throw", [80, 85, 48, 10, 99, 66, 43, 99, 99], capsys)
    formulas = [r["formula"] for r in got["rolls"]]
    # Dane Str 5, d 8: 110 − 5×3 = 95; the crate adjacent to the Zhetan, between them: − 20
    assert formulas[0] == ("d100 80 + AdjAcc 95 − Agi 4 = 171, − cover 20 (crate, adjacent) = 151 > 100: "
                           "lands on target")
    assert formulas[1] == ("d100 85 + AdjAcc 110 − Agi 4 = 191, − DR 55 = 136, − DT 32 = 104, − DT 32 = 72 ≤ 100: "
                           "severe wound")
    assert sum(1 for r in got["rolls"] if r["purpose"] == "Frag Grenade blast") == 3 + 2


def test_the_medkit_scenario_stabilises_now_or_carries_over(capsys):
    now = _resolve("medkit", [1, 2, 3], capsys)
    assert now["summary"] == ("Helmut Hartmann uses a med-kit on Bruce Mitchel: 3d6: 1+2+3=6 AP; stabilise the Dying; "
                              "79 med-kit uses left")
    later = _resolve("medkit", [2, 3, 6], capsys)
    assert later["summary"].endswith("11 AP; 3 AP to go next turn (stabilise the Dying)")


def test_the_missile_scenario_hits_then_explodes_with_halved_dr(capsys):
    got = _resolve("missile", [55, 55, 1, 1, 99, 99, 50, 50, 1] + [99] * 6, capsys)
    formulas = [r["formula"] for r in got["rolls"]]
    assert formulas[0] == "d100 55 + AdjAcc 81 − Agi 4 = 132, − DR 55 = 77 ≤ 100: glancing hit"  # 115 − 2×17
    assert formulas[1] == ("d100 55 + AdjAcc 115 − Agi 4 = 166, − DR 27 (halved) = 139, − DT 17 = 122, − DT 17 = 105, "
                           "− DT 17 = 88 ≤ 100: mortal wound")
    assert " = 81) The missile explodes on the target at 5,19: Zhetan in Power Armour: mortal" in got["summary"]


def test_the_detonate_scenario_sets_the_c4_off_at_dt_2_plus_end(capsys):
    got = _resolve("detonate", [1, 1, 1], capsys)
    formulas = [r["formula"] for r in got["rolls"]]
    assert formulas[0] == "d100 1 + AdjAcc 115 − Agi 4 = 112, − DR 27 (halved) = 85 ≤ 100: glancing hit"
    assert got["summary"] == "Cane McClain's C4 at 5,10 goes off: Zhetan in Power Armour: glancing, glancing, glancing"


def test_trials_give_the_probability_of_each_wound_tier(capsys):
    code, out, _ = run(["resolve", str(SCENARIOS / "spray.toml"), "--trials", "100", "--json"], capsys)
    assert code == 0
    johnny = json.loads(out)["units"]["johnny"]  # the friend in the cone, 3 rolls at AdjAcc 89 against DR 35
    assert {"p_minor", "p_severe", "p_mortal", "p_lethal"} <= set(johnny)
    assert 0.6 < johnny["p_minor"] < 0.95 and johnny["p_severe"] < johnny["p_minor"] and johnny["p_lethal"] == 0


def test_a_scenario_unit_learns_abilities_and_breathes_chi_breath_for_its_20_dr(tmp_path, capsys):
    got = _resolve("chi-breath", [70], capsys)
    # AdjAcc 110 − 2×5 squares between = 100; DR 45 + chi breath 20: face 70 is a glancing hit at exactly 100
    assert got["rolls"][0]["formula"] == ("d100 70 + AdjAcc 100 − Agi 5 = 165, − DR 45 + chi breath 20 = 100 ≤ 100: "
                                          "glancing hit")
    code, out, _ = run(["resolve", str(SCENARIOS / "chi-breath.toml"), "--trials", "400", "--json"], capsys)
    assert code == 0 and json.loads(out)["units"]["vadin"]["p_minor"] < 0.45  # 30% exactly (50% without it)
    bad = tmp_path / "bad.toml"
    bad.write_text((SCENARIOS / "chi-breath.toml").read_text().replace('abilities = ["chi_breath"]',
                                                                       'abilities = ["chi_brath"]'))
    code, _, err = run(["resolve", str(bad)], capsys)
    assert code != 0 and "[units.vadin].abilities: unknown ability 'chi_brath'" in err
    assert "[units.vadin].chi_breath: needs the chi_breath ability" in err
