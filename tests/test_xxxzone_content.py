"""xxxzone's content (content/xxxzone/) loads through its Schema, and every mistake is one located line."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

import ruleset_folder
from engine.content import loader, tables
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.schema import SCHEMA

ID = "xxxzone"


def problems(root: Path) -> list[str]:
    return ruleset_folder.problems(root, ID, SCHEMA)


def edit(root: Path, name: str, old: str, new: str) -> None:
    ruleset_folder.edit(root, ID, name, old, new)


@functools.cache
def load_book() -> Book:
    return Book.of(tables.load_folder(loader.default_dir(), ID, SCHEMA))


@pytest.fixture
def book() -> Book:
    return load_book()


@pytest.fixture
def folder(tmp_path) -> Path:
    return ruleset_folder.copy(tmp_path, ID)


def test_every_table_loads(book):
    assert len(book.characters) == 10 and {"type1", "type3", "type4"} <= set(book.armour)
    assert set(book.enemies) == {"zhetan", "hover_drone", "boorus", "boorus_queen", "civilian"}  # + terror's bystanders
    assert book.settings.overwatch_penalty == 20 and book.settings.revised_wounds is True
    assert book.tiers() == ["minor", "severe", "mortal", "lethal"]


def test_a_bad_key_is_one_located_line(folder):
    edit(folder, "weapons.toml", "recoil = 10\ncapacity = 45", "recoill = 10\ncapacity = 45")
    assert problems(folder) == [f"{ID}/weapons.toml: [assault_rifle]: unknown key 'recoill' (did you mean 'recoil'?)"]


def test_a_bad_reference_is_one_located_line(folder):
    edit(folder, "weapons.toml", 'ammo = ["mag_7mm"]', 'ammo = ["mag_7mn"]')
    assert problems(folder) == [f"{ID}/weapons.toml: [assault_rifle].ammo: unknown ammo 'mag_7mn'"]


def test_a_character_naming_an_unknown_ability_is_one_line(folder):
    edit(folder, "characters.toml", '"sneak_attack"]', '"sneek_attack"]')
    assert problems(folder) == [f"{ID}/characters.toml: [johnny].abilities: unknown ability 'sneek_attack'"]


def test_a_formula_with_an_unknown_name_is_refused(folder):
    edit(folder, "settings.toml", '"85 + 5*perception"', '"85 + 5*perceptoin"')
    assert problems(folder) == [f"{ID}/settings.toml: [standard].accuracy: unknown name 'perceptoin' in "
                                "'85 + 5*perceptoin'"]


def test_an_attribute_out_of_range_is_refused(folder):
    edit(folder, "characters.toml", "strength = 10, perception = 4", "strength = 12, perception = 4")
    assert problems(folder) == [f"{ID}/characters.toml: [vadin].attributes.strength: expected 0 to 10, got 12"]


def test_a_mode_firing_more_than_the_magazine_is_refused(folder):
    edit(folder, "weapons.toml", "rounds = 20, rolls = 3", "rounds = 201, rolls = 3")
    assert problems(folder) == [f"{ID}/weapons.toml: [family_guy].modes.spray.rounds: expected 1 to the capacity "
                                "200, got 201"]
