"""content/annihilation/: the ruleset's tables load through its Schema; a mistake is one located line."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruleset_folder
from engine.content import loader, tables
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.inventory import size_of
from engine.rules.annihilation.schema import SCHEMA, boxes
from engine.rules.annihilation.space import diamond, hexagon

FOLDER = "annihilation"


def problems(root: Path) -> list[str]:
    return ruleset_folder.problems(root, FOLDER, SCHEMA)


def edit(root: Path, name: str, old: str, new: str) -> None:
    ruleset_folder.edit(root, FOLDER, name, old, new)


@pytest.fixture
def bundle(tmp_path) -> Path:
    return ruleset_folder.copy(tmp_path, FOLDER)


def test_the_tables_load_and_hold_the_specs_rows():
    book = Book.of(tables.load_folder(loader.default_dir(), FOLDER, SCHEMA))
    assert len(book.weapons) == 53 and len(book.armour) == 13 + 2 and len(book.explosives) == 9  # + two alien hides
    assert sum(1 for w in book.weapons.values() if w.family in ("plasma", "fusion")) == 6
    assert sum(1 for a in book.ammo.values() if a.weapon == "rocket_launcher") == 3
    rifle = book.weapons["mk2v_assault_rifle"]
    assert (rifle.modes["aimed"].accuracy, rifle.modes["aimed"].tu, rifle.damage, rifle.capacity) == (110, 80, 35, 20)
    assert [boxes(s) for s in "ABCDEFGHIJ"] == list(range(1, 11))
    assert [b.size for b in book.blasts.values()] == [5, 9, 13, 15, 17, 21, 31]


def test_an_unknown_key_is_one_located_line(bundle):
    edit(bundle, "weapons.toml", "[m_17]\n", "[m_17]\ndamge = 3\n")
    assert problems(bundle) == [f"{FOLDER}/weapons.toml: [m_17]: unknown key 'damge' (did you mean 'damage'?)"]


def test_a_bad_reference_is_one_located_line(bundle):
    edit(bundle, "ammo.toml", 'weapon = "thor_hc"', 'weapon = "thor"')
    assert problems(bundle) == [f"{FOLDER}/ammo.toml: [thor_hc_ap].weapon: unknown weapon 'thor'"]


def test_a_formula_with_an_unknown_name_is_one_located_line(bundle):
    edit(bundle, "settings.toml", 'skill_slots = "education / 4"', 'skill_slots = "eduction / 4"')
    assert problems(bundle) == [f"{FOLDER}/settings.toml: [standard].skill_slots: unknown name 'eduction' in "
                                "'eduction / 4'"]


def test_a_formula_that_could_divide_by_zero_is_refused(bundle):
    edit(bundle, "settings.toml", 'throw_range = "strength / 4"', 'throw_range = "4 / strength"')
    assert problems(bundle) == [f"{FOLDER}/settings.toml: [standard].throw_range: may divide by zero: strength can "
                                "be 0 (it ranges over 0 to 255)"]


def test_a_blast_size_must_match_its_radius(bundle):
    edit(bundle, "explosives.toml", "radius = 1\nblast_size = 3", "radius = 1\nblast_size = 5")
    assert problems(bundle) == [f"{FOLDER}/explosives.toml: [hand_grenade].blast_size: expected 2 × radius + 1 = 3, "
                                "got 5"]


def test_the_hit_location_table_must_cover_the_die(bundle):
    edit(bundle, "body.toml", "low = 18", "low = 19")
    assert len(problems(bundle)) == 1 and problems(bundle)[0].startswith(
        f"{FOLDER}/body.toml: the parts' low..high must cover 1..20 once each")


def test_a_cost_the_rules_use_cannot_be_left_out(bundle):
    edit(bundle, "costs.toml", "[jump]\n", "[leap]\n")
    assert problems(bundle) == [f"{FOLDER}/costs.toml: missing table [jump] (the rules use it)"]


def test_the_blast_tables_cell_counts():
    """Section 17's tables: cells 2r² + 2r + 1 on squares and 3r² + 3r + 1 on hexes, for every explosive and every
    named size."""
    book = Book.of(tables.load_folder(loader.default_dir(), FOLDER, SCHEMA))
    got = {k: (len(diamond((0, 0), e.radius)), len(hexagon((0, 0), e.radius))) for k, e in book.explosives.items()}
    assert got == {"hand_grenade": (5, 7), "phosphorus_grenade": (13, 19), "porcupine_grenade": (25, 37),
                   "proximity_grenade": (25, 37), "smoke_grenade": (113, 169), "new_alien_grenade": (181, 271),
                   "old_alien_grenade": (113, 169), "high_explosive": (13, 19), "land_mine": (5, 7)}
    named = [len(hexagon((0, 0), (b.size - 1) // 2)) for b in book.blasts.values()]
    assert named == [19, 61, 127, 169, 217, 331, 721]


def test_launched_ammunition_has_the_blasts_of_a_16_1():
    book = Book.of(tables.load_folder(loader.default_dir(), FOLDER, SCHEMA))
    radius = {k: a.radius for k, a in book.ammo.items()}
    assert all(r == -1 for k, r in radius.items() if k.endswith("_ap") or k == "arrow")
    assert {radius[f"{w}_{t}"] for w in ("thunder_hc", "thor_hc", "mk5_light_cannon") for t in ("he", "i")} == {2}
    assert {radius[f"{w}_{t}"] for w in ("mk5_ac", "buzz_saw_ac", "widow_maker_ac") for t in ("he", "i")} == {1}
    assert (radius["warhammer"], radius["incendiary_rocket"]) == (7, 4)
    assert [book.ammo[k].damage for k in ("mk5_light_cannon_ap", "mk5_light_cannon_he", "mk5_light_cannon_i")] == \
        [90, 80, 120]


def test_every_thing_carried_has_its_size():
    book = Book.of(tables.load_folder(loader.default_dir(), FOLDER, SCHEMA))
    assert [size_of(book, t) for t in ("m_17", "clip:m_17", "clip:thor_hc", "thor_hc_he", "warhammer",
                                       "hand_grenade", "land_mine", "medi_kit", "bandages")] == \
        ["D", "A", "B", "B", "C", "A", "B", "B", "A"]  # A-15.4: rifle clips A, cannon shells B, a rocket C
