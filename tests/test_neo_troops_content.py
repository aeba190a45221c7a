"""neo-troops content: `content/neo-troops/` loads through its Schema, holds the spec's numbers, and every mistake is
one located line."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruleset_folder
from engine.content import loader, tables
from engine.core.dice import Dice
from engine.rules.neo_troops import care, shooting, unit
from engine.rules.neo_troops.schema import SCHEMA

FOLDER = "neo-troops"


def problems(root: Path) -> list[str]:
    return ruleset_folder.problems(root, FOLDER, SCHEMA)


def edit(root: Path, name: str, old: str, new: str) -> None:
    ruleset_folder.edit(root, FOLDER, name, old, new)


@pytest.fixture
def bundle(tmp_path) -> Path:
    return ruleset_folder.copy(tmp_path, FOLDER)


def test_the_bundle_loads_with_the_spec_tables():
    t = tables.load_folder(loader.default_dir(), FOLDER, SCHEMA)
    assert {k: v.tn for k, v in t["difficulties"].items()} == {
        "simple": 2, "easy": 3, "normal": 4, "hard": 5, "very_hard": 6}
    assert {k: v.av for k, v in t["cover"].items()} == {"light": 1, "heavy": 2}
    assert {k: t["difficulties"][v.difficulty].tn for k, v in t["sighting"].items()} == {
        "attacked": 3, "ran": 4, "moved": 5, "stationary": 6}
    assert t["criticals"]["varan"].faces[5] == "massive" and t["criticals"]["massive"].repeat == "killed"
    v, g = unit.build("v", "a", "varan", t), unit.build("g", "b", "goon", t)
    assert (v.av, v.save, v.hp, v.move_m, v.run_m, v.max_load_kg, v.cloaked) == (5, 4, 3, 10, 20, 60.0, True)
    assert (g.av, g.save, g.hp, g.max_load_kg, g.cloaked) == (4, None, 1, 40.0, False)
    rifle = t["weapons"]["plasma_rifle"]
    assert (rifle.rof, rifle.long_range, rifle.save_mod) == (4, 25, -1)


def test_the_formulas_of_the_settings_are_evaluated():
    t = tables.load_folder(loader.default_dir(), FOLDER, SCHEMA)
    s = t["settings"]["default"]
    assert shooting.throw_reach(t["weapons"]["grenade"], s) == 16  # 2 × long_range 8
    v = unit.build("v", "a", "varan", t, cloak="damaged")
    repair, roll = care.start_repair(Dice.scripted([4]), v, "cloak", s)
    assert repair.needed == 40 and roll.faces == (4,)
    assert roll.formula == "repair cloak: 4*10=40 actions"


def test_an_unknown_key_is_one_located_line(bundle):
    edit(bundle, "weapons.toml", "rof = 4\n", "rff = 4\n")
    assert problems(bundle) == ["neo-troops/weapons.toml: [plasma_rifle]: unknown key 'rff' (did you mean 'rof'?)"]


def test_a_wrong_type_is_one_located_line(bundle):
    edit(bundle, "armour.toml", "save = 4\n", 'save = "4+"\n')
    assert problems(bundle) == ['neo-troops/armour.toml: [battlesuit].save: expected integer, got "4+"']


def test_a_bad_reference_is_one_located_line(bundle):
    edit(bundle, "characters.toml", 'weapons = ["plasma_rifle", "pistol"]', 'weapons = ["plasma_rifel", "pistol"]')
    assert problems(bundle) == ["neo-troops/characters.toml: [varan].weapons: unknown weapon 'plasma_rifel'"]


def test_a_difficulty_reference_and_a_critical_face_are_checked(bundle):
    edit(bundle, "sighting.toml", 'difficulty = "hard"', 'difficulty = "tricky"')
    edit(bundle, "criticals.toml", '"head", "massive"', '"head", "masive"')
    assert problems(bundle) == ["neo-troops/sighting.toml: [moved].difficulty: unknown difficulty 'tricky'",
                                "neo-troops/criticals.toml: [varan].faces: unknown effect or table 'masive'"]


def test_a_formula_with_an_unknown_name_is_refused(bundle):
    edit(bundle, "settings.toml", 'throw_reach = "2 * long_range"', 'throw_reach = "2 * long_rnage"')
    assert problems(bundle) == ["neo-troops/settings.toml: [default].throw_reach: unknown name 'long_rnage'"]


def test_a_face_out_of_range_is_refused(bundle):
    edit(bundle, "difficulties.toml", "[very_hard]\ntn = 6", "[very_hard]\ntn = 7")
    assert problems(bundle) == ["neo-troops/difficulties.toml: [very_hard].tn: expected a face 2 to 6, got 7"]


def test_combined_weapons_are_among_the_characters_weapons(bundle):
    edit(bundle, "characters.toml", 'crit_table = "varan"\n',
         'crit_table = "varan"\ncombined = [["plasma_rifle", "pistol"]]\n')
    t = tables.load_folder(bundle, FOLDER, SCHEMA)
    assert unit.build("v", "a", "varan", t).combined == (("plasma_rifle", "pistol"),)
    edit(bundle, "characters.toml", '["plasma_rifle", "pistol"]]', '["plasma_rifle", "heavy_plasma"]]')
    assert problems(bundle) == ["neo-troops/characters.toml: [varan].combined: 'heavy_plasma' is not among its weapons"]


def test_critical_tables_that_loop_are_refused(bundle):
    edit(bundle, "criticals.toml", '"severe", "severe", "severe"', '"varan", "severe", "severe"')
    assert problems(bundle) == ["neo-troops/criticals.toml: [varan].faces: the tables loop back to 'varan'",
                                "neo-troops/criticals.toml: [massive].faces: the tables loop back to 'massive'"]
