"""The hex variant played (A-7.3, A-9.3, A-17.3, TV-A9): the shared map read as odd-r hexes (engine.map.hexes) by the
`content/mods/hex` content mod. Steps, distances, paths and sight on the map agree with the rules' hex distance; a scripted
mission walks, turns, shoots and throws on hexes; the AI moves by hex steps and shoots; a whole simulated mission
ends and verifies."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import attrs
import numpy as np
import pytest

from engine.ai.planner import Ai
from engine.content import loader
from engine.core.commands import EndTurn, Face, Move, Shoot, Throw
from engine.core.dice import Dice, seed_from_int
from engine.core.events import Moved, Resolved
from engine.core.reducer import fold
from engine.core.walk import Walk
from engine.map import hexes
from engine.map.grid import Grid
from engine.play import preview, simulate
from engine.play.game import Game
from engine.play.verify import verify
from engine.rules.annihilation import space

HEX_MOD = Path(__file__).resolve().parents[1] / "content" / "mods" / "hex"
SIZE = 30


@pytest.fixture(scope="module")
def hex_content():
    return loader.load([HEX_MOD])


@pytest.fixture
def game(hex_content, tmp_path):
    g = Game.new(hex_content, "annihilation", "eliminate", seed_from_int(4), tmp_path / "hex.jsonl")
    yield g
    g.close()


def _open(terrain, rows=None) -> Grid:
    return Grid.from_ids(rows or [["grass"] * SIZE for _ in range(SIZE)], terrain).as_hexes()


def _field(game, places, facings=(), tu=(), rows=None, side="xcom"):
    """A field of grass (or `rows`) as hexes, the units in `places` there with their TUs, everyone else in the far
    corners with none; `side`'s phase."""
    state = game.state
    units = {}
    for i, (uid, u) in enumerate(state.units.items()):
        pos = places.get(uid, (SIZE - 1 - i // SIZE, i % SIZE) if u.side == "aliens" else (0, SIZE - 1 - i))
        units[uid] = attrs.evolve(u, pos=pos, z=0, facing=dict(facings).get(uid, u.facing))
    state = attrs.evolve(state, grid=_open(state.grid.terrain, rows), units=units)
    if side == "aliens":
        state = fold(state, game.ruleset.decide(state, EndTurn(side="xcom"), Dice.scripted([])))
    for uid, u in state.units.items():
        left = dict(tu).get(uid, u.record.fighter.tu_left if uid in places else 0)
        f = attrs.evolve(u.record.fighter, tu_left=left)
        state = attrs.evolve(state, units={**state.units, uid: attrs.evolve(u, record=attrs.evolve(u.record,
                                                                                                fighter=f))})
    return state


def test_the_hex_mod_reads_every_map_as_hexes(game):
    assert game.ruleset.hexes and game.state.grid.hexes and all(s.hexes for s in game.state.grid.storeys)
    assert game.ruleset.book.settings.grid == "hex" and game.ruleset.book.settings.scatter_die == 6


@pytest.mark.parametrize("mission, seed", [("vip", 6), ("crash", 1), ("terror", 2)])
def test_every_spawn_on_a_hex_map_can_be_reached_six_ways(hex_content, mission, seed):
    """Every spawn and objective is reached over the six hex steps (the map dug through where it was shut)."""
    d = preview.describe(hex_content, "annihilation", mission, seed)
    assert d["hexes"] and d["problems"] == []
    assert preview.text(hex_content, d)[2].startswith(" ") and " hexes" in preview.text(hex_content, d)[0]


def test_steps_and_neighbours_on_the_map_agree_with_the_rules_hex_distance(content):
    grid = _open(content.terrain)
    cells = [(x, y) for x in range(0, 9, 2) for y in range(7)] + [(3, 3), (4, 5), (7, 2)]
    for a, b in itertools.product(cells, repeat=2):
        assert grid.steps(a, b) == space.hex_distance(hexes.axial(a), hexes.axial(b)) == space.between("hex", a, b)
    for p in [(4, 4), (4, 5)]:  # an even and an odd row
        ring = {(x, y) for x in range(10) for y in range(10) if space.hex_distance(hexes.axial(p), hexes.axial((x, y)))
                == 1}
        assert set(grid.neighbours(p)) == ring and len(ring) == 6
    assert grid.neighbours((4, 4))[0] == (4, 3) and grid.neighbours((4, 5))[0] == (5, 4)  # north-east
    assert grid.step((4, 4), 1, -1) == (4, 3) and grid.step((4, 5), 1, -1) == (5, 4)
    assert grid.step((4, 5), -1, 0) == (3, 5) and grid.step((4, 5), 0, -1) == (4, 4)


def test_paths_go_hex_by_hex_at_one_price_a_step(content):
    grid = _open(content.terrain)
    start = (5, 10)
    reach = grid.paths_within(start, 6)
    assert set(reach) == {c for c in hexes.hexagon(start, 6) if c != start and grid.inside(c)}
    for goal, path in reach.items():
        assert len(path) == grid.steps(start, goal)
        assert all(grid.steps(a, b) == 1 for a, b in zip((start, *path), path))
    walk = Walk(cardinal=4, diagonal=6, currency="TU", extra=np.zeros((SIZE, SIZE), dtype=np.int16))
    far = grid.distances(start, walk=walk)
    assert far[3, 5] == 4 * 7 and far[10, 12] == 4 * 7  # no 6-TU diagonals on hexes: 7 steps either way


def test_sight_on_hexes_is_mutual_and_stops_at_walls(content):
    rows = [["grass"] * 16 for _ in range(16)]
    rng = np.random.default_rng(3)
    for y, x in zip(rng.integers(0, 16, 40).tolist(), rng.integers(0, 16, 40).tolist()):
        rows[y][x] = "wall"
    grid = _open(content.terrain, rows)
    open_cells = [(x, y) for y in range(16) for x in range(16) if rows[y][x] == "grass"]
    for a, b in itertools.combinations(open_cells[::3], 2):
        assert grid.sees(a, b, 8) == grid.sees(b, a, 8), (a, b)
    line = [["grass"] * 9 for _ in range(3)]
    line[1][4] = "wall"
    wall = _open(content.terrain, line)
    assert not wall.sees((2, 1), (6, 1), 10) and wall.sees((2, 1), (4, 1), 10) and wall.sees((2, 0), (6, 0), 10)


def test_tv_a9_three_hexes_through_light_vegetation_and_two_facing_turns_cost_23_tu(game):
    rows = [["grass"] * SIZE for _ in range(SIZE)]
    for x in range(6, 9):
        rows[5][x] = "crops"  # light vegetation, +3
    state = _field(game, {"anton": (5, 5)}, facings={"anton": 1}, rows=rows)
    rs, before = game.ruleset, state.units["anton"].record.fighter.tu_left
    state = fold(state, rs.decide(state, Move(unit="anton", path=((6, 5), (7, 5), (8, 5))), Dice.scripted([])))
    assert state.units["anton"].pos == (8, 5) and state.units["anton"].record.fighter.facing == 1  # east
    assert rs.decide(state, Face(unit="anton", facing=6), Dice.scripted([])).code == "bad_facing"
    state = fold(state, rs.decide(state, Face(unit="anton", facing=3), Dice.scripted([])))  # east to south-west
    assert before - state.units["anton"].record.fighter.tu_left == 3 * (4 + 3) + 2 * 1 == 23
    jump = rs.decide(state, Move(unit="anton", path=((10, 5),)), Dice.scripted([]))
    assert jump.code == "not_adjacent"


def test_a_shot_on_hexes_measures_the_hex_distance_and_the_side_among_six(game):
    state = _field(game, {"anton": (10, 20), "sectoid_1": (12, 14)}, facings={"anton": 0, "sectoid_1": 3},
                   tu={"sectoid_1": 0})
    rs = game.ruleset
    assert rs.distance((10, 20), (12, 14)) == 6 and space.between("square", (10, 20), (12, 14)) == 7
    preview = rs.preview_shot(state, "anton", "sectoid_1", "snap")
    assert preview.distance == 6
    rows = {r.label: r.text for r in preview.lines}
    assert "range 1×6 6" in rows[""] and rows["Side"].startswith(" front ")  # it faces south-west, at Anton
    events = rs.decide(state, Shoot(unit="anton", target="sectoid_1", mode="snap"), Dice.scripted([1, 10] + [1] * 20))
    shot = next(e for e in events if isinstance(e, Resolved) and e.action == "shoot")
    assert "range 1×6 6" in shot.rolls[0].formula
    anton = next(e for e in events if getattr(e, "unit", None) == "anton" and hasattr(e, "changes"))
    assert anton.changes["record"].fighter.facing == hexes.facing_towards((10, 20), (12, 14)) == 0  # north-east


def test_a_grenade_on_hexes_blasts_a_hexagon(game):
    """A-17.3, A-17.5: radius 1, 80 at the centre, 60 one hex off: (13, 14) is next to (12, 15) on hexes (two
    squares off on the diamond, out of its blast); (14, 15) two hexes off, out of it."""
    state = _field(game, {"anton": (12, 20), "sectoid_1": (12, 15), "sectoid_2": (13, 14), "sectoid_3": (14, 15)},
                   tu={"sectoid_1": 0, "sectoid_2": 0, "sectoid_3": 0})
    rs = game.ruleset
    area = rs.blast(state, "hand_grenade", (12, 15))
    radius = rs.book.explosives["hand_grenade"].radius
    assert set(area) == set(hexes.hexagon((12, 15), radius)) and len(area) == 3 * radius ** 2 + 3 * radius + 1
    events = rs.decide(state, Throw(unit="anton", item="hand_grenade", cell=(12, 15)), Dice.scripted([1] * 60))
    boom = next(e for e in events if isinstance(e, Resolved) and e.action == "blast")
    assert boom.text.startswith("Hand Grenade goes off at 12,15: Sectoid 1 80 → ")
    assert "Sectoid 2 60 → " in boom.text and "Sectoid 3" not in boom.text


def test_the_ai_walks_hex_steps_and_shoots_on_hexes(game):
    state = _field(game, {"anton": (10, 20), "sectoid_1": (10, 12)}, side="aliens")
    ai, rs = Ai(game.ruleset, "aliens"), game.ruleset
    done = []
    for _ in range(12):
        cmd = ai.next_command(state)
        events = rs.decide(state, cmd, Dice.scripted([50] * 200))
        if not isinstance(events, list):
            break
        done.append(cmd)
        for e in events:
            if isinstance(e, Moved):
                start = state.units[e.unit].pos
                assert all(state.grid.steps(a, b) == 1 for a, b in zip((start, *e.path), e.path))
        state = fold(state, events)
        if isinstance(cmd, EndTurn):
            break
    assert any(isinstance(c, Move) for c in done) and any(isinstance(c, Shoot) for c in done), done


def test_a_simulated_hex_mission_ends_walks_hex_steps_and_verifies(hex_content, tmp_path):
    path = tmp_path / "sim.jsonl"
    game = simulate.run(hex_content, "annihilation", "eliminate", seed_from_int(3), path)
    assert game.state.winner in ("xcom", "aliens", "draw")
    game.close()
    where, shots, moves = {}, 0, 0
    for line in path.read_text().splitlines():
        for e in json.loads(line).get("events", []):
            if e["kind"] == "spawned":
                where[e["unit"]["id"]] = tuple(e["unit"]["pos"])
            if e["kind"] == "moved":
                cells = [tuple(c) for c in e["path"]]
                steps = [hexes.distance(a, b) for a, b in zip([where[e["unit"]], *cells], cells)]
                assert all(d == 1 or ("levels" in e and d in (0, 2)) for d in steps), e  # stairs, jumps
                where[e["unit"]], moves = cells[-1], moves + 1
            shots += e["kind"] == "resolved" and e["action"] in ("shoot", "reaction fire")
    assert moves and shots
    report = verify(hex_content, path)
    assert report.failure is None, str(report.failure)


def test_a_miss_scatters_one_of_six_ways_hex_by_hex(game):
    """A-14.11 on hexes: the mod's d6 picks the way (1 = NE, clockwise), each space a step from the row it is on."""
    from engine.rules.annihilation import attacks

    book = game.ruleset.book
    cell, rolls = attacks.scatter(book, Dice.scripted([1, 2]), "anton", (4, 4), 4)  # NE, 2 spaces
    assert cell == (5, 2) and rolls[0].formula == "d6 1 → NE" and rolls[1].formula == "d2 2 spaces"
    cell, rolls = attacks.scatter(book, Dice.scripted([5, 1]), "anton", (4, 4), 4)
    assert cell == (3, 4) and rolls[0].formula == "d6 5 → W"
