"""A ruleset's own content: the tables it declares (engine.content.tables) are read from `content/<id>/` and each
mod's `<mod>/<id>/`, merged by id, checked by the ruleset's models and cross-checks, one located line a mistake, and
covered by the bundle hash. The test-only d6 ruleset declares `d6-stub/dice.toml`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.content import loader, tables
from engine.core import ruleset

import stub_ruleset
from test_content_layers import mod, problems


@pytest.fixture
def bundle(tmp_path) -> Path:
    """The built-in content with the stub's folder in it."""
    root = tmp_path / "bundle"
    shutil.copytree(loader.default_dir(), root, ignore=shutil.ignore_patterns("__pycache__"))
    (root / stub_ruleset.ID).mkdir()
    (root / stub_ruleset.ID / "dice.toml").write_text("[standard]\nhit = 6\nsave = 2\n")
    return root


def odds_of(content) -> tuple[int, int]:
    rs = ruleset.make(stub_ruleset.ID, content, None)
    return rs.hit, rs.save


def test_the_registry_gives_each_rulesets_schema():
    assert ruleset.schema(stub_ruleset.ID) is stub_ruleset.D6Stub.schema
    assert set(ruleset.schema("xcom-trpg").files) == {"rulesets.toml", "races.toml", "armor.toml", "weapons.toml",
                                                      "units.toml", "psionics.toml", "items.toml",
                                                      "campaign.toml", "quests.toml"}
    assert ruleset.schema("xcom-trpg").between == ("campaign.toml", "quests.toml")  # outside the mission hash


def test_without_its_folder_a_ruleset_has_empty_tables(content):
    assert content.rules[stub_ruleset.ID] == {"dice": {}}
    assert odds_of(content) == (4, 5)


def test_the_folder_is_read_and_played(bundle):
    content = loader.load(bundle)
    assert content.rules[stub_ruleset.ID]["dice"]["standard"] == stub_ruleset.Odds(hit=6, save=2)
    assert odds_of(content) == (6, 2)


def test_a_mod_patches_the_rulesets_table_by_id(bundle, tmp_path):
    before = loader.load(bundle)
    patch = mod(tmp_path / "harder", **{f"{stub_ruleset.ID}__dice.toml": "[standard]\nsave = 6\n[elite]\nhit = 3\n"})
    content = loader.load([bundle, patch])
    dice = content.rules[stub_ruleset.ID]["dice"]
    assert dice["standard"] == stub_ruleset.Odds(hit=6, save=6) and dice["elite"] == stub_ruleset.Odds(hit=3)
    assert content.sha_for(stub_ruleset.ID) != before.sha_for(stub_ruleset.ID)  # the hash covers the layer used
    assert content.sha_for("xcom-trpg") == before.sha_for("xcom-trpg")  # ...and only that ruleset's logs
    gone = mod(tmp_path / "gone", **{f"{stub_ruleset.ID}__dice.toml": "[standard]\ndelete = true\n"})
    assert loader.load([bundle, gone]).rules[stub_ruleset.ID]["dice"] == {}


def test_an_unknown_key_is_one_located_line(bundle):
    (bundle / stub_ruleset.ID / "dice.toml").write_text("[standard]\nhitt = 6\n")
    assert problems(bundle) == [f"{stub_ruleset.ID}/dice.toml: [standard]: unknown key 'hitt' (did you mean 'hit'?)"]


def test_a_wrong_type_in_a_mod_names_the_mods_file(bundle, tmp_path):
    patch = mod(tmp_path / "oops", **{f"{stub_ruleset.ID}__dice.toml": '[standard]\nhit = "six"\n'})
    assert problems(bundle, patch) == [f'oops/{stub_ruleset.ID}/dice.toml: [standard].hit: expected integer, got "six"']


def test_the_rulesets_cross_check_names_the_layer_that_wrote_the_id(bundle, tmp_path):
    patch = mod(tmp_path / "loaded", **{f"{stub_ruleset.ID}__dice.toml": "[standard]\nhit = 7\n"})
    assert problems(bundle, patch) == [f"loaded/{stub_ruleset.ID}/dice.toml: [standard].hit: expected a face 2 to 6, "
                                       "got 7"]


def test_a_folder_loads_alone_for_tools(bundle):
    got = tables.load_folder(bundle, stub_ruleset.ID, stub_ruleset.D6Stub.schema)
    assert got == {"dice": {"standard": stub_ruleset.Odds(hit=6, save=2)}}
    (bundle / stub_ruleset.ID / "dice.toml").write_text("[standard]\nsave = 1\n")
    with pytest.raises(loader.ContentError) as caught:
        tables.load_folder(bundle, stub_ruleset.ID, stub_ruleset.D6Stub.schema)
    assert caught.value.messages == [f"{stub_ruleset.ID}/dice.toml: [standard].save: expected a face 2 to 6, got 1"]
