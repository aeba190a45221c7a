"""xxxzone sections 1-3, 12 and 14.1: effective attributes, derived statistics, the pre-gens, generation.

Vector ids are the spec's section 17 numbers (v01 = vector 1); every number it prints is checked.
"""

from __future__ import annotations

import attrs
import pytest

from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.rules.xxxzone import character, generation
from engine.rules.xxxzone.character import derive, encumbrance, pregen
from engine.rules.xxxzone.schema import Attributes, KitEntry

from test_xxxzone_content import load_book


@pytest.fixture
def book():
    return load_book()

# Section 3: Acc, AP, Fort, Sneak, Sight, Will, Carry, Max, computed with the starred attribute +1.
TABLE = {
    "johnny": (110, 10, 35, 45, 10, 28, 75, 175), "trevor": (110, 14, 23, 55, 10, 25, 65, 145),
    "bruce": (115, 9, 47, 25, 11, 42, 85, 205), "cane": (115, 9, 47, 25, 11, 41, 85, 205),
    "dane": (110, 9, 35, 25, 10, 40, 75, 175), "vadin": (105, 9, 75, 25, 9, 58, 125, 305),
    "helmut": (105, 8, 28, 20, 9, 39, 65, 150), "sam": (140, 11, 18, 25, 16, 15, 65, 140),
    "marcel": (110, 12, 7, 65, 10, 17, 35, 75), "john": (105, 7, 11, 10, 9, 17, 55, 115),
}


def stats(book, cid):
    d = derive(pregen(book, cid), book)
    return d.accuracy, d.action_points, d.fortitude, d.sneak, d.sight, d.willpower, d.carry, d.max_capacity


@pytest.mark.parametrize("cid", sorted(TABLE))
def test_section3_every_pregen_matches_the_computed_table(book, cid):
    assert stats(book, cid) == TABLE[cid]


def test_v01_johnny(book):
    d = derive(pregen(book, "johnny"), book)
    assert (d.accuracy, d.action_points, d.fortitude, d.sneak, d.sight, d.willpower) == (110, 10, 35, 45, 10, 28)
    assert (d.carry, d.max_capacity, d.fortitude_poison) == (75, 175, 55)
    assert pregen(book, "johnny").effective("luck") == 11 and pregen(book, "johnny").sheet("luck") == "Lck*10"


def test_v02_trevor(book):
    d = derive(pregen(book, "trevor"), book)
    assert (d.action_points, d.sneak, d.fortitude, d.willpower) == (14, 55, 23, 25)
    assert pregen(book, "trevor").sheet("agility") == "Agi*10"


def test_v03_bruce(book):
    d = derive(pregen(book, "bruce"), book)
    assert (d.fortitude, d.accuracy, d.sight, d.willpower, d.action_points) == (47, 115, 11, 42, 9)


def test_v04_cane(book):
    d = derive(pregen(book, "cane"), book)
    assert (d.accuracy, d.sight, d.fortitude, d.willpower) == (115, 11, 47, 41)


def test_v05_dane(book):
    d = derive(pregen(book, "dane"), book)
    assert (d.willpower, d.hack) == (40, 50)


def test_v06_vadin(book):
    d = derive(pregen(book, "vadin"), book)
    assert (d.fortitude, d.willpower, d.toughness, d.improved_toughness) == (75, 58, 14, 6)
    assert (d.carry, d.max_capacity) == (125, 305)


def test_v07_helmut(book):
    op = pregen(book, "helmut")
    d = derive(op, book)
    assert (d.willpower, d.action_points, d.toughness, d.medkit_uses) == (39, 8, 7, 8)
    kits = sum(e.count for e in op.kit if e.item == "medkit")
    assert kits * d.medkit_uses == 80


def test_v08_sam(book):
    d = derive(pregen(book, "sam"), book)
    assert (d.accuracy, d.sight, d.action_points, d.fortitude, d.sneak) == (140, 16, 11, 18, 25)


def test_v09_marcel(book):
    d = derive(pregen(book, "marcel"), book)
    assert (d.action_points, d.sneak, d.fortitude, d.willpower) == (12, 65, 7, 17)


def test_v10_john(book):
    op = pregen(book, "john")
    d = derive(op, book)
    assert (d.action_points, d.fortitude, d.accuracy, d.willpower) == (7, 11, 105, 17)
    assert op.star == "" and op.sheet("agility") == "Agi 2"


def test_v11_ap_by_agility(book):
    base = pregen(book, "john")
    got = [derive(attrs.evolve(base, attributes=attrs.evolve(base.attributes, agility=a)), book).action_points
           for a in range(12)]
    assert got == [6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12]
    boy = attrs.evolve(base, attributes=attrs.evolve(base.attributes, agility=4), abilities=("action_boy",) * 2)
    assert derive(boy, book).action_points == 12


def test_hack_and_locksmith_need_their_ability(book):
    johnny = pregen(book, "johnny")
    assert derive(johnny, book).hack is None and derive(johnny, book).locksmith is None
    picker = attrs.evolve(johnny, abilities=("lockpicker",))
    assert derive(picker, book).locksmith == 75  # 50 + 5*Per 5


def test_no_pregen_is_encumbered(book):
    for op in character.squad_pool(book):
        assert encumbrance(op, book) == "free", op.id
    marcel = pregen(book, "marcel")  # Carry 35, Max 75
    carried = character.load(marcel, book)
    assert encumbrance(marcel, book, extra=35 - carried) == "free"
    assert encumbrance(marcel, book, extra=35.5 - carried) == "burdened"
    assert encumbrance(marcel, book, extra=75.5 - carried) == "overloaded"


def test_strong_back_raises_carry_and_max(book):
    bruce = pregen(book, "bruce")
    backs = attrs.evolve(bruce, abilities=("strong_back", "herculean_back"))
    d = derive(backs, book)
    assert (d.carry, d.max_capacity) == (105, 255)


def test_iron_fist_is_a_weapon_of_its_holder(book):
    assert "iron_fist" in character.weapons_of(pregen(book, "vadin"), book)
    assert "iron_fist" not in character.weapons_of(pregen(book, "sam"), book)


def test_v58_operative_generation(book):
    dice = Dice.scripted([3, 1, 4, 2, 2, 4, 1])
    op, rolls = generation.generate(dice, book, "rookie", "Ann Rook", "f", "fresh from the academy")
    assert dice.scripted_left == 0
    assert op.attributes == Attributes(strength=4, perception=2, endurance=5, charisma=3, intelligence=3,
                                       agility=5, luck=2)
    assert rolls[0].formula == "1d4+1: 3+1=4" and [r.total for r in rolls] == [4, 2, 5, 3, 3, 5, 2]
    d = derive(op, book)
    assert (d.accuracy, d.action_points, d.fortitude, d.sneak, d.sight, d.willpower) == (95, 9, 33, 25, 7, 34)
    assert (d.carry, d.max_capacity) == (65, 155)
    assert op.armour == "type1" and op.drawn == "bullpup" and op.star == ""
    assert [(e.item, e.count, e.spares) for e in op.kit] == [("bullpup", 1, 7), ("sap_pistol", 1, 5), ("frag", 3, 0)]
    assert encumbrance(op, book) == "free"


@pytest.mark.parametrize("oid, name, kit, code", [
    ("Bad Id", "Ann", None, "bad_id"),
    ("ann", "  ", None, "no_name"),
    ("ann", "A" * 41, None, "long_name"),
    ("ann", "Ann", (KitEntry(item="frag", count=4),), "too_many"),
    ("ann", "Ann", (KitEntry(item="bullpup", spares=8),), "too_many"),
    ("ann", "Ann", (KitEntry(item="family_guy"),), "not_issued"),
    ("ann", "Ann", (KitEntry(item="frag"), KitEntry(item="frag")), "twice"),
])
def test_generation_refuses_with_a_reason(book, oid, name, kit, code):
    got = generation.generate(Dice.scripted([2] * 7), book, oid, name, kit=kit)
    assert isinstance(got, Rejected) and got.code == code and got.reason


def test_a_chosen_kit_within_the_limits_is_issued(book):
    op, _ = generation.generate(Dice.scripted([2] * 7), book, "ann", "Ann",
                                kit=(KitEntry(item="sap_pistol", spares=2), KitEntry(item="frag", count=2)))
    assert op.drawn == "sap_pistol" and [e.count for e in op.kit] == [1, 2]


def test_learning_abilities_checks_requirements(book):
    op, _ = generation.generate(Dice.scripted([3, 1, 4, 2, 2, 4, 1]), book, "rookie", "Ann")  # Agi 5, Per 2
    assert generation.can_learn(op, book, "run_and_gun") is None
    assert generation.can_learn(op, book, "akimbo").reason == "Akimbo needs Agi 6; Ann has 5"
    assert generation.can_learn(op, book, "very_steady_aim").code == "needs_ability"
    assert generation.can_learn(op, book, "disabling_shot").code == "not_trainable"
    assert generation.can_learn(op, book, "guardian").code == "attribute_low"  # PER 5 and AGI 3
    once = attrs.evolve(op, abilities=("action_boy",))
    assert generation.can_learn(once, book, "action_boy") is None  # rank 2 needs Agi 4
    twice = attrs.evolve(op, abilities=("action_boy", "action_boy"))
    assert generation.can_learn(twice, book, "action_boy").code == "known"
    assert generation.can_learn(op, book, "flying").code == "unknown_ability"


def test_enemies_are_read_like_operatives(book):
    z = character.enemy(book, "zhetan", 2)
    assert (z.id, z.name) == ("zhetan_2", "Zhetan in Power Armour 2")
    d = derive(z, book)
    assert (d.accuracy, d.action_points, d.toughness) == (110, 8, 10)
    assert book.armour[z.armour].dr == 55
    assert book.enemies["hover_drone"].mechanical and book.enemies["hover_drone"].flies
    boorus = character.enemy(book, "boorus")
    assert "boorus_claws" in character.weapons_of(boorus, book) and book.weapons["boorus_claws"].rider == "poison"


def test_the_floor_formulas_floor_for_every_value(book):
    base = pregen(book, "john")
    for v in range(12):
        op = attrs.evolve(base, attributes=attrs.evolve(base.attributes, endurance=v, intelligence=v),
                          abilities=("toughness", "improved_toughness", "medic"))
        d = derive(op, book)
        assert (d.toughness, d.improved_toughness, d.medkit_uses) == (3 + v, 1 + v // 2, 3 + v // 2), v
