"""neo-troops on the battle map: cover tags, difficult cells and paths in metres agree with the movement rules."""

from __future__ import annotations

from engine.content import loader, tables
from engine.map.grid import Grid
from engine.rules.neo_troops import ground, movement, unit
from engine.rules.neo_troops.schema import SCHEMA

T = tables.load_folder(loader.default_dir(), "neo-troops", SCHEMA)
S = T["settings"]["default"]


def grid(rows: list[str], content) -> Grid:
    key = {".": "grass", ";": "rubble", "c": "crate", "#": "wall"}
    return Grid.from_ids([[key[c] for c in row] for row in rows], content.terrain)


def test_cover_and_difficult_cells_come_from_the_map(content):
    g = grid(["......", ".c....", "......", ".;;...", "......"], content)
    assert content.terrain["crate"].cover == "partial" and content.terrain["rubble"].move_cost > 1
    assert ground.cover_tags(g, (1, 2), (1, 4)) == ()  # the crate is behind the target
    assert ground.cover_tags(g, (1, 2), (1, 0)) == ("light",)
    assert ground.difficult(g) == frozenset({(1, 3), (2, 3)})


def test_metres_on_the_map_match_tv_n23(content):
    g = grid(["." * 12, "." * 12, "." * 12, "." * 12, "." * 12, "." * 12, "." * 12, "." * 12], content)
    dist = ground.metres_from(g, (0, 0), S)
    assert dist[1, 4] == 9 == movement.path_m([(0, 0), (1, 0), (2, 0), (3, 0), (4, 1)], S)
    assert dist[0, 5] == 10 and dist[4, 4] == 12 and dist[6, 7] == 20
    assert (4, 4) not in ground.reachable(g, (0, 0), 10, S) and (5, 0) in ground.reachable(g, (0, 0), 10, S)
    rough = grid([".;;........."], content)
    assert ground.metres_from(rough, (0, 0), S)[0, 8] == 20  # 2·4 + 6·2


def test_a_target_on_the_map_gets_its_cover_range_and_melee_range(content):
    g = grid(["......", ".c....", "......", "......"], content)
    v = unit.build("v", "varans", "varan", T)
    behind = ground.target_of(g, (1, 0), v, (1, 2), T)
    assert (behind.av, behind.cells, behind.adjacent) == (6, 2, False)  # AV 5 + light cover
    open_ground = ground.target_of(g, (4, 3), v, (3, 2), T, stationary=True)
    assert (open_ground.av, open_ground.adjacent, open_ground.stationary) == (5, True, True)
    assert ground.target_of(g, (5, 3), v, (3, 0), T, seen=False).av == 6
    down = ground.target_of(g, (4, 3), unit.build("v", "varans", "varan", T, status="incapacitated"), (3, 2), T)
    assert not down.can_dodge
