"""The infiltrate mission's follow-ups (issue 11): xxxzone hacks the terminal (Interact refused there), the guards
walk a beat until they meet the squad, the squad's AI plays it as a sneak, and every ruleset names the machine it
shuts down by its tile."""

from __future__ import annotations

import attrs
import pytest

from engine.content import missions
from engine.core.commands import Act, Wait
from engine.core.dice import Dice, seed_from_int
from engine.core.geometry import NEIGHBOURS
from engine.core.reducer import fold
from engine.map.gen import GENERATORS
from engine.play.game import Game
from engine.rules.xxxzone import turns
from tests.test_infiltrate import _at_the_lock, _cells

ID = "xxxzone"


# -- guards walk a beat --------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 4, 17])
def test_every_guard_has_a_beat_on_its_own_ground_within_3_squares_of_its_post(content, seed):
    bf = GENERATORS["warehouse"](40, 30, seed, content.terrain, {"xcom": 3, "aliens": 4})
    posts, ends = bf.spawns["aliens"], bf.spawns["beat"]
    assert len(ends) == len(posts) == 4
    for post, end in zip(posts, ends):
        assert bf.grid.walkable[end[1], end[0]] and end != post
        assert max(abs(end[0] - post[0]), abs(end[1] - post[1])) <= 3
        assert bf.grid.distances(post)[end[1], end[0]] <= 6  # a short walk, not round the building


def test_calm_guards_walk_out_to_the_end_of_their_beat_and_back_then_hunt_once_they_meet_the_squad(content):
    from engine.ai.planner import Ai

    game = Game.new(content, ID, "infiltrate", seed_from_int(4), None)
    rs = game.ruleset
    posts, ends = rs.setup.spawns["aliens"], rs.setup.spawns["beat"]
    ai = Ai(rs, missions.ALIENS)
    state = fold(game.state, turns.end_turn(rs, game.state, missions.PLAYER, Dice.scripted([50] * 200)))
    assert state.phase == 1
    guards = state.side_units(missions.ALIENS)
    assert [ai.orders.beat(state, u) for u in guards] == [[e] for e in ends]  # odd phases: out
    back = attrs.evolve(state, phase=2)
    assert [ai.orders.beat(back, u) for u in guards] == [[p] for p in posts]  # even phases: home
    at_home = ai.next_command(back)
    assert at_home.kind == "wait" and at_home.unit == "zhetan_1"  # already at its post: it stands
    assert Ai(rs, missions.PLAYER).orders.beat(state, state.units["dane"]) is None  # the squad walks no beat
    game.close()
    crash = Game.new(content, ID, "crash", seed_from_int(4), None)
    guard = crash.state.side_units(missions.ALIENS)[0]
    assert Ai(crash.ruleset, missions.ALIENS).orders.beat(crash.state, guard) is None  # no beat: it stands
    crash.close()


# -- xxxzone: the terminal is hacked, not interacted with (8; settings.toml's hack_only) ----------------------


def _next_to(game, uid, zone):
    state = game.state
    (cell,) = game.ruleset.setup.spawns[zone][:1]
    spot = next((cell[0] + dx, cell[1] + dy) for dx, dy in NEIGHBOURS
                if state.grid.walkable[cell[1] + dy, cell[0] + dx] and not state.units_at((cell[0] + dx, cell[1] + dy)))
    unit = attrs.evolve(state.units[uid], pos=spot)
    if "at" in attrs.fields_dict(type(unit.record)):  # xxxzone's record keeps the square too
        unit = attrs.evolve(unit, record=attrs.evolve(unit.record, at=spot))
    return attrs.evolve(state, units={**state.units, uid: unit}), cell


def test_the_terminal_offers_hack_not_interact_and_interact_says_to_hack(content):
    game = Game.new(content, ID, "infiltrate", seed_from_int(4), None)
    rs = game.ruleset
    state, terminal = _next_to(game, "dane", "terminal")
    where = f"{terminal[0]},{terminal[1]}"
    got = [(o.label, o.command.action, o.note) for o in rs.options(state, state.units["dane"])
           if o.command.cell == terminal]
    assert got == [(f"Hack the computer terminal at {where} (3d10! AP)", "hack", "Hack 50: 50% a try")]
    refused = rs._command(state, state.units["dane"], Act(unit="dane", action="shut_down", cell=terminal), None)
    assert (refused.code, refused.reason) == ("hack_only", "The computer terminal is worked by Hack "
                                              "(a Hacker with a portable computer, 3d10! AP), not Interact")
    state, _ = _next_to(game, "trevor", "terminal")  # no Hacker: the Hack entry says why, Interact is not offered
    got = [(o.command.action, o.note) for o in rs.options(state, state.units["trevor"]) if o.command.cell == terminal]
    assert got == [("hack", "Hacking needs Hacker; Trevor McDougal does not have it")]
    game.close()


def test_the_crash_sites_power_source_is_still_worked_by_interact(content):
    game = Game.new(content, ID, "crash", seed_from_int(4), None)
    rs = game.ruleset
    zone = next(o.zone for o in missions.objectives(rs.setup.mission).values() if o.kind == "shut_down")
    uid = next(u.id for u in game.state.side_units(missions.PLAYER) if "hacker" not in u.record.op.abilities)
    state, power = _next_to(game, uid, zone)
    assert [o.command.action for o in rs.options(state, state.units[uid]) if o.command.cell == power] == ["shut_down"]
    events = rs._command(state, state.units[uid], Act(unit=uid, action="shut_down", cell=power), Dice.scripted([99]))
    assert events[0].action == "shut_down" and events[0].outcome == "success"
    game.close()


def test_older_xxxzone_content_has_no_hack_only_machine():
    from pathlib import Path

    from engine.content import loader
    from engine.core.ruleset import make

    old = loader.load(Path(__file__).parent / "fixtures" / "logs" / "v3-content")
    assert make(ID, old, None).book.settings.hack_only == ()


def test_the_squads_ai_hacks_the_terminal_and_still_interacts_with_the_crash_sites_power_source(content):
    from engine.ai.planner import Ai

    game = Game.new(content, ID, "infiltrate", seed_from_int(4), None)
    state, terminal = _next_to(game, "dane", "terminal")
    ai = Ai(game.ruleset, missions.PLAYER)
    (goal,) = ai.orders.of("shut_down")
    assert ai.orders.engineer(state, goal) == "dane"  # the Hacker, the best at Intelligence
    assert ai.orders.act(state, state.units["dane"]) == Act(unit="dane", action="hack", cell=terminal)
    game.close()
    game = Game.new(content, ID, "crash", seed_from_int(4), None)
    ai = Ai(game.ruleset, missions.PLAYER)
    (goal,) = ai.orders.of("shut_down")
    uid = ai.orders.engineer(game.state, goal)
    state, power = _next_to(game, uid, goal.zone)
    assert ai.orders.act(state, state.units[uid]) == Act(unit=uid, action="shut_down", cell=power)
    game.close()


@pytest.mark.parametrize("ruleset_id", ["annihilation", "neo-troops"])
def test_shutting_down_names_the_tile_worked_the_terminal_here_the_power_source_at_the_crash(content, ruleset_id):
    for mission, words in (("infiltrate", "computer terminal"), ("crash", "power source")):
        game = Game.new(content, ruleset_id, mission, seed_from_int(4), None)
        rs = game.ruleset
        zone = next(o.zone for o in missions.objectives(rs.setup.mission).values() if o.kind == "shut_down")
        asked = rs.turn(game.state).units  # neo-troops: the unit whose slot it is
        uid = asked[0] if asked else game.state.side_units(missions.PLAYER)[0].id
        state, cell = _next_to(game, uid, zone)
        (option,) = [o for o in rs.options(state, state.units[uid]) if o.command.action == "shut_down"]
        assert option.label.startswith(f"Shut down the {words} at {cell[0]},{cell[1]}")
        events = rs.decide(state, option.command, Dice.scripted([1] * 500))
        # the test's own words or a guard's reaction to the one working it (annihilation's opportunity fire)
        said = [e.text for e in events if getattr(e, "text", "") and words in e.text]
        assert said and all("power source" not in e.text for e in events if words != "power source"
                            and getattr(e, "text", ""))
        game.close()


# -- the squad's AI plays the mission as a sneak ----------------------------------------------------------------


def _ai_turn(game, side, state=None):
    """The side's AI commands for one turn, each decided and folded with mid dice."""
    from engine.ai.planner import Ai

    rs, ai, out = game.ruleset, Ai(game.ruleset, side), []
    state = state or game.state
    while True:
        cmd = ai.next_command(state)
        out.append(cmd)
        if cmd.kind == "end_turn":
            return out, state
        got = rs.decide(state, cmd, Dice.scripted([50] * 300))
        assert not hasattr(got, "code"), got
        state = fold(state, got)


def test_the_unspotted_squad_creeps_its_lockpicker_to_the_lock_and_the_rest_keep_out_of_sight(content):
    game = Game.new(content, ID, "infiltrate", seed_from_int(4), None)
    commands, _ = _ai_turn(game, missions.PLAYER)
    moves = [c for c in commands if c.kind in ("move", "combo")]
    assert moves and all(c.kind == "combo" for c in moves)  # cautiously only, never a conspicuous quick step
    assert {c.unit for c in moves} == {"locksmith"}  # the Lockpicker goes; the rest wait for the short way in
    assert sorted(c.unit for c in commands if c.kind == "wait") == ["dane", "trevor"]
    (lock,) = _cells(game.state.grid, "door_locked")
    marcel = next(c for c in moves if c.unit == "locksmith")
    walked = game.state.grid.distances(lock)
    start, end = game.state.units["locksmith"].pos, marcel.path[-1]
    assert walked[end[1], end[0]] < walked[start[1], start[0]]  # on the way to the locked door
    game.close()


def test_the_lockpicker_next_to_the_lock_picks_it_but_not_in_a_fight_nor_once_the_terminal_is_hacked(content):
    import numpy as np

    from engine.rules.xxxzone import errands

    game, state, lock = _at_the_lock(content)
    rs = game.ruleset
    marcel = state.units["locksmith"]
    seen = np.ones((state.grid.height, state.grid.width), dtype=bool)  # the squad has seen the whole map
    assert errands.ai_lock(rs, state, marcel, False, seen) == Act(unit="locksmith", action="pick_lock", cell=lock)
    assert errands.ai_lock(rs, state, marcel, True, seen) is None  # a hostile in sight: fight first
    assert errands.ai_lock(rs, state, state.units["dane"], False, seen) == Wait(unit="dane")  # not open yet
    opened = attrs.evolve(state, grid=state.grid.with_tiles({lock: "door"}))
    assert errands.ai_lock(rs, opened, opened.units["dane"], False, seen) is None  # open: Dane goes about his work
    assert errands.ai_lock(rs, opened, opened.units["locksmith"], False, seen) is None  # no lock left to pick
    (terminal,) = rs.setup.spawns["terminal"]
    done = attrs.evolve(state, grid=state.grid.with_tiles({terminal: "terminal_hacked"}))
    assert errands.ai_lock(rs, done, done.units["locksmith"], False, seen) is None  # nothing left to go in for
    game.close()


def test_the_lockpicker_looks_for_locked_doors_only_among_the_squares_its_side_has_seen(content):
    import numpy as np

    import math

    from engine.core.geometry import distance
    from engine.core.ruleset import Clues
    from engine.rules.xxxzone import ai, errands

    game = Game.new(content, ID, "infiltrate", seed_from_int(4), None)
    state, rs = game.state, game.ruleset
    (lock,) = _cells(state.grid, "door_locked")
    marcel, dane = state.units["locksmith"], state.units["dane"]
    everything = np.ones((state.grid.height, state.grid.width), dtype=bool)
    walk = errands.ai_lock(rs, state, marcel, False, everything)
    assert walk.kind == "combo" and state.grid.distances(lock)[walk.path[-1][1], walk.path[-1][0]] < \
        state.grid.distances(lock)[marcel.pos[1], marcel.pos[0]]  # a lock seen: it goes for it
    unseen = everything.copy()
    unseen[lock[1], lock[0]] = False  # all but the lock's square: it scouts, closing in on the terminal; Dane waits
    (terminal,) = rs.setup.spawns["terminal"]

    def off(cell):
        return math.hypot(cell[0] - terminal[0], cell[1] - terminal[1])

    scout = errands.ai_lock(rs, state, marcel, False, unseen)
    assert scout.kind == "combo" and scout != walk and len(scout.path) == 6  # 12 AP: 6 squares at 2
    assert off(scout.path[-1]) < off(marcel.pos) - 1
    assert errands.ai_lock(rs, state, dane, False, unseen) == Wait(unit="dane")
    closer = state
    for _ in range(8):  # walked on, turn by turn, it stops where it can get no nearer: the squad goes the long way
        step = errands.ai_lock(rs, closer, closer.units["locksmith"], False, unseen)
        if step is None:
            break
        m = closer.units["locksmith"]
        closer = attrs.evolve(closer, units={**closer.units, "locksmith": attrs.evolve(
            m, pos=step.path[-1], record=attrs.evolve(m.record, at=step.path[-1]))})
    assert step is None and errands.ai_lock(rs, closer, closer.units["dane"], False, unseen) is None
    assert distance(closer.units["locksmith"].pos, lock) > 1 and state.grid.tile(lock) == "door_locked"
    # the ruleset's hunt hook is the errand, told the cells seen by the AI's memory (engine.ai.hunting.clues)
    assert rs.ai_hunt(state, marcel, Clues(explored=everything)).command == walk
    assert rs.ai_hunt(state, marcel, Clues(explored=unseen)).command == scout
    assert ai.errand(rs, state, marcel, Clues()) is None  # not told what it has seen: no errand
    game.close()


def test_sneaking_is_the_stealth_missions_squad_only(content):
    from engine.ai.planner import Ai

    for mission, side, sneaks in (("infiltrate", missions.PLAYER, True), ("infiltrate", missions.ALIENS, False),
                                  ("crash", missions.PLAYER, False)):
        game = Game.new(content, ID, mission, seed_from_int(4), None)
        assert Ai(game.ruleset, side).orders.sneaking() is sneaks, (mission, side)
        game.close()


def test_the_unspotted_engineer_creeps_and_keeps_its_last_ap_rather_than_take_a_quick_step(content):
    game = Game.new(content, ID, "infiltrate", seed_from_int(4), None)
    state = game.state
    marcel = state.units["locksmith"]  # out of the fight: nobody to pick the lock, so Dane goes the long way
    state = attrs.evolve(state, units={**state.units, "locksmith": attrs.evolve(marcel, status="unconscious")})
    commands, _ = _ai_turn(game, missions.PLAYER, state)
    dane = [c for c in commands if getattr(c, "unit", "") == "dane"]
    assert [c.kind for c in dane] == ["combo", "wait"] and len(dane[0].path) == 4  # 9 AP: 4 squares at 2, 1 kept
    game.close()


@pytest.mark.slow
def test_the_xxxzone_ai_sneaks_in_hacks_and_gets_the_whole_squad_out_and_the_log_verifies(content, tmp_path):
    from engine.play import simulate
    from engine.play.verify import verify

    path = tmp_path / "sneak.jsonl"  # seed 10: the lock unseen from the exit, so Marcel scouts for it first
    game = simulate.run(content, ID, "infiltrate", seed_from_int(10), path)
    state = game.state
    game.close()
    assert (state.winner, state.ended) == ("xcom", "the squad got out")
    assert state.grid.tile(game.ruleset.setup.spawns["terminal"][0]) == "terminal_hacked"
    assert all(u.status == "active" for u in state.side_units(missions.PLAYER))
    report = verify(content, path)
    assert report.failure is None, str(report.failure)
