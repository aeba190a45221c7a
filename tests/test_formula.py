"""The restricted formula parser's arithmetic: exact fractions to the end, then one rounding, as each ruleset says."""

from __future__ import annotations

import pytest

from engine.content.formula import Formula


@pytest.mark.parametrize("text, env, half_up, down", [
    ("(strength - 1) * 10 + 2", {"strength": 4}, 32, 32),
    ("tu * 3 / 4", {"tu": 54}, 41, 40),  # 40.5: xcom-trpg rounds half up (1.2), annihilation floors
    ("reactions * tu / 100", {"reactions": 33, "tu": 55}, 18, 18),  # 18.15
    ("10 / 4 + 10 / 4", {}, 5, 5),  # rounded once at the end, never per term
    ("-7 / 2", {}, -4, -4),  # halves away from zero; floor goes down
])
def test_one_rounding_at_the_end(text, env, half_up, down):
    f = Formula.parse(text)
    assert f.evaluate(env)[0] == half_up
    assert f.evaluate(env, rounding="down")[:2] == (down, f"{f.evaluate(env)[1].rsplit('=', 1)[0]}={down}")


def test_dice_faces_are_reported_whatever_the_rounding():
    faces = iter([3, 7])
    value, shown, rolled = Formula.parse("2d10 / 4").evaluate({}, lambda sides: next(faces), rounding="down")
    assert (value, rolled) == (2, [3, 7]) and shown.endswith("=2")


def test_a_remembered_answer_is_the_one_worked_out():
    """Dice-free formulas answer again from a memo: the same value, text and faces, per rounding and per value type."""
    f = Formula.parse("(a - 1) * 10 + b / 2")
    first = f.evaluate({"a": 4, "b": 3})
    assert first == (32, "(4-1)*10+3/2=32", [])  # 31.5 half up
    first[2].append(99)  # a caller's list is its own: the next answer has no faces
    assert f.evaluate({"a": 4, "b": 3}) == (32, "(4-1)*10+3/2=32", [])
    assert f.evaluate({"a": 4, "b": 3}, rounding="down")[:2] == (31, "(4-1)*10+3/2=31")
    assert f.evaluate({"a": 5, "b": 3})[0] == 42
    assert f.evaluate({"a": 4.0, "b": 3})[1] == "(4.0-1)*10+3/2=32"  # equal to 4, printed otherwise
    assert f.evaluate({"a": True, "b": 3})[1] == "(True-1)*10+3/2=2"


def test_a_formula_with_dice_is_rolled_every_time():
    f = Formula.parse("1d6 + a")
    faces = iter([2, 5])
    assert f.evaluate({"a": 1}, roll=lambda _s: next(faces))[::2] == (3, [2])
    assert f.evaluate({"a": 1}, roll=lambda _s: next(faces))[::2] == (6, [5])
