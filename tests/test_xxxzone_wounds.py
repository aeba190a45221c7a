"""xxxzone sections 7-9: tests, the revised wounds, statuses and the med-kit; vectors 41-48 of section 17."""

from __future__ import annotations

import attrs
import pytest

from engine.core.dice import Dice
from engine.rules.xxxzone import status
from engine.rules.xxxzone.character import pregen
from engine.rules.xxxzone.wounds import Condition, Wounds, penalty, turn_ap, vitals_of, will_test, wound

from test_xxxzone_content import load_book


@pytest.fixture
def book():
    return load_book()


def scripted(faces):
    return Dice.scripted(list(faces))


def used(dice):
    assert dice.scripted_left == 0, "every scripted die must be used"


def test_v41_will_test(book):
    johnny = vitals_of(pregen(book, "johnny"), book)
    assert johnny.willpower == 28
    dice = scripted([73, 72, 83, 82])
    ok = will_test(dice, book, johnny, Condition(), "test", 0)
    assert ok.passed and ok.roll.formula == "d100 73 + Will 28 = 101 > 100: pass"
    fail = will_test(dice, book, johnny, Condition(), "test", 0)
    assert not fail.passed and fail.roll.total == 100
    two = Wounds(minor=2)
    assert penalty(book, two) == 10
    assert will_test(dice, book, johnny, Condition(wounds=two), "test", penalty(book, two)).passed  # 83
    last = will_test(dice, book, johnny, Condition(wounds=two), "test", penalty(book, two))
    assert not last.passed and last.roll.formula == "d100 82 + Will 28 − wounds 10 = 100 ≤ 100: fail"
    used(dice)


def test_disoriented_will_test_takes_50(book):
    johnny = vitals_of(pregen(book, "johnny"), book)
    t = will_test(scripted([100]), book, johnny, Condition(disoriented=1), "test", 0)
    assert t.roll.total == 78 and not t.passed


def test_v42_minor_ap_loss(book):
    johnny = vitals_of(pregen(book, "johnny"), book)
    dice = scripted([1, 1])
    first = wound(dice, book, johnny, Condition(), "minor")
    assert first.condition.ap_next == "half"
    assert turn_ap(first.condition, 9) == 5 and turn_ap(first.condition, 14) == 7
    second = wound(dice, book, johnny, first.condition, "minor")
    assert second.condition.ap_next == "none" and turn_ap(second.condition, 9) == 0
    used(dice)
    after, ap = status.start_turn(status.new_round(second.condition), 9)
    assert ap == 0 and after.ap_next == "full" and after.minor_fails == 0
    assert status.start_turn(after, 9)[1] == 9


def test_v43_penalty_stacking(book):
    w = Wounds(minor=3, severe=2)
    assert penalty(book, w) == 40
    w = attrs.evolve(w, mortal=2)
    assert penalty(book, w) == 90
    johnny = vitals_of(pregen(book, "johnny"), book)
    got = wound(scripted([100]), book, johnny, Condition(wounds=w), "minor")
    assert penalty(book, got.condition.wounds) == 100
    assert got.condition.unconscious and got.condition.disabled and not got.condition.can_act


def test_v44_toughness(book):
    vadin = vitals_of(pregen(book, "vadin"), book)
    c = Condition()
    dice = scripted([])
    for _ in range(14):
        got = wound(dice, book, vadin, c, "minor")
        assert got.rolls == () and got.notes == ("Minor wound ignored (Toughness)",)
        c = got.condition
    assert c.wounds.minor == 0 and c.wounds.ignored_minor == 14
    dice = scripted([50, 50])
    c = wound(dice, book, vadin, c, "minor").condition  # the 15th counts, no penalty
    assert (c.wounds.minor, penalty(book, c.wounds)) == (1, 0)
    c = wound(dice, book, vadin, c, "minor").condition
    assert penalty(book, c.wounds) == 10
    used(dice)


def test_improved_toughness_spares_severe_wounds_whose_test_passes(book):
    vadin = vitals_of(pregen(book, "vadin"), book)
    assert vadin.improved_toughness == 6
    c = Condition()
    dice = scripted([50] * 6 + [50, 50, 1])
    for _ in range(6):
        c = wound(dice, book, vadin, c, "severe").condition
    assert (c.wounds.spared_severe, c.wounds.severe, penalty(book, c.wounds)) == (6, 0, 0)
    c = wound(dice, book, vadin, c, "severe").condition
    c = wound(dice, book, vadin, c, "severe").condition
    assert penalty(book, c.wounds) == 20
    stunned = wound(dice, book, vadin, c, "severe")  # 1 + 58 = 59: fails
    assert stunned.condition.stunned == 1 and turn_ap(stunned.condition, 9) == 0
    used(dice)


def test_v45_mortal_chain(book):
    bruce = vitals_of(pregen(book, "bruce"), book)
    dice = scripted([50, 60])
    got = wound(dice, book, bruce, Condition(), "mortal")
    assert [r.formula for r in got.rolls] == ["d100 50 + Will 42 = 92 ≤ 100: fail",
                                              "d100 60 + Fort 47 = 107 > 100: pass"]
    assert got.condition.unconscious and not got.condition.dying and not got.condition.dead
    assert penalty(book, got.condition.wounds) == 0
    used(dice)


def test_v46_lethal_chain(book):
    sam = vitals_of(pregen(book, "sam"), book)
    dice = scripted([90, 80])
    got = wound(dice, book, sam, Condition(), "lethal")
    assert [r.total for r in got.rolls] == [108, 95]
    assert not got.condition.dead and got.condition.unconscious
    dead = wound(scripted([82]), book, sam, Condition(), "lethal")  # 82 + 18 = 100: fails
    assert dead.condition.dead and dead.notes == ("Dead",)
    used(dice)


def test_v47_dying(book):
    bruce = vitals_of(pregen(book, "bruce"), book)
    dice = scripted([60, 1, 1])  # Will passes (102), Fort fails (48), 1d4 = 1
    got = wound(dice, book, bruce, Condition(), "mortal")
    used(dice)
    c = got.condition
    assert c.dying == 1 and not c.unconscious and c.can_act  # a conscious Dying entity acts
    c, ap = status.start_turn(c, 9)
    assert ap == 9
    assert status.end_turn(scripted([]), book, bruce, c).condition.dead  # at the end of its own next turn
    treated = status.treat(book, c, "stabilise")
    assert treated.dying == 0 and treated.wounds.mortal == 1  # it keeps the wound
    assert not status.end_turn(scripted([]), book, bruce, treated).condition.dead
    cost = status.medkit_cost(scripted([3, 4, 5, 6]), book, "helmut", frozenset())
    assert (cost.total, cost.formula) == (18, "4d6: 3+4+5+6=18")
    medic = status.medkit_cost(scripted([3, 4, 5]), book, "helmut", frozenset({"medic"}))
    assert medic.total == 12 and medic.expr == "3d6"


def test_wounded_during_its_own_turn_counts_from_the_next(book):
    bruce = vitals_of(pregen(book, "bruce"), book)
    c = wound(scripted([60, 1, 1]), book, bruce, Condition(), "mortal", own_turn=True).condition
    c = status.end_turn(scripted([]), book, bruce, c).condition
    assert not c.dead and c.dying == 1
    assert status.end_turn(scripted([]), book, bruce, c).condition.dead


def test_v48_poison(book):
    johnny = vitals_of(pregen(book, "johnny"), book)
    c = Condition(poison="poisoned", wounds=Wounds(minor=1))
    dice = scripted([80, 20])  # the Minor test passes; Fort 20 + 35 + 20 - 10 = 65: still poisoned
    got = status.end_turn(dice, book, johnny, c)
    assert got.condition.wounds.minor == 2 and got.condition.poison == "poisoned"
    assert got.rolls[1].formula == "d100 20 + Fort vs poison 55 − wounds 10 = 65 ≤ 100: fail"
    dice = scripted([80, 60])  # 60 + 55 - 20 = 95... and 66 would end it
    again = status.end_turn(dice, book, johnny, got.condition)
    assert again.condition.poison == "poisoned" and again.rolls[1].total == 95
    ends = status.end_turn(scripted([80, 80]), book, johnny, again.condition)  # 80 + 55 - 30 = 105
    assert ends.condition.poison == "" and ends.rolls[1].total == 105
    used(dice)


def test_toxin_wounds_severely_and_is_harder_to_shake(book):
    vadin = vitals_of(pregen(book, "vadin"), book)
    got = status.end_turn(scripted([50, 60]), book, vadin, Condition(poison="toxified"))
    assert got.condition.wounds.spared_severe == 1
    assert got.rolls[1].formula == "d100 60 + Fort vs poison 95 − toxin 50 = 105 > 100: pass"
    assert got.condition.poison == ""


def test_lethal_poison_that_knocks_out_starts_dying(book):
    john = vitals_of(pregen(book, "john"), book)
    w = Wounds(minor=5, severe=2, mortal=1)  # penalty 60
    c = Condition(poison="lethal_poison", wounds=w)
    got = status.end_turn(scripted([1, 10, 2]), book, john, c)  # Minor test fails; penalty 70 < 100
    assert not got.condition.unconscious
    w = Wounds(minor=5, severe=2, mortal=2)  # penalty 110 after one more Minor
    got = status.end_turn(scripted([1, 10, 2, 99]), book, john, Condition(poison="lethal_poison", wounds=w))
    c = got.condition
    assert c.unconscious and c.dying == 2  # Fort 10 fails, 1d4 = 2, counted from the next own turn
    assert c.poison == "lethal_poison"  # 99 + 31 - 120 = 10: still poisoned
    assert status.end_turn(scripted([]), book, john, attrs.evolve(c, poison="")).condition.dying == 1


def test_on_fire_burns_each_turn_until_it_goes_out(book):
    vadin = vitals_of(pregen(book, "vadin"), book)
    c, roll = status.set_on_fire(scripted([2]), book, "vadin", Condition())
    assert c.on_fire == 2 and roll.formula == "1d4: 2=2"
    c = status.end_turn(scripted([]), book, vadin, c).condition
    c = status.end_turn(scripted([]), book, vadin, c).condition
    assert c.on_fire == 0 and c.wounds.ignored_minor == 2  # Toughness ignores them
    assert status.end_turn(scripted([]), book, vadin, c).condition.wounds.ignored_minor == 2


def test_medkit_treats_one_wound_and_a_patient_wakes(book):
    bruce = vitals_of(pregen(book, "bruce"), book)
    w = Wounds(minor=3, mortal=3)  # 20 + 100
    c = Condition(wounds=w, unconscious=True, disabled=True)
    assert status.wake(scripted([]), book, bruce, c) == (c, None)  # no test while disabled
    c = status.treat(book, c, "mortal")
    assert penalty(book, c.wounds) == 70 and not c.disabled and c.unconscious
    c, roll = status.wake(scripted([70]), book, bruce, c)  # 70 + 42 - 70 = 42
    assert c.unconscious and roll.total == 42
    c, roll = status.wake(scripted([100]), book, bruce, status.treat(book, c, "mortal"))
    assert not c.unconscious and roll.total == 100 + 42 - 20
    assert status.treat(book, c, "lethal").code == "no_wound"
    assert status.treat(book, c, "stabilise").code == "not_dying"
    assert status.uses_left(10, 3, 8) == 77


def test_disoriented_counts_down(book):
    c = status.disorient(Condition(), book.settings.flashbang_turns)
    vadin = vitals_of(pregen(book, "vadin"), book)
    assert status.end_turn(scripted([]), book, vadin, c).condition.disoriented == 0


def test_a_second_dying_countdown_never_extends_the_first(book):
    bruce = vitals_of(pregen(book, "bruce"), book)
    c = Condition(dying=1, wounds=Wounds(mortal=1))
    got = wound(scripted([100, 1, 4]), book, bruce, c, "mortal")  # Will passes, Fort fails, 1d4 = 4
    assert got.condition.dying == 1
