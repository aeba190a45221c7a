"""The alien AI: it acts only on what its side has seen, and each faction fights its own way.

Scenarios are drawn as small maps (`.` grass, `#` wall, `%` crate) with units placed by letter;
every other unit of the mission is dead and out of the way. Turns are played with seeded dice
through the ruleset, as the kernel would."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ai.planner import Ai
from engine.core.commands import Combo, EndTurn, Move, Rejected, Shoot, Throw, Wait
from engine.core.dice import Dice, Faces, seed_from_int
from engine.play.game import Game
from engine.map.grid import Grid, distance
from engine.core.reducer import fold
from engine.core.ruleset import make
from engine.rules.xcom_trpg.tables import xcom
from tests.xcom_record import counters, evolved, flags

LEGEND = {".": "grass", "#": "wall", "%": "crate"}


@attrs.frozen
class Arena:
    ruleset: object
    state: object


def arena(content, picture: str, cast: dict[str, str], mission: str = "eliminate", side: str = "aliens",
          **changes) -> Arena:
    """The mission's units on a drawn map: `cast` maps a letter of the picture to a unit id."""
    game = Game.new(content, "xcom-trpg", mission, seed_from_int(1), None)
    rows = [row.strip() for row in picture.strip().splitlines()]
    grid = Grid.from_ids([[LEGEND.get(ch, "grass") for ch in row] for row in rows], content.terrain)
    where = {cast[ch]: (x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch in cast}
    units = {}
    for uid, unit in game.state.units.items():
        if uid in where:
            unit = evolved(unit, **{"pos": where[uid], "status": "active",
                                         "actions": 2 if unit.side == side else 0, **changes.get(uid, {})})
        else:
            unit = evolved(unit, pos=(0, 0), status="dead")
        units[uid] = unit
    setup = evolved(game.ruleset.setup, spawns={"xcom": (), "aliens": ()})  # the mission's zones are not on this map
    return Arena(make("xcom-trpg", content, setup), evolved(game.state, grid=grid, units=units, side=side))


def play_turn(a: Arena, ai: Ai, state=None, seed: int = 9):
    """The side's whole turn: every command the AI gives, and the state after each."""
    faces = Faces(seed_from_int(seed))
    state = state or a.state
    side = state.side
    log = []
    for _ in range(60):
        command = ai.next_command(state)
        events = a.ruleset.decide(state, command, Dice(faces, state.dice))
        if isinstance(events, Rejected):
            ai.rejected(command, events)
            assert not isinstance(command, EndTurn), events
            continue
        state = fold(state, events)
        log.append((command, state))
        if isinstance(command, EndTurn) or state.side != side or state.winner:
            break
    return log


# -- it knows only what its side has seen --------------------------------------------------------------

HIDDEN = """
........................
...s.......m.........s..
........................
........................
........................
....#################...
....#...............#...
....#...............#...
....#...............#...
....#################...
........................
.............A..........
"""


def hidden_cells(content):
    """Inside the walled block: no alien can see in during one turn."""
    return [(x, y) for y in range(6, 9) for x in range(5, 20)]


def test_a_soldier_in_an_unseen_spot_is_never_targeted(content):
    a = arena(content, HIDDEN, {"s": "sectoid_1", "m": "muton_1", "A": "anton"})
    hide = (12, 7)
    state = evolved(a.state, units={**a.state.units,
                                         "julia": evolved(a.state.units["julia"], pos=hide, status="active")})
    assert not a.ruleset.visible(state, "aliens")[hide[1], hide[0]]
    for command, after in play_turn(a, Ai(a.ruleset, "aliens"), state):
        assert not a.ruleset.visible(after, "aliens")[hide[1], hide[0]]  # still unseen after every step
        assert getattr(command, "target", None) != "julia"
        assert not (isinstance(command, Throw) and command.cell == hide)


@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_where_an_unseen_soldier_hides_changes_nothing_the_aliens_do(content, data):
    """No beelining, no shooting at ghosts: the AI's whole turn is the same wherever (and whether)
    a soldier it has not seen is hiding."""
    a = arena(content, HIDDEN, {"s": "sectoid_1", "m": "muton_1", "A": "anton"})
    baseline = [c for c, _s in play_turn(a, Ai(a.ruleset, "aliens"))]
    hide = data.draw(st.sampled_from(hidden_cells(content)))
    units = {**a.state.units, "julia": evolved(a.state.units["julia"], pos=hide, status="active")}
    commands = [c for c, _s in play_turn(a, Ai(a.ruleset, "aliens"), evolved(a.state, units=units))]
    assert commands == baseline


def test_the_ai_is_deterministic(content):
    a = arena(content, HIDDEN, {"s": "sectoid_1", "m": "muton_1", "A": "anton"})
    first = [c for c, _s in play_turn(a, Ai(a.ruleset, "aliens"))]
    assert first == [c for c, _s in play_turn(a, Ai(a.ruleset, "aliens"))] and len(first) >= 3


# -- each faction its own way --------------------------------------------------------------------------

FIELD = """
........................
..........X.............
........................
........................
........................
........................
........................
........................
........................
..........A.............
........................
"""


WALLED = """
........................
..........X.............
........................
........................
........................
........................
........................
......###########.......
..........A.............
"""


def test_a_cautious_sectoid_keeps_its_distance_an_aggressive_muton_closes(content):
    """Both last saw the soldier behind the wall: the sectoid stays at range, the muton goes for him."""
    ends = {}
    for alien in ("sectoid_1", "muton_1"):
        a = arena(content, WALLED, {"X": alien, "A": "anton"})
        ai = Ai(a.ruleset, "aliens")
        ai.observe(a.state)
        ai.memory["anton"], _ = (10, 8), ai._armed.add("anton")  # noqa: SLF001 - what a sighting leaves
        last = play_turn(a, ai)[-1][1]
        ends[alien] = distance(last.units[alien].pos, (10, 8))
    assert ends["sectoid_1"] >= 7 and ends["muton_1"] < ends["sectoid_1"]


def test_a_floater_flanks_a_soldier_behind_cover(content):
    a = arena(content, """
.........................
.........................
.........................
.........................
.........................
............X............
.........................
..........%..............
..........A..............
.........................
""", {"X": "floater_1", "A": "anton"}, mission="crash")
    anton = a.state.units["anton"].pos
    assert a.state.grid.cover_against(anton, (12, 5)) > 0
    log = play_turn(a, Ai(a.ruleset, "aliens"))
    moved = next(s for c, s in log if isinstance(c, (Move, Combo))).units["floater_1"].pos
    assert a.state.grid.cover_against(anton, moved) == 0
    assert any(isinstance(c, Shoot) for c, _s in log)


def test_an_ethereal_commands_from_behind_its_troops(content):
    a = arena(content, """
..........E.............
........................
..........s.............
........................
........................
........................
........................
........................
..........A.............
""", {"E": "ethereal_1", "s": "sectoid_1", "A": "anton"}, mission="crash")
    log = play_turn(a, Ai(a.ruleset, "aliens"))
    last = log[-1][1]
    anton = last.units["anton"].pos
    assert distance(last.units["ethereal_1"].pos, anton) > distance(last.units["sectoid_1"].pos, anton)


# -- the shared tactics ----------------------------------------------------------------------------------


def test_focus_fire_on_the_wounded(content):
    a = arena(content, """
..........s.............
........................
........................
........................
.......A.....J..........
""", {"s": "sectoid_1", "A": "anton", "J": "julia"}, julia={"hp": 12})
    first = Ai(a.ruleset, "aliens").next_command(a.state)
    assert isinstance(first, Shoot) and first.target == "julia"


UNCONSCIOUS = """
..........s.............
........................
........................
........................
.......A.....J..........
"""


@pytest.mark.parametrize("finish", [False, True])
def test_conscious_threats_before_the_unconscious_unless_the_profile_finishes_them(content, finish):
    profile = content.factions[xcom(content).units["sectoid"].faction].behaviour
    if finish:
        content = evolved(content, behaviour={**content.behaviour, profile: evolved(
            content.behaviour[profile], unconscious="finish")})
    a = arena(content, UNCONSCIOUS, {"s": "sectoid_1", "A": "anton", "J": "julia"},
              julia={"hp": 2, "status": "unconscious"})
    ai = Ai(a.ruleset, "aliens")
    for target in ("anton", "julia"):  # both are worth a shot from where it stands
        assert not isinstance(a.ruleset.preview_shot(a.state, "sectoid_1", target, "single"), Rejected)
    shots = [c for c, _s in play_turn(a, ai) if isinstance(c, Shoot)]
    assert shots and shots[0].target == ("julia" if finish else "anton")


def test_with_no_shot_through_full_cover_it_steps_round_it_and_fires(content):
    a = arena(content, """
.#.#.#.#.#.#.
.............
.#.#.#m#.#.#.
.......A.....
.............
""", {"m": "muton_1", "A": "anton"})
    refused = a.ruleset.preview_shot(a.state, "muton_1", "anton", "single")
    assert isinstance(refused, Rejected) and refused.code == "full_cover"  # face to face, a wall on each side
    commands = [c for c, _s in play_turn(a, Ai(a.ruleset, "aliens"))]
    step = a.ruleset.budget(a.state, a.state.units["muton_1"]).step
    assert isinstance(commands[0], Move) and len(commands[0].path) <= step
    assert isinstance(commands[1], Shoot) and commands[1].target == "anton"


def test_a_walk_into_someone_unseen_stops_where_the_side_can_see(content):
    a = arena(content, """
s...........
............
#####.######
............
............
...A........
""", {"s": "sectoid_1", "A": "anton"})
    seen = a.ruleset.visible(a.state, "aliens")
    assert not seen[5, 3]  # Anton is behind the wall
    path = ((1, 1), (2, 1), (3, 1), (4, 1), (5, 2), (5, 3), (4, 4), (3, 5))
    walk = Move(unit="sectoid_1", path=path)
    ai = Ai(a.ruleset, "aliens")
    ai.next_command(a.state)  # it looks around first
    refused = a.ruleset.decide(a.state, walk, Dice.scripted([]))
    assert isinstance(refused, Rejected) and refused.code == "blocked"
    ai.rejected(walk, refused)
    short = ai.next_command(a.state)
    first_unseen = next(i for i, (x, y) in enumerate(path) if not seen[y, x])
    assert short == Move(unit="sectoid_1", path=path[:first_unseen]) and first_unseen > 0
    assert not isinstance(a.ruleset.decide(a.state, short, Dice.scripted([])), Rejected)


def test_ship_guards_wait_until_they_have_met_the_squad_then_hunt(content):
    from engine.ai.orders import Orders

    game = Game.new(content, "xcom-trpg", "crash", seed_from_int(1), None)
    orders = Orders(game.ruleset.setup.mission, game.ruleset.setup.spawns, "aliens")
    assert orders.idle() == "wait" and orders.idle(contact=True) is None


YARD = """
........................
.####################...
.#..................#...
.#..s...............#...
.#.......#####......#...
.#..................#...
.####################...
......................A.
"""


def yard(content, cast, side, **changes):
    """The defend mission on the drawn farmyard: the ground to hold is the walled yard."""
    a = arena(content, YARD, cast, mission="defend", side=side, **changes)
    cells = tuple((x, y) for y in range(2, 6) for x in range(2, 20))
    setup = evolved(a.ruleset.setup, spawns={"xcom": (), "aliens": (), "hold": cells})
    return Arena(make("xcom-trpg", content, setup), a.state), cells


def test_an_alien_that_has_reached_the_ground_to_hold_looks_for_its_holders(content):
    a, cells = yard(content, {"s": "sectoid_1", "A": "anton"}, "aliens")
    state = a.state
    assert state.units["sectoid_1"].pos in cells and not a.ruleset.spotted(state, "aliens")
    command = Ai(a.ruleset, "aliens").next_command(state)
    assert isinstance(command, Move)  # not a wait in the yard it has reached


def test_a_holder_goes_for_the_hostile_it_knows_inside_the_ground(content):
    a, cells = yard(content, {"s": "sectoid_1", "A": "anton"}, "xcom")
    state = evolved(a.state, units={**a.state.units, "anton": evolved(a.state.units["anton"], pos=(12, 3)),
                                         "sectoid_1": evolved(a.state.units["sectoid_1"], pos=(12, 5))})
    ai = Ai(a.ruleset, "xcom")
    ai.observe(state)
    assert "sectoid_1" not in a.ruleset.spotted(state, "xcom")  # behind the wall in the middle of the yard
    ai.memory["sectoid_1"] = (12, 5)  # seen there last turn
    ai._armed.add("sectoid_1")  # noqa: SLF001 - the memory a real sighting leaves
    command = ai.next_command(state)
    assert isinstance(command, Move)
    steps = state.grid.distances((12, 5))  # walking steps round the wall to where it was seen
    (x, y) = command.path[-1]
    assert steps[y, x] < steps[3, 12]


def test_a_grenade_for_a_cluster(content):
    a = arena(content, """
..........s.............
........................
........................
........................
........................
..........A.............
""", {"s": "sectoid_1", "A": "anton"})
    state = evolved(a.state, units={**a.state.units, "julia": evolved(
        a.state.units["julia"], pos=(10, 5), status="active")})
    command = Ai(a.ruleset, "aliens").next_command(state)
    assert isinstance(command, Throw) and command.cell == (10, 5) and command.item == "alien_grenade"


def test_broken_morale_falls_back(content):
    a = arena(content, """
........................
..........s.............
........................
........................
........................
..........A.............
""", {"s": "sectoid_1", "A": "anton"}, sectoid_1={"morale": 20})
    command = Ai(a.ruleset, "aliens").next_command(a.state)
    assert isinstance(command, Move) and distance(command.path[-1], (10, 5)) > 4


def test_a_cautious_alien_waits_in_ambush_behind_cover(content):
    a = arena(content, """
........................
..........s.............
.........###............
........................
........................
........................
........................
..........A.............
""", {"s": "sectoid_1", "A": "anton"})
    ai = Ai(a.ruleset, "aliens")
    ai.observe(a.state)
    ai.memory["anton"] = (10, 7)  # seen there last turn
    ai._armed.add("anton")  # noqa: SLF001 - the memory a real sighting leaves
    assert not a.ruleset.visible(a.state, "aliens")[7, 10]
    assert isinstance(ai.next_command(a.state), Wait)


def test_the_squad_never_shoots_civilians_and_the_chryssalid_hunts_them(content):
    a = arena(content, """
..........c.............
........................
........................
.........@..............
........................
..........A.............
""", {"c": "chryssalid_1", "@": "civilian_1", "A": "anton"}, mission="terror", side="xcom")
    for command, _s in play_turn(a, Ai(a.ruleset, "xcom")):
        assert getattr(command, "target", None) != "civilian_1"
    hunt = arena(content, """
..........c.............
........................
........................
..........@.............
""", {"c": "chryssalid_1", "@": "civilian_1"}, mission="terror")
    commands = [c for c, _s in play_turn(hunt, Ai(hunt.ruleset, "aliens"))]
    assert any(isinstance(c, Shoot) and c.target == "civilian_1" for c in commands)


@pytest.mark.parametrize("mission", ["crash", "vip", "defend"])
def test_the_squad_ai_goes_for_the_objective(content, mission):
    """With no alien in sight the squad makes for the power source, the extraction point, the yard."""
    game = Game.new(content, "xcom-trpg", mission, seed_from_int(4), None)
    ai = Ai(game.ruleset, "xcom")
    zones = game.ruleset.setup.spawns
    goal = zones[{"crash": "power", "vip": "extraction", "defend": "hold"}[mission]]
    before = min(distance(u.pos, g) for u in game.state.side_units("xcom") for g in goal)
    for _ in range(40):
        command = ai.next_command(game.state)
        if isinstance(command, EndTurn):
            break
        result = game.submit(command)
        if isinstance(result, Rejected):
            ai.rejected(command, result)
    after = min(distance(u.pos, g) for u in game.state.side_units("xcom") for g in goal)
    assert after < before or (mission == "defend" and after == 0)


def test_a_shaken_friend_in_earshot_gets_an_encouraging_speech_first(content):
    """6.5: nothing but a speech (or a kill) lifts morale, so the AI rallies a friend below the panic line."""
    a = arena(content, """
        ........
        .ab.....
        ........
        """, {"a": "anton", "b": "julia"}, side="xcom", julia={"morale": 20})
    first = Ai(a.ruleset, "xcom").next_command(a.state)
    assert first.unit == "anton" and first.action == "speech"
    events = a.ruleset.decide(a.state, first, Dice(None, script=[]))
    assert fold(a.state, events).units["julia"].record.morale > 20
