"""Turning in place (`Face`) in annihilation: 1 TU a 45° step on squares (A-9.4), a 60° step on hexes (A-9.3), the
short way round; refused without the TU; and an observer with TUs fires first (A-14.9: an action other than a step)."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from engine.content import loader
from engine.core.commands import Face
from engine.core.dice import Dice, seed_from_int
from engine.core.events import Resolved
from engine.core.reducer import fold
from engine.map.grid import Grid
from engine.play.game import Game

HEX_MOD = Path(__file__).resolve().parents[1] / "content" / "mods" / "hex"
SIZE = 20


@pytest.fixture(scope="module")
def hex_content():
    return loader.load([HEX_MOD])


def _field(content, tmp_path, hexes: bool, sectoid: tuple[int, int] | None = None, anton_tu: int = 40):
    """A grass field: Anton in the middle facing 0 with `anton_tu`; Sectoid 1 at `sectoid` with its TUs (else in a far
    corner), everyone else in the corners with none."""
    game = Game.new(content, "annihilation", "eliminate", seed_from_int(4), tmp_path / "face.jsonl")
    state = game.state
    grid = Grid.from_ids([["grass"] * SIZE for _ in range(SIZE)], state.grid.terrain)
    units = {}
    for i, (uid, u) in enumerate(state.units.items()):
        pos, tu = ((SIZE - 1 - i // SIZE, i % SIZE) if u.side == "aliens" else (0, SIZE - 1 - i)), 0
        if uid == "anton":
            pos, tu = (10, 10), anton_tu
        elif uid == "sectoid_1" and sectoid is not None:
            pos, tu = sectoid, u.record.fighter.tu_left
        f = attrs.evolve(u.record.fighter, tu_left=tu, facing=0 if uid == "anton" else u.record.fighter.facing)
        units[uid] = attrs.evolve(u, pos=pos, z=0, facing=0 if uid == "anton" else u.facing,
                                  record=attrs.evolve(u.record, fighter=f))
    game.close()
    return game.ruleset, attrs.evolve(state, grid=grid.as_hexes() if hexes else grid, units=units)


@pytest.mark.parametrize("towards, tu", [(1, 1), (2, 2), (4, 4), (5, 3), (7, 1)])
def test_a_turn_on_squares_costs_1_tu_a_45_degree_step_the_short_way(content, tmp_path, towards, tu):
    rs, state = _field(content, tmp_path, hexes=False)
    events = rs.decide(state, Face(unit="anton", facing=towards), Dice.scripted([]))
    after = fold(state, events).units["anton"]
    assert after.facing == towards and after.record.fighter.facing == towards
    assert after.record.fighter.tu_left == 40 - tu
    assert events[0].cause.endswith(f"({tu} TU)") and events[0].cause.startswith("turns to face ")


@pytest.mark.parametrize("towards, tu, way", [(1, 1, "E"), (2, 2, "SE"), (3, 3, "SW"), (5, 1, "NW")])
def test_a_turn_on_hexes_costs_1_tu_a_60_degree_step(hex_content, tmp_path, towards, tu, way):
    rs, state = _field(hex_content, tmp_path, hexes=True)
    events = rs.decide(state, Face(unit="anton", facing=towards), Dice.scripted([]))
    after = fold(state, events).units["anton"]
    assert after.facing == towards and after.record.fighter.tu_left == 40 - tu
    assert events[0].cause == f"turns to face {way} ({tu} TU)"
    assert rs.decide(state, Face(unit="anton", facing=6), Dice.scripted([])).code == "bad_facing"


def test_a_turn_is_refused_without_the_tu_or_to_the_same_facing(content, tmp_path):
    rs, state = _field(content, tmp_path, hexes=False, anton_tu=2)
    short = rs.decide(state, Face(unit="anton", facing=4), Dice.scripted([]))
    assert short.code == "no_tu" and short.reason == "Turning costs 4 TU; 2 left"
    assert rs.decide(state, Face(unit="anton", facing=0), Dice.scripted([])).code == "same_facing"
    assert rs.decide(state, Face(unit="anton", facing=8), Dice.scripted([])).code == "bad_facing"


def test_an_observer_with_tus_fires_before_the_turn(content, tmp_path):
    rs, state = _field(content, tmp_path, hexes=False, sectoid=(10, 4))
    events = rs.decide(state, Face(unit="anton", facing=2), Dice.scripted([99] * 20))
    shot = events[0]
    assert isinstance(shot, Resolved) and shot.actor == "sectoid_1" and "Anton turning" in shot.text
    assert events[-1].unit == "anton" and fold(state, events).units["anton"].facing == 2
