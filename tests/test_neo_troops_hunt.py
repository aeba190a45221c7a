"""The AI's hunt for cloaked varans from memory (engine/ai/hunting.py, neo-troops' hunt.ai_hunt): where it last saw
or suspected each, which cells it has searched since, and what it does with that; all of it in the log's
checkpoints, so a resumed mission hunts exactly as the uninterrupted one."""

from __future__ import annotations

import json

import attrs
import numpy as np
import pytest

from engine.ai import memory
from engine.ai.planner import Ai
from engine.core.commands import Act, Move
from engine.play.game import Game
from engine.play.simulate import run
from engine.core.dice import seed_from_int
from engine.rules.neo_troops import battle
from tests.test_neo_troops_actions import clues, field, played  # noqa: F401 - the fixture
from tests.test_trust_resume import interrupted, resumed_to_the_end

ID = "neo-troops"


def goon_hunts(played, anna_at=(2, 8), cycle=2, **records):  # noqa: F811
    state = field(played, {"goon": ("goon", "aliens", (2, 2)), "anna": ("anna", "xcom", anna_at)}, "goon",
                  **records)
    b = battle.battle(state)
    return attrs.evolve(state, phase=cycle, record=attrs.evolve(b, order=attrs.evolve(b.order, cycle=cycle)))


def test_a_varan_that_vanishes_where_it_stood_leaves_a_lead_and_seeing_it_again_ends_it(played):  # noqa: F811
    state = goon_hunts(played)
    ai = Ai(played, "aliens")
    ai.memory, ai._armed = {"anna": (2, 8)}, {"anna"}  # noticed there before; the notice has lapsed
    ai.observe(state)
    assert ai.memory == {} and ai.leads == {"anna": ((2, 8), 2)}
    noticed = attrs.evolve(state, record=attrs.evolve(battle.battle(state), noticed=(("goon", "anna"),)))
    ai.observe(noticed)
    assert ai.memory == {"anna": (2, 8)} and ai.leads == {}
    known = attrs.evolve(state, record=attrs.evolve(battle.battle(state), known=(("aliens", "anna", (2, 8)),)))
    ai.observe(known)  # an unnoticed attacker's cell is a lead too
    assert ai.leads == {"anna": ((2, 8), 2)}
    old = attrs.evolve(state, phase=9)
    ai.observe(old)
    assert ai.leads == {}  # older than six cycles: forgotten


def test_a_fresh_lead_in_sight_is_shot_at_then_searched_round_then_cold(played):  # noqa: F811
    state = goon_hunts(played)
    goon = state.units["goon"]
    lead = [((2, 8), 2)]
    first = played.ai_hunt(state, goon, clues(state, lead))
    assert first.command == Act(unit="goon", action="fire_at", cell=(2, 8), option="spray")
    assert first.searched.sum() == 1 and first.searched[8, 2]  # the cell shot at, and only it
    searched = np.full((state.grid.height, state.grid.width), -1, dtype=np.int32)
    searched[first.searched] = 2
    second = played.ai_hunt(state, goon, clues(state, lead, searched))
    assert second.command == Act(unit="goon", action="search")
    sees = state.grid.fov(goon.pos, battle.SIGHT) & state.grid.walkable
    assert (second.searched == sees).all()
    searched[second.searched] = 2
    cold = played.ai_hunt(state, goon, clues(state, lead, searched))
    assert cold is None  # every cell round the lead searched since: and every cell in sight searched this cycle


def test_an_old_lead_is_searched_not_shot_and_a_far_one_is_run_towards(played):  # noqa: F811
    state = goon_hunts(played, cycle=4)
    goon = state.units["goon"]
    stale = played.ai_hunt(state, goon, clues(state, [((2, 8), 2)]))
    assert stale.command == Act(unit="goon", action="search")  # two cycles old: it may be anywhere near
    far = goon_hunts(played, anna_at=(44, 44), cycle=4)
    blind = np.zeros((far.grid.height, far.grid.width), dtype=np.int32)  # all searched this cycle but the lead's
    blind[far.grid.fov((2, 2), battle.SIGHT)] = 4
    walk = played.ai_hunt(far, far.units["goon"], clues(far, [((40, 40), 4)], blind))
    assert isinstance(walk.command, Move) and walk.searched is None
    path = walk.command.path
    assert path and (40, 40) not in path
    budget = played.budget(far, far.units["goon"])
    assert budget.step < budget.walk.cost((2, 2), path) <= budget.moves_left  # a run: the lead is far
    assert max(abs(path[-1][0] - 40), abs(path[-1][1] - 40)) < 38  # closer than it was


def test_what_the_hunt_remembers_goes_through_the_checkpoint_and_back(played):  # noqa: F811
    ai = Ai(played, "aliens")
    state = goon_hunts(played)
    ai.observe(state)
    ai.leads = {"anna": ((2, 8), 2), "boris": ((5, 6), 1)}
    ai.searched = np.full((state.grid.height, state.grid.width), -1, dtype=np.int32)
    ai.searched[3:5, 2:7] = 2
    data = json.loads(json.dumps(memory.snapshot(ai)))
    assert data["leads"] == [["anna", 2, 8, 2], ["boris", 5, 6, 1]]
    back = Ai(played, "aliens")
    memory.apply(back, memory.decode(data))
    assert back.leads == ai.leads and (back.searched == ai.searched).all()
    old = {k: v for k, v in data.items() if k not in ("leads", "searched")}  # a checkpoint from before the hunt
    blank = Ai(played, "aliens")
    memory.apply(blank, memory.decode(old))
    assert blank.leads == {} and blank.searched is None
    with pytest.raises(ValueError, match="malformed"):
        memory.decode({**data, "leads": [["anna", 2, "8", 2]]})


@pytest.fixture(scope="module")
def hunted_log(content, tmp_path_factory):
    """An AI-against-AI mission in which the goons hunt the cloaked varans (crash, seed 4: leads in both checkpoints,
    Searches and shots at cells after the last)."""
    ref = tmp_path_factory.mktemp("hunt") / "ref.jsonl"
    run(content, ID, "crash", seed_from_int(4), ref, public=4).close()
    recs = [json.loads(line) for line in ref.read_bytes().splitlines()]
    assert any(r["ai"]["aliens"].get("leads") for r in recs if r["kind"] == "checkpoint")
    assert any(r.get("command", {}).get("action") == "search" for r in recs)
    return ref, [n for n, r in enumerate(recs, 1) if r["kind"] == "checkpoint"], len(recs)


def test_a_resumed_neo_troops_mission_hunts_as_the_uninterrupted_one(content, tmp_path, hunted_log):
    ref, checkpoints, _ = hunted_log
    lines = ref.read_bytes().splitlines()
    at = next(n for n in checkpoints if json.loads(lines[n - 1])["ai"]["aliens"].get("leads"))
    game = Game.resume(content, interrupted(ref, tmp_path, at))  # cut right at it: nothing to retrace
    assert memory.snapshot(game.ai("aliens")) == json.loads(lines[at - 1])["ai"]["aliens"]  # leads, searched
    game.close()
    path = interrupted(ref, tmp_path, checkpoints[-1] + 1)
    assert resumed_to_the_end(content, path) == ref.read_bytes()


@pytest.mark.slow
def test_a_neo_troops_mission_cut_anywhere_resumes_byte_for_byte(content, tmp_path, hunted_log):
    ref, checkpoints, n = hunted_log
    for keep in [checkpoints[0] - 1, checkpoints[0] + 3, n - 5]:
        path = interrupted(ref, tmp_path, keep)
        assert resumed_to_the_end(content, path) == ref.read_bytes(), keep
