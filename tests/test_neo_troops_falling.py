"""neo-troops N-3.5 falling objects and the climbs of N-5.3 beyond the old obstacles: a blast brings down the walls
and trees in it, each a falling object that throws one die at every creature round it; a window is climbed through
at a Hard agility test. Scripted dice; old content (no `falling`, no window among the obstacles) is unchanged."""

from __future__ import annotations

from pathlib import Path

import attrs

from cli_run import run
from engine.core.dice import Dice
from engine.core.events import Resolved, TileChanged
from engine.core.reducer import fold
from engine.rules.neo_troops import referee
from engine.rules.neo_troops.play import NeoTroops
from engine.rules.neo_troops.unit import build

DOCS = Path(__file__).resolve().parent.parent / "docs" / "scenarios" / "neo-troops"


def test_a_blast_brings_the_wall_down_on_those_round_it(capsys):
    code, out, err = run(["resolve", str(DOCS / "falling.toml"), "--dice", "2,2,4,5,3,1,1"], capsys)
    assert (code, err) == (0, "")
    # the blast's die at each (2, 2: misses at AV 5); then the wall at 7,3 falls: a die at Anna (4 < 5) and at Boris
    # (5: a hit); his 4+ save with no weapon modifier needs 4: 3 fails; external 1; varan critical 1 → cloak
    assert "blast on anna n=1: 1d6 [2] vs AV 5: miss" in out and "blast on boris n=1: 1d6 [2] vs AV 5: miss" in out
    assert "falling on anna n=1: 1d6 [4] vs AV 5: miss" in out and "falling on boris n=1: 1d6 [5] vs AV 5: hit" in out
    assert "save 4+ needs 4: 1d6=3 ✗" in out and "critical varan 1d6=1 → cloak" in out
    assert "The wall at 7,3 comes down: 1 of 2 hit (Boris: HP 3→2; Boris: cloak damaged)" in out
    assert "Boris: HP 2/3 (cloak damaged)" in out and "Anna: HP 3/3" in out


def _staged(content, falling: bool):
    rs = NeoTroops(content, None)
    rs.settings = attrs.evolve(rs.settings, falling=falling)
    rs.tables = {**rs.tables, "settings": {"default": rs.settings}}
    sc = referee.Scenario(ruleset="neo-troops", units={
        "brute": referee.ScUnit(template="brute", side="aliens", at=[2, 2]),
        "anna": referee.ScUnit(template="anna", side="xcom", at=[7, 2]),
        "kira": referee.ScUnit(template="kira", side="xcom", at=[9, 4])},  # out of the blast, next to the wall
        action=referee.ScAction(type="throw", actor="brute", target="anna"),
        cover=[referee.ScCover(at=[8, 3], tile="wall"), referee.ScCover(at=[6, 1], tile="window")])
    units = referee.units(rs, sc)
    state = referee.stage(rs, units, sc.action, sc.cover)
    return rs, state, referee.command(sc.action, state)


def test_the_fall_reaches_beyond_the_blast_and_the_tile_becomes_its_ruin(content):
    rs, state, command = _staged(content, True)
    events = rs.decide(state, command, Dice.scripted([1, 6, 2, 1, 1, 2]))
    # blast on Anna: 1 (miss); the wall at 8,3 falls: Anna (7,2) and Kira (9,4) are round it, by id: Anna 6, Kira 2
    tiles = [e for e in events if isinstance(e, TileChanged)]
    assert [(e.pos, e.tile) for e in tiles] == [((8, 3), "rubble")]  # the window (see-through) stays
    fell = next(e for e in events if isinstance(e, Resolved) and e.action == "falling")
    assert [r.formula for r in fell.rolls][:2] == ["falling on anna n=1: 1d6 [6] vs AV 5: hit",
                                                   "falling on kira n=1: 1d6 [2] vs AV 5: miss"]
    after = fold(state, events)
    assert after.grid.tile((8, 3)) == "rubble" and after.grid.tile((6, 1)) == "window"


def test_without_the_setting_a_blast_leaves_the_map_as_it_was(content):
    rs, state, command = _staged(content, False)
    events = rs.decide(state, command, Dice.scripted([1]))
    assert not any(isinstance(e, TileChanged) for e in events)
    assert not any(isinstance(e, Resolved) and e.action == "falling" for e in events)
    assert fold(state, events).grid.tile((8, 3)) == "wall"


def test_old_content_has_no_falls_and_no_window_climbs():
    from engine.rules.neo_troops.schema import Settings

    old = Settings()  # what a bundle from before these rules reads: the model's defaults
    assert old.falling is False and "window" not in old.obstacles and "window" not in old.hard_obstacles


def test_a_window_is_climbed_through_at_a_hard_agility_test(content):
    from engine.map.grid import Grid
    from engine.rules.neo_troops import ground, movement

    rs = NeoTroops(content, None)
    g = Grid.from_ids([["grass", "window", "floor"]], content.terrain)
    assert ground.obstacles(g, rs.settings) == {(1, 0): True}  # Hard (N-5.3: a climb)
    anna = build("anna", "xcom", "anna", rs.tables)
    # 3 agility dice (N-5.1); Anna's battlesuit is 4+: no armour die; TN Hard 5
    ok = movement.walk(Dice.scripted([4, 5, 1]), anna, "move", [(0, 0), (1, 0), (2, 0)], rs.tables,
                       obstacles=frozenset({(1, 0)}), hard=frozenset({(1, 0)}))
    assert ok.rolls[0].formula.endswith("vs TN 5 ✓") and ok.path[-1] == (2, 0) and not ok.stopped
    no = movement.walk(Dice.scripted([4, 4, 1]), anna, "move", [(0, 0), (1, 0), (2, 0)], rs.tables,
                       obstacles=frozenset({(1, 0)}), hard=frozenset({(1, 0)}))
    assert no.stopped and no.path == ((0, 0),)


def test_the_throw_preview_says_what_comes_down(content):
    rs, state, command = _staged(content, True)
    preview = rs.preview_throw(state, "brute", "grenade", command.cell)
    assert [(r.label, r.text) for r in preview.lines][-1] == ("Falls", " 1, a die round each ")
    rs, state, command = _staged(content, False)
    assert all(r.label != "Falls" for r in rs.preview_throw(state, "brute", "grenade", command.cell).lines)
