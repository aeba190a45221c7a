"""Properties of neo-troops in play, over whole AI-vs-AI cycles with seeded dice: every combatant acts exactly once
per cycle unless it delayed, hastened or was out of action; a held action never survives its slot coming round
again; HP and saves stay within their bounds."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.dice import seed_from_int
from engine.core.events import Noted, Resolved, UnitChanged
from engine.play.game import Game
from engine.rules.neo_troops import battle

ID = "neo-troops"


def _check_bounds(state) -> None:
    for u in state.units.values():
        t = u.record
        assert 0 <= u.hp <= u.hp_max == t.hp_max and u.hp == max(0, t.hp), u.id
        assert t.status == "active" or t.hp <= 0, u.id  # out of action only at 0 HP or below
        assert t.save_now is None or 2 <= t.save_now <= 7, u.id
        assert t.bleeding is None or 0 <= t.bleeding <= 10, u.id
        assert t.actions in (0, 1) and t.spent_m >= 0


@pytest.mark.parametrize("seed", [5, pytest.param(6, marks=pytest.mark.slow)])
def test_each_combatant_acts_once_a_cycle_unless_delayed_hastened_or_out(content, seed):
    game = Game.new(content, ID, "crash", seed_from_int(seed), None, public=seed)
    b = battle.battle(game.state)
    cycle, starts = b.order.cycle, Counter({b.order.up: 1})  # the first slot started with the mission
    excused: dict[int, set[str]] = {}  # cycle -> units that delayed, hastened (this cycle or the last) or fell
    members = set(b.order.later)
    checked = 0
    for _ in range(600):
        if game.state.winner is not None:
            break
        result = game.ai_step()
        if not isinstance(result, list):
            continue
        state = game.state
        o = battle.battle(state).order
        _check_bounds(state)
        assert all(o.slots.index(u) < o.at for u in o.held), o  # a held action never outlives its slot
        excused.setdefault(cycle, set()).update(u.id for u in state.units.values() if not u.conscious)
        for e in result:
            if isinstance(e, UnitChanged) and e.cause == "slot":
                starts[e.unit] += 1
            if isinstance(e, UnitChanged) and e.cause == "holds its action":
                excused.setdefault(cycle, set()).add(e.unit)
            if isinstance(e, Resolved) and e.action == "hasten":
                excused.setdefault(cycle, set()).add(e.actor)
                excused.setdefault(cycle + 1, set()).add(e.actor)
            if isinstance(e, Noted) and e.cause == "next slot" and e.record.order.cycle > cycle:
                # the cycle is over: the slot that starts next is the new cycle's
                for u in members - excused.get(cycle, set()):
                    assert starts[u] == 1, (cycle, u, starts)
                assert all(n <= 2 for n in starts.values()), starts  # its slot, and a held action taken
                checked += len(members - excused.get(cycle, set()))
                members, cycle, starts = set(e.record.order.later), e.record.order.cycle, Counter()
    assert checked > 20  # the property was checked on real cycles
