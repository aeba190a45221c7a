"""xxxzone sections 14.2, 14.3 and 15: training, Luck and base building; vectors 53-57 of section 17."""

from __future__ import annotations

import attrs
import pytest

from engine.core.dice import Dice
from engine.rules.xxxzone import campaign
from engine.rules.xxxzone.character import pregen
from engine.rules.xxxzone.campaign import Cost

from test_xxxzone_content import load_book


@pytest.fixture
def book():
    return load_book()


def with_attrs(book, **values):
    op = pregen(book, "john")
    return attrs.evolve(op, attributes=attrs.evolve(op.attributes, **values))


def test_v53_training_attributes(book):
    assert campaign.attribute_days(book, with_attrs(book, strength=3), "strength", "training_gym") == 12
    assert campaign.attribute_days(book, with_attrs(book, strength=5), "strength", "training_gym") == 18
    assert campaign.attribute_days(book, with_attrs(book, strength=6), "strength", "training_gym").code == "cap"
    assert campaign.attribute_days(book, with_attrs(book, agility=3), "agility", "firing_range") == 12
    assert campaign.attribute_days(book, with_attrs(book, agility=4), "agility", "firing_range").code == "cap"
    assert campaign.attribute_days(book, with_attrs(book), "strength", "class_room").code == "wrong_facility"
    assert book.facilities["training_gym"].needs == "bio_chemist"


def test_v54_ability_days(book):
    op = with_attrs(book, agility=6, perception=5)
    assert campaign.ability_days(book, op, "run_and_gun") == 6
    assert campaign.ability_days(book, op, "akimbo") == 18
    assert campaign.ability_days(book, op, "guardian") == 24
    assert campaign.ability_days(book, attrs.evolve(op, abilities=("action_boy",)), "action_boy") == 12
    assert campaign.ability_days(book, with_attrs(book, agility=1), "run_and_gun").code == "attribute_low"


def test_v55_build_time(book):
    assert campaign.build_hours(book.facilities["command_center"].man_days, 5) == 288
    assert campaign.build_hours(book.facilities["radar_tower"].man_days, 7) == 69
    assert campaign.build_hours(book.facilities["barracks"].man_days, 3) == 160
    assert campaign.build_hours(20, 0).code == "no_engineers"


def test_v56_excavation_and_silo(book):
    assert campaign.cost(book, "excavation", layer=3) == Cost(150, 3)
    assert campaign.cost(book, "missile_silo", excavated=False) == Cost(200, 4)
    assert campaign.cost(book, "missile_silo") == Cost(120, 3)


def test_v57_new_base(book):
    flat, parts = campaign.new_base(book)
    assert flat == Cost(320, 10) and parts == Cost(320, 8)


def test_facility_shapes(book):
    assert book.facilities["command_center"].shape == [".X.", "XXX", ".X."]
    assert sum(row.count("X") for row in book.facilities["barracks"].shape) == 4


def test_luck_binge(book):
    op = with_attrs(book, luck=2)
    raised, refund, rolls = campaign.gamble(Dice.scripted([3, 10]), book, op)
    assert raised.attributes.luck == 3 and refund and [r.formula for r in rolls] == ["d10 3 > Luck 2", "d100 10 ≤ 10"]
    same, refund, _ = campaign.gamble(Dice.scripted([2, 11]), book, op)
    assert same.attributes.luck == 2 and not refund
    top, _, _ = campaign.gamble(Dice.scripted([10, 100]), book, with_attrs(book, luck=10))
    assert top.attributes.luck == 10


def test_healing_and_convalescence(book):
    from engine.rules.xxxzone.wounds import Wounds

    op = pregen(book, "johnny")
    assert campaign.heal_days(Dice.scripted([4]), book, op, "minor").total == 4
    fast = attrs.evolve(op, abilities=("fast_healing",))
    roll = campaign.heal_days(Dice.scripted([1, 2, 3]), book, fast, "mortal")
    assert (roll.expr, roll.total) == ("3d10", 6)
    assert campaign.can_deploy(op, Wounds(minor=3)) is None
    assert campaign.can_deploy(op, Wounds(mortal=1)).reason == "Johnny Miller is convalescing (1 serious wound to heal)"
