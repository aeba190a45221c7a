"""The generators' maps on hexes (the `content/mods/hex` mod, engine.map.hexbuild): for every mission and many seeds,
over the six hex steps only, every spawn reaches every enemy spawn and every objective, every door opens onto
reachable hexes on both sides, no wall has a one-hex gap that is not a door, and the stairs and ladders join the
storeys. Buildings are hexagons: their walls run along rows and the two hex diagonals."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import numpy as np
import pytest

from engine.content import loader
from engine.map import hexbuild, hexes, levels
from engine.map.common import Canvas, MapRng
from engine.map.features import Style, building
from engine.map.grid import Grid
from engine.play import preview

HEX_MOD = Path(__file__).resolve().parents[1] / "content" / "mods" / "hex"
MISSIONS = ("eliminate", "defend", "terror", "vip", "crash", "infiltrate")
SEEDS = range(1, 9)
WALLS = {"wall", "window", "hull", "bulkhead", "door_locked"}  # what a gap would be a gap in
DOORS = {"door", "door_open", "hatch", "hatch_open"}
FAR = 10**6


@pytest.fixture(scope="module")
def hex_content():
    return loader.load([HEX_MOD])


@pytest.fixture(scope="module")
def maps(hex_content):
    """(mission, seed) -> (grid, zones), each made once for the module."""
    out = {}
    for mission in MISSIONS:
        for seed in SEEDS:
            _header, state, zones = preview.battlefield(hex_content, "annihilation", mission, seed)
            out[mission, seed] = state.grid, zones
    return out


def _reach(grid: Grid, start) -> np.ndarray:
    return grid.distances(start) < FAR


def _gaps(grid: Grid) -> list:
    """Walkable hexes, not doors, whose walls round them are two runs or more (a hex between two walls, not a
    room's corner): a doorway with no door."""
    out = []
    for y in range(grid.height):
        for x in range(grid.width):
            if not grid.walkable[y, x] or grid.tile((x, y)) in DOORS | {"stairs", "ladder"}:
                continue
            near = hexes.neighbours((x, y))
            wall = [grid.inside(c) and grid.tile(c) in WALLS | DOORS for c in near]  # a door is in its wall
            if sum(wall[k] and not wall[k - 1] for k in range(6)) >= 2:  # each run starts once
                out.append((x, y))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("mission", MISSIONS)
def test_every_spawn_reaches_every_enemy_spawn_and_the_objectives_over_six_way_steps(maps, mission):
    for seed in SEEDS:
        grid, zones = maps[mission, seed]
        assert grid.hexes
        for start in zones["xcom"]:
            reach = _reach(grid, start)
            for name, cells in zones.items():
                for x, y in cells:
                    ok = reach[y, x] if grid.walkable[y, x] else \
                        any(grid.inside(c) and reach[c[1], c[0]] for c in hexes.neighbours((x, y)))
                    assert ok, f"{mission} seed {seed}: {name} {x},{y} from {start}"
        for start in zones["aliens"]:  # and back: every enemy spawn reaches the squad
            assert all(_reach(grid, start)[y, x] for x, y in zones["xcom"]), f"{mission} seed {seed}"


@pytest.mark.slow
@pytest.mark.parametrize("mission", MISSIONS)
def test_every_door_opens_onto_reachable_hexes_and_no_wall_gap_is_not_a_door(maps, mission):
    for seed in SEEDS:
        grid, zones = maps[mission, seed]
        reach = _reach(grid, zones["xcom"][0])
        for y, x in zip(*np.nonzero(np.isin(grid.tiles, [i for i, t in enumerate(grid.tile_ids) if t in DOORS]))):
            near = [grid.inside(c) and reach[c[1], c[0]] for c in hexes.neighbours((int(x), int(y)))]
            assert any(near[k] and near[k + 3] for k in range(3)), f"{mission} seed {seed}: door {x},{y}"
        assert _gaps(grid) == [], f"{mission} seed {seed}"


def _places(grid: Grid, start) -> set:
    """Every (x, y, z) walked to from start by hex steps on a storey, stairs and ladders."""
    stairs, ladders = levels.links(grid)
    seen, todo = {start}, deque([start])
    while todo:
        x, y, z = todo.popleft()
        nxt = [(*c, z) for c in hexes.neighbours((x, y))]
        if z + 1 < grid.levels and (stairs[z, y, x] or ladders[z, y, x]):
            nxt.append((x, y, z + 1))
        if z > 0 and (stairs[z - 1, y, x] or ladders[z - 1, y, x]):
            nxt.append((x, y, z - 1))
        for p in nxt:
            if p not in seen and levels.standing(grid, p):
                seen.add(p)
                todo.append(p)
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("mission", MISSIONS)
def test_stairs_and_ladders_join_the_storeys_on_hexes(maps, mission):
    upstairs = 0
    for seed in SEEDS:
        grid, zones = maps[mission, seed]
        x, y = zones["xcom"][0]
        walked = _places(grid, (x, y, 0))
        for z in range(1, grid.levels):
            level = grid.level(z)
            for cy, cx in zip(*np.nonzero(level.walkable)):
                assert (int(cx), int(cy), z) in walked, f"{mission} seed {seed}: {cx},{cy} on storey {z}"
                upstairs += 1
    assert upstairs or mission in ("eliminate", "vip")  # buildings with storeys on most maps


def test_a_hex_building_is_a_hexagon_of_straight_walls_with_closed_rooms(content):
    cv = Canvas(30, 24, "grass", content.terrain, hexes=True)
    b = building(cv, MapRng(7), 3, 3, 16, 13, Style(window="window", loft="loft", railing="railing",
                                                        stairs="stairs", furniture="crate"), doors=2, storey=True)
    rows = hexbuild.outline(3, 3, 16, 13)
    top, bottom = min(rows), max(rows)
    for y in range(top, bottom):  # each side steps one hex diagonal down to the middle row, then the other
        (l0, r0), (l1, r1) = rows[y], rows[y + 1]
        way = hexbuild.SW if y < (top + bottom) // 2 else hexbuild.SE
        assert hexes.neighbours((l0, y))[way] == (l1, y + 1)
        assert hexes.neighbours((r0, y))[5 - way] == (r1, y + 1)
    grid = cv.grid().as_hexes()
    assert b.doors and all(grid.tile(d) == "door" for d in b.doors)
    inside = _reach(grid, b.cells[0])
    outside = _reach(grid, (0, 0))
    assert all(inside[y, x] for x, y in b.cells if grid.walkable[y, x])  # rooms join by their inner doors
    assert outside[b.cells[0][1], b.cells[0][0]]  # and the doors out lead in
    shut = grid.with_tiles({d: "wall" for d in b.doors})
    assert not _reach(shut, (0, 0))[b.cells[0][1], b.cells[0][0]]  # walls close: no way in but the doors
    assert _gaps(grid) == []
