"""Things lying on the map apart from any unit (A-12.2, A-12.5; settings `ground_items`, floor.py): what is put on
the floor stays on the square, a dead soldier's kit falls there, and whoever stands there picks it up at floor →
hand (8 TU); the map marks it where the side sees the square. Without the setting the floor travels with the unit."""

from __future__ import annotations

import attrs
import pytest

from engine.core.commands import Act, Rejected
from engine.core.dice import Dice, seed_from_int
from engine.core.events import Noted, UnitChanged
from engine.core.reducer import fold
from engine.play.game import Game
from engine.rules.annihilation import floor
from engine.rules.annihilation.board import Dropped, field_of
from test_annihilation_inventory_play import _do, _quiet, inventory_keys

ID = "annihilation"
RIFLE = "mk2v_assault_rifle"


@pytest.fixture
def game(content):
    g = Game.new(content, ID, "eliminate", seed_from_int(4), None)
    yield g
    g.close()


def _moved(state, **where):
    return attrs.evolve(state, units={**state.units, **{k: attrs.evolve(state.units[k], pos=p)
                                                        for k, p in where.items()}})


def _tu(state, uid):
    return state.units[uid].record.fighter.tu_left


def test_a_rifle_put_on_the_floor_stays_there_and_another_soldier_picks_it_up_at_floor_to_hand(game):
    rs = game.ruleset
    state = _quiet(game.state)
    anton, julia = state.units["anton"].pos, state.units["julia"].pos
    events, state = _do(rs, state, Act(unit="anton", action="stow", option="0:floor"))  # hand → floor, 2 TU
    assert [e.cause for e in events if isinstance(e, (UnitChanged, Noted))][-3:] == [
        "handling its kit", "leaves it on the ground", "on the ground: Mk. IIV Assault Rifle"]
    assert _tu(state, "anton") == 53 - 2 and all(c.id != RIFLE for c in state.units["anton"].record.kit)
    rifle = state.record.ground[0]
    assert (rifle.cell, rifle.z, rifle.item.id, rifle.item.place, rifle.item.rounds) == (anton, 0, RIFLE, "floor", 20)
    state = _moved(state, anton=julia, julia=anton)  # Anton walks off: the rifle stays; Julia steps onto its square
    assert state.record.ground[0].cell == anton
    full = rs.decide(state, Act(unit="julia", action="pick_up", option="0"), Dice.scripted([]))
    assert isinstance(full, Rejected) and full.code == "hands_full"  # her High Fire is in both hands
    _e, state = _do(rs, state, Act(unit="julia", action="stow", option="0:floor"))  # 2 TU: hers lies here too
    inv = rs.inventory(state, state.units["julia"])
    ground = [t for t in inv.items if t.place == "Ground"]
    assert [(t.label, t.size) for t in ground] == [("Mk. IIV Assault Rifle 20/20", "D"), ("High Fire Mk. 3 6/6", "E")]
    pick = ground[0].moves[0]
    assert (pick.label, pick.note) == ("Pick up (8 TU)", "A-12.5: floor → hand, into the right hand")
    assert pick.command == Act(unit="julia", action="pick_up", option="0")
    events, state = _do(rs, state, pick.command)
    assert events[0].text == "Julia picks up the Mk. IIV Assault Rifle into the right hand (8 TU: floor → hand)"
    assert _tu(state, "julia") == 54 - 2 - 8
    held = state.units["julia"].record.kit[-1]
    assert (held.id, held.place, held.rounds) == (RIFLE, "right_hand", 20)
    assert [(d.cell, d.item.id) for d in state.record.ground] == [(anton, "high_fire_mk3")]
    assert rs.decide(state, Act(unit="anton", action="pick_up", option="0"), Dice.scripted([])) == Rejected(
        "nothing_there", "Nothing numbered '0' lies on Anton's square")  # it lies where Julia stands, not Anton


def test_a_dead_soldiers_whole_kit_falls_to_his_square_and_his_rifle_is_picked_up(game):
    rs = game.ruleset
    state = _quiet(game.state)
    a = state.units["anton"]
    dead = attrs.evolve(a.record, fighter=attrs.evolve(a.record.fighter, status="dead", health=-40, tu_left=0))
    shot = [UnitChanged(unit="anton", changes={"record": dead, "status": "dead"}, cause="hit")]
    out = floor.settle(rs, state, shot)
    assert [e.cause for e in out] == ["its kit falls to the ground (dead)", "on the ground: Mk. IIV Assault Rifle, "
                                      "Mk. IIV Assault Rifle clip, Mk. IIV Assault Rifle clip, Hand Grenade"]
    state = fold(state, shot + out)
    assert state.units["anton"].record.kit == ()
    assert [d.item.id for d in state.record.ground] == [RIFLE, f"clip:{RIFLE}", f"clip:{RIFLE}", "hand_grenade"]
    assert {(d.cell, d.item.place) for d in state.record.ground} == {(a.pos, "floor")}
    state = _moved(state, laura=a.pos)  # the dead do not hold their square (State.units_at)
    l = state.units["laura"]
    state = attrs.evolve(state, units={**state.units, "laura": attrs.evolve(l, record=attrs.evolve(
        l.record, kit=l.record.kit[1:]))})  # her own rifle already gone
    _e, state = _do(rs, state, Act(unit="laura", action="pick_up", option="0"))
    assert [(c.id, c.place) for c in state.units["laura"].record.kit][-1] == (RIFLE, "right_hand")
    assert _tu(state, "laura") == 54 - 8
    marks = [m for m in rs.marks(state, "xcom") if m.glyph == floor.MARK[0]]
    assert [(m.pos, m.z, m.label) for m in marks] == [
        (a.pos, 0, "On the ground: Mk. IIV Assault Rifle clip, Mk. IIV Assault Rifle clip, Hand Grenade")]


def test_the_map_marks_things_on_the_ground_only_where_the_side_sees(game):
    rs = game.ruleset
    state = _quiet(game.state)
    far = next(u.pos for u in state.units.values() if u.side == "aliens")
    item = state.units["anton"].record.kit[3]
    state = attrs.evolve(state, record=attrs.evolve(field_of(state), ground=(Dropped(far, 0, item),)))
    assert not rs.sight_levels(state, "xcom")[0][far[1], far[0]]  # the squad has not seen that square yet
    assert not [m for m in rs.marks(state, "xcom") if m.label.startswith("On the ground")]
    assert [m.label for m in rs.marks(state, "aliens") if m.pos == far] == ["On the ground: Hand Grenade"]


def test_without_the_setting_the_floor_travels_with_the_unit_as_in_older_content(game):
    rs = game.ruleset
    rs.book = attrs.evolve(rs.book, settings=attrs.evolve(rs.book.settings, ground_items=False))
    state = _quiet(game.state)
    events, state = _do(rs, state, Act(unit="anton", action="stow", option="0:floor"))
    assert not any(isinstance(e, Noted) for e in events) and field_of(state).ground == ()
    assert state.units["anton"].record.kit[0].place == "floor"
    assert rs.decide(state, Act(unit="anton", action="pick_up", option="0"), Dice.scripted([])).code == (
        "unknown_action")
    assert not [t for t in rs.inventory(state, state.units["anton"]).items if t.place == "Ground"]


def test_the_client_inventory_screen_lists_the_ground_and_picks_up_from_it_at_80x24(content, tmp_path):
    """`I`, ⏎ on the rifle, ↑↑ to `→ Floor`, ⏎: it is put down; `I` again lists it under Ground, ⏎ ⏎ picks it up."""
    import json

    drop = ("enter", "up", "up", "enter", "I", "down", "down", "down")
    session, listed, picking = inventory_keys(content, tmp_path, drop, ("enter",))
    assert "▶ Ground   Mk. IIV Assault Rifle 20/20 (D)" in listed
    assert "▶ Pick up (8 TU)" in picking and "A-12.5: floor → hand, into the right hand" in picking
    lines = [json.loads(line) for line in session.path.read_text().splitlines()]
    commands = [x["command"] for x in lines if "command" in x][-2:]
    assert [(c["action"], c["option"]) for c in commands] == [("stow", "0:floor"), ("pick_up", "0")]
