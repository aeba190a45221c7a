"""`xenotac resolve` for annihilation: a described shot staged and decided by the game's own shot, with its dice."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.cli import main

SHOT = Path(__file__).resolve().parent.parent / "docs" / "scenarios" / "annihilation" / "shoot.toml"


def test_the_documented_shot_resolves_with_its_dice(capsys):
    assert main(["resolve", str(SHOT), "--dice", "20,10,2,3,1"]) == 0
    out = capsys.readouterr().out
    assert "d100 20 ≤ to-hit 33 (Acc 58×60% 34 + skill 5 − range 1×6 6) hit" in out
    assert "d20 10 → Torso" in out and "35/10 = 3d4: 2+3+1 = 6 wounds" in out
    assert "Sectoid: Health 60 → 25, TU 0 → 0, stun 0, wounds: Torso 6, awake" in out
    assert "Anton: Health 48 → 48, TU 53 → 40" in out  # 25% of 53 for the snap, no turn


def test_a_seeded_shot_and_trials(capsys):
    assert main(["resolve", str(SHOT), "--seed", "3"]) == 0
    assert "Anton fires the Mk. IIV Assault Rifle (snap) at Sectoid" in capsys.readouterr().out
    assert main(["resolve", str(SHOT), "--trials", "200", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("200 trials, seed 3") and "mean tu lost 13.00" in out  # every trial pays the snap


def test_a_mode_the_weapon_lacks_is_refused_as_a_located_line(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(SHOT.read_text().replace('mode = "snap"', 'mode = "burstt"'))
    assert main(["resolve", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "[action].mode: the Mk. IIV Assault Rifle has no 'burstt' mode; it fires snap, aimed, burst, auto" in err


THROW = SHOT.with_name("throw.toml")
MELEE = SHOT.with_name("melee.toml")


def test_the_documented_throw_resolves_through_the_games_throw(capsys):
    assert main(["resolve", str(THROW), "--dice", "30,5,1,1,1,1,1,1,1,1"]) == 0
    out = capsys.readouterr().out
    assert "d100 30 ≤ to-hit 50 (Trw 60 + skill 6 − range 2×8 16) on target" in out
    assert "Hand Grenade goes off at 9,1: Sectoid 80 → 80 on under" in out
    assert "Anton: Health 48 → 48, TU 53 → 10" in out  # belt to hand 4 + prime 26 + throw 13
    assert "Sectoid: Health 60 → -20, TU 0 → 0, stun 0, wounds: Torso 8, unconscious" in out
    assert main(["resolve", str(THROW), "--dice", "51,7,1,5,1,1,1,1,1,1"]) == 0  # a miss: d8 7 west, d3 1 square
    out = capsys.readouterr().out
    assert "it lands at 8,1" in out and "Sectoid 60 → 60 on front" in out  # one square off the centre: 80 → 60


def test_the_documented_strike_resolves_through_the_games_melee(capsys):
    assert main(["resolve", str(MELEE), "--dice", "40,5,1,1,1,1"]) == 0
    out = capsys.readouterr().out
    assert "d100 40 ≤ to-hit 58 (Acc 58 + skill 0; damage Str 44 + Wp 0 = 44) hit" in out
    assert "Anton: Health 48 → 48, TU 53 → 43" in out and "Sectoid: Health 60 → 16" in out
    assert main(["resolve", str(MELEE), "--trials", "300", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("300 trials, seed 2") and "mean tu lost 10.00" in out


def test_resolve_refuses_what_the_game_refuses(tmp_path, capsys):
    far = tmp_path / "far.toml"
    far.write_text(MELEE.read_text().replace("distance = 1", "distance = 3"))
    assert main(["resolve", str(far)]) == 2
    assert "refused (out_of_reach): A physical attack reaches the adjacent squares only: Sectoid is 3 spaces away" \
        in capsys.readouterr().err
    no_item = tmp_path / "none.toml"
    no_item.write_text(THROW.read_text().replace('template = "anton"', 'template = "julia"'))
    assert main(["resolve", str(no_item)]) == 2
    assert "Julia carries no Hand Grenade" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text(THROW.read_text().replace('item = "hand_grenade"', 'item = "grenade"'))
    assert main(["resolve", str(bad)]) == 2
    assert "[action].item: a throw names an explosive of explosives.toml, got 'grenade'" in capsys.readouterr().err


TREAT = SHOT.with_name("treat.toml")


def test_the_documented_treatment_resolves_through_the_games_dose(tmp_path, capsys):
    assert main(["resolve", str(TREAT)]) == 0
    out = capsys.readouterr().out
    assert "Laura gives Anton a spray bandage dose from the Medi Kit (9 TU, 9 left): Left leg: one wound closed " \
           "(1 open)" in out
    assert "Laura: Health 50 → 50, TU 54 → 45" in out and "Anton: Health 30 → 30" in out and "Left leg 1" in out
    heal = tmp_path / "heal.toml"
    heal.write_text(TREAT.read_text().replace('dose = "bandage:left_leg"', 'dose = "heal"'))
    assert main(["resolve", str(heal), "--dice", "3"]) == 0
    assert "d4 3: Health 30 → 33" in capsys.readouterr().out
    assert main(["resolve", str(heal), "--trials", "400", "--seed", "1"]) == 0
    assert "mean HP lost -2.50" in capsys.readouterr().out  # 1d4 averages 2.5
    far = tmp_path / "far.toml"
    far.write_text(TREAT.read_text().replace("distance = 1", "distance = 2"))
    assert main(["resolve", str(far)]) == 2
    assert "refused (too_far): A dose reaches Laura's square and the eight around it" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text(TREAT.read_text().replace('dose = "bandage:left_leg"', 'dose = "whisky"'))
    assert main(["resolve", str(bad)]) == 2
    assert "[action].dose: one of bandage, heal, stimulant, pain_killer" in capsys.readouterr().err


CANNON = SHOT.with_name("cannon.toml")


def test_the_documented_cannon_shot_fires_from_the_harness_and_is_refused_without_it(tmp_path, capsys):
    assert main(["resolve", str(CANNON), "--dice", "20,10,1,1,1,1,1,1"]) == 0
    out = capsys.readouterr().out
    assert "d100 20 ≤ to-hit 36 (Acc 60×60% 36 + skill 6 − range 1×6 6) hit" in out  # Skilled, +10%
    assert "65/10 = 6d4: 1+1+1+1+1+1 = 6 wounds" in out  # the AP shell's 65 (ammo.toml), loaded at deployment
    assert "Sectoid: Health 60 → -5, TU 0 → 0, stun 0, wounds: Torso 6, unconscious" in out
    assert "Boris: Health 58 → 58, TU 49 → 33" in out  # snap 33% of 49 (his two spare shell clips weigh 4 boxes)
    bare = tmp_path / "bare.toml"
    bare.write_text(CANNON.read_text().replace("harness = true", "harness = false"))
    assert main(["resolve", str(bare), "--dice", "20,10,1,1,1,1,1,1"]) == 2
    assert "refused (needs_harness): The Thunder HC (size I) fires only from the strap, gyro and pad system" \
        in capsys.readouterr().err


SIDES = SHOT.with_name("sides.toml")


def test_the_documented_side_shot_sets_stats_skills_armour_and_the_side_hit(capsys):
    assert main(["resolve", str(SIDES), "--dice", "30,13,2,1"]) == 0
    out = capsys.readouterr().out
    assert "d100 30 ≤ to-hit 41 (Acc 60×60% 36 + skill 9 − range 1×4 4) hit" in out  # Proficient: 15% of 60
    assert ("35 on right: 35 − AV 15 = 20; wear SV 25 − 15 = 10, right 5 → 0, AV10 150 → 140; excess 5 → 25"
            in out)
    assert "d20 13 → Left arm" in out and "25/10 = 2d4: 2+1 = 3 wounds" in out
    assert "Sectoid: Health 60 → 35, TU 0 → 0, stun 0, wounds: Left arm 3, awake" in out


@pytest.mark.parametrize("side, total", [("front", 50), ("left", 40), ("rear", 30)])
def test_each_side_the_target_shows_takes_the_hit(tmp_path, capsys, side, total):
    turned = tmp_path / "turned.toml"
    turned.write_text(SIDES.read_text().replace('side = "right"', f'side = "{side}"')
                      .replace("armour_left = { right = 5 }\n", ""))
    assert main(["resolve", str(turned), "--dice", "30,13,2,1"]) == 0
    assert f"35 on {side}: 35 − AV 15 = 20; wear SV 25 − 15 = 10, {side} {total} → {total - 10}" in \
        capsys.readouterr().out


@pytest.mark.parametrize("old, new, problem", [
    ("stats = { accuracy = 60 }", "stats = { acuracy = 60 }", "[units.anton].stats: unknown stat 'acuracy'"),
    ('skills = { rifles = "proficient" }', 'skills = { rifles = "pro" }',
     "[units.anton].skills: unknown skill 'rifles' or level 'pro'"),
    ("armour_left = { right = 5 }", "armour_left = { side = 5 }",
     "[units.sectoid].armour_left: 'side' is none of av, front, left, right, rear, under"),
    ('armour = "light_body_armor"', 'armour = "tin_foil"', "[units.sectoid].armour: unknown armour 'tin_foil'"),
    ('side = "right"', 'side = "right"\nfrom_behind = true', "[action].side: give `side` or `from_behind`, not both"),
    ('template = "anton"', 'template = "anton"\nweapon = "thor_hc"',
     "[units.anton].weapon: a clip-fed or charged weapons.toml id, got 'thor_hc'"),
])
def test_a_units_kit_and_the_side_are_located_lines(tmp_path, capsys, old, new, problem):
    bad = tmp_path / "bad.toml"
    bad.write_text(SIDES.read_text().replace(old, new))
    assert main(["resolve", str(bad)]) == 2
    assert problem in capsys.readouterr().err


def test_another_weapon_is_carried_loaded(tmp_path, capsys):
    pistol = tmp_path / "pistol.toml"
    pistol.write_text(SIDES.read_text().replace('template = "anton"', 'template = "anton"\nweapon = "pistol_9mm"'))
    assert main(["resolve", str(pistol), "--dice", "30,13,2,1"]) == 0
    out = capsys.readouterr().out  # a pistol's range penalty is 3 a space; skill: pistols, Skilled 10%
    assert "d100 30 ≤ to-hit 30 (Acc 60×60% 36 + skill 6 − range 3×4 12) hit" in out
    assert "fires the 9mm semi auto pistol (snap)" in out
