"""Battlefields: every mission's map for 20 seeds is valid and connected, the same seed always gives
the same map, the features each biome promises are there, and every tile is drawn with its glyph
and colour from content. Maps come from `engine.preview`, which builds them exactly as a game does."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from engine.map.gen import GENERATORS, ZONES
from engine.map.zones import problems
from engine.play.preview import battlefield, describe
from tui import scene
from tui.cli import main

MISSIONS = ["eliminate", "crash", "terror", "vip", "defend", "infiltrate"]
SEEDS = range(1, 21)
# sha256 of the tiles at --seed 1: a generator that changes its maps breaks every log played on them
# (`open_ground` above all: the first release's logs rebuild their map with it)
GOLDEN = {
    "eliminate": "8a88ea328dbe6bd7",  # open_ground, as the first release made it
    "crash": "dcf5535fc4488003",
    "terror": "e5fe95e42912cdc6",
    "vip": "4ae9fbc503975f15",  # the forest 36 cells deep since the pace tuning (52 before)
    "defend": "c042061b19451480",
    "infiltrate": "a30990a9ebeac4f7",  # the guarded warehouse
}


def tiles_digest(state) -> str:
    grid = state.grid
    text = "\n".join(",".join(grid.tile((x, y)) for x in range(grid.width)) for y in range(grid.height))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.fixture(scope="module")
def maps(content):
    return {(m, s): describe(content, "xcom-trpg", m, s) for m in MISSIONS for s in SEEDS}


@pytest.mark.parametrize("mission", MISSIONS)
def test_twenty_seeds_give_valid_connected_maps(mission, maps, content):
    squad = len(content.missions[mission].squad)
    for seed in SEEDS:
        d = maps[(mission, seed)]
        assert d["problems"] == [], (seed, d["problems"])
        assert len(d["zones"]["xcom"]) == squad
        placed = [tuple(u["pos"]) for u in d["units"] if u["side"] != "civilians"]
        assert len(set(placed)) == len(placed), f"seed {seed}: two units deploy in one cell"


def test_every_unit_deploys_on_walkable_ground_the_squad_can_reach(content):
    for mission in MISSIONS:
        _header, state, zones = battlefield(content, "xcom-trpg", mission, 7)
        anchor = zones["xcom"][0]
        reach = state.grid.distances(anchor) < 10**6
        for u in describe(content, "xcom-trpg", mission, 7)["units"]:
            x, y = u["pos"]
            assert state.grid.walkable[y, x] and reach[y, x], (mission, u)


def test_the_same_seed_gives_the_same_map_and_another_seed_another(content):
    for mission in MISSIONS:
        a = tiles_digest(battlefield(content, "xcom-trpg", mission, 5)[1])
        b = tiles_digest(battlefield(content, "xcom-trpg", mission, 5)[1])
        c = tiles_digest(battlefield(content, "xcom-trpg", mission, 6)[1])
        assert a == b != c, mission



def test_a_map_is_made_once_per_seed_and_is_the_one_the_generator_makes(content):
    """engine.map.fields keeps the last maps made: a second game of the same map seed gets the same cells
    (not generated again), which equal a map generated afresh, in a grid of its own with empty caches; other
    terrain (another content load) gets a map made for it."""
    from engine.map import fields

    for mission in ("eliminate", "defend"):
        _header, first, zones = battlefield(content, "xcom-trpg", mission, 5)
        first.grid.sees((1, 1), (2, 2), 10)  # a cache of the first game's grid, not the second's
        _header, again, _zones = battlefield(content, "xcom-trpg", mission, 5)
        assert again.grid is not first.grid and again.grid.tiles is first.grid.tiles  # the kept cells, shared
        assert first.grid._sight_cache and not again.grid._sight_cache
        m = content.missions[mission]
        counts = {side: len(zones[side]) for side in ("xcom", "aliens")}
        fresh = GENERATORS[m.generator](m.width, m.height, _header["mission"]["map_seed"], content.terrain, counts)
        assert np.array_equal(fresh.grid.tiles, first.grid.tiles) and fresh.grid.tile_ids == first.grid.tile_ids
        assert {k: tuple(v) for k, v in fresh.spawns.items()} == {k: tuple(v) for k, v in zones.items()}
        other = dict(content.terrain)
        made = fields.battlefield(m.generator, m.width, m.height, _header["mission"]["map_seed"], other, counts, 1)
        assert made.grid.tiles is not first.grid.tiles and np.array_equal(made.grid.tiles, first.grid.tiles)

def test_the_first_generator_still_makes_the_maps_old_logs_were_played_on(content):
    for mission, digest in GOLDEN.items():
        assert tiles_digest(battlefield(content, "xcom-trpg", mission, 1)[1]) == digest


@pytest.mark.parametrize("mission, features", [
    ("terror", {"window", "door", "wall", "floor", "car", "road", "pavement"}),
    ("crash", {"hull", "bulkhead", "hatch", "ship_floor", "power_source", "console"}),
    ("vip", {"tree", "brush", "water", "ford", "landing_zone"}),
    ("defend", {"window", "door", "crops", "hedge", "fence", "stairs", "loft", "railing"}),
])
def test_each_biome_has_its_features(mission, features, maps):
    found = set()
    for seed in SEEDS:
        found |= {t for row in maps[(mission, seed)]["tiles"] for t in row}
    assert features <= found, features - found


def test_some_buildings_have_an_upper_floor_reached_by_stairs(maps):
    for mission in ("terror", "defend"):
        with_loft = 0
        for seed in SEEDS:
            tiles = maps[(mission, seed)]["tiles"]
            cells = {(x, y): t for y, row in enumerate(tiles) for x, t in enumerate(row)}
            lofts = [c for c, t in cells.items() if t == "loft"]
            stairs = [c for c, t in cells.items() if t == "stairs"]
            if lofts:
                with_loft += 1
                assert stairs, f"{mission} seed {seed}: an upper floor with no stairs"
                assert all(any(cells.get((x, y - 1)) == "loft" for x, y in [s]) for s in stairs)
        assert with_loft >= 5, mission


def test_the_crash_site_objective_can_be_reached(maps):
    for seed in SEEDS:
        d = maps[("crash", seed)]
        (x, y), = d["zones"]["power"]
        assert d["tiles"][y][x] == "power_source"


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_every_generator_makes_a_valid_100x100_map(name, content):
    field = GENERATORS[name](100, 100, 12345, content.terrain, {"xcom": 8, "aliens": 12})
    assert field.grid.width == field.grid.height == 100
    assert problems(field, content.terrain) == []
    assert len(field.spawns["aliens"]) == 12 and set(field.spawns) >= ZONES[name]


def test_every_content_tile_is_drawn_with_its_glyph_and_colour(content, maps):
    """The client draws each cell from terrain.toml: glyph, colour and background."""
    for mission in MISSIONS:
        _header, state, _zones = battlefield(content, "xcom-trpg", mission, 3)
        grid = state.grid
        everything = np.ones((grid.height, grid.width), dtype=bool)
        frame = scene.draw(scene.Palette(content), state, "xcom", everything, everything, {}, scene.Overlay())
        for y in range(grid.height):
            for x in range(grid.width):
                tile = content.terrain[grid.tile((x, y))]
                assert chr(frame.console.ch[y, x]) == tile.glyph
                assert tuple(frame.console.fg[y, x]) == scene.rgb(tile.color)
                assert tuple(frame.console.bg[y, x]) == scene.rgb(tile.background)


# -- `xenotac map` --------------------------------------------------------------------------------


def test_map_prints_the_mission_map_a_legend_and_the_checks(capsys, content):
    assert main(["map", "--mission", "crash", "--seed", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    height = content.missions["crash"].height
    assert out[0].startswith("UFO crash site (crash) · seed 4 · map seed ")
    assert all(len(line) == content.missions["crash"].width for line in out[1:1 + height])
    assert "Ω" in "".join(out[1:1 + height]) and "1" in "".join(out[1:1 + height])
    assert any(line.startswith("Objective: Shut down the power source") for line in out)
    assert out[-1].startswith("✓ every spawn point and objective can be reached")


def test_map_json_gives_the_grid(capsys, content):
    assert main(["map", "--mission", "vip", "--seed", "2", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    vip = content.missions["vip"]
    assert (d["width"], d["height"]) == (vip.width, vip.height) and len(d["tiles"]) == vip.height
    assert len(d["tiles"][0]) == vip.width
    assert set(d["legend"]) == {t for row in d["tiles"] for t in row}
    assert d["problems"] == [] and d["zones"]["extraction"]
    assert {u["side"] for u in d["units"]} == {"xcom", "aliens"}


def test_map_count_previews_consecutive_seeds(capsys):
    assert main(["map", "--mission", "terror", "--seed", "1", "--count", "20"]) == 0
    out = capsys.readouterr().out
    assert out.count("✓ every spawn point") == 20
    assert [f"seed {s} ·" in out for s in range(1, 21)] == [True] * 20


def test_map_refuses_an_unknown_mission_in_one_line(capsys):
    assert main(["map", "--mission", "terorr"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown mission 'terorr' (did you mean 'terror'?)" in err


def test_movement_priced_by_a_ruleset_walks_the_cheapest_metres(content):
    """neo-troops' pricing (2 m a side step, 3 m a diagonal, double on difficult ground) through the same search the
    AI and the client use; the default stays a cell count."""
    import numpy as np

    from engine.core.ruleset import Walk
    from engine.map.grid import Grid

    grid = Grid.from_ids([["floor"] * 7 for _ in range(5)], content.terrain)
    plain = grid.paths_within((0, 2), 3)
    assert max(max(abs(x), abs(y - 2)) for x, y in plain) == 3 and (3, 5) not in plain
    price = np.ones((5, 7), dtype=np.int16)
    price[:, 2] = 2  # a strip of difficult ground
    walk = Walk(cardinal=2, diagonal=3, price=price, currency="m")
    metres = grid.paths_within((0, 2), 10, walk=walk)
    assert (1, 2) in metres and (4, 2) in metres and (5, 2) not in metres  # 2 + 4 (difficult) + 2 + 2 = 10 m
    assert grid.distances((0, 2), walk=walk)[2, 4] == 10
    assert grid.distances((0, 2), walk=walk)[3, 1] == 3  # one diagonal step
    assert len(metres[(3, 2)]) == 3


def test_paths_within_reads_the_paths_each_cell_search_finds(content):
    """`paths_within` runs one search and reads every path from it at the end: the same paths, tie for tie, as
    asking that search for each cell in turn (what it did before, and what the AI's recorded moves rest on),
    for a plain, a priced and an additive walk, with blocked cells, on every generator's map."""
    import random

    from engine.core.ruleset import Walk

    def one_by_one(grid, start, reach, blocked, walk):
        pf, cost = grid._pathfinder(start, walk, list(blocked))
        if walk.by_edges:
            pf.resolve()
            steps = pf.distance
        else:
            steps = grid.distances(start, blocked, walk)
        ys, xs = np.nonzero((steps <= reach) & (steps > 0) & (cost > 0))
        out = {}
        for y, x in zip(ys.tolist(), xs.tolist()):
            yx = pf.path_to((y, x))[1:].tolist()
            if yx:
                out[(x, y)] = tuple((px, py) for py, px in yx)
        return out

    checked = 0
    for name, generate in GENERATORS.items():
        field = generate(30, 30, 3, content.terrain, {"xcom": 4, "aliens": 4})
        grid, rng = field.grid, random.Random(name)
        walks = [(Walk(), 8), (Walk(cardinal=2, diagonal=3, price=np.where(grid.cost > 0, 1 + (grid.cost > 1), 0)
                                   .astype(np.int16)), 14),
                 (Walk(cardinal=4, diagonal=6, extra=(grid.cost > 1).astype(np.int32) * 2, currency="TU"), 30)]
        for walk, reach in walks:
            for start in field.spawns["xcom"] + field.spawns["aliens"]:
                blocked = [(rng.randrange(30), rng.randrange(30)) for _ in range(6)]
                expected = one_by_one(grid, start, reach, blocked, walk)
                assert grid.paths_within(start, reach, blocked, walk) == expected, (name, start, walk)
                checked += len(expected)
    assert checked > 1000


def test_sight_read_from_the_caches_is_the_field_of_view_itself(content):
    """`sees` (bytes per origin) and `seen_from` (a side's union) against the numpy field of view, on a map
    with walls, from 200 origins: the same answer for cells near and far, in sight and behind walls."""
    import random

    grid = battlefield(content, "xcom-trpg", "terror", 1)[1].grid
    rng = random.Random(7)
    origins = [(rng.randrange(grid.width), rng.randrange(grid.height)) for _ in range(200)]
    blind = 0
    for a in origins:
        radius = rng.choice((5, 12, 20))
        fov = grid.fov(a, radius)
        for _ in range(40):
            b = (rng.randrange(grid.width), rng.randrange(grid.height))
            want = max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= radius and bool(fov[b[1], b[0]])
            assert grid.sees(a, b, radius) == want, (a, b, radius)
            blind += not want
    assert blind > 100  # walls and range hide cells: the check saw both answers
    eyes = frozenset(origins[:5])
    union = np.zeros(grid.tiles.shape, dtype=bool)
    for a in eyes:
        union |= grid.fov(a, 12)
    assert (grid.seen_from(eyes, 12) == union).all() and not grid.seen_from(eyes, 12).flags.writeable
    assert grid.seen_from(eyes, 12) is grid.seen_from(frozenset(reversed(origins[:5])), 12)
