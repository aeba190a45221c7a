"""A shot gives its shooter's square away (settings `shots_seen`, docs/rules-notes.md): the side shot at knows where
from until its next phase is over (`Ruleset.heard`), and its AI closes in on it with a snap shot's TUs kept
(stalking.py), on a flat field of grass with scripted dice."""

from __future__ import annotations

import copy

import attrs
import pytest

from engine.core.commands import EndTurn, Move, Rejected, Shoot
from engine.core.dice import Dice, seed_from_int
from engine.core.reducer import fold
from engine.map import levels
from engine.map.grid import Grid
from engine.play.game import Game

SIZE = 60


@pytest.fixture
def game(content, tmp_path):
    g = Game.new(content, "annihilation", "eliminate", seed_from_int(4), tmp_path / "g.jsonl")
    yield g
    g.close()


def _field(game):
    """Grass; Anton at 9,15 facing west, Sectoid 1 at 5,15 (no TUs: nobody reacts); Sectoid 2 at 45,15, out of
    sight (vision 20); everyone else far off in the corners."""
    state = game.state
    grid = Grid.from_ids([["grass"] * SIZE for _ in range(SIZE)], state.grid.terrain)
    places = {"anton": (9, 15), "sectoid_1": (5, 15), "sectoid_2": (45, 15)}
    units = {}
    for i, (uid, u) in enumerate(state.units.items()):
        far = (SIZE - 1, SIZE - 1 - i) if u.side == "aliens" else (0, SIZE - 1 - i)
        f = attrs.evolve(u.record.fighter, tu_left=0) if u.side == "aliens" else u.record.fighter
        units[uid] = attrs.evolve(u, pos=places.get(uid, far), facing=6 if uid == "anton" else 2,
                                  record=attrs.evolve(u.record, fighter=f))
    return attrs.evolve(state, grid=grid, units=units)


def _shot(rs, state):
    events = rs.decide(state, Shoot(unit="anton", target="sectoid_1", mode="snap"), Dice.scripted([100] * 4))
    assert not isinstance(events, Rejected), events
    return fold(state, events)


def test_a_shot_gives_the_shooters_square_to_the_side_shot_at_until_its_next_phase_ends(game):
    rs = game.ruleset
    shot = _shot(rs, _field(game))
    assert shot.units["anton"].record.fired == (shot.phase * 2 + 0, 9, 15, 0)  # turn 1, X-COM's phase
    assert rs.heard(shot, "aliens") == ((9, 15),) and rs.heard(shot, "xcom") == ()
    aliens = fold(shot, rs.decide(shot, EndTurn(side="xcom"), Dice.scripted([])))
    assert rs.heard(aliens, "aliens") == ((9, 15),)  # their phase: they know where it came from
    later = fold(aliens, rs.decide(aliens, EndTurn(side="aliens"), Dice.scripted([])))
    later = fold(later, rs.decide(later, EndTurn(side="xcom"), Dice.scripted([])))
    assert rs.heard(later, "aliens") == ()  # their next phase after that: forgotten


def test_an_alien_shot_at_from_out_of_sight_closes_in_keeping_a_snap_shots_tus(game):
    rs = game.ruleset
    shot = _shot(rs, _field(game))
    aliens = fold(shot, rs.decide(shot, EndTurn(side="xcom"), Dice.scripted([])))
    gone = attrs.evolve(aliens.units["sectoid_1"], pos=(SIZE - 1, 0))  # the one shot at has crawled off
    aliens = attrs.evolve(aliens, units={**aliens.units, "sectoid_1": gone})
    s2 = aliens.units["sectoid_2"]
    assert "anton" not in rs.spotted(aliens, "aliens")
    move = rs.ai_special(aliens, s2, [], False)
    assert isinstance(move, Move) and move.levels == ()
    budget = rs.budget(aliens, s2)
    cost = levels.cost(aliens.grid, budget.walk, (*s2.pos, 0), [(*c, 0) for c in move.path])
    assert move.path[0] == (44, 15) and cost <= budget.step < budget.moves_left  # the snap's TUs stay
    assert cost + 4 > budget.step  # as far as that allows, a square at a time (4 TU on grass)
    assert rs.ai_special(aliens, s2, [shot.units["anton"]], False) is None  # someone in sight: the planner's


def test_older_content_without_the_switch_records_and_hears_nothing(game):
    rs = game.ruleset
    off = copy.copy(rs)
    off.book = attrs.evolve(rs.book, settings=attrs.evolve(rs.book.settings, shots_seen=False))
    shot = _shot(off, _field(game))
    assert shot.units["anton"].record.fired == () and off.heard(shot, "aliens") == ()
