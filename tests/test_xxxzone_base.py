"""xxxzone section 15: the base, every placement rule and cost (engine/rules/xxxzone/basework.py)."""

from __future__ import annotations

import attrs
import cattrs
import pytest

from engine.rules.xxxzone import basework as bw
from engine.rules.xxxzone.campaign import Cost
from engine.rules.xxxzone.schema import Spot

from test_xxxzone_content import load_book


@pytest.fixture(scope="module")
def book():
    return load_book()


@pytest.fixture(scope="module")
def start(book):
    base, problems = bw.lay_out(book, book.campaign.start, book.campaign.start_staff)
    assert problems == []
    return base


def key(base, facility):
    return next(p.key for p in base.placed if p.facility == facility)


def test_starting_base_is_section_15s(start):
    got = {}
    for p in start.placed:
        got[p.facility] = got.get(p.facility, 0) + 1
    assert got == {"surface": 1, "runway": 1, "radar_tower": 1, "elevator": 2, "excavation": 1, "command_center": 1,
                   "aircraft_hangar": 3, "barracks": 1, "armoury": 1, "residence": 1}
    ex = next(p for p in start.placed if p.facility == "excavation")
    cc = next(p for p in start.placed if p.facility == "command_center")
    assert ex.layer == 1 and cc.layer == 1
    assert dict(start.staff) == {"commander": 1, "head_of_research": 1, "officer": 6, "air_traffic_controller": 3,
                                 "radar_technician": 5, "engineer": 5, "janitor": 1}
    assert not any(p.building for p in start.placed)


def test_base_round_trips_through_cattrs(start):
    c = cattrs.Converter()
    assert c.structure(c.unstructure(start), bw.Base) == start


def test_a_free_square_fits(book, start):
    assert bw.placement(book, start, "firing_range", (0, 6, 9, 0)) is None


def test_refusals(book, start):
    said = {
        ("firing_range", (0, 14, 1, 0)): "out of bounds: the footprint leaves the 16×16 site (columns A-P, rows 1-16)",
        ("firing_range", (0, 4, 4, 0)): "overlap: G5 on the Surface is the Runway's",
        ("firing_range", (0, 0, 0, 0)): "not on built ground: A2 on the Surface is outside the Surface",
        ("firing_range", (2, 5, 5, 0)): "not on built ground: F7 on layer 2 is outside every Excavation",
        ("sam_battery", (1, 6, 6, 0)): "not on the Surface: the SAM Battery stands on the Surface (layer 0)",
        ("runway", (1, 5, 5, 0)): "limit reached: exactly 1 Runway per base",
        ("command_center", (0, 6, 9, 0)): "limit reached: exactly 1 Command Center per base",
        ("surface", (0, 0, 0, 0)): "limit reached: exactly 1 Surface per base",
        ("excavation", (0, 1, 1, 0)): "wrong layer: an Excavation is dug underground (layer 1 or deeper)",
        ("elevator", (8, 5, 5, 0)): "wrong layer: the base reaches layers 0 to 8",
        ("missile_silo", (1, 5, 5, 0)): "not on the Surface: the Missile Silo stands on the Surface (layer 0)",
        ("excavation", (1, 9, 5, 0)): "touches the Excavation at F6 on layer 1: Excavations may not overlap "
                                      "or touch",
        ("excavation", (1, 10, 5, 0)): "touches the Excavation at F6 on layer 1: Excavations may not overlap "
                                       "or touch",
        ("excavation", (1, 1, 2, 0)): "touches the Excavation at F6 on layer 1: Excavations may not overlap "
                                      "or touch",
        ("excavation", (2, 5, 5, 0)): "disconnected: an Excavation must touch a built Elevator reaching layer 2",
        ("excavation", (1, 11, 5, 0)): "disconnected: an Excavation must touch a built Elevator reaching layer 1",
        ("firing_range", (0, 6, 9, 4)): "rotation 4: 0 to 3 quarter turns (a facility is never mirrored)",
        ("nothing", (0, 1, 1, 0)): "no facility 'nothing'",
        ("firing_range", (0, 1)): "a placement is layer, x, y and a rotation 0-3",
    }
    for (facility, where), why in said.items():
        assert bw.placement(book, start, facility, where) == why, (facility, where)


def test_radar_tower_must_touch_the_runway(book, start):
    radar = key(start, "radar_tower")
    assert bw.placement(book, start, "radar_tower", (0, 4, 9, 0), moving=radar) == \
        "not adjacent to the Runway: the Radar Tower must touch it"
    assert bw.placement(book, start, "radar_tower", (0, 4, 5, 0), moving=radar) is None


def test_a_base_needs_at_least_one_armoury(book):
    spots = [s for s in book.campaign.start if s.facility != "armoury"]
    _, problems = bw.lay_out(book, spots, {})
    assert problems == ["armoury: a base needs at least 1 Armoury, it has 0"]


def test_a_bad_start_is_one_line(book):
    spots = [attrs.evolve(s, y=7) if s.facility == "radar_tower" else s for s in book.campaign.start]
    _, problems = bw.lay_out(book, spots, {})
    assert problems == ["[2] radar_tower: not adjacent to the Runway: the Radar Tower must touch it"]


def test_elevators_stack_to_reach_deeper(book, start):
    # the first elevator's bottom is F10 on layer 1: a second one may start there and reach layer 2
    assert bw.placement(book, start, "elevator", (1, 5, 9, 0)) is None
    base, p = bw.build(book, start, "elevator", (1, 5, 9, 0), 5)
    assert bw.placement(book, base, "excavation", (2, 5, 5, 0)) == \
        "disconnected: an Excavation must touch a built Elevator reaching layer 2"  # not built yet
    base = bw.finish(base, p.key)
    assert bw.placement(book, base, "excavation", (2, 5, 5, 0)) is None
    # an excavation still being dug is no ground to build on
    base, ex = bw.build(book, base, "excavation", (2, 5, 5, 0), 5)
    assert bw.placement(book, base, "class_room", (2, 6, 6, 0)) == \
        "the Excavation at G7 on layer 2 is still being built"
    assert bw.placement(book, bw.finish(base, ex.key), "class_room", (2, 6, 6, 0)) is None
    # but an elevator may not share any other square
    assert bw.placement(book, start, "elevator", (0, 5, 9, 0)) == "overlap: F10 on the Surface is the Elevator's"


def test_shapes_rotate_clockwise_never_mirrored(book):
    assert bw.shape(book, "training_gym", 0) == {(0, 0), (0, 1), (1, 1), (2, 1)}  # J: X.. / XXX
    assert bw.shape(book, "training_gym", 1) == {(0, 0), (1, 0), (0, 1), (0, 2)}  # XX / X. / X.
    assert bw.shape(book, "training_gym", 2) == {(0, 0), (1, 0), (2, 0), (2, 1)}  # XXX / ..X
    assert bw.shape(book, "training_gym", 3) == {(1, 0), (1, 1), (0, 2), (1, 2)}  # .X / .X / XX
    assert bw.shape(book, "aircraft_hangar", 1) == {(0, 0), (0, 1)}
    assert bw.shape(book, "runway", 3) == {(0, y) for y in range(7)}
    # S/Z and J/L are distinct: no rotation of one is the other
    for a, b in (("training_gym", "firing_range"), ("barracks", "residence")):
        assert {bw.shape(book, a, r) for r in range(4)}.isdisjoint({bw.shape(book, b, r) for r in range(4)})
    # every shape is its table's rows, and each rotation keeps its size
    for fid, fac in book.facilities.items():
        n = sum(row.count("X") for row in fac.shape)
        assert all(len(bw.shape(book, fid, r)) == n for r in range(4)), fid


def test_a_rotated_footprint_is_placed_rotated(book, start):
    # the Automobile Depot (3x1) fits at x=4, y=7..9 only when turned upright
    assert bw.placement(book, start, "automobile_depot", (0, 4, 7, 1)) is None
    assert bw.placement(book, start, "automobile_depot", (0, 4, 7, 0)) == \
        "overlap: F8 on the Surface is the Barracks's"


def test_costs(book, start):
    assert bw.price(book, start, "firing_range", (0, 6, 9, 0)) == Cost(30, 1)
    assert bw.price(book, start, "excavation", (3, 5, 5, 0)) == Cost(150, 3)  # vector 56
    assert bw.price(book, start, "missile_silo", (0, 10, 9, 0)) == Cost(200, 4)  # ground below not dug
    # a silo whose five lower layers are all excavated costs the table's price
    dug = start
    for layer in range(1, 6):
        dug = attrs.evolve(dug, placed=dug.placed + (bw.Placed(key=f"ex{layer}", facility="excavation",
                                                               layer=layer, x=5, y=5),))
    assert bw.price(book, dug, "missile_silo", (0, 6, 6, 0)) == Cost(120, 3)


def test_build_days(book):
    assert bw.days(book, 60, 5) == 12  # 288 h
    assert bw.days(book, 20, 7) == 3  # ceil(480/7) = 69 h: ready on the third day
    assert bw.days(book, 20, 3) == 7  # 160 h


def test_new_base_cost(book):
    from engine.rules.xxxzone.campaign import new_base

    flat, parts = new_base(book)
    assert flat == Cost(320, 10) and parts == Cost(320, 8)


def test_moving_keeps_key_and_costs_man_days(book, start):
    hangar = key(start, "aircraft_hangar")
    assert bw.placement(book, start, "aircraft_hangar", (0, 6, 9, 0), moving=hangar) is None
    base, p = bw.move(book, start, hangar, (0, 6, 9, 0), 5)
    assert (p.key, p.x, p.y, p.work, p.engineers) == (hangar, 6, 9, 30, 5)
    assert bw.free_engineers(base) == 0


def test_plots(book, start):
    base, _ = bw.build(book, start, "firing_range", (0, 6, 9, 0), 5)
    surface, ex1 = bw.plots(book, base)
    assert surface.name == "Surface" and ex1.name == "Excavation 1"
    assert len(surface.rows) == 16 and all(len(r) == 16 for r in surface.rows)
    assert surface.rows[4] == "    AAAAAAA     "
    assert surface.rows[9] == "    .C..lD.     "
    assert surface.rows[10] == "    ..lll..     "
    assert ("l", "Firing Range (building: 30 man-days, 5 engineers)") in surface.legend
    assert ex1.rows[6] == "     .EEE.      "
    assert ("E", "Command Center") in ex1.legend


def test_the_start_spots_parse(book):
    assert book.campaign.start[0] == Spot(facility="surface", x=4, y=4)


def test_a_missile_silo_takes_six_layers(book, start):
    # free 2x2 on the Surface at (6,9), but its shaft meets the Residence on layer 1
    assert bw.placement(book, start, "missile_silo", (0, 6, 9, 0)) == "overlap: H10 on layer 1 is the Residence's"
    assert bw.cells(book, "missile_silo", 0, 1, 1, 0) == {(d, x, y) for d in range(6) for x in (1, 2) for y in (1, 2)}
    assert bw.placement(book, start, "elevator", (0, 6, 10, 0)) is None  # an elevator's shaft may go undug
