"""The between-mission content of annihilation, neo-troops and xcom-trpg (campaign.toml, quests.toml): strict, one
located line per mistake, and outside each ruleset's mission hash."""

from __future__ import annotations

import shutil

import pytest

from engine.content import loader
from engine.content.strict import ContentError


@pytest.fixture
def bundle(tmp_path):
    root = tmp_path / "bundle"
    shutil.copytree(loader.default_dir(), root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _errors(root) -> list[str]:
    with pytest.raises(ContentError) as got:
        loader.load(root)
    return got.value.messages


@pytest.mark.parametrize("path, old, new, message", [
    ("annihilation/campaign.toml", "limb_days = 30", "limb_days = 30\nlimb_weeks = 4",
     "annihilation/campaign.toml: [standard]: unknown key 'limb_weeks'"),
    ("neo-troops/campaign.toml", "rest_days = 7", 'rest_days = "a week"',
     "neo-troops/campaign.toml: [default].rest_days"),
    ("xcom-trpg/campaign.toml", "mech_trooper = 384,", "mech_trooper = 384, sectoid = 10,",
     "xcom-trpg/campaign.toml: [standard].prices: 'sectoid' is not an epic race (2.4)"),
    ("xcom-trpg/campaign.toml", 'converts = ["mech_trooper", "gmz"]', 'converts = ["mech_trooper", "robot"]',
     "xcom-trpg/campaign.toml: [standard].converts: unknown race 'robot'"),
    ("xcom-trpg/quests.toml", 'goal = "calm"', 'goal = "zen"', "xcom-trpg/quests.toml: [clear_head].goal"),
])
def test_a_mistake_is_one_located_line(bundle, path, old, new, message):
    file = bundle / path
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new), encoding="utf-8")
    errors = _errors(bundle)
    assert len(errors) == 1 and errors[0].startswith(message), errors


def test_the_campaign_files_are_outside_the_mission_hash_but_the_battle_files_are_not(bundle, content):
    for path in ("annihilation/campaign.toml", "neo-troops/campaign.toml", "xcom-trpg/quests.toml"):
        (bundle / path).write_text((bundle / path).read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    edited = loader.load(bundle)
    for rid in ("annihilation", "neo-troops", "xcom-trpg"):
        assert edited.sha_for(rid) == content.sha_for(rid)
    races = bundle / "xcom-trpg" / "races.toml"
    races.write_text(races.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert loader.load(bundle).sha_for("xcom-trpg") != content.sha_for("xcom-trpg")


def test_a_bundle_without_the_campaign_files_loads_and_its_rulesets_have_the_defaults(bundle):
    from engine.core.ruleset import make

    for path in ("annihilation/campaign.toml", "neo-troops/campaign.toml", "xcom-trpg/campaign.toml",
                 "xcom-trpg/quests.toml"):
        (bundle / path).unlink()
    content = loader.load(bundle)
    assert make("annihilation", content, None).downtime().rules.limb_days == 30
    assert make("neo-troops", content, None).downtime().rules.rest_days == 7
    xcom = make("xcom-trpg", content, None).downtime()
    assert xcom.quests == {} and xcom.rules.prices == {}
