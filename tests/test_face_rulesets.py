"""How each ruleset answers the kernel's `Face` (a turn in place, the client's `[` `]`): the three with facing turn
the unit, neo-troops, which has none, refuses in words; none crashes or lets it pass silently."""

from __future__ import annotations

import pytest

from engine.core.commands import Face, Rejected
from engine.core.dice import Dice, seed_from_int
from engine.core.reducer import fold
from engine.play.game import Game


@pytest.mark.parametrize("ruleset_id, words", [("annihilation", "turns to face E (2 TU)"),
                                               ("xcom-trpg", "turns to face E"),
                                               ("xxxzone", "turns to face e (0 AP)")])
def test_a_ruleset_with_facing_turns_the_unit(content, tmp_path, ruleset_id, words):
    game = Game.new(content, ruleset_id, "eliminate", seed_from_int(5), tmp_path / "face.jsonl")
    try:
        state = game.state
        unit = state.side_units(state.side)[0]
        assert unit.facing == 0
        events = game.ruleset.decide(state, Face(unit=unit.id, facing=2), Dice.scripted([]))
        assert not isinstance(events, Rejected), events
        assert fold(state, events).units[unit.id].facing == 2 and words in [e.cause for e in events]
        again = game.ruleset.decide(state, Face(unit=unit.id, facing=0), Dice.scripted([]))
        assert isinstance(again, Rejected)  # already facing that way
    finally:
        game.close()


def test_neo_troops_has_no_facing_and_says_so(content, tmp_path):
    game = Game.new(content, "neo-troops", "eliminate", seed_from_int(5), tmp_path / "face.jsonl")
    try:
        state = game.state
        up = next(u for u in state.units.values() if game.ruleset.budget(state, u).can_act)
        got = game.ruleset.decide(state, Face(unit=up.id, facing=2), Dice.scripted([]))
        assert got.code == "no_facing" and got.reason.startswith("Neo-Troops has no facing")
    finally:
        game.close()
