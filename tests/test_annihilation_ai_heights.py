"""The last soldier standing, hovering a storey up in flying armour with nobody in sight, does not keep a watcher's
perch: it comes down and makes for the hostile its side last saw (issue 12: crash missions ended in phase-limit draws
with the last soldier up in the air on full TUs). Annihilation, on the eliminate map, scripted dice."""

from __future__ import annotations

import attrs
import pytest

from engine.ai.planner import Ai
from engine.core.commands import EndTurn, Rejected, Wait
from engine.core.dice import Dice, Faces, seed_from_int
from engine.core.reducer import fold
from engine.map import levels
from engine.play.game import Game
from engine.rules.annihilation.armour import ArmourState


@pytest.fixture(scope="module")
def game(content):
    g = Game.new(content, "annihilation", "eliminate", seed_from_int(4), None)
    yield g
    g.close()


def _alone(game, hover, prey):
    """Anton in light flying armour at `hover` (x, y, z), the rest of the squad dead; Sectoid 1 at `prey` on the
    ground; every other alien far off along the bottom edge with no TUs (nobody reacts)."""
    rs, state = game.ruleset, game.state
    units = {}

    def far(i):
        return state.grid.width - 2 - i, state.grid.height - 1

    for uid, u in state.units.items():
        if u.side == "aliens":
            f = attrs.evolve(u.record.fighter, tu_left=0)
            units[uid] = attrs.evolve(u, pos=prey if uid == "sectoid_1" else far(len(units)), z=0,
                                      record=attrs.evolve(u.record, fighter=f))
        elif uid == "anton":
            f = u.record.fighter
            f = attrs.evolve(f, character=attrs.evolve(f.character, armour="light_flying_armor"),
                             armour=ArmourState.of(rs.book.armour["light_flying_armor"]))
            units[uid] = attrs.evolve(u, pos=hover[:2], z=hover[2], record=attrs.evolve(u.record, fighter=f))
        else:
            units[uid] = attrs.evolve(u, status="dead", pos=(0, len(units)))
    return attrs.evolve(state, units=units)


def _open_air(grid):
    """A square of open air over the ground, with 12 squares of ground to its east."""
    air = levels.sky(grid, 0, 1)
    return next((x, y) for y in range(2, grid.height - 2) for x in range(2, grid.width - 14)
                if air[y, x] and all(levels.standing(grid, (x + k, y, 0)) for k in range(13)))


def _phase(rs, ai, state, limit=30):
    for _ in range(limit):
        command = ai.next_command(state)
        if isinstance(command, EndTurn):
            return state
        events = rs.decide(state, command, Dice(Faces(seed_from_int(5)), state.dice))
        if isinstance(events, Rejected):
            ai.rejected(command, events)
            continue
        state = fold(state, events)
    return state


def test_the_last_soldier_hovering_comes_down_and_closes_on_the_hostile_last_seen(game):
    rs = game.ruleset
    x, y = _open_air(game.state.grid)
    seen = _alone(game, (x, y, 1), (x + 12, y))
    assert levels.standing(seen.grid, (x, y, 0)) and not levels.standing(seen.grid, (x, y, 1))  # in the air
    ai = Ai(rs, "xcom")
    assert "sectoid_1" in {t.id for t in ai.observe(seen)[1]}  # seen once at x + 12
    gone = attrs.evolve(seen, units={**seen.units, "sectoid_1": attrs.evolve(
        seen.units["sectoid_1"], pos=(seen.grid.width - 1, seen.grid.height - 1))})  # then out of sight
    assert "sectoid_1" not in rs.spotted(gone, "xcom")
    assert not isinstance(ai.next_command(gone), Wait)  # no perch kept: there is nobody to watch for
    after = _phase(rs, ai, gone).units["anton"]
    assert after.z == 0  # down on the ground
    assert gone.grid.steps(after.pos, (x + 12, y)) < 12  # and on its way to where the sectoid was


def test_a_watcher_with_friends_standing_keeps_its_perch(game):
    rs = game.ruleset
    x, y = _open_air(game.state.grid)
    state = _alone(game, (x, y, 1), (game.state.grid.width - 1, game.state.grid.height - 1))
    viktor = attrs.evolve(game.state.units["viktor"], pos=(x + 3, y), z=0)
    state = attrs.evolve(state, units={**state.units, "viktor": viktor})
    assert rs.ai_special(state, state.units["anton"], [], False) == Wait(unit="anton")


def test_the_engineer_works_the_power_source_from_the_ground_not_from_the_deck_above(content):
    """Crash: the power source lies on the ground (missions.uses); from a storey above it the AI's engineer does not
    try to shut it down (it was refused every phase), and from the ground next to it it does."""
    g = Game.new(content, "annihilation", "crash", seed_from_int(16), None)
    ai = Ai(g.ruleset, "xcom")
    objective = ai.orders.of("shut_down")[0]
    cell = g.ruleset.setup.spawns[objective.zone][0]
    engineer = g.state.units[ai.orders.engineer(g.state, objective)]
    for z, works in ((1, False), (0, True)):
        unit = attrs.evolve(engineer, pos=cell, z=z)
        state = attrs.evolve(g.state, units={**g.state.units, unit.id: unit})
        command = ai.orders.act(state, unit)
        assert (command is not None) == works
        if works:
            assert command.action == "shut_down" and not isinstance(g.ruleset.decide(
                state, command, Dice(Faces(seed_from_int(1)), state.dice)), Rejected)
    g.close()
