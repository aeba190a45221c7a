"""The AI plans a shot after a walk from where the walk leaves it (`Ruleset.walked`): the walk's TUs spent and the
unit facing along its last step, so the turn to the target is paid too. Annihilation, on a flat field of grass: a
soldier whose walk to a firing square leaves the cheapest shot's TUs but not the turn to fire it must not take that
walk (issue 12: it walked there, could not fire, and walked on)."""

from __future__ import annotations

import attrs
import pytest

from engine.ai.planner import Ai
from engine.core.commands import Combo, Move, Rejected
from engine.core.dice import Dice, seed_from_int
from engine.core.reducer import fold
from engine.map.grid import Grid
from engine.play.game import Game

SIZE = 60


@pytest.fixture
def game(content):
    g = Game.new(content, "annihilation", "eliminate", seed_from_int(4), None)
    yield g
    g.close()


def _field(game, anton_tu: int):
    """Grass; Anton at 31,31 facing west with `anton_tu` TUs, a wall west of him; Sectoid 1 at 10,30 (no TUs: nobody
    reacts), 21 squares off, beyond his sight, but seen by Viktor at 14,30 (no TUs: he cannot fire); the rest far
    off in the corners. One diagonal step north-west (6 TU) brings Anton within sight, facing north-west."""
    state = game.state
    rows = [["grass"] * SIZE for _ in range(SIZE)]
    rows[31][30] = "wall"
    grid = Grid.from_ids(rows, state.grid.terrain)
    places = {"anton": (31, 31), "viktor": (14, 30), "sectoid_1": (10, 30)}
    units = {}
    for i, (uid, u) in enumerate(state.units.items()):
        far = (SIZE - 1, SIZE - 1 - i) if u.side == "aliens" else (0, SIZE - 1 - i)
        tu = anton_tu if uid == "anton" else 0
        f = attrs.evolve(u.record.fighter, tu_left=tu, facing=6 if uid == "anton" else 2)
        units[uid] = attrs.evolve(u, pos=places.get(uid, far), facing=f.facing, record=attrs.evolve(u.record, fighter=f))
    return attrs.evolve(state, grid=grid, units=units)


def _shots_after(rs, state, command):
    """The modes Anton can fire at Sectoid 1 after the command is decided (dice that roll nothing needed)."""
    events = rs.decide(state, command, Dice.scripted([100] * 50))
    assert not isinstance(events, Rejected), events
    after = fold(state, events)
    anton = after.units["anton"]
    return [m.id for m in rs.shot_modes(after, anton)
            if not isinstance(rs.preview_shot(after, "anton", "sectoid_1", m.id), Rejected)]


def test_walked_pays_the_walk_and_turns_the_walker(game):
    rs = game.ruleset
    state = _field(game, 50)
    walk = Move(unit="anton", path=((30, 30), (29, 29)))
    after = rs.walked(state, walk)
    decided = fold(state, rs.decide(state, walk, Dice.scripted([100] * 50)))
    for got in (after, decided):
        anton = got.units["anton"]
        assert anton.pos == (29, 29) and anton.record.fighter.tu_left == 50 - 12  # two diagonal steps of grass
    assert after.units["anton"].record.fighter == decided.units["anton"].record.fighter  # the move's own rule
    assert after.units["anton"].facing == decided.units["anton"].facing == 7
    too_far = Move(unit="anton", path=tuple((31, 30 - i) for i in range(13)))  # 13 squares, 52 TU
    assert isinstance(rs.walked(state, too_far), Rejected)
    assert isinstance(rs.walked(state, Combo(unit="anton", path=walk.path)), Rejected)  # no second kind of move


@pytest.mark.parametrize("tu", range(23, 40))
def test_a_walk_to_fire_from_leaves_the_shot(game, tu):
    """With 23 TUs or more a firing square is in reach with a snap's TUs left; the walk planned is to one from
    which a shot is paid for when it is decided (before, with 25 or 29 TUs, it walked where the turn to fire could
    not be paid)."""
    rs = game.ruleset
    state = _field(game, tu)
    assert "sectoid_1" in rs.spotted(state, "xcom")
    assert all(isinstance(rs.preview_shot(state, "anton", "sectoid_1", m.id), Rejected)
               for m in rs.shot_modes(state, state.units["anton"]))  # out of his sight from where he stands
    command = Ai(rs, "xcom").next_command(state)
    assert isinstance(command, Move) and command.unit == "anton"
    assert _shots_after(rs, state, command)


@pytest.mark.parametrize("ruleset", ["xcom-trpg", "xxxzone", "annihilation", "neo-troops"])
def test_walked_is_the_first_ai_walk_as_decided(content, ruleset):
    """Each ruleset's `walked` leaves the walker as its `decide` does when nothing happens on the way: the first walk
    the AI gives in a mission, compared on where the walker stands and faces and on what it could fire from there."""
    game = Game.new(content, ruleset, "eliminate", seed_from_int(7), None)
    for _ in range(200):
        state = game.state
        command = game.ai(game.ruleset.turn(state).side).next_command(state)
        if isinstance(command, (Move, Combo)):
            break
        game.ai_step()
    else:
        pytest.fail("no walk in 200 commands")
    rs = game.ruleset
    planned = rs.walked(state, command)
    assert not isinstance(planned, Rejected), planned
    assert not isinstance(game.ai_step(), Rejected)
    a, b = planned.units[command.unit], game.state.units[command.unit]
    assert (a.pos, a.z, a.facing) == (b.pos, b.z, b.facing)
    assert _shots(rs, planned, a) == _shots(rs, game.state, b)
    game.close()


def _shots(rs, state, unit):
    """What the AI reads of a walker's shots: its modes, and each mode's odds or refusal at every hostile."""
    modes = rs.shot_modes(state, unit)
    odds = []
    for target in sorted(u.id for u in state.units.values() if u.side != unit.side and u.status != "dead"):
        for m in modes:
            got = rs.preview_shot(state, unit.id, target, m.id)
            odds.append((target, m.id, got.code if isinstance(got, Rejected) else (got.p_hit, got.expected_damage)))
    return modes, odds
