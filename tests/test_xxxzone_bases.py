"""xxxzone section 15's new base and move orders through the campaign seam (engine/rules/xxxzone/baseorders.py):
every cost and time checked; base orders roll no dice (scripted dice with no faces prove it)."""

from __future__ import annotations

import pytest

from engine.campaign.codec import Codec
from engine.campaign import decide as d
from engine.campaign.seam import Order, Outcome, Timer
from engine.content import loader
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.rules.xxxzone import basework as bw
from engine.rules.xxxzone.downtime import XxxzoneDowntime

NONE = frozenset()
PARTS = ["surface", "runway", "radar_tower", "elevator", "excavation", "command_center", "aircraft_hangar"]


@pytest.fixture(scope="module")
def dt():
    return XxxzoneDowntime(loader.load())


@pytest.fixture(scope="module")
def start(dt):
    return dt.begin((), Dice.scripted([])).base


def order(dt, base, o, funding=10):
    return dt.order((), base, funding, NONE, o, Dice.scripted([]))


@pytest.fixture(scope="module")
def founded(dt, start):
    out = order(dt, start, Order("found"))
    assert isinstance(out, Outcome)
    return out


def test_a_new_base_costs_10F_and_320_man_days(dt, start, founded):
    assert founded.funding == -10
    assert founded.timers == (Timer(64, "found:1", "Base 2 is ready"),)  # 24*320/5 = 1536 h = 64 days
    assert founded.notes == ("Founding Base 2 (10F, not its parts' 8F): 320 man-days by 5 engineers = 1536 hours, "
                             "ready in 64 days: Surface, Elevator, Excavation, Command Center, Runway, Radar Tower, "
                             "Aircraft Hangar",)
    (plot, under) = dt.plots(founded.base, 1)
    assert dict(plot.legend)[","] == "Surface (building: 10 man-days, 5 engineers)"
    assert dict(under.legend)[","] == "Excavation (digging: 150 man-days)"
    offer = next(o for o in dt.offers((), start, 10, NONE) if o.order.kind == "found")
    assert offer.label == "Found Base 2, a new base (10F, 320 man-days by 5 engineers: 64 days)" and offer.cost == 10
    base = founded.base
    assert base.sites == 2 and dt.sites(base) == ("Base 1", "Base 2")
    new = base.at(1).placed
    assert [p.facility for p in new] == PARTS
    assert all(p.building for p in new) and sum(p.work for p in new) == 320  # 10+20+20+30+150+60+30
    assert bw.free_engineers(base) == 0 and bw.busy_engineers(base) == 5
    assert len({p.key for p in base.placed}) == len(base.placed) == 20
    assert base.at(0).placed == start.placed  # the first base is untouched


def test_a_new_base_is_refused_without_funding_or_engineers(dt, start, founded):
    assert order(dt, start, Order("found"), funding=9) == Rejected(
        "funding", "a new base costs 10F; the campaign has 9F")
    assert order(dt, founded.base, Order("found"), funding=30) == Rejected(
        "engineers", "0 of the base's 5 engineers are free")
    two = order(dt, start, Order("found", where=(2,)))
    assert two.timers[0].days == 160  # 24*320/2 = 3840 h


def test_a_new_base_under_way_is_no_ground_and_its_limits_are_its_own(dt, founded):
    base = founded.base
    assert dt.placement(base, "firing_range", (0, 6, 9, 0), site=1) == \
        "the Surface at G11 on the Surface is still being built"
    ready = dt.due((), base, Timer(64, "found:1", "Base 2 is ready"), Dice.scripted([]))
    assert ready.notes == ("Base 2 is ready: Surface, Runway, Radar Tower, Elevator, Excavation, Command Center, "
                           "Aircraft Hangar",)
    done = ready.base
    assert not any(p.building for p in done.placed) and bw.free_engineers(done) == 5
    assert dt.placement(done, "firing_range", (0, 6, 9, 0), site=1) is None
    assert dt.placement(done, "runway", (0, 4, 10, 0), site=1) == "limit reached: exactly 1 Runway per base"
    assert dt.placement(done, "barracks", (0, 5, 7, 0), site=1) is None  # the first base's Barracks is elsewhere
    assert dt.placement(done, "barracks", (0, 5, 7, 0), site=0) == "overlap: F8 on the Surface is the Barracks's"
    assert dt.placement(done, "barracks", (0, 5, 7, 0), site=2) == "no base 3: the campaign has 2"
    built = order(dt, done, Order("build", what="firing_range", where=(0, 6, 9, 0), site=1))
    assert built.funding == -1 and built.base.get(built.timers[0].key.removeprefix("build:")).site == 1
    assert built.notes[0].startswith("Building the Firing Range in Base 2 at G10 on the Surface, turned 0: ")
    surface = next(p for p in done.at(1).placed if p.facility == "surface")
    assert dt.plots(done, 1)[0].rows[surface.y][surface.x] == "A"  # the Runway, this base's own letters
    assert dt.due((), done, Timer(1, "found:1", "Base 2 is ready"), Dice.scripted([])).notes == (
        "Base 2: nothing is being built there",)


def test_the_ai_founds_a_second_base_when_it_can_pay_never_a_third(dt, start, founded):
    def ai(base, funding):
        return [o.order.kind for o in dt.offers((), base, funding, NONE) if o.ai and o.order.kind != "recruit"]

    assert "found" not in ai(start, 9)
    assert ai(start, 10)[:4] == ["build", "build", "build", "found"]  # the three training facilities first
    assert dt.offers((), start, 10, NONE)[0].order.kind == "recruit"  # nobody on the roster: a squad first
    assert dt.offers((), start, 10, NONE)[1].order.what == "firing_range"  # Per first
    ready = dt.due((), founded.base, Timer(64, "found:1", ""), Dice.scripted([])).base
    assert "found" not in ai(ready, 40)  # a third base: a player's choice only
    assert {o.order.site for o in dt.offers((), ready, 10, NONE) if o.order.kind == "build"} == {0, 1}


def test_move_costs_its_man_days_again_and_no_funding(dt, start):
    hangar = next(p.key for p in start.placed if p.facility == "aircraft_hangar")
    assert dt.placement(start, "aircraft_hangar", (0, 6, 9, 0), moving=hangar) is None
    assert dt.placement(start, "aircraft_hangar", (0, 7, 5, 0), moving=hangar) == \
        "overlap: H6 on the Surface is the Aircraft Hangar's"
    moved = order(dt, start, Order("move", what=hangar, where=(0, 6, 9, 1, 3)), funding=0)
    assert moved.funding == 0 and moved.timers[0].days == 10  # 24*30/3 = 240 h
    assert moved.notes == ("Moving the Aircraft Hangar to G10 on the Surface, turned 1: 30 man-days by 3 engineers "
                           "= 240 hours, ready in 10 days (no funding)",)
    p = moved.base.get(hangar)
    assert (p.x, p.y, p.rotation, p.work, p.engineers) == (6, 9, 1, 30, 3)
    assert dt.placement(moved.base, "aircraft_hangar", (0, 6, 9, 0), moving=hangar) == \
        "the Aircraft Hangar is still being built"
    ex = next(p.key for p in start.placed if p.facility == "elevator")
    assert dt.placement(start, "elevator", (0, 6, 9, 0), moving=ex) == \
        "an Elevator cannot be moved: it holds the base together"


def test_footprint_is_the_rotated_shape(dt, start):
    def feet(facility, where, kind="build"):
        return dt.footprint(start, Order(kind, what=facility, where=where))

    assert feet("firing_range", (0, 6, 9, 0)) == {(0, 8, 9), (0, 6, 10), (0, 7, 10), (0, 8, 10)}
    assert feet("firing_range", (0, 6, 9, 1)) == {(0, 6, 9), (0, 6, 10), (0, 6, 11), (0, 7, 11)}
    assert len(feet("elevator", (0, 5, 5, 0))) == 2 and feet("nothing", (0, 1, 1)) == frozenset()
    hangar = next(p.key for p in start.placed if p.facility == "aircraft_hangar")
    assert feet(hangar, (0, 6, 9, 1), "move") == {(0, 6, 9), (0, 6, 10)}
    assert feet("firing_range", (0, 6, 9, 0), "train") == frozenset()


def test_moves_start_where_each_movable_facility_stands(dt, start):
    moves = dt.moves(start)
    names = [o.label for o in moves]
    assert names[:2] == ["Runway (at E5 on the Surface)", "Radar Tower (at E6 on the Surface)"]
    assert not any("Elevator" in n or "Surface" in n.split(" (")[0] or "Excavation" in n for n in names)
    assert len(moves) == 9 and all(o.cost == 0 and o.order.kind == "move" for o in moves)
    assert all(dt.placement(start, "", o.order.where, moving=o.order.what) is None for o in moves)
    assert not [o for o in dt.offers((), start, 10, NONE) if o.order.kind == "move"]


def test_an_orders_site_is_left_out_of_the_log_at_0():
    codec = Codec(None, bw.Base)
    assert "site" not in codec.dump(d.Give(Order("build", what="x", where=(0, 1, 2, 0))))["order"]
    two = d.Give(Order("build", what="x", where=(0, 1, 2, 0), site=1))
    assert codec.dump(two)["order"]["site"] == 1 and codec.load_command(codec.dump(two)) == two
    placed = bw.Base(placed=(bw.Placed(key="a.1", facility="a", layer=0, x=1, y=1),))
    assert "site" not in codec.conv.unstructure(placed)["placed"][0]


def test_squares_are_named_as_the_screen_labels_them():
    assert bw.square(4, 4) == "E5" and bw.spot(0, 4, 4) == "E5 on the Surface" and bw.spot(2, 0, 15) == "A16 on layer 2"


def test_a_campaign_founds_base_2_builds_in_it_and_verifies(tmp_path):
    from engine.campaign.ledger import Ledger
    from engine.campaign.verify import verify
    from engine.core.dice import seed_from_int

    content = loader.load()
    book = Ledger.new(content, tmp_path / "two", "two", "xxxzone", seed_from_int(4), 4, [])
    assert book.state.funding == 10
    assert [e for e in book.submit(d.Give(Order("found")))]
    assert book.state.funding == 0 and book.state.base.sites == 2
    while "found:1" in book.state.busy:
        book.submit(d.Advance())
    assert book.state.day == 64 and not any(p.building for p in book.state.base.placed)
    assert "Base 2 is ready: Surface, Runway" in "\n".join(book.story)
    done = book.submit(d.Give(Order("build", what="class_room", where=(0, 6, 9, 0), site=1)))
    assert not isinstance(done, Rejected)
    assert [p.site for p in book.state.base.placed if p.facility == "class_room"] == [1]
    book.close()
    report = verify(content, tmp_path / "two")
    assert report.failure is None, report.failure


def test_campaign_simulates_founding_once_the_training_facilities_stand():
    """`campaign simulate`'s policy gives the first offer the AI may give that it can pay: the Firing Range, and
    once the engineers are free again (the Gym and Class Room built too), with 10F, the new base."""
    import attrs

    from engine.campaign import decide as d
    from engine.campaign.ledger import Ledger
    from engine.campaign.simulate import spend
    from engine.core.dice import seed_from_int

    book = Ledger.new(loader.load(), None, "rich", "xxxzone", seed_from_int(6), 6, [])
    spend(book)
    assert any("Building the Firing Range" in line for line in book.story) and book.state.base.sites == 1
    while not any(line.startswith("order: Founding Base 2") for line in book.story) and book.state.day < 40:
        book.state = attrs.evolve(book.state, offers=())  # no missions: only the base
        book.submit(d.Advance())
        spend(book)
    assert book.state.base.sites == 2 and "found:1" in book.state.busy
    assert {p.facility for p in book.state.base.placed} >= {"firing_range", "training_gym", "class_room"}


def test_a_new_base_needs_its_parts_in_the_starting_base(dt):
    import attrs

    book = dt.book
    camp = attrs.evolve(book.campaign, start=[s for s in book.campaign.start if s.facility != "aircraft_hangar"])
    with pytest.raises(ValueError, match="the new base's aircraft_hangar has no place in the starting base to copy"):
        bw.found(attrs.evolve(book, campaign=camp), bw.Base(), 1)
