"""`xenotac resolve` for annihilation: a described shot staged and decided by the game's own shot, with its dice."""

from __future__ import annotations

from pathlib import Path

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
