"""annihilation opportunity fire resolved (A-14.9) through `combat.react`, the code play uses: TV-A23's chain with
shots, the order of several watchers, and the actor put down."""

from __future__ import annotations

import attrs
import pytest

from engine.core.dice import Dice, seed_from_int
from engine.core.events import Resolved, UnitChanged
from engine.play.game import Game
from engine.rules.annihilation import character as ch
from engine.rules.annihilation import combat
from engine.rules.annihilation.fighter import Fighter, deploy
from engine.rules.annihilation.inventory import Carried
from engine.rules.annihilation.schema import STATS
from engine.rules.annihilation.soldier import Soldier, gun
from annihilation_book import BOOK

RIFLE = Carried("mk2v_assault_rifle", "D", "both_hands", "clip:mk2v_assault_rifle", 20)


@pytest.fixture(scope="module")
def game(content, tmp_path_factory):
    g = Game.new(content, "annihilation", "eliminate", seed_from_int(4), tmp_path_factory.mktemp("opp") / "g.jsonl")
    yield g
    g.close()


def fighter(game, uid: str, tu_turn: int, tu_left: int, **stats: int) -> Fighter:
    book = game.ruleset.book
    c = ch.Character(id=uid, name=uid, stats=ch.Stats(**{s: stats.get(s, 50) for s in STATS}),
                     skills=ch.baseline(book))
    return attrs.evolve(deploy(book, c), tu_turn=tu_turn, tu_left=tu_left)


def _open_origin(state, width: int, height: int):
    grid = state.grid
    for y in range(1, grid.height - height - 1):
        for x in range(1, grid.width - width - 1):
            if all(grid.walkable[y + j, x + i] and grid.transparent[y + j, x + i]
                   for i in range(width) for j in range(height)):
                return x, y
    raise AssertionError("no open ground")


def field(game, actor: Fighter, at: tuple[int, int], watchers: dict[str, tuple[Fighter, tuple[int, int]]]):
    """A state holding only the actor (an XCOM soldier, `act`) and its alien watchers, offsets from open ground."""
    state = game.state
    ox, oy = _open_origin(state, 7, 5)
    base = {"xcom": state.units["anton"], "aliens": state.units["sectoid_1"]}

    def unit(uid, side, f, off):
        return attrs.evolve(base[side], id=uid, name=uid, pos=(ox + off[0], oy + off[1]),
                            record=Soldier(fighter=f, kit=(RIFLE,)), hp=f.health, hp_max=f.health)

    units = {"act": unit("act", "xcom", actor, at)}
    units.update({uid: unit(uid, "aliens", f, off) for uid, (f, off) in watchers.items()})
    return attrs.evolve(state, units=units)


def _react(game, state, dice, actor: Fighter):
    mover = state.units["act"]
    return combat.react(game.ruleset, state, dice, mover, actor, mover.pos, "stepping")


def test_tv_a23_the_watcher_fires_on_three_steps_then_runs_dry(game):
    watcher = fighter(game, "obs", 50, 40, reactions=60)
    actor = fighter(game, "act", 60, 60, reactions=55, health=500)
    state = field(game, actor, (6, 0), {"obs": (watcher, (0, 0))})
    shots = []
    for left in (30, 24, 18, 12):
        _, events = _react(game, state, Dice.scripted([100]), attrs.evolve(actor, tu_left=left))
        fired = [e for e in events if isinstance(e, Resolved)]
        shots.append((len(fired), len(fired[0].rolls) if fired else 0,
                      fired[0].text.split("(")[1].split(")")[0] if fired else None))
        for e in events:
            if isinstance(e, UnitChanged):
                state = attrs.evolve(state, units={**state.units, e.unit: attrs.evolve(
                    state.units[e.unit], record=e.changes["record"])})
    assert shots == [(1, 1, "reaction 48 > 27"), (1, 1, "reaction 33 > 22"), (1, 1, "reaction 19 > 16"),
                     (0, 0, None)]
    obs = state.units["obs"].record
    assert (obs.fighter.tu_left, gun(obs, BOOK).rounds) == (4, 17)


def test_watchers_fire_fastest_first_and_stop_when_the_actor_falls(game):
    actor = fighter(game, "act", 60, 30, reactions=40, health=30)  # score 20
    slow = fighter(game, "slow", 50, 50, reactions=30)  # 30
    fast = fighter(game, "fast", 50, 50, reactions=70)  # 70
    state = field(game, actor, (6, 0), {"slow": (slow, (0, 0)), "fast": (fast, (0, 4))})
    dice = Dice.scripted([1, 5, 4, 4, 4])  # fast hits: 35 through no armour → torso, 3d4
    down, events = _react(game, state, dice, actor)
    assert dice.scripted_left == 0
    (shot,) = [e for e in events if isinstance(e, Resolved)]  # slow never fired: the actor was down
    assert shot.actor == "fast" and down.status == "unconscious"
    assert shot.text.startswith("fast reacts to act stepping (reaction 70 > 20): snap shot, 1 hit: 35 on ")
    assert [e.unit for e in events if isinstance(e, UnitChanged)] == ["fast"]


def test_answered_cancels_the_action_of_an_actor_put_down(game):
    actor = fighter(game, "act", 60, 30, reactions=40, health=30)
    fast = fighter(game, "fast", 50, 50, reactions=70)
    state = field(game, actor, (6, 0), {"fast": (fast, (0, 4))})
    f, events, cancelled = combat.answered(game.ruleset, state, Dice.scripted([1, 5, 4, 4, 4]), state.units["act"],
                                           actor, "reloading", "reload cancelled: put down by opportunity fire")
    assert cancelled and f.status == "unconscious"
    assert events[-1].unit == "act" and events[-1].cause == "reload cancelled: put down by opportunity fire"
