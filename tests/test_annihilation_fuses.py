"""annihilation's timed grenades (A-17.7): primed with a delay as an `Act`, thrown for the throw's TU alone, lying on
the battle record until the end of their side's phase on the fuse's turn, or going off in the hand that kept them."""

from __future__ import annotations

import attrs
import pytest

from engine.core.commands import Act, EndTurn, Rejected, Throw
from engine.core.dice import Dice, seed_from_int
from engine.core.events import Noted, Resolved
from engine.core.reducer import fold
from engine.play.game import Game
from engine.rules.annihilation.board import Field, Lying
from client_walk import players_turn

ID = "annihilation"


@pytest.fixture
def game(content, tmp_path):
    g = Game.new(content, ID, "eliminate", seed_from_int(4), tmp_path / "g.jsonl")
    yield g
    g.close()


def _open_row(game):
    """Anton on open ground with two seen squares east of him; Sectoid 1 on the far one, its TUs spent (no alien
    reacts)."""
    state = game.state
    grid = state.grid
    for y in range(2, grid.height - 2):
        for x in range(2, grid.width - 4):
            row = [(x + i, y) for i in range(3)]
            if all(grid.walkable[c[1], c[0]] and grid.transparent[c[1], c[0]] and not state.units_at(c) for c in row):
                units = dict(state.units)
                units["anton"] = attrs.evolve(units["anton"], pos=row[0], facing=2)
                for uid, u in units.items():
                    if u.side == "aliens":
                        units[uid] = attrs.evolve(u, record=attrs.evolve(u.record, fighter=attrs.evolve(
                            u.record.fighter, tu_left=0)))
                units["sectoid_1"] = attrs.evolve(units["sectoid_1"], pos=row[2], facing=6)
                return attrs.evolve(state, units=units), row
    raise AssertionError("no open row")


def _do(rs, state, cmd, faces=(), exact=True):
    dice = Dice.scripted(list(faces))
    events = rs.decide(state, cmd, dice)
    assert not isinstance(events, Rejected), events
    assert dice.scripted_left == 0 or not exact
    return events, fold(state, events)


def test_priming_costs_belt_to_hand_and_half_the_allowance_and_sets_the_fuse(game):
    rs = game.ruleset
    state, _row = _open_row(game)
    before = state.units["anton"].record.fighter.tu_left  # 53
    events, after = _do(rs, state, Act(unit="anton", action="prime", option="hand_grenade", amount=1))
    told = next(e for e in events if isinstance(e, Resolved))
    assert told.text == ("Anton primes a Hand Grenade (30 TU): it goes off at the end of the X-COM phase of turn 2")
    anton = after.units["anton"]
    assert anton.record.fighter.tu_left == before - 4 - 26  # belt to hand 4, prime 50% of 53
    assert [c.primed for c in anton.record.kit if c.id == "hand_grenade"] == [2]
    assert rs.throwables(after, anton)[0].label == "Hand Grenade (primed, turn 2)"
    assert "Hand Grenade primed (turn 2)" in rs.sheet(after, anton).effects


def test_priming_is_refused_with_codes(game):
    rs = game.ruleset
    state, _row = _open_row(game)

    def prime(unit="anton", item="hand_grenade", delay=0, at=state):
        return rs.decide(at, Act(unit=unit, action="prime", option=item, amount=delay), Dice.scripted([]))

    assert prime(delay=6) == Rejected("bad_delay", "A delay is 0 to 5 turns")
    assert prime(unit="julia").code == "no_item"
    _events, primed = _do(rs, state, Act(unit="anton", action="prime", option="hand_grenade"))
    anton = primed.units["anton"]
    two = attrs.evolve(anton, record=attrs.evolve(anton.record, kit=anton.record.kit + (attrs.evolve(
        anton.record.kit[-1], primed=None),)))
    assert prime(at=attrs.evolve(primed, units={**primed.units, "anton": two})).code == "hands_full"
    a = state.units["anton"]
    mine = attrs.evolve(a, record=attrs.evolve(a.record, kit=tuple(
        attrs.evolve(c, id="land_mine", size="B") if c.id == "hand_grenade" else c for c in a.record.kit)))
    assert prime(item="land_mine", at=attrs.evolve(state, units={**state.units, "anton": mine})) == Rejected(
        "laid_not_thrown", "A Land Mine is laid, not thrown: lay it on the square (a)")
    tired = attrs.evolve(a, record=attrs.evolve(a.record, fighter=attrs.evolve(a.record.fighter, tu_left=29)))
    assert prime(at=attrs.evolve(state, units={**state.units, "anton": tired})) == Rejected(
        "no_tu", "Bringing out and priming the Hand Grenade costs 30 TU; 29 left")


def test_a_primed_grenade_lies_where_it_lands_and_goes_off_at_its_sides_phase_end(game):
    rs = game.ruleset
    state, row = _open_row(game)
    _e, state = _do(rs, state, Act(unit="anton", action="prime", option="hand_grenade", amount=1))
    left = state.units["anton"].record.fighter.tu_left
    events, state = _do(rs, state, Throw(unit="anton", item="hand_grenade", cell=row[2]), [1])  # d100 1: on target
    assert state.units["anton"].record.fighter.tu_left == left - 13  # only the throw's 25% of 53
    assert not any(isinstance(e, Resolved) and e.action == "blast" for e in events)
    assert events[-1].cause == "uses (A-6.1): throw (thrown_explosives)"
    assert isinstance(events[-2], Noted) and state.record == Field(lying=(Lying("hand_grenade", row[2], "xcom", 2,
                                                                               "anton"),))
    assert all(c.id != "hand_grenade" for c in state.units["anton"].record.kit)
    events, state = _do(rs, state, EndTurn(side="xcom"))  # turn 1 ends: the fuse has a turn to run
    assert not any(isinstance(e, Resolved) for e in events) and state.record.lying
    events, state = _do(rs, state, EndTurn(side="aliens"))
    assert state.phase == 2 and state.record.lying
    hp = state.units["sectoid_1"].record.fighter.health
    events, state = _do(rs, state, EndTurn(side="xcom"), [5] + [1] * 8)  # turn 2's squad phase ends: it goes off
    told = next(e for e in events if isinstance(e, Resolved))
    assert told.action == "blast" and told.text.startswith("Hand Grenade goes off at")
    assert "Sectoid 1 80 → 80 on under" in told.text  # the centre square takes it on the under armour
    hit = next(e for e in events if getattr(e, "cause", "") == "blast" and e.unit == "sectoid_1")
    assert state.record.lying == () and hit.changes["record"].fighter.health == hp - 80
    assert {d.cell for d in state.record.ground} == {state.units["sectoid_1"].pos}  # the dead Sectoid's kit lies there


def test_a_primed_grenade_kept_in_hand_goes_off_in_its_holders_square(game):
    rs = game.ruleset
    state, _row = _open_row(game)
    _e, state = _do(rs, state, Act(unit="anton", action="prime", option="hand_grenade", amount=0))
    hp = state.units["anton"].record.fighter.health
    events, state = _do(rs, state, EndTurn(side="xcom"), [5] + [1] * 8, exact=False)  # 80 on its under armour
    causes = [e.cause for e in events if hasattr(e, "cause")]
    assert "the primed Hand Grenade in hand goes off" in causes
    told = next(e for e in events if isinstance(e, Resolved))
    assert told.action == "blast" and "Anton 80 → " in told.text
    assert state.units["anton"].record.fighter.health < hp


def test_the_action_menu_offers_priming_with_a_delay_to_set(game):
    rs = game.ruleset
    state, _row = _open_row(game)
    option, lay = [o for o in rs.options(state, state.units["anton"]) if o.group == "Grenades"]
    assert lay.label == "Lay a Hand Grenade here (32 TU)" and lay.overload == 5  # + hand to floor 2 (hazards.py)
    assert option.label == "Prime a Hand Grenade (30 TU)" and option.overload == 5
    assert option.amount_words.format(n=2) == "Delay: 2 turns"
    assert option.command == Act(unit="anton", action="prime", option="hand_grenade")


def test_the_client_primes_with_a_delay_and_throws_at_80x24(content, tmp_path):
    """The walk done in tmux: `a`, the Prime entry, → → for a delay of 2, ⏎; then `t`, four squares north, ⏎."""
    import asyncio
    import json

    from tui.app import XenotacApp
    from tui.session import Session
    from tui.textshot import screen_text

    session = Session.new(content, ID, "eliminate", seed_from_int(4), tmp_path / "walk.jsonl")
    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await players_turn(pilot, app, session)
            await pilot.press("a")
            while not app.screen.options[app.screen.index].label.startswith("Prime a Hand Grenade"):
                await pilot.press("down")
            await pilot.press("enter", "right", "right")
            asked = screen_text(app)
            await pilot.press("enter")
            await pilot.pause()
            primed = screen_text(app)
            await pilot.press("t", "k", "k", "k", "k")
            aiming = screen_text(app)
            await pilot.press("enter")
            await pilot.pause()
            return asked, primed, aiming

    asked, primed, aiming = asyncio.run(main())
    session.close()
    assert "Delay: 2 turns (0-5)" in asked and "←/→ delay" in asked
    assert "Effects: Hand Grenade primed (turn 3)" in primed and "TU       23/53" in primed
    assert "Hand Grenade (primed, turn 3) ×1 →" in aiming
    records = [json.loads(line) for line in session.path.read_text().splitlines()]
    commands = [r["command"] for r in records if r.get("kind") == "command"]
    assert commands[-2]["action"] == "prime" and commands[-2]["amount"] == 2
    assert commands[-1]["kind"] == "throw"
    assert records[-1]["events"][-2]["kind"] == "noted"  # it lies where it landed, its fuse running (then uses)
