"""The infiltrate mission (issue 11, section 10's playtest): the warehouse generator's promises, the escape
objective, xxxzone's lock-picking with scripted dice, a squad that slips in, picks the lock, hacks the terminal and
leaves without a shot, and every ruleset's AI playing it to an end that verifies."""

from __future__ import annotations

import json

import attrs
import numpy as np
import pytest

from engine.content import field, missions
from engine.core.commands import Act, Combo, EndTurn
from engine.core.dice import Dice, seed_from_int
from engine.core.geometry import NEIGHBOURS
from engine.core.reducer import fold
from engine.map.gen import GENERATORS
from engine.map.zones import problems
from engine.play import simulate
from engine.play.game import Game
from engine.play.verify import verify
from engine.rules.xxxzone import turns
from engine.rules.xxxzone.units import battle

ID = "xxxzone"


def _cells(grid, tile):
    return [(x, y) for y in range(grid.height) for x in range(grid.width) if grid.tile((x, y)) == tile]


# -- the generator ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3, 17, 99])
def test_the_warehouse_has_a_terminal_inside_a_locked_door_on_the_short_way_and_an_exit(content, seed):
    gen = GENERATORS["warehouse"]
    a = gen(40, 30, seed, content.terrain, {"xcom": 3, "aliens": 4})
    b = gen(40, 30, seed, content.terrain, {"xcom": 3, "aliens": 4})
    assert np.array_equal(a.grid.tiles, b.grid.tiles) and a.spawns == b.spawns  # the same seed, the same map
    assert problems(a, content.terrain) == []
    grid, zones = a.grid, a.spawns
    (lock,) = _cells(grid, "door_locked")
    (terminal,) = zones["terminal"]
    assert grid.tile(terminal) == "terminal" and set(zones["xcom"]) <= set(zones["exit"])
    assert all(grid.tile(c) == "landing_zone" for c in zones["exit"]) and len(zones["exit"]) >= 3
    start = zones["xcom"][0]
    beside = [(terminal[0] + dx, terminal[1] + dy) for dx, dy in NEIGHBOURS]
    walked = grid.distances(start)
    assert min(walked[y, x] for x, y in beside if grid.walkable[y, x]) < 10**6  # reached the long way round
    # picked, the locked door is the short way in: the terminal is nearer, and the way goes through the door
    picked = grid.with_tiles({lock: "door"})
    short = picked.distances(start)
    goal = min((c for c in beside if picked.walkable[c[1], c[0]]), key=lambda c: short[c[1], c[0]])
    assert short[goal[1], goal[0]] < walked[goal[1], goal[0]]
    assert lock in picked.path(start, goal)
    assert len(zones["aliens"]) == 4 and not set(zones["aliens"]) & set(zones["exit"])


def test_another_seed_gives_another_warehouse(content):
    gen = GENERATORS["warehouse"]
    a, b = (gen(40, 30, s, content.terrain, {"xcom": 3, "aliens": 4}) for s in (5, 6))
    assert not np.array_equal(a.grid.tiles, b.grid.tiles)


# -- the escape objective -----------------------------------------------------------------------------------


def test_leaving_counts_only_after_the_terminal_and_with_every_conscious_soldier_out(content):
    game = Game.new(content, ID, "infiltrate", seed_from_int(4), None)
    rs, state = game.ruleset, game.state
    mission, zones = rs.setup.mission, rs.setup.spawns
    found = {s.id: s for s in missions.statuses(content, mission, zones, state)}
    assert (found["terminal"].state, found["out"].state, found["out"].detail) == ("open", "open", "after terminal")
    hacked = attrs.evolve(state, grid=state.grid.with_tiles({zones["terminal"][0]: "terminal_hacked"}))
    found = {s.id: s for s in missions.statuses(content, mission, zones, hacked)}
    assert found["out"].state == "done" and missions.verdict(content, mission, zones, hacked) == (
        "xcom", "the squad got out")
    dane = hacked.units["dane"]
    away = attrs.evolve(hacked, units={**hacked.units, "dane": attrs.evolve(dane, pos=zones["terminal"][0])})
    found = {s.id: s for s in missions.statuses(content, mission, zones, away)}
    assert (found["out"].state, found["out"].detail) == ("open", "2/3 out")
    assert missions.verdict(content, mission, zones, away) is None
    game.close()


# -- xxxzone: Pick lock (4: 3d10 AP a try; 13 Lockpicker: d100 + Locksmith > 100) ----------------------------


def _at_the_lock(content, uid="locksmith"):
    game = Game.new(content, ID, "infiltrate", seed_from_int(4), None)
    state = game.state
    (lock,) = _cells(state.grid, "door_locked")
    spot = (lock[0], lock[1] + 1)
    unit = state.units[uid]
    unit = attrs.evolve(unit, pos=spot, record=attrs.evolve(unit.record, at=spot))
    return game, attrs.evolve(state, units={**state.units, uid: unit}), lock


def test_marcel_picks_the_lock_with_3d10_ap_and_d100_plus_locksmith_75_over_100(content):
    game, state, lock = _at_the_lock(content)
    rs, marcel = game.ruleset, state.units["locksmith"]
    (option,) = [o for o in rs.options(state, marcel) if o.command.action == "pick_lock"]
    assert option.label == f"Pick the lock at {lock[0]},{lock[1]} (3d10 AP)"
    assert option.note == "Locksmith 75: 75% a try"  # 50 + 5 × Per 5
    # 3d10 = 3 + 4 + 2 = 9 AP of Marcel's 12: the try is made now, d100 26 + 75 = 101 > 100
    events = rs._command(state, marcel, Act(unit="locksmith", action="pick_lock", cell=lock),
                         Dice.scripted([3, 4, 2, 26]))
    head = events[0]
    assert head.outcome == "success" and [r.formula for r in head.rolls] == [
        "3d10: 3+4+2=9", "d100 26 + Locksmith 75 = 101 > 100: pass"]
    assert head.text == (f"Marcel Valjean works the lock of the locked door at {lock[0]},{lock[1]}: 3d10: 3+4+2=9 AP; "
                         "the locked door is unlocked (d100 26 + Locksmith 75 = 101 > 100: pass)")
    after = fold(state, events)
    assert after.grid.tile(lock) == "door" and after.units["locksmith"].record.turn.ap == 3
    assert not [o for o in rs.options(after, after.units["locksmith"]) if o.command.action == "pick_lock"]
    game.close()


def test_a_total_of_exactly_100_leaves_the_lock_shut_and_the_ap_spent(content):
    game, state, lock = _at_the_lock(content)
    rs, marcel = game.ruleset, state.units["locksmith"]
    events = rs._command(state, marcel, Act(unit="locksmith", action="pick_lock", cell=lock),
                         Dice.scripted([1, 1, 1, 25]))
    head = events[0]
    assert head.outcome == "failure" and head.rolls[-1].formula == "d100 25 + Locksmith 75 = 100 ≤ 100: fail"
    assert head.text.endswith("3d10: 1+1+1=3 AP; the lock holds (d100 25 + Locksmith 75 = 100 ≤ 100: fail)")
    after = fold(state, events)
    assert after.grid.tile(lock) == "door_locked" and after.units["locksmith"].record.turn.ap == 9
    game.close()


def test_a_lock_that_takes_more_ap_than_marcel_has_carries_over_and_is_tried_when_paid(content):
    game, state, lock = _at_the_lock(content)
    rs, marcel = game.ruleset, state.units["locksmith"]
    # 3d10 = 10 + 9 + 8 = 27 AP (no exploding for Pick lock): 12 now, 15 to go
    events = rs._command(state, marcel, Act(unit="locksmith", action="pick_lock", cell=lock),
                         Dice.scripted([10, 9, 8]))
    assert events[0].outcome == "continuing" and events[0].rolls[0].formula == "3d10: 10+9+8=27"
    assert events[0].text.endswith("; 15 AP to go next turn")
    now = fold(state, events)
    assert now.units["locksmith"].record.turn.continuing.remaining == 15 and now.grid.tile(lock) == "door_locked"
    first = turns.begin_side(rs, now, "xcom", Dice.scripted([50] * 30))  # 12 of the 15 paid: 3 to go
    now = fold(now, first)
    assert now.units["locksmith"].record.turn.continuing.remaining == 3
    second = turns.begin_side(rs, now, "xcom", Dice.scripted([60] + [50] * 30))
    done = next(e for e in second if getattr(e, "action", "") == "pick_lock")
    assert done.text == (f"Marcel Valjean finishes picking the lock at {lock[0]},{lock[1]}; the locked door is "
                         "unlocked (d100 60 + Locksmith 75 = 135 > 100: pass)")
    after = fold(now, second)
    assert after.grid.tile(lock) == "door" and after.units["locksmith"].record.turn.ap == 9  # 12 − the 3 left
    game.close()


def test_pick_lock_is_refused_with_its_reason(content):
    game, state, lock = _at_the_lock(content, "dane")
    rs, dane = game.ruleset, state.units["dane"]
    (option,) = [o for o in rs.options(state, dane) if o.command.action == "pick_lock"]
    assert option.note == "Picking a lock needs Lockpicker; Dane McKinnon does not have it"
    got = rs._command(state, dane, option.command, None)
    assert (got.code, got.reason) == ("needs_ability", option.note)
    marcel = state.units["locksmith"]
    got = rs._command(state, marcel, Act(unit="locksmith", action="pick_lock", cell=lock), None)
    assert (got.code, got.reason) == ("not_adjacent", "Marcel Valjean must stand next to what is worked on")
    grass = (dane.pos[0] - 1, dane.pos[1] + 1)
    got = rs._command(state, dane, Act(unit="dane", action="hack", cell=lock), None)
    assert got.code == "nothing_to_hack"
    game2, state2, _ = _at_the_lock(content)
    m = state2.units["locksmith"]
    got = game2.ruleset._command(state2, m, Act(unit="locksmith", action="pick_lock", cell=grass), None)
    assert (got.code, got.reason) == ("no_lock", f"No locked door at {grass[0]},{grass[1]}")
    game.close()
    game2.close()


def test_a_locked_door_cannot_be_opened_by_interact_and_says_why(content):
    game, state, lock = _at_the_lock(content)
    got = game.ruleset._command(state, state.units["locksmith"], Act(unit="locksmith", action="open", cell=lock), None)
    assert got.reason == f"Locked door at {lock[0]},{lock[1]}: locked; it must be picked or broken"
    game.close()


# -- the stealth mission won without a shot (section 10's playtest) ------------------------------------------


class Sneak:
    """Plays the squad by hand against the game's own AI guards: cautious moves along ways no guard can see."""

    def __init__(self, game: Game) -> None:
        self.game, self.rs = game, game.ruleset
        self.zones = self.rs.setup.spawns
        self.phases = 0

    @property
    def state(self):
        return self.game.state

    def hidden_path(self, uid: str, goal) -> list:
        """The guards' sight is the same all mission (they stand until they meet the squad): walk round it."""
        seen = field.sight(self.state, missions.ALIENS, 20)
        grid = self.state.grid
        blocked = [(x, y) for y in range(grid.height) for x in range(grid.width) if seen[y, x]]
        blocked += [u.pos for u in self.state.units.values() if u.id != uid and u.status != "dead"]
        path = grid.path(self.state.units[uid].pos, goal, blocked)
        assert path, f"no hidden way for {uid} to {goal}"
        return path

    def walk(self, uid: str, path: list) -> list:
        """As far along `path` as this turn's AP go at 2 a square (cautiously); the rest of the path."""
        unit = self.state.units[uid]
        steps = min(len(path), unit.record.turn.ap // 2)
        if steps:
            got = self.game.submit(Combo(unit=uid, path=tuple(path[:steps])))
            assert not hasattr(got, "code"), got
        return path[steps:]

    def work(self, uid: str, action: str, cell) -> None:
        """Start the job unless one is carried over (acting would break it)."""
        c = self.state.units[uid].record
        if c.turn.continuing is None and c.turn.ap:
            got = self.game.submit(Act(unit=uid, action=action, cell=cell))
            assert not hasattr(got, "code"), got

    def end_turn(self) -> None:
        self.game.submit(EndTurn(side=missions.PLAYER))
        simulate.play_out(self.game, (missions.ALIENS,))
        self.phases += 1
        assert self.phases < self.rs.setup.max_phases and not battle(self.state).sightings(missions.ALIENS), "the guards saw the squad"


@pytest.mark.slow
def test_the_squad_slips_in_picks_the_lock_hacks_the_terminal_and_leaves_unseen_without_a_shot(content, tmp_path):
    path = tmp_path / "infiltrate.jsonl"
    game = Game.new(content, ID, "infiltrate", seed_from_int(4), path)
    play = Sneak(game)
    grid = game.state.grid
    (lock,) = _cells(grid, "door_locked")
    (terminal,) = play.zones["terminal"]
    outside = (lock[0], lock[1] + 1)
    marcel = play.hidden_path("locksmith", outside)
    while marcel:
        marcel = play.walk("locksmith", marcel)
        play.end_turn()
    while game.state.grid.tile(lock) == "door_locked":
        play.work("locksmith", "pick_lock", lock)
        if game.state.grid.tile(lock) == "door_locked":
            play.end_turn()
    home = [c for c in play.zones["exit"] if not game.state.units_at(c)]
    marcel = play.hidden_path("locksmith", home[0])
    inside = next((terminal[0] + dx, terminal[1] + dy) for dx, dy in NEIGHBOURS
                  if grid.walkable[terminal[1] + dy, terminal[0] + dx])
    dane = play.hidden_path("dane", inside)
    assert lock in dane  # in by the picked door
    while dane or game.state.grid.tile(terminal) == "terminal":
        marcel = play.walk("locksmith", marcel)
        if dane:
            dane = play.walk("dane", dane)
        else:
            play.work("dane", "hack", terminal)
        if game.state.grid.tile(terminal) == "terminal":
            play.end_turn()
    dane = play.hidden_path("dane", home[1])
    while game.state.winner is None:
        marcel, dane = play.walk("locksmith", marcel), play.walk("dane", dane)
        if game.state.winner is None:
            play.end_turn()
    state = game.state
    assert (state.winner, state.ended) == ("xcom", "the squad got out")
    assert all(u.status == "active" for u in state.units.values())  # nobody hurt, on either side
    game.close()
    records = [json.loads(line) for line in path.read_text().splitlines()]
    events = [e for r in records if r.get("kind") == "command" for e in r["events"]]
    assert not [e for e in events if e["kind"] == "resolved" and e["action"] in ("shoot", "throw")]
    assert {e["action"] for e in events if e["kind"] == "resolved" and e["actor"] in ("locksmith", "dane")} >= {
        "pick_lock", "hack"}
    report = verify(content, path)
    assert report.failure is None, str(report.failure)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", ["xcom-trpg", "xxxzone", "annihilation", "neo-troops"])
def test_every_rulesets_ai_plays_the_mission_to_an_end_that_verifies(content, tmp_path, ruleset_id):
    for seed in (3, 8):
        path = tmp_path / f"{ruleset_id}-{seed}.jsonl"
        game = simulate.run(content, ruleset_id, "infiltrate", seed_from_int(seed), path)
        state = game.state
        game.close()
        assert state.winner is not None, (seed, state.ended)
        report = verify(content, path)
        assert report.failure is None, str(report.failure)


# -- the alarm: an unsuppressed shot's alert radius (10) ---------------------------------------------------------


def test_a_shot_heard_within_20_squares_sends_the_guards_hunting_where_it_came_from(content):
    from engine.ai.planner import Ai
    from engine.rules.xxxzone import seen

    game = Game.new(content, ID, "infiltrate", seed_from_int(4), None)
    rs, state = game.ruleset, game.state
    dane = state.units["dane"]
    assert dane.pos == (10, 28) and state.units["zhetan_1"].pos == (23, 8)  # D = 20: in the alert radius
    assert seen.heard(rs.book, state, dane)[0].record.heard == (("aliens", (10, 28), 1),)
    alone = attrs.evolve(state, units={k: u for k, u in state.units.items() if k != "zhetan_1"})
    assert seen.heard(rs.book, alone, dane) == []  # the others stand 24 to 28 squares off: nobody hears him
    spot = (15, 20)
    near = attrs.evolve(state, units={**state.units, "dane": attrs.evolve(dane, pos=spot)})
    (noted,) = seen.heard(rs.book, near, near.units["dane"])
    assert noted.record.heard == (("aliens", spot, 1),) and noted.cause == "Dane McKinnon's shot is heard"
    their_turn = fold(state, turns.end_turn(rs, state, missions.PLAYER, Dice.scripted([50] * 200)))
    assert their_turn.side == missions.ALIENS and rs.heard(their_turn, missions.ALIENS) == ()
    calm = Ai(rs, missions.ALIENS).next_command(their_turn)
    assert (calm.unit, calm.path[-1]) == ("zhetan_1", (20, 5))  # nobody seen, nothing heard: out along its beat
    alarmed = fold(their_turn, [noted])
    assert rs.heard(alarmed, missions.ALIENS) == (spot,) and rs.heard(alarmed, missions.PLAYER) == ()
    hunt = Ai(rs, missions.ALIENS).next_command(alarmed)
    mover = alarmed.units[hunt.unit]
    assert hunt.kind in ("move", "combo")
    walk = alarmed.grid.distances(spot)
    end = hunt.path[-1]
    assert walk[end[1], end[0]] < walk[mover.pos[1], mover.pos[0]]  # on its way to the shot (out the side door)
    later = attrs.evolve(alarmed, phase=3)
    assert rs.heard(later, missions.ALIENS) == ()  # heard in phase 1, hunted in phases 1 and 2
    game.close()


# -- the client: `o` next to a locked door -------------------------------------------------------------------


def test_o_next_to_a_locked_door_says_it_is_locked_and_where_to_look(content, tmp_path):
    import asyncio

    from tui.app import XenotacApp
    from tui.testing import new_session
    from tui.textshot import screen_text

    session = new_session(content, tmp_path, seed=4, mission="infiltrate")
    (lock,) = _cells(session.state.grid, "door_locked")
    state = session.state
    anton = state.units["anton"]
    spot = (lock[0], lock[1] + 1)  # staged: Anton already at the door (the screen reads the game's state)
    moved = attrs.evolve(state, units={**state.units, "anton": attrs.evolve(anton, pos=spot)})
    session.game.history[-1] = attrs.evolve(session.game.history[-1], state=moved)
    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("o")
            await pilot.pause()
            return screen_text(app)

    text = asyncio.run(go())
    assert f"✗ The door at {lock[0]},{lock[1]} is locked: a lists what Anton can do" in text
    assert session.state.grid.tile(lock) == "door_locked"
    session.close()
