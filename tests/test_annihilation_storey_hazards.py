"""Smoke, fire and mines on their own storey (A-7.5: a blast stays on its level; docs/rules-notes.md, Storeys): a
cloud from a blast upstairs lies on that floor only, stuns and cuts sight there, and a mine laid upstairs waits for
a unit on that floor; on a two-storey field of grass under one big upper floor, with scripted dice."""

from __future__ import annotations

import copy

import attrs
import pytest

from engine.core import codec
from engine.core.commands import Act, Move, Rejected
from engine.core.dice import Dice, seed_from_int
from engine.core.events import Moved, Resolved, UnitChanged
from engine.core.reducer import fold
from engine.map.grid import Grid
from engine.play.game import Game
from engine.rules.annihilation import clouds, hits
from engine.rules.annihilation.board import field_of
from engine.rules.annihilation.combat import blast
from engine.rules.annihilation.inventory import Carried

SIZE = 40


@pytest.fixture
def game(content, tmp_path):
    g = Game.new(content, "annihilation", "eliminate", seed_from_int(4), tmp_path / "g.jsonl")
    yield g
    g.close()


def _floors(game, **places):
    """Grass under one upper floor over the whole field; units at (x, y, z), the rest far off; nobody has TU to react
    but the first unit named."""
    state = game.state
    terrain = state.grid.terrain
    upper = Grid.from_ids([["loft"] * SIZE for _ in range(SIZE)], terrain)
    grid = attrs.evolve(Grid.from_ids([["grass"] * SIZE for _ in range(SIZE)], terrain), storeys=(upper,))
    units = {}
    for i, (uid, u) in enumerate(state.units.items()):
        x, y, z = places.get(uid, (SIZE - 1, i, 0))
        f = u.record.fighter if uid == next(iter(places)) else attrs.evolve(u.record.fighter, tu_left=0)
        units[uid] = attrs.evolve(u, pos=(x, y), z=z, facing=2, record=attrs.evolve(u.record, fighter=f))
    return attrs.evolve(state, grid=grid, units=units)


def test_smoke_from_a_blast_upstairs_lies_on_that_floor_only(game):
    rs = game.ruleset
    state = _floors(game, anton=(9, 10, 1), julia=(10, 10, 0), laura=(18, 10, 1))
    events = blast(rs, state, Dice.scripted([]), "anton", (10, 10), hits.Round(0, 7, "smoke", "grenade"), None,
                   "Smoke Grenade", z=1)
    after = fold(state, events)
    cloud = field_of(after).clouds[0]
    assert cloud.z == 1 and len(cloud.cells) == 113  # the diamond of radius 7, on the upper floor
    stunned = [e.unit for e in events if isinstance(e, UnitChanged) and "smoke" in e.cause]
    assert stunned == ["anton"]  # Julia under it on the ground, Laura beyond its edge: no stun
    assert clouds.in_smoke(after, (10, 10), 1) and not clouds.in_smoke(after, (10, 10), 0)
    assert not clouds.sees(rs, after, (9, 10), (18, 10), 1, 1)  # more than 2 smoke squares between, up there
    assert clouds.sees(rs, after, (9, 10), (18, 10), 0, 0)  # the ground under it is clear
    marks = rs.marks(after, "xcom")
    assert {m.z for m in marks} == {1} and len(marks) == 113
    dumped = codec.dump_record(field_of(after))["clouds"][0]
    assert dumped["z"] == 1 and "z" not in codec.dump_record(attrs.evolve(field_of(after), clouds=(
        attrs.evolve(cloud, z=0),)))["clouds"][0]  # a ground cloud keeps its bytes
    assert "z=" not in repr(attrs.evolve(cloud, z=0)) and "z=1" in repr(cloud)  # and its state hash


def test_a_mine_laid_upstairs_waits_for_a_unit_on_that_floor(game):
    rs = game.ruleset
    state = _floors(game, anton=(5, 15, 1))
    a = state.units["anton"]
    mine = Carried("land_mine", rs.book.explosives["land_mine"].size, "belt")
    state = attrs.evolve(state, units={**state.units, "anton": attrs.evolve(a, record=attrs.evolve(
        a.record, kit=a.record.kit + (mine,)))})
    laid = fold(state, rs.decide(state, Act(unit="anton", action="lay", option="land_mine"), Dice.scripted([])))
    assert field_of(laid).lying[0].z == 1 and rs.marks(laid, "xcom")[0].z == 1
    laid = fold(laid, rs.decide(laid, Move(unit="anton", path=((5, 16),), levels=(1,)), Dice.scripted([])))

    def walker(z):
        units = dict(laid.units)
        s = units["sectoid_1"]
        units["sectoid_1"] = attrs.evolve(s, pos=(8, 15), z=z, record=attrs.evolve(s.record, fighter=attrs.evolve(
            s.record.fighter, tu_left=40, energy=40)))
        units["anton"] = attrs.evolve(units["anton"], record=attrs.evolve(units["anton"].record, fighter=attrs.evolve(
            units["anton"].record.fighter, tu_left=0)))
        return attrs.evolve(laid, side="aliens", units=units)

    path = ((7, 15), (6, 15), (5, 15), (4, 15))
    below = rs.decide(walker(0), Move(unit="sectoid_1", path=path), Dice.scripted([3] * 40))
    assert not isinstance(below, Rejected)
    assert not any(isinstance(e, Resolved) and e.action == "blast" for e in below)  # under the mine: nothing
    assert next(e for e in below if isinstance(e, Moved)).path[-1] == (4, 15)
    above = rs.decide(walker(1), Move(unit="sectoid_1", path=path, levels=(1,) * 4), Dice.scripted([3] * 80))
    moved = next(e for e in above if isinstance(e, Moved))
    assert moved.path[-1] == (5, 15) and moved.levels == ()  # cut short on the mine, on its own floor
    assert any(isinstance(e, Resolved) and e.action == "blast" for e in above)
    assert field_of(fold(walker(1), above)).lying == ()


def test_the_motion_sensor_counts_each_level_as_a_space_and_shows_the_blip_on_the_units_storey(game):
    """A-13.3 with A-7.4: Sectoid 1 upstairs 19 squares east is D = 19 + 1 = 20 away, found, its blip drawn on the
    upper floor; Sectoid 2 upstairs 20 east is D = 21 (found on the level, without `sensor_storeys`)."""
    rs = game.ruleset
    state = _floors(game, anton=(5, 10, 0), sectoid_1=(24, 10, 1), sectoid_2=(25, 10, 1))
    a = state.units["anton"]
    sensor = Carried("motion_sensor", rs.book.items["motion_sensor"].size, "left_hand")
    units = dict(state.units, anton=attrs.evolve(a, record=attrs.evolve(a.record, kit=a.record.kit + (sensor,))))
    for uid in ("sectoid_1", "sectoid_2"):
        u = units[uid]
        units[uid] = attrs.evolve(u, record=attrs.evolve(u.record, moved=10 ** 6))  # walked since Anton's phase
    state = attrs.evolve(state, units=units)
    events = rs.decide(state, Act(unit="anton", action="sense"), Dice.scripted([]))
    assert not isinstance(events, Rejected), events
    told = next(e.text for e in events if isinstance(e, Resolved))
    tu = rs.book.cost("motion_sensor", a.record.fighter.tu_turn)
    assert told == f"Anton's motion sensor ({tu} TU): 1 blip within 20 spaces: 24,10 (+1 level)"
    after = fold(state, events)
    assert [(m.pos, m.z) for m in rs.marks(after, "xcom") if m.glyph == "◊"] == [((24, 10), 1)]
    flat = copy.copy(rs)  # an older bundle: every blip on the ground, as its logs hold them
    flat.book = attrs.evolve(rs.book, settings=attrs.evolve(rs.book.settings, sensor_storeys=False))
    events = flat.decide(state, Act(unit="anton", action="sense"), Dice.scripted([]))
    told = next(e.text for e in events if isinstance(e, Resolved))
    assert told == f"Anton's motion sensor ({tu} TU): 2 blips within 20 spaces: 24,10; 25,10"
    assert codec.dump_record(field_of(fold(state, events))) == {"kind": "annihilation.field", "lying": [], "blips": [
        {"side": "xcom", "cell": [24, 10]}, {"side": "xcom", "cell": [25, 10]}]}


def _ledge(game):
    """Grass; on the upper storey a loft over columns 0..5 and open air beyond it (engine.map.levels.AIR)."""
    from engine.map.levels import AIR

    state = game.state
    terrain = state.grid.terrain
    upper = Grid.from_ids([["loft"] * 6 + [AIR] * (SIZE - 6) for _ in range(SIZE)], terrain)
    grid = attrs.evolve(Grid.from_ids([["grass"] * SIZE for _ in range(SIZE)], terrain), storeys=(upper,))
    units = {}
    for i, (uid, u) in enumerate(state.units.items()):
        x, y, z = {"anton": (3, 10, 1), "julia": (15, 10, 0)}.get(uid, (SIZE - 1, i, 0))
        units[uid] = attrs.evolve(u, pos=(x, y), z=z, facing=2)
    return attrs.evolve(state, grid=grid, units=units)


def test_smoke_cuts_a_line_between_two_storeys_counted_on_both(game):
    """A-17.8 between storeys (docs/rules-notes.md, Storeys): Anton on the loft looks down at Julia on the grass. The
    line runs along the loft, then down through the open air: two smoke squares on the loft's edge and one on
    Julia's square make three, too many; either alone lets the line through. Julia looks up past the two on the loft
    (her own square is not counted). Without `smoke_between_storeys` smoke never cuts a line between storeys."""
    from engine.rules.annihilation.board import Cloud, Field

    rs = game.ruleset
    state = _ledge(game)
    loft = Cloud("smoke", ((4, 10), (5, 10)), 1, 9, 1)
    grass = Cloud("smoke", ((15, 10),), 1, 9, 0)
    clear = attrs.evolve(state, record=Field(clouds=(loft,)))
    both = attrs.evolve(state, record=Field(clouds=(loft, grass)))
    assert clouds.sees(rs, state, (3, 10), (15, 10), 1, 0)
    assert clouds.sees(rs, clear, (3, 10), (15, 10), 1, 0)  # 2 smoke squares: seen
    assert clouds.sees(rs, attrs.evolve(state, record=Field(clouds=(grass,))), (3, 10), (15, 10), 1, 0)  # 1
    assert not clouds.sees(rs, both, (3, 10), (15, 10), 1, 0)  # 2 + 1 = 3 > 2
    assert clouds.sees(rs, both, (15, 10), (3, 10), 0, 1)  # looking up: the 2 on the loft; her own not counted
    assert rs.sight_levels(both, "xcom")[0, 10, 15]  # Julia's own square: her side sees it from where she is
    far = attrs.evolve(both, units={**both.units, "julia": attrs.evolve(both.units["julia"], pos=(SIZE - 2, 30))})
    assert not clouds.side_sight(rs, far, "xcom")[0, 10, 15] and clouds.side_sight(rs, far, "xcom")[0, 11, 15]
    flat = copy.copy(rs)  # an older bundle
    flat.book = attrs.evolve(rs.book, settings=attrs.evolve(rs.book.settings, smoke_between_storeys=False))
    flat._haze = {}
    assert clouds.sees(flat, both, (3, 10), (15, 10), 1, 0) and clouds.side_sight(flat, far, "xcom")[0, 10, 15]
