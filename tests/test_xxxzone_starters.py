"""A new xxxzone campaign begins with the ten pre-generated operatives of section 12 (issue 11's default squad
pool, `Creation.starters`), recruits made later are 14.1's; a campaign given roster characters keeps those."""

from __future__ import annotations

import attrs
import pytest

from engine.campaign import simulate
from engine.campaign.ledger import Ledger
from engine.campaign.verify import verify
from engine.content import loader
from engine.core.creation import Character
from engine.core.dice import Dice, seed_from_int
from engine.core.ruleset import make
from engine.play import roster
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.character import derive
from engine.rules.xxxzone.downtime import XxxzoneDowntime
from tui.cli import main

from test_xxxzone_characters import TABLE

RULESET = "xxxzone"
PREGENS = ("Johnny Miller", "Trevor McDougal", "Bruce Mitchel", "Cane McClain", "Dane McKinnon", "Vadin Smirnov",
           "Helmut Hartmann", "Sam Jones", "Marcel Valjean", "John Christoph")


@pytest.fixture(scope="module")
def content():
    return loader.load()


@pytest.fixture(scope="module")
def creation(content):
    return make(RULESET, content, None).creation()


def test_the_starters_are_section_12s_ten_operatives_and_valid_records(content, creation):
    starters = creation.starters()
    assert tuple(s.name for s in starters) == PREGENS
    assert roster.validate(content, [Character(RULESET, s) for s in starters]) == []
    johnny = starters[0]
    assert (johnny.star, johnny.armour, johnny.codename, johnny.drawn) == ("luck", "type3", "Hot Stuff", "assault_rifle")
    assert johnny.abilities == ("explosives_expert", "run_and_gun", "sneak_attack")
    assert johnny.attributes.agility == 7 and johnny.attributes.luck == 10
    assert creation.describe(starters[1]) == ("Operative", "S4 P5 E3 C4 I2 A10 L6  AP 14 Acc 110")  # Action Boy


@pytest.mark.parametrize("cid", sorted(TABLE))
def test_each_starter_derives_section_3s_numbers_and_deploys_as_its_characters_row(content, creation, cid):
    book = Book.of(content.rules[RULESET])
    record = next(s for s in creation.starters() if s.name == book.characters[cid].name)
    op = XxxzoneDowntime(content).op(record)  # training and gambling read the operative this way
    d_ = derive(op, book)
    assert (d_.accuracy, d_.action_points, d_.fortitude, d_.sneak, d_.sight, d_.willpower, d_.carry,
            d_.max_capacity) == TABLE[cid]
    deployed = Book.of(creation.deploy("eliminate", [record]).rules[RULESET])
    row = next(c for c in deployed.characters.values() if c.name == record.name and c is not book.characters[cid])
    assert row == book.characters[cid]  # the very numbers, star, armour, kit and abilities of characters.toml


def test_a_starter_out_of_its_printed_numbers_is_refused(creation):
    sam = creation.starters()[7]
    bent = attrs.evolve(sam, attributes=attrs.evolve(sam.attributes, perception=11), star="speed")
    assert creation.validate(bent) == [".attributes.perception: 11 is outside 0 to 10",
                                       ".star: 'speed' is not an attribute"]
    made = attrs.evolve(sam, name="Ash")  # a made recruit still has 14.1's limits
    assert ".attributes.perception: 10 is outside 2 to 6" in creation.validate(made)


def test_the_other_rulesets_name_no_starters(content):
    for rid in ("xcom-trpg", "annihilation", "neo-troops"):
        assert make(rid, content, None).creation().starters() == ()


def test_a_new_campaign_begins_with_the_pregens_and_given_characters_are_kept(content, creation, tmp_path):
    book = Ledger.new(content, tmp_path / "a", "a", RULESET, seed_from_int(3), 3, [])
    assert tuple(r.name for r in book.state.records) == PREGENS
    assert [r["name"] for r in book.header["records"]] == list(PREGENS)  # in the header: verify re-derives them
    book.close()
    ash, _ = creation.create(attrs.evolve(creation.draft(), name="Ash"), Dice.scripted([2, 3, 4, 1, 2, 3, 4]))
    book = Ledger.new(content, tmp_path / "b", "b", RULESET, seed_from_int(3), 3, [Character(RULESET, ash)])
    assert tuple(r.name for r in book.state.records) == ("Ash",)
    book.close()


def test_cli_campaign_new_says_where_its_squad_came_from(tmp_path, capsys):
    assert main(["--saves", str(tmp_path), "campaign", "new", "--ruleset", RULESET, "--seed", "4"]) == 0
    assert "10 characters (pre-generated)" in capsys.readouterr().out
    assert main(["--saves", str(tmp_path), "campaign", "new", "--ruleset", "neo-troops", "--seed", "4"]) == 0
    assert "(recruited)" in capsys.readouterr().out


@pytest.mark.slow
def test_a_simulated_month_of_the_pregens_verifies(content, tmp_path):
    folder = tmp_path / "month"
    book = Ledger.new(content, folder, "month", RULESET, seed_from_int(2), 2, [])
    summary = simulate.play(book, 1)
    book.close()
    assert summary.flown >= 1 and summary.recruits >= 10
    report = verify(content, folder)
    assert report.failure is None and report.missions == summary.flown
