"""annihilation on the map: smoke and fire from blasts (A-17.8, A-17.9), land mines and proximity grenades
(A-17.7) and the motion sensor (A-13.3), on a flat field of grass with scripted dice."""

from __future__ import annotations

import attrs
import pytest

from engine.core.commands import Act, EndTurn, Move, Rejected, Throw
from engine.core.dice import Dice, seed_from_int
from engine.core.events import Moved, Noted, Resolved, UnitChanged
from engine.core.reducer import fold
from engine.map.grid import Grid
from engine.play.game import Game
from engine.rules.annihilation import clouds
from engine.rules.annihilation.board import Cloud, Field, Lying, field_of
from engine.rules.annihilation.inventory import Carried

SIZE = 60


@pytest.fixture
def game(content, tmp_path):
    g = Game.new(content, "annihilation", "eliminate", seed_from_int(4), tmp_path / "g.jsonl")
    yield g
    g.close()


def _field(game, anton=(5, 15), sectoid=(9, 15), kit=()):
    """A 60×60 field of grass: Anton (facing east) and Sectoid 1 (facing west, no TUs: nobody reacts) on row 15,
    everyone else far out of sight at the east edge. `kit` is added to Anton's belt."""
    state = game.state
    grid = Grid.from_ids([["grass"] * SIZE for _ in range(SIZE)], state.grid.terrain)
    units = {}
    for i, (uid, u) in enumerate(state.units.items()):
        f = u.record.fighter
        if u.side == "aliens":
            f = attrs.evolve(f, tu_left=0)
        far = (SIZE - 1, i) if u.side == "aliens" else (SIZE - 1, SIZE - 1 - i)
        units[uid] = attrs.evolve(u, pos=far, record=attrs.evolve(u.record, fighter=f))
    a = units["anton"]
    units["anton"] = attrs.evolve(a, pos=anton, facing=2, record=attrs.evolve(
        a.record, kit=a.record.kit + tuple(kit)))
    units["sectoid_1"] = attrs.evolve(units["sectoid_1"], pos=sectoid, facing=6)
    return attrs.evolve(state, grid=grid, units=units)


def _do(rs, state, cmd, faces=(), exact=True):
    dice = Dice.scripted(list(faces))
    events = rs.decide(state, cmd, dice)
    assert not isinstance(events, Rejected), events
    assert dice.scripted_left == 0 or not exact
    return events, fold(state, events)


def _walker(state, uid="sectoid_1"):
    """It is `uid`'s side's phase, it has 40 TU and Energy, and nobody else has a TU left to react with."""
    units = {}
    for k, u in state.units.items():
        f = attrs.evolve(u.record.fighter, tu_left=40, energy=40) if k == uid else attrs.evolve(
            u.record.fighter, tu_left=0)
        units[k] = attrs.evolve(u, record=attrs.evolve(u.record, fighter=f))
    return attrs.evolve(state, side=state.units[uid].side, units=units)


def _item(book, item):
    return Carried(item, book.items[item].size if item in book.items else book.explosives[item].size, "belt")


def test_a_smoke_grenade_fills_its_diamond_for_four_full_turns_and_stuns_who_it_settles_on(game):
    rs = game.ruleset
    state = _field(game, kit=[_item(rs.book, "smoke_grenade")])
    events, after = _do(rs, state, Throw(unit="anton", item="smoke_grenade", cell=(9, 15)), [1])
    told = [e.text for e in events if isinstance(e, Resolved)]
    assert told == ["Anton throws the Smoke Grenade at 9,15: it lands at 9,15",
                    "Smoke Grenade goes off at 9,15: nobody hurt"]
    cloud = field_of(after).clouds[0]
    assert (cloud.kind, len(cloud.cells), cloud.since, cloud.until) == ("smoke", 113, 1, 6)  # r 7: 2r² + 2r + 1
    note = next(e for e in events if isinstance(e, Noted) and e.cause.startswith("Smoke"))
    assert note.cause == "Smoke fills 113 squares around 9,15 until turn 6 starts"
    stun = [e for e in events if isinstance(e, UnitChanged) and "smoke" in e.cause]
    assert [(e.unit, e.cause) for e in stun] == [("anton", "in the smoke as it spreads: smoke, Stun +4 → 4"),
                                                 ("sectoid_1", "in the smoke as it spreads: smoke, Stun +4 → 4")]
    assert after.units["sectoid_1"].record.fighter.smoked
    marks = rs.marks(after, "xcom")
    assert len(marks) == 113 and marks[0].glyph == "▒" and marks[0].label == "Smoke until turn 6"


def test_sight_passes_two_smoke_squares_and_no_more(game):
    rs = game.ruleset
    state = _field(game, anton=(5, 15), sectoid=(12, 15))
    two = Field(clouds=(Cloud("smoke", ((7, 15), (8, 15)), 1, 6),))
    three = Field(clouds=(Cloud("smoke", ((7, 15), (8, 15), (9, 15)), 1, 6),))
    assert clouds.sees(rs, attrs.evolve(state, record=two), (5, 15), (12, 15))
    blind = attrs.evolve(state, record=three)
    assert not clouds.sees(rs, blind, (5, 15), (12, 15))
    assert clouds.sees(rs, blind, (5, 15), (8, 15)) and not clouds.sees(rs, blind, (5, 15), (9, 15))
    assert "sectoid_1" not in rs.spotted(blind, "xcom")
    assert rs.preview_shot(blind, "anton", "sectoid_1", "snap").code == "no_line_of_sight"
    assert "sectoid_1" in rs.spotted(attrs.evolve(state, record=two), "xcom")


def test_smoke_stuns_at_the_start_and_end_of_a_phase_and_lifts_when_its_turn_comes(game):
    rs = game.ruleset
    state = _field(game)
    state = attrs.evolve(state, record=Field(clouds=(Cloud("smoke", ((9, 15),), 1, 3),)))
    events, after = _do(rs, state, EndTurn(side="xcom"))
    start = next(e for e in events if isinstance(e, UnitChanged) and e.unit == "sectoid_1")
    assert start.cause.endswith("smoke: Stun +4 → 4)")  # section 22 step 7
    events, after = _do(rs, after, EndTurn(side="aliens"))
    end = next(e for e in events if isinstance(e, UnitChanged) and e.unit == "sectoid_1")
    assert end.cause == "ends its phase in smoke: Stun +4 → 8"  # 8 a turn at most
    events, after = _do(rs, after, EndTurn(side="xcom"))  # turn 2's aliens: stun recovery, then smoke again
    start = next(e for e in events if isinstance(e, UnitChanged) and e.unit == "sectoid_1")
    assert "smoke: Stun +4" in start.cause
    _events, after = _do(rs, after, EndTurn(side="aliens"))
    assert field_of(after).clouds == () and after.phase == 3


def test_fire_burns_until_the_end_of_the_next_full_turn_and_hurts_who_walks_in(game):
    rs = game.ruleset
    state = _field(game, sectoid=(12, 15), kit=[_item(rs.book, "phosphorus_grenade")])
    # the throw lands at 9,15: three squares from the Sectoid, out of the r 2 blast; nobody is hurt
    events, after = _do(rs, state, Throw(unit="anton", item="phosphorus_grenade", cell=(9, 15)), [1])
    cloud = field_of(after).clouds[0]
    assert (cloud.kind, len(cloud.cells), cloud.until) == ("fire", 13, 3)
    assert sum(m.glyph == "≋" for m in rs.marks(after, "xcom")) == 13
    # the Sectoid walks in: no armour, 10 damage → 1 wound roll (hit location d20 4: torso, 1d4 2)
    after = _walker(after)
    events, walked = _do(rs, after, Move(unit="sectoid_1", path=((11, 15),)), [4, 2])
    burn = next(e for e in events if isinstance(e, UnitChanged) and "fire" in e.cause)
    assert burn.cause.startswith("walks into the fire: fire, 10 on the under armour, ")
    f = walked.units["sectoid_1"].record.fighter
    assert (f.health, f.part("torso").open, f.burned) == (50, 2, True)
    _events, again = _do(rs, walked, Move(unit="sectoid_1", path=((10, 15),)))  # once a turn
    assert again.units["sectoid_1"].record.fighter.health == 50


def test_a_land_mine_is_laid_and_goes_off_under_the_first_unit_to_step_on_it(game):
    rs = game.ruleset
    state = _field(game, anton=(5, 15), sectoid=(9, 15), kit=[_item(rs.book, "land_mine")])
    assert rs.decide(state, Throw(unit="anton", item="land_mine", cell=(7, 15)), Dice.scripted([])) == Rejected(
        "laid_not_thrown", "A Land Mine is laid, not thrown: lay it on the square (a)")
    before = state.units["anton"].record.fighter.tu_left
    events, laid = _do(rs, state, Act(unit="anton", action="lay", option="land_mine"))
    assert next(e.text for e in events if isinstance(e, Resolved)) == (
        "Anton lays a Land Mine at 5,15 (32 TU): it goes off when a unit steps on this square")
    assert laid.units["anton"].record.fighter.tu_left == before - 4 - 26 - 2  # belt, prime 50% of 53, to floor
    assert field_of(laid).lying == (Lying("land_mine", (5, 15), "xcom", 0, "anton"),)
    assert [m.glyph for m in rs.marks(laid, "xcom")] == ["¤"] and rs.marks(laid, "aliens") == ()
    # Anton steps off; the Sectoid walks a path over the mine and on: it stops on the mine, which goes off
    _e, off = _do(rs, laid, Move(unit="anton", path=((5, 16),)))
    off = _walker(off)
    path = ((8, 15), (7, 15), (6, 15), (5, 15), (4, 15))
    events, boom = _do(rs, off, Move(unit="sectoid_1", path=path), [3] * 80, exact=False)
    moved = next(e for e in events if isinstance(e, Moved))
    assert moved.path[-1] == (5, 15) and len(moved.path) == 4  # cut short on the mine
    blast = next(e for e in events if isinstance(e, Resolved) and e.action == "blast")
    # the centre takes 200 under the armour; Anton, one square south and facing south, 200 × 3/4 on his rear
    assert blast.text == ("Sectoid 1 sets off a Land Mine: it goes off at 5,15: Anton 150 → 150 on rear: 150 − AV 15 "
                          "= 135; wear SV 25 − 15 = 10, rear 30 → 20, AV10 150 → 140; Sectoid 1 200 → 200 on under: "
                          "under armour useless → 200")
    assert field_of(boom).lying == () and boom.units["sectoid_1"].status == "dead"


def test_a_proximity_grenade_lies_where_it_lands_until_a_unit_comes_within_one(game):
    rs = game.ruleset
    state = _field(game, anton=(5, 15), sectoid=(12, 15), kit=[_item(rs.book, "proximity_grenade")])
    assert rs.decide(state, Act(unit="anton", action="lay", option="proximity_grenade"), Dice.scripted([])).code == \
        "thrown_not_laid"
    events, thrown = _do(rs, state, Throw(unit="anton", item="proximity_grenade", cell=(9, 15)), [1])
    assert next(e.text for e in events if isinstance(e, Resolved)) == (
        "Anton throws the Proximity Grenade at 9,15: it lands at 9,15, primed: it goes off when a unit comes within "
        "1 square of it")
    assert field_of(thrown).lying == (Lying("proximity_grenade", (9, 15), "xcom", 0, "anton"),)
    _events, later = _do(rs, thrown, EndTurn(side="xcom"))  # a proximity fuse does not run out at a phase's end
    assert field_of(later).lying == field_of(thrown).lying
    later = _walker(later)
    events, boom = _do(rs, later, Move(unit="sectoid_1", path=((11, 15), (10, 15), (9, 15))), [1] * 40, exact=False)
    moved = next(e for e in events if isinstance(e, Moved))
    assert moved.path == ((11, 15), (10, 15))  # 10,15 is within 1 of it
    blast = next(e for e in events if isinstance(e, Resolved) and e.action == "blast")
    assert blast.text.startswith("Sectoid 1 sets off a Proximity Grenade: it goes off at 9,15: Sectoid 1 60 → ")
    assert field_of(boom).lying == ()


def test_the_motion_sensor_finds_what_moved_since_the_holders_last_phase_out_to_20_spaces(game):
    rs = game.ruleset
    state = _field(game, anton=(5, 15), sectoid=(20, 15), kit=[_item(rs.book, "motion_sensor")])
    smoke = tuple((x, 15) for x in range(10, 14))  # hides the Sectoid: the sensor needs no line of sight
    state = attrs.evolve(state, record=Field(clouds=(Cloud("smoke", smoke, 1, 9),)))
    _events, aliens = _do(rs, state, EndTurn(side="xcom"))
    aliens = _walker(aliens)
    _events, walked = _do(rs, aliens, Move(unit="sectoid_1", path=((21, 15),)))
    assert walked.units["sectoid_1"].record.moved == 2 * len(walked.sides) + walked.sides.index("aliens") - \
        len(walked.sides)  # turn 1's alien phase
    _events, back = _do(rs, walked, EndTurn(side="aliens"))
    anton = back.units["anton"]
    events, sensed = _do(rs, back, Act(unit="anton", action="sense"))
    told = next(e.text for e in events if isinstance(e, Resolved))
    # 4 from the belt + 50% of 51 (the sensor's 2 boxes take 2 TU of the allowance: ENC, A-12.7)
    assert (anton.record.fighter.tu_turn, told) == (51, "Anton's motion sensor (29 TU): 1 blip within 20 spaces: 21,15")
    assert sensed.units["anton"].record.fighter.tu_left == anton.record.fighter.tu_left - 29
    assert [(m.pos, m.glyph) for m in rs.marks(sensed, "xcom") if m.glyph == "◊"] == [((21, 15), "◊")]
    assert not any(m.glyph == "◊" for m in rs.marks(sensed, "aliens"))
    assert "sectoid_1" not in rs.spotted(sensed, "xcom")
    _events, faded = _do(rs, sensed, EndTurn(side="xcom"))
    _events, faded = _do(rs, faded, EndTurn(side="aliens"))
    assert field_of(faded).blips == ()
    assert rs.decide(faded, Act(unit="julia", action="sense"), Dice.scripted([])) == Rejected(
        "no_item", "Julia carries no motion sensor")


def test_the_action_menu_offers_laying_priming_and_the_sensor_at_their_costs(game):
    rs = game.ruleset
    kit = [_item(rs.book, i) for i in ("land_mine", "proximity_grenade", "motion_sensor")]
    state = _field(game, kit=kit)
    anton = state.units["anton"]
    assert anton.record.fighter.tu_left == 53  # the kit was added after the phase's TUs were counted
    menu = [(o.group, o.label, o.command.action, o.command.option, o.overload) for o in rs.options(state, anton)
            if o.group in ("Grenades", "Items")]
    assert menu == [("Grenades", "Prime a Hand Grenade (30 TU)", "prime", "hand_grenade", 5),
                    ("Grenades", "Lay a Hand Grenade here (32 TU)", "lay", "hand_grenade", 5),
                    ("Grenades", "Lay a Land Mine here (32 TU)", "lay", "land_mine", 0),
                    ("Grenades", "Prime a Proximity Grenade (30 TU)", "prime", "proximity_grenade", 0),
                    ("Items", "Motion sensor (30 TU)", "sense", None, 0)]
    _events, laid = _do(rs, state, Act(unit="anton", action="lay", option="hand_grenade", amount=1))
    assert field_of(laid).lying == (Lying("hand_grenade", (5, 15), "xcom", 2, "anton"),)
    assert not any(o.command.action == "lay" for o in rs.options(laid, laid.units["anton"]))  # one a square


def test_a_primed_proximity_grenade_is_held_ready_without_a_turn_and_thrown_for_the_throw_alone(game):
    rs = game.ruleset
    state = _field(game, sectoid=(12, 15), kit=[_item(rs.book, "proximity_grenade")])
    events, primed = _do(rs, state, Act(unit="anton", action="prime", option="proximity_grenade"))
    assert next(e.text for e in events if isinstance(e, Resolved)) == (
        "Anton primes a Proximity Grenade (30 TU): it goes off when a unit comes within 1 square of it")
    anton = primed.units["anton"]
    assert [t.label for t in rs.throwables(primed, anton)][0] == "Proximity Grenade (primed)"
    assert "Proximity Grenade primed" in rs.sheet(primed, anton).effects
    _events, end = _do(rs, primed, EndTurn(side="xcom"))  # held, it does not go off at the phase's end
    assert any(c.primed == 0 for c in end.units["anton"].record.kit)
    events, thrown = _do(rs, primed, Throw(unit="anton", item="proximity_grenade", cell=(9, 15)), [1])
    assert thrown.units["anton"].record.fighter.tu_left == anton.record.fighter.tu_left - 13  # 25% of 53
    assert field_of(thrown).lying == (Lying("proximity_grenade", (9, 15), "xcom", 0, "anton"),)
