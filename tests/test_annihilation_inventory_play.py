"""annihilation's inventory in play (section 12): the screen's content from `Ruleset.inventory`, the moves it offers
at A-12.5's costs, unloading and loading, all decided by the ruleset; and the client's inventory screen at 80×24."""

from __future__ import annotations

import attrs
import pytest

from engine.core.commands import Act, Rejected, Shoot
from engine.core.dice import Dice, seed_from_int
from engine.core.events import Resolved
from engine.core.reducer import fold
from engine.play.game import Game
from client_walk import players_turn

ID = "annihilation"


@pytest.fixture
def game(content, tmp_path):
    g = Game.new(content, ID, "eliminate", seed_from_int(4), tmp_path / "g.jsonl")
    yield g
    g.close()


def _quiet(state):
    """No alien has a TU left to react with."""
    units = {k: attrs.evolve(u, record=attrs.evolve(u.record, fighter=attrs.evolve(u.record.fighter, tu_left=0)))
             if u.side == "aliens" else u for k, u in state.units.items()}
    return attrs.evolve(state, units=units)


def _do(rs, state, cmd):
    events = rs.decide(state, cmd, Dice.scripted([]))
    assert not isinstance(events, Rejected), events
    return events, fold(state, events)


def test_the_inventory_lists_each_thing_its_place_and_its_moves_at_their_cost(game):
    rs = game.ruleset
    state = _quiet(game.state)
    anton = state.units["anton"]
    inv = rs.inventory(state, anton)
    assert [(r.label, r.text) for r in inv.lines] == [
        ("ENC", " 11 boxes (armour 4) − relief 8 = 3: TU 53 a turn "), ("TU", " 53/53 "),
        ("Harness", " none · size I/J fire only from it · on: 18 turns ")]
    assert [(t.place, t.label, t.size) for t in inv.items] == [
        ("Both hands", "Mk. IIV Assault Rifle 20/20", "D"), ("Belt", "Mk. IIV Assault Rifle clip (20 rounds)", "A"),
        ("Belt", "Mk. IIV Assault Rifle clip (20 rounds)", "A"), ("Belt", "Hand Grenade", "A"),
        ("Not worn", "Strap, gyro and pad system", "")]  # put on in battle a turn at a time (harness.py)
    grenade = {m.label: m.command for m in inv.items[3].moves}
    # belt → hand 4; belt → backpack through a free hand... none is free (the rifle is in both)
    assert "→ Right hand (4 TU)" not in grenade and "→ Backpack (22 TU)" not in grenade
    rifle = [m.label for m in inv.items[0].moves]
    assert rifle[:3] == ["→ Right hand (2 TU)", "→ Left hand (2 TU)", "→ Strap 1 (6 TU)"]
    assert rifle[-2:] == ["→ Floor (2 TU)", "Unload (8 TU)"]  # from both hands: the clip comes to the left
    assert [m.label for m in inv.items[1].moves] == []  # belt → strap goes through a hand, and none is free


def test_moving_unloading_and_loading_are_paid_and_decided_by_the_ruleset(game):
    rs = game.ruleset
    state = _quiet(game.state)
    events, one = _do(rs, state, Act(unit="anton", action="stow", option="0:right_hand"))
    assert next(e.text for e in events if isinstance(e, Resolved)) == (
        "Anton moves the Mk. IIV Assault Rifle from both hands to right hand (2 TU: hand to hand)")
    anton = one.units["anton"]
    assert anton.record.fighter.tu_left == 51 and anton.record.kit[0].place == "right_hand"
    moves = {m.label: m.command for t in rs.inventory(one, anton).items for m in t.moves}
    assert moves["→ Backpack (22 TU)"] == Act(unit="anton", action="stow", option="3:backpack")  # 4 + 18
    events, two = _do(rs, one, moves["→ Backpack (22 TU)"])
    assert two.units["anton"].record.fighter.tu_left == 29 and two.units["anton"].record.kit[3].place == "backpack"
    events, three = _do(rs, two, Act(unit="anton", action="unload", option="0"))
    assert next(e.text for e in events if isinstance(e, Resolved)) == (
        "Anton unloads the Mk. IIV Assault Rifle (8 TU): the clip, 20 rounds, in the left hand")
    kit = three.units["anton"].record.kit
    assert (kit[0].rounds, kit[0].loaded, kit[-1].place, kit[-1].rounds) == (0, None, "left_hand", 20)
    assert three.units["anton"].record.fighter.tu_left == 21
    load = next(m for t in rs.inventory(three, three.units["anton"]).items for m in t.moves
                if m.label.startswith("Load"))
    assert load.label == "Load a clip (15 TU)"  # the clip is already in the other hand: the load alone
    _events, four = _do(rs, three, load.command)
    assert four.units["anton"].record.kit[0].rounds == 20 and four.units["anton"].record.fighter.tu_left == 6
    n = next(i for i, c in enumerate(four.units["anton"].record.kit) if c.id == "hand_grenade")
    refused = rs.decide(four, Act(unit="anton", action="stow", option=f"{n}:belt"), Dice.scripted([]))
    assert refused == Rejected("no_tu", "Handling its kit costs 16 TU; 6 left")  # backpack → hand 8, → belt 8
    assert rs.decide(four, Act(unit="anton", action="stow", option="9:belt"), Dice.scripted([])) == Rejected(
        "no_item", "Anton carries no item '9'")
    assert rs.decide(four, Act(unit="anton", action="stow", option=f"{n}:backpack"), Dice.scripted([])) == \
        Rejected("same_place", "It is already there: backpack")


def inventory_keys(content, tmp_path, to_thing: tuple[str, ...], to_move: tuple[str, ...]):
    """`I` and `to_thing` on the squad's first turn, then `to_move`, then ⏎: (the session, the screen listing the
    things, the screen listing the chosen thing's moves); the battle screen has submitted the move."""
    import asyncio

    from tui.app import XenotacApp
    from tui.session import Session
    from tui.textshot import screen_text

    session = Session.new(content, ID, "eliminate", seed_from_int(4), tmp_path / "walk.jsonl")
    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await players_turn(pilot, app, session)
            await pilot.press("I", *to_thing)
            listed = screen_text(app)
            await pilot.press(*to_move)
            picking = screen_text(app)
            await pilot.press("enter")
            await pilot.pause()
            return listed, picking

    listed, picking = asyncio.run(main())
    session.close()
    return session, listed, picking


def test_the_client_inventory_screen_returns_the_chosen_move_at_80x24(content, tmp_path):
    """`I`, ⏎ on the rifle, ↓ to `→ Left hand`, ⏎: the battle screen submits the move."""
    import json

    session, listed, picking = inventory_keys(content, tmp_path, (), ("enter", "down"))
    assert "Anton: inventory" in listed and "ENC 11 boxes (armour 4) − relief 8 = 3: TU 53 a turn" in listed
    assert "▶ Both hands Mk. IIV Assault Rifle 20/20 (D)" in listed
    assert "  Belt       Mk. IIV Assault Rifle clip (20 rounds) (A) ·" in listed  # one line, not wrapped
    assert "▶ → Left hand (2 TU)" in picking
    command = [json.loads(line) for line in session.path.read_text().splitlines()][-1]["command"]
    assert command == {"kind": "act", "unit": "anton", "action": "stow", "target": None, "cell": None,
                       "option": "0:left_hand", "amount": 0, "targets": []}


def _gunner(content, harness: bool):
    """Anton with a Mk. 5 AC (size I) instead of his rifle, fitted with the harness or not (A-12.3)."""
    units = dict(content.rules[ID]["units"])
    units["anton"] = attrs.evolve(units["anton"], weapon="mk5_ac", clips=0, harness=harness)
    rules = {**content.rules, ID: {**content.rules[ID], "units": units}}
    g = Game.new(attrs.evolve(content, rules=rules), ID, "eliminate", seed_from_int(4), None)
    a = g.state.units["anton"]
    kit = (attrs.evolve(a.record.kit[0], loaded="mk5_ac_ap"),) + a.record.kit[1:]  # a cannon shell
    a = attrs.evolve(a, record=attrs.evolve(a.record, kit=kit))
    return g.ruleset, _quiet(attrs.evolve(g.state, units={**g.state.units, "anton": a}))


def test_the_harness_takes_both_straps_and_lets_a_size_i_weapon_fire_gripped(content):
    rs, state = _gunner(content, harness=True)
    anton = state.units["anton"]
    ac = anton.record.kit[0]
    assert (ac.id, ac.size, ac.place, ac.gripped) == ("mk5_ac", "I", "both_straps", ("right_hand", "left_hand"))
    inv = rs.inventory(state, anton)
    assert inv.lines[2].text == " worn · both straps, any size, gripped · off: 2 turns "
    assert [(t.place, t.size) for t in inv.items][:1] == [("Both straps", "I")]
    moves = {m.label: m.command for m in inv.items[0].moves}
    assert "Let hang (1 TU)" in moves and "→ Strap 1 (6 TU)" not in moves  # A-12.4's 1 TU; the harness has both
    grenade = anton.record.kit.index(next(c for c in anton.record.kit if c.id == "hand_grenade"))
    refused = rs.decide(state, Act(unit="anton", action="stow", option=f"{grenade}:strap_1"), Dice.scripted([]))
    assert refused == Rejected("harness", "The strap, gyro and pad system takes both straps (A-12.3)")
    hung, state2 = _do(rs, state, moves["Let hang (1 TU)"])
    assert state2.units["anton"].record.kit[0].gripped == () and state2.units["anton"].record.fighter.tu_left == \
        anton.record.fighter.tu_left - 1 and hung[0].text == "Anton lets go of the Mk. 5 AC on both straps (1 TU)"
    x, y = anton.pos
    near = attrs.evolve(state, units={**state.units, "sectoid_1": attrs.evolve(state.units["sectoid_1"],
                                                                                pos=(x, y - 2))})
    ok = rs.preview_shot(near, "anton", "sectoid_1", "snap")
    assert not isinstance(ok, Rejected), ok  # gripped on the harness it fires (a one-handed grip never does)
    events = rs.decide(near, Shoot(unit="anton", target="sectoid_1", mode="snap"), Dice.scripted([100] * 9))
    assert [e.action for e in events if isinstance(e, Resolved)] == ["shoot"]
    hanging = attrs.evolve(near, units={**near.units, "anton": state2.units["anton"]})
    assert rs.preview_shot(hanging, "anton", "sectoid_1", "snap").code == "unarmed"  # hanging: not in the hands


def test_without_the_harness_a_size_i_weapon_is_carried_in_both_hands_but_never_fired(content):
    rs, state = _gunner(content, harness=False)
    anton = state.units["anton"]
    assert anton.record.kit[0].place == "both_hands"
    assert rs.inventory(state, anton).lines[2].text == " none · size I/J fire only from it · on: 18 turns "
    x, y = anton.pos
    near = attrs.evolve(state, units={**state.units, "sectoid_1": attrs.evolve(state.units["sectoid_1"],
                                                                                pos=(x, y - 2))})
    got = rs.decide(near, Shoot(unit="anton", target="sectoid_1", mode="snap"), Dice.scripted([]))
    assert got.code == "needs_harness" and "strap, gyro and pad" in got.reason
    refused = rs.decide(state, Act(unit="anton", action="stow", option="0:both_straps"), Dice.scripted([]))
    assert refused == Rejected("too_big", "Larger items hang from the strap, gyro and pad system")


def _cannoneer(content):
    """Anton with a Mk. 5 AC on the harness, loaded with AP and 5 rounds left, one AP and one HE shell clip (size B,
    20 rounds each) on his belt (units.toml `spares`)."""
    units = dict(content.rules[ID]["units"])
    units["anton"] = attrs.evolve(units["anton"], weapon="mk5_ac", ammo="mk5_ac_ap", clips=0, harness=True,
                                  spares={"mk5_ac_ap": 1, "mk5_ac_he": 1})
    rules = {**content.rules, ID: {**content.rules[ID], "units": units}}
    g = Game.new(attrs.evolve(content, rules=rules), ID, "eliminate", seed_from_int(4), None)
    a = g.state.units["anton"]
    kit = (attrs.evolve(a.record.kit[0], rounds=5),) + a.record.kit[1:]
    a = attrs.evolve(a, record=attrs.evolve(a.record, kit=kit))
    return g.ruleset, _quiet(attrs.evolve(g.state, units={**g.state.units, "anton": a}))


def test_a_cannon_on_the_harness_reloads_its_shell_clips_from_the_belt(content):
    """A-12.5, A-15.4, section 16: belt → hand 4 + load 15 = 19 TU with the same type; another type is unloaded
    first (A-16.2: + 8 = 27 TU); the clip taken out falls to the unit's square."""
    rs, state = _cannoneer(content)
    anton = state.units["anton"]
    kit = anton.record.kit
    assert [(c.id, c.size, c.place, c.rounds) for c in kit if c.id.startswith("mk5_ac_")] == [
        ("mk5_ac_ap", "B", "belt", 20), ("mk5_ac_he", "B", "belt", 20)]
    inv = rs.inventory(state, anton)
    labels = [(t.place, t.label) for t in inv.items]
    assert labels[:3] == [("Both straps", "Mk. 5 AC 5/20 (Mk. 5 AC AP)"), ("Belt", "Mk. 5 AC AP (20 rounds)"),
                          ("Belt", "Mk. 5 AC HE (20 rounds)")]
    gun_moves = [m.label for m in inv.items[0].moves]
    assert "Load Mk. 5 AC AP (19 TU)" in gun_moves
    he = {m.label: m.command for m in inv.items[2].moves}
    assert he["Load into the Mk. 5 AC (27 TU)"] == Act(unit="anton", action="load", option="2")
    assert "Mk. 5 AC 5/20 +2 spare" in rs.sheet(state, anton).kit
    tu = anton.record.fighter.tu_left
    events, same = _do(rs, state, Act(unit="anton", action="load"))
    assert next(e.text for e in events if isinstance(e, Resolved)) == (
        "Anton reloads the Mk. 5 AC (19 TU): 20 of Mk. 5 AC AP")
    after = same.units["anton"].record
    cannon = after.kit[[c.id for c in after.kit].index("mk5_ac")]
    assert (cannon.place, cannon.gripped, cannon.loaded, cannon.rounds) == (
        "both_straps", ("right_hand", "left_hand"), "mk5_ac_ap", 20)  # back on the harness, gripped
    assert [(c.id, c.place, c.rounds) for c in after.kit if c.id.startswith("mk5_ac_")] == [("mk5_ac_he", "belt", 20)]
    assert [(d.cell, d.item.id, d.item.rounds) for d in same.record.ground] == [(anton.pos, "mk5_ac_ap", 5)]
    assert after.fighter.tu_left == tu - 19
    events, other = _do(rs, state, he["Load into the Mk. 5 AC (27 TU)"])
    assert next(e.text for e in events if isinstance(e, Resolved)) == (
        "Anton reloads the Mk. 5 AC (27 TU): 20 of Mk. 5 AC HE")
    after = other.units["anton"].record
    assert [(c.id, c.place, c.loaded, c.rounds) for c in after.kit if c.id.startswith("mk5_ac")] == [
        ("mk5_ac_ap", "belt", None, 20), ("mk5_ac", "both_straps", "mk5_ac_he", 20)]
    assert [(d.item.id, d.item.rounds) for d in other.record.ground] == [("mk5_ac_ap", 5)]  # on Anton's square
    assert after.fighter.tu_left == tu - 27
    assert rs.decide(same, Act(unit="anton", action="load"), Dice.scripted([])) == Rejected(
        "full", "The Mk. 5 AC is full (20/20)")  # full: it changes to HE only if the HE clip is chosen
    grenade = [c.id for c in after.kit].index("hand_grenade")
    assert rs.decide(other, Act(unit="anton", action="load", option=str(grenade)), Dice.scripted([])) == Rejected(
        "wrong_ammo", "The Hand Grenade does not load the Mk. 5 AC")
