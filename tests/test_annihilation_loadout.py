"""annihilation templates load a weapon that is not clip-fed with their `ammo` (units.toml), cross-checked, so a
cannon, rocket launcher or grenade launcher deploys ready to fire."""

from __future__ import annotations

import attrs
import pytest

import ruleset_folder
from engine.content import loader, tables
from engine.rules.annihilation import deploy_schema
from engine.rules.annihilation.book import Book
from engine.rules.annihilation import schema as rules
from engine.rules.annihilation.deploy_schema import SCHEMA
from engine.rules.annihilation.hits import round_of
from engine.rules.annihilation.soldier import kit_of

FOLDER = "annihilation"


@pytest.fixture(scope="module")
def tables_():
    return tables.load_folder(loader.default_dir(), FOLDER, SCHEMA)


@pytest.fixture(scope="module")
def book():
    return Book.of(tables.load_folder(loader.default_dir(), FOLDER, rules.SCHEMA))


def test_the_heavy_gunner_deploys_with_his_cannon_loaded_on_the_harness(tables_, book):
    cannon, ap, he = kit_of(book, tables_["units"]["boris"])
    assert (cannon.id, cannon.loaded, cannon.rounds, cannon.place) == ("thunder_hc", "thunder_hc_ap", 6, "both_straps")
    assert [(c.id, c.size, c.place, c.rounds) for c in (ap, he)] == [  # his spare shell clips (A-15.4: size B)
        ("thunder_hc_ap", "B", "belt", 6), ("thunder_hc_he", "B", "belt", 6)]
    rnd = round_of(book, cannon.id, cannon.loaded)
    assert (rnd.damage, rnd.radius, rnd.type) == (65, -1, "armor_piercing")  # ammo.toml's AP shell


def test_a_grenade_launcher_deploys_with_its_grenades(tables_, book):
    t = attrs.evolve(tables_["units"]["boris"], weapon="air_powered_gl", ammo="hand_grenade", harness=False)
    gl = kit_of(book, t)[0]
    assert (gl.loaded, gl.rounds, gl.place) == ("hand_grenade", 6, "both_hands")
    assert round_of(book, gl.id, gl.loaded).damage == book.explosives["hand_grenade"].damage


@pytest.fixture
def bundle(tmp_path):
    return ruleset_folder.copy(tmp_path, FOLDER)


def _problems(bundle, old, new, spares=False):
    """The problems after one edit of units.toml; Boris's spare rounds go first unless the edit is about them."""
    if not spares and "spares" not in old:
        ruleset_folder.edit(bundle, FOLDER, "units.toml", "spares = { thunder_hc_ap = 1, thunder_hc_he = 1 }\n", "")
    ruleset_folder.edit(bundle, FOLDER, "units.toml", old, new)
    return ruleset_folder.problems(bundle, FOLDER, deploy_schema.SCHEMA)


@pytest.mark.parametrize(("old", "new", "problem"), [
    ('ammo = "thunder_hc_ap"\n', "", "[boris].ammo: the Thunder HC deploys loaded: name its round"),
    ('ammo = "thunder_hc_ap"', 'ammo = "thor_hc_ap"', "[boris].ammo: 'thor_hc_ap' is no ammo.toml round for the Thunder HC"),
    ('weapon = "thunder_hc"', 'weapon = "air_powered_gl"', "[boris].ammo: the Air Powered GL fires size-A grenades of "
                                                           "explosives.toml, not 'thunder_hc_ap'"),
    ('spares = { thunder_hc_ap = 1,', 'spares = { thor_hc_ap = 1,',
     "[boris].spares: 'thor_hc_ap' is no ammo.toml round for the Thunder HC"),
    ('spares = { thunder_hc_ap = 1, thunder_hc_he = 1 }', 'spares = { thunder_hc_ap = 1, thunder_hc_he = 0 }',
     "[boris].spares: thunder_hc_he = 0: at least 1"),
])
def test_a_templates_ammo_is_cross_checked(bundle, old, new, problem):
    assert _problems(bundle, old, new) == [f"{FOLDER}/units.toml: {problem}"]


def test_spare_rounds_are_for_a_weapon_fed_by_rounds(bundle):
    problems = _problems(bundle, 'weapon = "thunder_hc"\nammo = "thunder_hc_ap"\n', 'weapon = "m_17"\n', spares=True)
    assert problems == [f"{FOLDER}/units.toml: [boris].spares: spare rounds are for a weapon fed by ammo.toml "
                        "rounds (a cannon, a rocket launcher)"]
