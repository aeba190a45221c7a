"""Laser and telescopic sights (section 13, A-14.7, A-14.8) in play and in `resolve`: fitted to a weapon before the
mission, used shot by shot for +10 TU (range penalty /2) or +15 (/4), every number of the to-hit line checked."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

import ruleset_folder
from engine.core.commands import Shoot
from engine.core.dice import Dice, seed_from_int
from engine.core.events import Resolved, UnitChanged
from engine.play.game import Game
from engine.rules.annihilation import deploy_schema, sights
from engine.rules.annihilation.soldier import gun
from test_annihilation_play import _face_off
from tui.cli import main
from annihilation_book import BOOK

SCENE = Path(__file__).resolve().parent.parent / "docs" / "scenarios" / "annihilation" / "sights.toml"


def test_the_documented_sighted_shot_is_tv_a16_with_antons_accuracy(capsys):
    """Acc 58 × 110% = 63, skill 5 (Skilled), range 1 × 12 halved by one sight = 6: 62; 42 + 10 TU."""
    assert main(["resolve", str(SCENE), "--dice", "60,10,2,3,1"]) == 0
    out = capsys.readouterr().out
    assert "d100 60 ≤ to-hit 62 (Acc 58×110% 63 + skill 5 − range 1×12/2 6) hit" in out
    assert "fires the Mk. IIV Assault Rifle (aimed, laser sight +10 TU) at Sectoid: 1 of 1 hit" in out
    assert "Anton: Health 48 → 48, TU 53 → 1" in out  # floor(53 × 80%) = 42, + 10
    assert "Sectoid: Health 60 → 25" in out


def _resolved(tmp_path, capsys, old: str, new: str, dice: str) -> tuple[str, Path]:
    """The documented scenario with `old` put as `new`, resolved on `dice`: its output and the file."""
    path = tmp_path / "scene.toml"
    path.write_text(SCENE.read_text().replace(old, new))
    assert main(["resolve", str(path), "--dice", dice]) == 0
    return capsys.readouterr().out, path


def test_both_sights_quarter_the_range_penalty_for_15_tu(tmp_path, capsys):
    out, both = _resolved(tmp_path, capsys, 'mode = "aimed"\nsights = 1', 'mode = "snap"\nsights = 2', "37,10,2,3,1")
    # Acc 58 × 60% = 34, skill 5, floor(1 × 12 / 4) = 3 → 36: a 37 misses
    assert "d100 37 > to-hit 36 (Acc 58×60% 34 + skill 5 − range 1×12/4 3) miss" in out
    assert "(snap, laser and telescopic sights +15 TU)" in out
    assert "Anton: Health 48 → 48, TU 53 → 25" in out  # floor(53 × 25%) = 13, + 15
    assert main(["resolve", str(both), "--trials", "100", "--seed", "2"]) == 0
    assert "mean tu lost 28.00" in capsys.readouterr().out


def test_without_sights_the_same_shot_takes_the_whole_range_penalty(tmp_path, capsys):
    out, _ = _resolved(tmp_path, capsys, "sights = 1\n", "", "60,10,2,3,1")
    assert "d100 60 > to-hit 56 (Acc 58×110% 63 + skill 5 − range 1×12 12) miss" in out
    assert "Anton: Health 48 → 48, TU 53 → 11" in out


@pytest.mark.parametrize("old, new, problem", [
    ('template = "anton"', 'template = "julia"', "[action].sights: sights do nothing for the High Fire Mk. 3's "
                                               "aimed shot (A-14.5, A-14.8)"),
    ("sights = 1", "sights = 3", "[action].sights: 0, 1 or 2 sights, got 3"),
    ('type = "shoot"', 'type = "melee"', "[action].sights: only a shot uses sights"),
])
def test_a_sight_that_cannot_help_is_a_located_line(tmp_path, capsys, old, new, problem):
    bad = tmp_path / "bad.toml"
    bad.write_text(SCENE.read_text().replace(old, new).replace("distance = 12", "distance = 1" if "melee" in new
                                                                else "distance = 12"))
    assert main(["resolve", str(bad)]) == 2
    assert problem in capsys.readouterr().err


@pytest.fixture
def game(content):
    g = Game.new(content, "annihilation", "eliminate", seed_from_int(4), None)
    yield g
    g.close()


def _fitted(state, uid, *names):
    u = state.units[uid]
    kit = tuple(attrs.evolve(c, sights=names) if c is gun(u.record, BOOK) else c for c in u.record.kit)
    return attrs.evolve(state, units={**state.units, uid: attrs.evolve(u, record=attrs.evolve(u.record, kit=kit))})


def test_the_squads_fitted_sights_are_offered_as_modes(content):
    g = Game.new(content, "annihilation", "vip", seed_from_int(4), None)  # Zmey deploys on the escort mission
    state, rs = g.state, g.ruleset
    g.close()
    assert gun(state.units["stephen"].record, BOOK).sights == ("laser_sight",)  # units.toml `sights`
    assert gun(state.units["zmey"].record, BOOK).sights == ("laser_sight", "telescopic_sight")
    assert gun(state.units["anton"].record, BOOK).sights == ()
    ids = [m.id for m in rs.shot_modes(state, state.units["zmey"])]
    assert ids[:4] == ["snap", "aimed", "burst", "auto"]  # the plain ones first: snap stays the default
    assert ids[4:] == [sights.joined(m, n) for n in (1, 2) for m in ("snap", "aimed", "burst", "auto")]
    assert "snap+sights" not in [m.id for m in rs.shot_modes(state, state.units["stephen"])]
    scoped = _fitted(state, "julia", "laser_sight")
    julia = [m.id for m in rs.shot_modes(scoped, scoped.units["julia"])]
    assert julia == ["snap", "aimed", "snap+sight"]  # her aimed shot has both already


def test_a_sighted_shot_in_play_pays_the_sight_and_halves_the_range(game):
    rs = game.ruleset
    state, _col = _face_off(game, sectoid_tu=0)
    state = _fitted(state, "anton", "laser_sight")
    preview = rs.preview_shot(state, "anton", "sectoid_1", "aimed+sight")
    rows = {r.label: r.text for r in preview.lines}
    assert rows["▸Aimed"] == "  65% ×1 52 TU → 1 "  # 63 + 5 − floor(6 / 2); 42 + 10 of 53
    assert rows[" Snap "] == "  36% ×1 23 TU → 30 " and "Sights" not in rows  # the "/2" says it
    assert rs.preview_shot(state, "anton", "sectoid_1", "aimed").lines[-2].text == " 1 fitted, unused (m: use them) "
    events = rs.decide(state, Shoot(unit="anton", target="sectoid_1", mode="aimed+sight"),
                       Dice.scripted([65, 10, 2, 3, 1] + [99] * 20))
    shot = next(e for e in events if isinstance(e, Resolved) and e.action == "shoot")
    assert shot.mode == "aimed+sight"
    assert shot.rolls[0].formula == "d100 65 ≤ to-hit 65 (Acc 58×110% 63 + skill 5 − range 1×6/2 3) hit"
    mine = next(e for e in events if isinstance(e, UnitChanged) and e.unit == "anton")
    assert mine.changes["record"].fighter.tu_left == 1


def test_a_shot_asking_for_sights_it_has_not_is_refused(game):
    rs = game.ruleset
    state, _col = _face_off(game, sectoid_tu=0)
    got = rs.decide(state, Shoot(unit="anton", target="sectoid_1", mode="snap+sight"), Dice.scripted([]))
    assert (got.code, got.reason) == ("no_sights", "The Mk. IIV Assault Rifle has no sights fitted")
    both = rs.decide(_fitted(state, "anton", "laser_sight", "telescopic_sight"),
                     Shoot(unit="anton", target="sectoid_1", mode="aimed+sights"), Dice.scripted([]))
    assert (both.code, both.reason) == ("no_tu", "The aimed shot with both sights costs 57 TU; Anton has 53 left")


def test_opportunity_fire_never_uses_sights(game):
    """A-14.7: the reaction's snap is the plain one, whatever the observer has fitted."""
    from engine.core.commands import Move

    rs = game.ruleset
    state, col = _face_off(game, gap=8)
    state = _fitted(state, "sectoid_1", "laser_sight", "telescopic_sight")
    events = rs.decide(state, Move(unit="anton", path=(col[-2],)), Dice.scripted([99] * 20))
    shot = next(e for e in events if isinstance(e, Resolved) and e.action == "reaction fire")
    assert shot.mode == "snap" and "/2" not in shot.rolls[0].formula and "/4" not in shot.rolls[0].formula


@pytest.fixture
def bundle(tmp_path):
    return ruleset_folder.copy(tmp_path, "annihilation")


@pytest.mark.parametrize("new, problem", [
    ('sights = ["laser_sightt"]', "[stephen].sights: 'laser_sightt' is no items.toml sight"),
    ('sights = ["medi_kit"]', "[stephen].sights: 'medi_kit' is no items.toml sight"),
    ('sights = ["laser_sight", "laser_sight"]', "[stephen].sights: a laser and a telescopic sight at most, each once"),
    ('items = { laser_sight = 1 }', "[stephen].items: 'laser_sight' is a sight: fit it to the weapon with `sights`"),
    ('sights = ["laser_sight"]\nweapon = "pump_action_shot_gun"',
     "[stephen].sights: sights give the Pump action Shot Gun nothing (A-14.5)"),
])
def test_a_templates_sights_are_checked(bundle, new, problem):
    if "pump" in new:  # TV-A18: a shotgun takes no sights
        ruleset_folder.edit(bundle, "annihilation", "units.toml", 'weapon = "smg_9mm"\n', "")
        ruleset_folder.edit(bundle, "annihilation", "units.toml", "clips = 3\n", "")
    ruleset_folder.edit(bundle, "annihilation", "units.toml", 'sights = ["laser_sight"]', new)
    assert ruleset_folder.problems(bundle, "annihilation", deploy_schema.SCHEMA) == [
        f"annihilation/units.toml: {problem}"]
