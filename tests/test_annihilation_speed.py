"""The kept answers of annihilation's sight (spotted sets, per-unit views, sight without smoke, formula values,
reaction watchers) are the answers worked out in full: on a map with storeys, smoke and units moved about."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from engine.content import missions
from engine.core.dice import seed_from_int
from engine.core.model import memo
from engine.map import levels
from engine.play.game import Game
from engine.rules.annihilation import clouds, combat
from engine.rules.annihilation.board import Cloud, field_of


@pytest.fixture(scope="module")
def start(content):
    g = Game.new(content, "annihilation", "eliminate", seed_from_int(4), None)
    yield g.ruleset, g.state
    g.close()


def _states(state):
    """The state, then with smoke on two storeys, then with units walked about (one up a storey where it can)."""
    grid = state.grid
    squad = [u for u in state.units.values() if u.side == missions.PLAYER]
    aliens = [u for u in state.units.values() if u.side == missions.ALIENS]
    x, y = aliens[0].pos
    smoke = tuple(sorted((x + dx, y + dy) for dx in range(-3, 4) for dy in range(-3, 4)
                         if grid.inside((x + dx, y + dy))))  # thick enough to hide it (3 squares deep)
    up = next(((x, y) for y in range(grid.height) for x in range(grid.width)
               if levels.standing(grid, (x, y, 1))), None)
    clouded = attrs.evolve(state, record=attrs.evolve(field_of(state), clouds=(
        Cloud("smoke", smoke, state.phase, state.phase + 5), Cloud("smoke", (up,) if up else smoke,
                                                                   state.phase, state.phase + 5, 1))))
    out = [state, clouded]
    for i, u in enumerate(squad):
        units = dict(out[-1].units)
        there = aliens[i % len(aliens)].pos
        cell = next(((there[0] + dx, there[1] + dy) for dx in range(-6, 7) for dy in range(-6, 7)
                     if levels.standing(grid, (there[0] + dx, there[1] + dy, 0))
                     and not out[-1].units_at((there[0] + dx, there[1] + dy))), u.pos)
        units[u.id] = attrs.evolve(u, pos=up, z=1) if i == 0 and up else attrs.evolve(u, pos=cell)
        out.append(attrs.evolve(out[-1], units=units))
    return out


def _plain_sight(rs, state, side):
    """clouds.side_sight as every unit's view worked out anew."""
    grid = state.grid
    seen = np.zeros((grid.levels, grid.height, grid.width), dtype=bool)
    for u in (u for u in state.side_units(side) if u.conscious):
        view = levels.fov(grid, (*u.pos, u.z), rs.sight_range).copy()
        view[u.z] &= clouds.seen_from(rs, state, u.pos, u.z)
        for z in range(grid.levels) if rs.book.settings.smoke_between_storeys else ():
            count = clouds._across(rs, state, u.pos, u.z, z) if z != u.z else None
            if count is not None:
                view[z] &= count <= rs.book.settings.smoke_sight_squares
        seen |= view
    return seen


def test_kept_sight_and_spotted_sets_are_the_ones_worked_out_anew(start):
    rs, state = start
    for s in _states(state):
        for side in (missions.PLAYER, missions.ALIENS):
            assert (clouds.side_sight(rs, s, side) == _plain_sight(rs, s, side)).all()
            assert rs.spotted(s, side) == rs._spotted_now(s, side)
    assert len(rs._spotted) > 2  # the answers were kept, and asked again


def test_sight_between_two_units_is_their_field_of_view_cut_by_smoke(start):
    rs, state = start
    for s in _states(state)[:3]:
        for a in s.units.values():
            for b in s.units.values():
                plain = levels.sees(s.grid, (*a.pos, a.z), (*b.pos, b.z), rs.sight_range) and (
                    a.z != b.z and clouds.sees(rs, s, a.pos, b.pos, a.z, b.z)
                    or a.z == b.z and bool(clouds.seen_from(rs, s, a.pos, a.z)[b.pos[1], b.pos[0]]))
                assert clouds.sees(rs, s, a.pos, b.pos, a.z, b.z) == plain


def test_watchers_are_every_armed_enemy_that_sees_the_square(start):
    rs, state = start
    for s in _states(state):
        for mover in s.units.values():
            for cell in (mover.pos, (mover.pos[0] + 1, mover.pos[1])):
                plain = [u for u in s.units.values() if missions.hostile(u.side, mover.side) and u.id != mover.id
                         and memo(u, combat.watchers, lambda v: combat._armed(rs, v))
                         and clouds.sees(rs, s, u.pos, cell, u.z, mover.z)]
                assert combat.watchers(rs, s, mover, cell) == plain


def test_a_kept_formula_value_is_the_formula_evaluated(start):
    rs, _state = start
    for rct in (30, 47, 80):
        for left in (0, 13, 54):
            env = {"reactions": rct, "tu_left": left, "tu_turn": 54}
            assert rs.book.value("reaction_score", **env) == rs.book.evaluate("reaction_score", env)[0]
            assert rs.book.value("reaction_score", **env) == rs.book.evaluate("reaction_score", env)[0]


def test_stats_by_name_are_the_fields_in_their_order(start):
    _rs, state = start
    for u in state.units.values():
        stats = u.record.fighter.character.stats
        assert list(stats.env().items()) == list(attrs.asdict(stats).items())
