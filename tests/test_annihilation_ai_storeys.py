"""A hostile on another storey at the same x, y is not on the unit's own (issue 12): the shared planner scored cells,
goals and blocked squares with 2-D cells, so a soldier with no shot under a Floater hovering above her read it as
standing on her square and stepped off it and back, phase after phase. Annihilation, terror map, scripted dice."""

from __future__ import annotations

import attrs
import pytest

from engine.ai import memory, storeys
from engine.ai.planner import Ai
from engine.core.commands import EndTurn, Rejected
from engine.core.dice import Dice, Faces, seed_from_int
from engine.core.reducer import fold
from engine.map import levels
from engine.play.game import Game

PHASES = 6


@pytest.fixture(scope="module")
def game(content):
    g = Game.new(content, "annihilation", "terror", seed_from_int(4), None)
    yield g
    g.close()


def _under_the_floater(game):
    """Laura, unarmed, on open ground under open air; Floater 1 hovering one storey over her; everyone else far
    off along the bottom edge with no TUs (nobody reacts), the rest of the squad out of the fight."""
    state = game.state
    grid = state.grid
    air = levels.sky(grid, 0, 1)
    x, y = next((x, y) for y in range(3, grid.height - 3) for x in range(3, grid.width - 3)
                if all(air[y + dy, x + dx] and levels.standing(grid, (x + dx, y + dy, 0))
                       for dx in range(-2, 3) for dy in range(-2, 3)))
    units = {}
    for uid, u in state.units.items():
        f = attrs.evolve(u.record.fighter, tu_left=0)
        if uid == "laura":
            units[uid] = attrs.evolve(u, pos=(x, y), z=0, record=attrs.evolve(u.record, kit=()))
        elif uid == "floater_1":
            units[uid] = attrs.evolve(u, pos=(x, y), z=1, record=attrs.evolve(u.record, fighter=f))
        elif u.side == "xcom":
            units[uid] = attrs.evolve(u, status="dead", pos=(0, len(units)))
        else:
            units[uid] = attrs.evolve(u, pos=(grid.width - 2 - len(units), grid.height - 1), z=0,
                                      record=attrs.evolve(u.record, fighter=f))
    return attrs.evolve(state, units=units)


def _phase(rs, ai, state):
    """Laura's phase: the AI's commands until it ends the turn; where she ends it."""
    for _ in range(30):
        command = ai.next_command(state)
        if isinstance(command, EndTurn):
            break
        events = rs.decide(state, command, Dice(Faces(seed_from_int(5)), state.dice))
        if isinstance(events, Rejected):
            ai.rejected(command, events)
            continue
        state = fold(state, events)
    return state.units["laura"]


def test_a_floater_above_is_on_another_storey_not_on_her_square(game):
    state = _under_the_floater(game)
    laura, floater = state.units["laura"], state.units["floater_1"]
    ai = Ai(game.ruleset, "xcom")
    k = ai.knowledge(state)
    assert "floater_1" in {t.id for t in k.targets} and floater.pos == laura.pos  # seen, straight above
    mine, above = storeys.own(k, laura)
    assert not mine.targets and not mine.threats and above == [(*floater.pos, 1)]
    assert laura.pos not in ai._blocked(state, k, laura)  # her own square is no hostile's


def test_under_a_hovering_floater_she_does_not_step_back_and_forth(game):
    """Each phase starts from the scripted state with Laura where the last one left her, fresh TUs, the Floater
    hovering where it was. She makes for the stairs towards its storey (with no gun she has no shot from below) and
    never walks a pair of squares back and forth; the old planner took its square for hers and stood there."""
    base = _under_the_floater(game)
    ai = Ai(game.ruleset, "xcom")
    trail = [(*base.units["laura"].pos, 0)]
    for _ in range(PHASES):
        laura = attrs.evolve(base.units["laura"], pos=trail[-1][:2], z=trail[-1][2])
        state = attrs.evolve(base, units={**base.units, "laura": laura})
        ai._turn = None  # a new phase for the AI  # noqa: SLF001
        after = _phase(game.ruleset, ai, state)
        trail.append((*after.pos, after.z))
    pairs = [tuple(trail[i:i + 2]) for i in range(len(trail) - 1) if trail[i] != trail[i + 1]]
    assert pairs and len(pairs) == len(set(pairs)) and not any((b, a) in pairs for a, b in pairs), trail
    assert any(z == 1 for *_, z in trail), trail  # up the stairs at some point


def test_the_storey_of_a_hostile_remembered_is_in_the_checkpoint(game):
    """A resumed mission must climb as the uninterrupted one: the memory keeps the Floater's storey, and leaves the
    key out while every hostile it remembers is on the ground (older checkpoints, maps of one storey)."""
    state = _under_the_floater(game)
    ai = Ai(game.ruleset, "xcom")
    ai.observe(state)
    assert ai.levels == {"floater_1": 1}
    again = Ai(game.ruleset, "xcom")
    memory.apply(again, memory.decode(memory.snapshot(ai)))
    assert again.levels == {"floater_1": 1} and again.memory == ai.memory
    ai.levels = {}
    assert "levels" not in memory.snapshot(ai)
