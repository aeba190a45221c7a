"""xxxzone sections 4-5: AP, the action table, variable costs, continuing actions and recycled pools;
vectors 26, 51 and 52 of section 17, and vector 40's movement costs."""

from __future__ import annotations

import attrs
import pytest

from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.rules.xxxzone import actions
from engine.rules.xxxzone.actions import Continuing, spend
from engine.rules.xxxzone.character import derive, pregen

from test_xxxzone_content import load_book


@pytest.fixture
def book():
    return load_book()


def turn_of(book, cid):
    op = pregen(book, cid)
    ap = derive(op, book).action_points
    return actions.start(ap, ap)[0], frozenset(op.abilities)


def move(book, turn, abilities, squares, mode="quickly"):
    for _ in range(squares):
        turn = spend(turn, actions.move_cost(book, mode, abilities), "move", abilities)
        assert not isinstance(turn, Rejected)
    return turn


def test_v51_run_and_gun(book):
    turn, abilities = turn_of(book, "johnny")
    assert turn.ap == 10
    turn = move(book, turn, abilities, 4)
    assert (turn.ap, turn.gun) == (6, 2)
    shoot = book.weapons["assault_rifle"].modes["shoot"].ap
    turn = spend(turn, shoot, "gun", abilities)
    assert (turn.gun, turn.ap) == (0, 3)


def test_run_and_gun_counts_the_whole_turns_moves(book):
    turn, abilities = turn_of(book, "johnny")
    turn = move(book, turn, abilities, 3)
    assert turn.gun == 1
    turn = move(book, turn, abilities, 1, "cautiously")  # 5 AP moved in all: floor(5/2) = 2
    assert turn.gun == 2 and turn.ap == 5


def test_v52_grim_reapers_sprint(book):
    turn, abilities = turn_of(book, "marcel")
    turn = spend(turn, book.weapons["revolver"].modes["shoot"].ap, "gun", abilities)
    turn = actions.killed(turn, 3, abilities)
    assert (turn.move, turn.ap) == (3, 9)
    turn = move(book, turn, abilities, 3)
    assert (turn.move, turn.ap) == (0, 9)  # movement-only AP are spent first
    assert actions.killed(turn, 3, frozenset()).move == 0


def test_v26_akimbo_repeated_single_shots(book):
    turn, abilities = turn_of(book, "trevor")
    assert turn.ap == 14
    shot = book.weapons["pistol_9mm"].modes["shoot"].ap
    turn = spend(turn, shot, "gun", abilities, hand="right")
    assert (turn.left, turn.ap) == (3, 11)
    turn = spend(turn, shot, "gun", abilities, hand="right")
    assert (turn.left, turn.ap) == (6, 8)
    turn = spend(turn, shot, "gun", abilities, hand="left")
    assert (turn.left, turn.right, turn.ap) == (3, 0, 8)  # from the pool: it recycles nothing
    # the recoil of each shot: the second with pistol A takes -12, pistol B's first none (test_xxxzone_shots)


def test_recycled_ap_never_generates_more(book):
    abilities = frozenset({"run_and_gun", "walking_shooting"})
    turn = actions.start(10, 10)[0]
    turn = spend(turn, 4, "move", abilities)
    assert turn.gun == 2
    turn = spend(turn, 4, "gun", abilities)  # 2 from Run and Gun, 2 normal: Walking Shooting gives 1
    assert (turn.gun, turn.move, turn.ap) == (0, 1, 4)
    turn = spend(turn, 1, "move", abilities)  # from the pool: nothing for Run and Gun
    assert (turn.moved, turn.gun, turn.move, turn.ap) == (4, 0, 0, 4)


def test_quick_draw_and_action_reload(book):
    abilities = frozenset({"quick_draw", "action_reload"})
    turn = spend(actions.start(10, 10)[0], 3, "move", abilities)
    assert (turn.draw, turn.reload) == (3, 3)
    turn = actions.do(book, turn, "draw", abilities)
    assert (turn.draw, turn.ap) == (2, 7)
    turn = spend(turn, 3, "reload", abilities)
    assert (turn.reload, turn.ap) == (0, 7)
    assert actions.end(turn).draw == 0  # pools last to the end of the turn


def test_not_enough_ap_is_refused(book):
    turn = actions.start(4, 4)[0]
    refused = spend(turn, 5, "gun", frozenset(), what="7mm Assault Rifle shoot")
    assert refused == Rejected("no_ap", "7mm Assault Rifle shoot costs 5 AP; 4 left")


def test_move_costs(book):
    plain = frozenset()
    assert actions.move_cost(book, "quickly", plain) == 1
    assert actions.move_cost(book, "cautiously", plain) == 2
    assert actions.move_cost(book, "swim", plain) == 2
    assert actions.move_cost(book, "swim", frozenset({"aqualad"})) == 1
    assert actions.move_cost(book, "quickly", plain, burden="burdened").code == "burdened"
    assert actions.move_cost(book, "cautiously", plain, burden="burdened") == 2
    assert actions.move_cost(book, "cautiously", plain, burden="overloaded").code == "overloaded"
    assert actions.move_cost(book, "cautiously", frozenset({"atlas_strong"}), burden="overloaded",
                             atlas_overload=True) == 6


def test_v40_disoriented_movement_and_limits(book):
    plain = frozenset()
    assert actions.move_cost(book, "quickly", plain, disoriented=True) == 2
    assert actions.move_cost(book, "cautiously", plain, disoriented=True) == 4
    turn = actions.start(10, 10)[0]
    assert actions.do(book, turn, "aim", plain, disoriented=True).code == "disoriented"
    assert actions.do(book, turn, "interact", plain, disoriented=True).code == "disoriented"


def test_hunker_down_and_overwatch_end_the_turn(book):
    turn = actions.start(10, 10)[0]
    hunkered = actions.do(book, turn, "hunker_down", frozenset())
    assert hunkered.ended and hunkered.ap == 0 and hunkered.overwatch == 0
    assert actions.do(book, hunkered, "aim", frozenset()).code == "turn_over"
    watching = actions.do(book, spend(turn, 3, "move", frozenset()), "overwatch", frozenset())
    assert watching.ended and watching.overwatch == 7
    shot = book.weapons["assault_rifle"].modes["shoot"].ap
    once = actions.reaction(watching, shot)
    assert once.overwatch == 2
    assert actions.reaction(once, shot).code == "no_ap"  # never more than stored
    fresh, _ = actions.start(10, 10)
    assert fresh.overwatch == 0  # stored AP vanish at the start of its next turn


def test_ability_actions_need_their_ability(book):
    turn = actions.start(10, 10)[0]
    assert actions.do(book, turn, "mark_target", frozenset()).code == "needs_ability"
    assert actions.do(book, turn, "mark_target", frozenset({"mark_target"})).ap == 6
    assert actions.do(book, turn, "use_medkit", frozenset()).code == "variable_cost"


def test_variable_cost_completes_now_or_continues(book):
    turn = actions.start(9, 9)[0]
    now = actions.begin(Dice.scripted([1, 2, 3, 1]), book, turn, "helmut", "use_medkit", frozenset(), "bruce")
    assert now[0].ap == 2 and now[1].total == 7 and now[2] is True
    later = actions.begin(Dice.scripted([6, 6, 3]), book, turn, "helmut", "use_medkit", frozenset({"medic"}), "bruce")
    after, roll, done = later
    assert (roll.expr, roll.total, done, after.ap) == ("3d6", 15, False, 0)
    assert after.continuing == Continuing(action="use_medkit", remaining=6, target="bruce")
    nxt, completed = actions.start(9, 9, after.continuing)
    assert completed.action == "use_medkit" and nxt.ap == 3 and nxt.continuing is None
    short, completed = actions.start(4, 4, after.continuing)
    assert completed is None and short.continuing.remaining == 2 and short.ap == 0


def test_another_action_breaks_a_continuing_one(book):
    turn = attrs.evolve(actions.start(9, 9)[0], continuing=Continuing(action="hack", remaining=5))
    assert spend(turn, 1, "move", frozenset()).continuing is None
    assert actions.broken(turn).continuing is None


def test_hack_rolls_exploding_dice(book):
    turn = actions.start(9, 9)[0]
    assert actions.begin(Dice.scripted([]), book, turn, "dane", "hack", frozenset()).code == "needs_ability"
    after, roll, done = actions.begin(Dice.scripted([10, 4, 7, 2]), book, turn, "dane", "hack",
                                      frozenset({"hacker"}))
    assert roll.formula == "3d10!: (10+4)+7+2=23" and roll.total == 23 and not done
    assert after.continuing.remaining == 14
