"""annihilation opportunity fire resolved (A-14.9): TV-A23's chain with shots, the order of several watchers, and
an action cancelled when its actor is put down."""

from __future__ import annotations

import attrs
import pytest

from engine.content import loader, tables
from engine.core.dice import Dice
from engine.rules.annihilation import character as ch
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.fighter import Fighter, deploy
from engine.rules.annihilation.inventory import Carried
from engine.rules.annihilation.opportunity import Watcher, react
from engine.rules.annihilation.schema import SCHEMA, STATS

RIFLE = Carried("mk2v_assault_rifle", "D", "both_hands", "clip:mk2v_assault_rifle", 20)


@pytest.fixture(scope="module")
def book() -> Book:
    return Book.of(tables.load_folder(loader.default_dir(), "annihilation", SCHEMA))


def fighter(book: Book, uid: str, tu_turn: int, tu_left: int, **stats: int) -> Fighter:
    c = ch.Character(id=uid, name=uid, stats=ch.Stats(**{s: stats.get(s, 50) for s in STATS}),
                     skills=ch.baseline(book))
    return attrs.evolve(deploy(book, c), tu_turn=tu_turn, tu_left=tu_left)


def test_tv_a23_the_watcher_fires_on_three_steps_then_runs_dry(book):
    watcher = Watcher("obs", fighter(book, "obs", 50, 40, reactions=60), RIFLE, (0, 0))
    actor = fighter(book, "act", 60, 60, reactions=55, health=500)
    shots = []
    for left in (30, 24, 18, 12):
        got = react(book, Dice.scripted([100]), attrs.evolve(actor, tu_left=left), (6, 0), [watcher])
        (answer,) = got.answers
        shots.append((answer.actor_score, answer.observer_score, answer.fires, len(got.rolls)))
        watcher = got.watchers[0]
    assert shots == [(27, 48, True, 1), (22, 33, True, 1), (16, 19, True, 1), (11, 4, False, 0)]
    assert (watcher.fighter.tu_left, watcher.gun.rounds) == (4, 17)


def test_watchers_fire_fastest_first_and_stop_when_the_actor_falls(book):
    actor = fighter(book, "act", 60, 30, reactions=40, health=30)  # score 20
    slow = Watcher("slow", fighter(book, "slow", 50, 50, reactions=30), RIFLE, (0, 0))  # 30
    fast = Watcher("fast", fighter(book, "fast", 50, 50, reactions=70), RIFLE, (0, 4))  # 70
    dice = Dice.scripted([1, 5, 4, 4, 4])  # fast hits: 35 through no armour → torso, 3d4
    got = react(book, dice, actor, (6, 0), [slow, fast])
    assert dice.scripted_left == 0
    assert [a.observer for a in got.answers] == ["fast", "slow"] and got.cancelled
    assert got.actor.status == "unconscious" and got.watchers[0] == slow  # slow never fired
    assert got.lines[0].startswith("fast reacts (reaction 70 > 20): 1 hit; 35 on ")
