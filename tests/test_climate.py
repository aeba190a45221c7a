"""A farm or crash-site map in a desert or a winter (engine.map.climate), opt-in by the ruleset (`Ruleset.climates`:
annihilation's settings), with section 9's walking costs; every other ruleset, and annihilation's older bundles,
make the very maps they made before."""

from __future__ import annotations

from pathlib import Path

import attrs

from engine.content import loader
from engine.map import climate
from engine.map.gen import GENERATORS
from engine.map.grid import Grid
from engine.play import preview
from engine.play.game import Game
from engine.core.dice import seed_from_int

FIXTURES = Path(__file__).parent / "fixtures" / "logs"
DRAWN = ("temperate", "temperate", "desert", "winter")


def _seed_for(wanted: str) -> int:
    return next(s for s in range(1, 200) if climate.choose(s, DRAWN) == wanted)


def test_the_climate_is_drawn_from_the_map_seed_and_none_to_choose_from_is_temperate():
    assert climate.choose(5, ()) == "temperate"
    assert [climate.choose(s, DRAWN) for s in range(1, 40)] == [climate.choose(s, DRAWN) for s in range(1, 40)]
    assert {climate.choose(s, DRAWN) for s in range(1, 40)} == {"temperate", "desert", "winter"}


def test_a_winter_farm_is_snow_with_drifts_where_the_grass_was_and_keeps_its_walls_and_zones(content):
    seed = _seed_for("winter")
    made = GENERATORS["farmland"](48, 48, seed, content.terrain, {"xcom": 6, "aliens": 6})
    cold = climate.repaint(made, "farmland", seed, DRAWN, content.terrain)
    g0, g1 = made.grid, cold.grid
    tiles = {g1.tile((x, y)) for y in range(g1.height) for x in range(g1.width)}
    assert "grass" not in tiles and "crops" not in tiles and {"snow", "drift"} <= tiles
    assert cold.spawns == made.spawns and g1.origin is None  # a blast fades back to snow, not to grass
    for y in range(g0.height):
        for x in range(g0.width):
            before, after = g0.tile((x, y)), g1.tile((x, y))
            assert after == before or climate.CLIMATES["winter"].get(before) in (after, "snow") and \
                (after != "drift" or climate.CLIMATES["winter"].get(before) in ("snow", "drift"))
            assert g1.walkable[y, x] >= g0.walkable[y, x]  # frozen water is walked on; nothing new blocks


def test_a_town_keeps_its_own_ground_and_a_temperate_draw_changes_nothing(content):
    made = GENERATORS["urban"](40, 40, 3, content.terrain, {"xcom": 6, "aliens": 6})
    assert climate.repaint(made, "urban", _seed_for("winter"), DRAWN, content.terrain) is made
    seed = _seed_for("temperate")
    farm = GENERATORS["farmland"](40, 40, seed, content.terrain, {"xcom": 6, "aliens": 6})
    assert climate.repaint(farm, "farmland", seed, DRAWN, content.terrain) is farm


def test_only_annihilation_draws_climates_and_the_other_rulesets_maps_are_made_as_before(content):
    cold = {"sand", "dune", "snow", "drift", "ice"}
    seeds = [s for s in range(1, 30) if climate.choose(
        preview.battlefield(content, "annihilation", "defend", s)[0]["mission"]["map_seed"], DRAWN) != "temperate"]
    assert seeds
    seed = seeds[0]
    assert cold & set(preview.battlefield(content, "annihilation", "defend", seed)[1].grid.tile_ids)
    for ruleset in ("xcom-trpg", "xxxzone", "neo-troops"):
        _header, state, _zones = preview.battlefield(content, ruleset, "defend", seed)
        assert not cold & set(state.grid.tile_ids) and "grass" in state.grid.tile_ids


def test_annihilations_older_bundle_has_no_climates_and_todays_draws_them(content):
    from engine.play.game import make

    old = make("annihilation", loader.load(FIXTURES / "v3-content"), None)
    assert old.climates == ()
    assert make("annihilation", content, None).climates == DRAWN


def test_the_climates_ground_costs_section_9s_terrain_modifiers_to_walk_into(content, tmp_path):
    game = Game.new(content, "annihilation", "defend", seed_from_int(2), tmp_path / "g.jsonl")
    try:
        rs, state = game.ruleset, game.state
        anton = state.units["anton"]
        for tile, modifier in (("grass", 0), ("sand", 2), ("dune", 4), ("snow", 6), ("ice", 7), ("drift", 8)):
            grid = Grid.from_ids([[tile] * 9 for _ in range(9)], state.grid.terrain)
            here = attrs.evolve(state, grid=grid, units={"anton": attrs.evolve(anton, pos=(4, 4))})
            walk = rs.budget(here, here.units["anton"]).walk
            assert walk.cost((4, 4), [(4, 3)]) == 4 + modifier and walk.cost((4, 4), [(5, 3)]) == 6 + modifier
    finally:
        game.close()


def test_without_colour_each_climates_ground_has_its_own_glyph_and_colour_keeps_the_old(content, tmp_path):
    """NO_COLOR (the app's `no_color`): sand, snow and their deep patches are not grass's `.` or a road's `:`; any
    two tiles still sharing a glyph play alike, in the shared terrain and in annihilation's ground (section 9.1)."""
    import asyncio

    from tui import scene
    from tui.app import XenotacApp
    from tui.session import Session

    mono, colour = scene.Palette(content, mono=True), scene.Palette(content)
    ground = content.rules["annihilation"]["ground"]
    seen: dict[str, str] = {}
    for tile, t in content.terrain.items():
        other = seen.setdefault(mono.glyph(tile, t), tile)
        o = content.terrain[other]
        assert (t.walkable, t.transparent, t.move_cost, t.cover, ground.get(tile)) == (
            o.walkable, o.transparent, o.move_cost, o.cover, ground.get(other)), (tile, other)
    seed = _seed_for("winter")
    cold = climate.repaint(GENERATORS["farmland"](40, 40, seed, content.terrain, {"xcom": 6, "aliens": 6}),
                           "farmland", seed, DRAWN, content.terrain).grid
    for palette, want in ((mono, {"snow": "°", "drift": "±"}), (colour, {"snow": ".", "drift": ":"})):
        glyphs, _fg, _bg = palette.tables(cold.tile_ids, cold.terrain)
        drawn = {cold.tile((x, y)): chr(glyphs[cold.tiles[y, x]]) for y in range(40) for x in range(40)}
        assert {k: drawn[k] for k in want} == want
    for no_color in (True, False):  # the battle screen reads it from the app (Textual takes NO_COLOR out of the env)
        got = []

        async def main():
            session = Session.new(content, "annihilation", "defend", seed_from_int(1), tmp_path / f"{no_color}.jsonl")
            app = XenotacApp(content, tmp_path, session=session, alien_delay=0)
            app.no_color = no_color
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                got.append(app.screen.palette.mono)
            session.close()

        asyncio.run(main())
        assert got == [no_color]
