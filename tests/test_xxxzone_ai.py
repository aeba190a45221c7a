"""xxxzone's AI on small scripted maps: what issue 11's AI list asks of it, one behaviour a test, each played through
the ruleset with seeded dice as the kernel would (`play`)."""

from __future__ import annotations

import pytest

from engine.ai.planner import Ai
from engine.core import ruleset
from engine.core.commands import EndTurn, Move, Rejected
from engine.core.dice import Dice, Faces, seed_from_int
from engine.core.reducer import fold
from tests.test_xxxzone_field import stage


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.make("xxxzone", content, None)


def play(rs, ai: Ai, state, seed: int = 3, steps: int = 30):
    """The side's turn up to its end: (command, refusal or None, state before it) for every command the AI gives."""
    faces = Faces(seed_from_int(seed))
    out = []
    for _ in range(steps):
        command = ai.next_command(state)
        if isinstance(command, EndTurn):
            break
        events = rs.decide(state, command, Dice(faces, state.dice))
        out.append((command, events if isinstance(events, Rejected) else None, state))
        if isinstance(events, Rejected):
            ai.rejected(command, events)
            continue
        state = fold(state, events)
    return out


NICHE = {c: "wall" for c in [(7, 11), (9, 11), (7, 12), (9, 12), (7, 13), (8, 13), (9, 13)]}


def test_the_planner_never_plans_to_stop_on_a_friends_square(rs):
    """Johnny in a niche whose only open neighbour holds a Zhetan: the Boorus, a melee monster, would stop on the
    Zhetan's square to reach him (refused, its turn lost); it stops short instead, and every move ends on open
    ground."""
    state = stage(rs, {"boorus": ("boorus", "aliens", (8, 3)), "zhetan": ("zhetan", "aliens", (8, 11)),
                       "johnny": ("johnny", "xcom", (8, 12))}, tiles=NICHE, side="aliens")
    turn = play(rs, Ai(rs, "aliens"), state)
    moves = [(c, before) for c, refused, before in turn if isinstance(c, Move)]
    assert [refused for _c, refused, _s in turn] == [None] * len(turn)
    assert moves and moves[0][0].unit == "boorus" and moves[0][0].path[-1] == (7, 10)
    for c, before in moves:
        assert not any(u.side == "aliens" and u.id != c.unit for u in before.units_at(c.path[-1]))
