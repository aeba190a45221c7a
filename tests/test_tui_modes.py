"""The battle modes are screens that return a command: targeting gives a Shoot, throwing a Throw, Esc gives
None, and only the battle screen submits. One `availability` decides both the footer and the refusal."""

from __future__ import annotations

import asyncio

import pytest

from engine.core.commands import Rejected, Shoot, Throw
from engine.map.grid import distance
from tui import keys
from tui.app import XenotacApp
from tui.screens.battle import BattleScreen
from tui.screens.modes import TargetScreen, ThrowScreen
from tui.session import Session
from tui.testing import new_session
from tui.widgets.keybar import KeyBar
from tui.widgets.panels import StatusLine
from engine.rules.xcom_trpg.tables import xcom


def run(content, session: Session, steps):
    app = XenotacApp(content, session.path.parent, session=session, alien_delay=0)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return await steps(pilot, app)

    return asyncio.run(main())


def shootable(session: Session, shooter: str) -> list[str]:
    seen = session.chronicle.visible
    return [u.id for u in session.state.units.values() if u.side == "aliens" and u.status == "active"
            and seen[u.pos[1], u.pos[0]]
            and not isinstance(session.ruleset.preview_shot(session.state, shooter, u.id, "single"), Rejected)]


def test_targeting_returns_the_shot_and_submits_nothing_itself(content, contact):
    targets = shootable(contact, "julia")
    assert targets
    before = contact.state

    async def steps(pilot, app):
        got = []
        app.push_screen(TargetScreen(contact, "julia", targets, "single"), got.append)
        await pilot.pause()
        await pilot.press("tab", "enter")
        await pilot.pause()
        return got, type(app.screen)

    got, back = run(content, contact, steps)
    assert got == [Shoot(unit="julia", target=targets[1 % len(targets)], mode="single")]
    assert back is BattleScreen and contact.state is before  # the command came back; nobody gave it


@pytest.mark.parametrize("key", ["escape", "backspace"])
def test_esc_leaves_targeting_and_throwing_with_none(content, contact, key):
    targets = shootable(contact, "julia")
    julia = contact.state.units["julia"]

    async def steps(pilot, app):
        got = []
        app.push_screen(TargetScreen(contact, "julia", targets, "single"), got.append)
        await pilot.pause()
        await pilot.press(key)
        app.push_screen(ThrowScreen(contact, "julia", "hand_grenade", julia.pos), got.append)
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause()
        return got

    assert run(content, contact, steps) == [None, None]


def test_throwing_returns_the_throw_at_the_cursor(content, tmp_path):
    session = new_session(content, tmp_path)
    x, y = session.state.units["anton"].pos

    async def steps(pilot, app):
        got = []
        app.push_screen(ThrowScreen(session, "anton", "hand_grenade", (x, y)), got.append)
        await pilot.pause()
        await pilot.press("k", "k", "k", "t")
        await pilot.pause()
        return got

    assert run(content, session, steps) == [Throw(unit="anton", item="hand_grenade", cell=(x, y - 3), target=None)]
    assert session.state.units["anton"].items["hand_grenade"] == 1


def test_a_throw_the_engine_refuses_opens_the_throw_again_with_the_reason(content, tmp_path):
    session = new_session(content, tmp_path)
    anton = session.state.units["anton"]
    reach = session.ruleset.throw_range(session.state, anton, "hand_grenade")
    radius = xcom(content).rulesets["xcom-trpg"].vision_radius
    grid = session.state.grid
    hidden = next((x, y) for y in range(grid.height) for x in range(grid.width)
                  if distance(anton.pos, (x, y)) <= reach and not grid.sees(anton.pos, (x, y), radius))

    async def steps(pilot, app):
        await pilot.press("t")
        app.screen.cursor = hidden
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        return type(screen), screen.cursor, screen.query_one(StatusLine).message

    kind, cursor, message = run(content, session, steps)
    assert kind is ThrowScreen and cursor == hidden
    assert message == f"✗ Anton cannot see {hidden}"
    assert session.state.units["anton"].items["hand_grenade"] == 1


def footer_and_refusals_agree(app, pilot):
    """Every key of the screen on top: in the footer exactly when it works, and refused with that reason."""
    async def check():
        screen = app.screen
        shown = {words for _keys, words in screen.query_one(KeyBar).entries()}
        refused = 0
        for k in keys.BATTLE:
            if k.id not in keys.BATTLE_MODES[screen.keyset]:
                continue
            why = screen.availability(keys.action_of(k)[0])
            if k.show:
                assert (screen.footer_words(k.id, k.words) in shown) == (why is None), (k.id, why)
            if why is not None:
                await pilot.press(k.keys.split(",")[0])
                assert screen.query_one(StatusLine).message == f"✗ {why}", k.id
                refused += 1
        return refused

    return check()


def test_the_footer_and_the_refusal_give_the_same_reason(content, contact):
    async def steps(pilot, app):
        counts = [await footer_and_refusals_agree(app, pilot)]  # moving: nothing to undo, nothing to cancel
        await pilot.press("w")  # Anton waits: he can do nothing more this turn
        app.screen._select("anton")
        app.screen.update_view()
        counts.append(await footer_and_refusals_agree(app, pilot))
        app.screen._select("julia")
        await pilot.press("f")  # targeting: one fire mode; a target out of sight cannot be fired at
        counts.append(await footer_and_refusals_agree(app, pilot))
        await pilot.press("escape", "t")
        counts.append(await footer_and_refusals_agree(app, pilot))
        return counts, app.screen.query_one(StatusLine).message

    counts, _ = run(content, contact, steps)
    assert counts[0] >= 2 and counts[1] > counts[0] and counts[2] >= 1
