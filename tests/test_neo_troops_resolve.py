"""`xenotac resolve` under neo-troops: one action staged on an open field and decided by `decide`, so the game's
pools, saves and criticals come out as in play, and its refusals with the same code and reason."""

from __future__ import annotations

import json
from pathlib import Path

from cli_run import run

DOCS = Path(__file__).resolve().parent.parent / "docs" / "scenarios" / "neo-troops"


def test_a_spray_at_a_goon_behind_a_crate_keeps_the_rof_highest(capsys):
    code, out, err = run(["resolve", str(DOCS / "spray.toml"), "--dice", "6,5,4,1,1", "--json"], capsys)
    assert (code, err) == (0, "")
    got = json.loads(out)
    # ROF 4 + Accuracy 1 = 5 dice (the goon moved: no "still"); AV 4 + the crate's light cover = 5
    assert got["rolls"][0]["formula"] == "spray n=4+1 accuracy=5: 5d6 [6 5 4 1 1] keep 6,5,4,1 vs AV 5: 2 hits"
    assert got["units"]["goon"] == {"hp_lost": 1, "armour_lost": 0, "parts_lost": 0, "severe_wounds": 0,
                                    "status": "dead"}
    assert got["units"]["anna"]["hp_lost"] == 0


def test_a_melee_blow_goes_to_the_save_and_the_critical(capsys):
    code, out, _ = run(["resolve", str(DOCS / "melee.toml"), "--dice", "5,3,1,2"], capsys)
    assert code == 0
    # 1 attack + Fighter 1 − Anna's Fighter 1 = 1 die: 5 ≥ AV 5; save 4+ rolls 3; external 1; varan critical 2
    assert "melee n=1+1 fighter-1 defence=1: 1d6 [5] vs AV 5: hit" in out
    assert "save 4+ needs 4: 1d6=3 ✗" in out and "critical varan 1d6=2 → mapping" in out
    assert "Anna: HP 2/3 (mapping damaged)" in out


def test_the_game_refuses_a_blow_out_of_reach_and_a_bad_scenario_is_located(tmp_path, capsys):
    far = tmp_path / "far.toml"
    far.write_text((DOCS / "melee.toml").read_text().replace("at = [4, 3]", "at = [5, 3]"))
    code, _, err = run(["resolve", str(far)], capsys)
    assert code != 0 and "refused (out_of_reach): Anna is not next to Armoured goon" in err
    bad = tmp_path / "bad.toml"
    bad.write_text((DOCS / "spray.toml").read_text().replace('template = "goon"', 'template = "gooon"'))
    code, _, err = run(["resolve", str(bad)], capsys)
    assert code != 0 and "[units.goon].template: unknown template 'gooon' (characters.toml)" in err


def _refused(tmp_path, capsys, doc: str, old: str, new: str) -> dict:
    """The refusal of a documented scenario with one line changed."""
    changed = tmp_path / doc
    changed.write_text((DOCS / doc).read_text().replace(old, new))
    code, out, _ = run(["resolve", str(changed), "--json"], capsys)
    assert code == 1
    return json.loads(out)["rejected"]


def test_an_unnoticed_cloaked_varan_cannot_be_struck_at(tmp_path, capsys):
    assert _refused(tmp_path, capsys, "melee.toml", "at = [4, 3]", "at = [4, 3]\nnoticed = false") == {
        "code": "not_seen", "reason": "Armoured goon has not noticed Anna"}


def test_trials_average_what_the_blow_takes(capsys):
    code, out, _ = run(["resolve", str(DOCS / "melee.toml"), "--trials", "300", "--json"], capsys)
    assert code == 0
    anna = json.loads(out)["units"]["anna"]
    # a hit 1/3 of the time, through the 4+ save half of that: about 1/6 of the blows take 1 HP
    assert 0.1 < anna["p_hit"] < 0.23 and 0.1 < anna["mean_hp_lost"] < 0.3


def test_a_spray_at_two_goons_gives_each_its_die(capsys):
    code, out, _ = run(["resolve", str(DOCS / "spray-two.toml"), "--dice", "5,4,3,2,1,1"], capsys)
    assert code == 0
    # ROF 4 + Accuracy 1 + still 1 = 6 dice, keep 5 4 3 2: each goon the lowest die that reaches AV 4 (N-10.4)
    assert "spray n=4+1 accuracy+1 still=6: 6d6 [5 4 3 2 1 1] keep 5,4,3,2 vs goon AV 4: 1 hit, other AV 4: 1 hit" \
        in out
    assert "Anna sprays Goon (goon) + Goon (other) (Plasma rifle): 2 hits, 2 unsaved" in out
    assert "Goon (other): HP 0/1, dead" in out


def test_a_grenade_throws_a_die_at_each_in_the_blast(capsys):
    code, out, _ = run(["resolve", str(DOCS / "grenade.toml"), "--dice", "5,2,6,1"], capsys)
    assert code == 0
    # no to-hit roll: one die each at AV 5 (Anna at the aimed cell first); her 4+ save at −1 needs 5: a 6 holds
    assert "blast on anna n=1: 1d6 [5] vs AV 5: hit" in out and "blast on boris n=1: 1d6 [2] vs AV 5: miss" in out
    assert "save 4+ needs 5: 1d6=6 ✓ saved" in out and "Armoured goon throws a grenade at 7,2: 1 of 2 hit" in out


def test_a_snap_shot_keeps_the_best_of_its_three_dice_tv_n2(capsys):
    code, out, _ = run(["resolve", str(DOCS / "snap.toml"), "--dice", "2,5,3"], capsys)
    assert code == 0
    assert "snap n=1+1 accuracy+1 still=3: 3d6 [2 5 3] best 5 vs AV 4: hit" in out
    assert "Goon: HP 0/1, dead" in out


def test_covering_fire_throws_a_die_at_each_goon_in_the_area(capsys):
    code, out, _ = run(["resolve", str(DOCS / "cover.toml"), "--dice", "5,2"], capsys)
    assert code == 0
    # min(ROF 4, 4 + Accuracy 1 + still 1) = 4 dice, but two goons in the 3 × 3: two dice, one each (N-11.2)
    assert "sustained n=min(4, 4+1 accuracy+1 still=6)=4: 2d6 [5 2] keep all goon 5 vs AV 4, other 2 vs AV 4: 1 hit" \
        in out
    assert "Goon (goon): HP 0/1, dead" in out and "Goon (other): HP 1/1" in out


def test_a_hound_sweeps_two_alike_goons_in_one_throw(capsys):
    code, out, _ = run(["resolve", str(DOCS / "melee-two.toml"), "--dice", "6,4,1"], capsys)
    assert code == 0
    assert "melee sweep n=2+1 fighter=3: 3d6 [6 4 1] keep 6,4 vs goon AV 4: 1 hit, other AV 4: 1 hit" in out
    assert "Goon (goon): HP 0/1, dead" in out and "Goon (other): HP 0/1, dead" in out


def test_a_shot_at_the_cell_of_an_unnoticed_attacker_is_at_av_6(capsys):
    code, out, err = run(["resolve", str(DOCS / "fire-at.toml"), "--dice", "6,2,5,3,4,1"], capsys)
    assert (code, err) == (0, "")
    # N-3.3 / N-4.4: one die (no "still", no dodge: the goons know nothing of her) against AV 6; the plasma rifle's
    # −1 makes her 4+ save need 5; the 2 fails: HP 3 → 2, external 5 (no 6), varan critical 3 → suit 4 → a weapon
    assert "snap at 4,8 n=1: 1d6 [6] vs AV 6: hit" in out
    assert "save 4+ needs 5: 1d6=2 ✗" in out and "external 1d6=5>=6 ✗" in out
    assert "critical varan 1d6=3 → suit" in out and "critical suit 1d6=4 → weapon" in out
    assert "Armoured goon fires snap shot (Plasma rifle) at 4,8, unseen (AV 6): hit if anyone is there" in out
    assert "Anna: HP 2/3 (plasma_rifle destroyed)" in out


def test_a_shot_at_a_cell_where_the_target_is_seen_is_refused_as_in_play(tmp_path, capsys):
    assert _refused(tmp_path, capsys, "fire-at.toml", "noticed = false", "noticed = true") == {
        "code": "seen_there", "reason": "Anna stands there in sight: aim at it"}


def test_a_search_tests_each_unnoticed_varan_at_its_own_tn(capsys):
    code, out, err = run(["resolve", str(DOCS / "search.toml"), "--dice", "4,2,5,3"], capsys)
    assert (code, err) == (0, "")
    # N-4.3: 1 + Perception 1 = 2 dice each; Anna kept still (TN 6, Search only), Kira walked (TN 5)
    assert "perception of anna n=1+1 perception=2: 2d6 [4 2] best 4 vs TN 6 ✗" in out
    assert "perception of kira n=1+1 perception=2: 2d6 [5 3] best 5 vs TN 5 ✓" in out
    assert "Goon searches: notices Kira" in out


def test_search_trials_report_how_often_each_is_noticed(capsys):
    code, out, _ = run(["resolve", str(DOCS / "search.toml"), "--trials", "600", "--json"], capsys)
    assert code == 0
    got = json.loads(out)["units"]
    # a 6 on 2d6: 11/36 ≈ 0.31; a 5 or 6: 20/36 ≈ 0.56
    assert 0.24 < got["anna"]["outcomes"]["noticed"]["yes"] < 0.38
    assert 0.48 < got["kira"]["outcomes"]["noticed"]["yes"] < 0.64
