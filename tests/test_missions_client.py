"""Every mission type from the client: chosen on the New-mission screen at a difficulty, its
objectives on the battle screen, doors opened with a key, civilians never offered as targets."""

from __future__ import annotations


import pytest

from engine.content import missions
from engine.rules.xcom_trpg.record import soldier
from tui.app import XenotacApp
from tui.testing import new_session, run_app
from tui.textshot import screen_text



@pytest.mark.parametrize("mission, position, objective", [
    ("eliminate", 0, "· Kill or stun every hostile"),
    ("crash", 1, "· Shut down the power source"),
    ("defend", 2, "· Hold the farmyard to the end"),
    ("infiltrate", 3, "· Work the computer terminal"),
    ("terror", 4, "· Kill or stun every alien and"),
    ("vip", 5, "· Bring the envoy to the"),
])
def test_each_mission_starts_from_the_new_mission_screen(content, tmp_path, mission, position, objective):
    app = XenotacApp(content, tmp_path, alien_delay=0)

    async def steps(pilot):
        await pilot.press("n")
        await pilot.press("tab")  # the mission list, default first
        await pilot.press(*(["up"] * 6))
        await pilot.press(*(["down"] * position))
        form = screen_text(app)
        await pilot.press("tab", "tab", "tab", "down")  # seed, start button, difficulty: one harder
        app.screen.query_one("#seed").value = "7"
        app.screen._start()  # noqa: SLF001 - the button's own action
        await pilot.pause()
        return form, type(app.screen).__name__, screen_text(app)

    form, screen, battle = run_app(app, steps)
    name = content.missions[mission].name
    first = next(iter(missions.objectives(content.missions[mission]).values())).text
    assert f" · {first[:20]}" in form
    assert screen == "BattleScreen"
    assert f"{name} (Veteran) · Phase 1/" in battle
    assert objective in battle
    assert [p.name for p in tmp_path.glob("*.jsonl")] == [f"{mission}-veteran-seed7.jsonl"]


def soldier_by_a_door(content, tmp_path):
    """A defend mission (the squad deploys in the farmhouse) where a soldier stands next to a door."""
    for seed in range(1, 40):
        session = new_session(content, tmp_path, seed=seed, mission="defend", name=f"d{seed}.jsonl")
        setup = session.ruleset.setup
        for unit in session.squad():
            doors = [(a, c) for a, c in missions.uses(content, setup.mission, setup.spawns, session.state, unit)
                     if a == "open"]
            if doors:
                return session, unit.id, doors[0][1]
        session.close()
    raise AssertionError("no soldier next to a door in forty seeds")


def test_o_opens_the_door_next_to_the_soldier(content, tmp_path):
    session, uid, door = soldier_by_a_door(content, tmp_path)

    async def steps(pilot):
        screen = app.screen
        while screen.selected != uid:
            await pilot.press("tab")
        screen.cursor = door
        await pilot.press("o")
        await pilot.pause()
        return screen_text(app)

    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)
    run_app(app, steps)
    assert session.state.grid.tile(door) == "door_open"
    assert soldier(session.state.units[uid]).actions == 1


def test_o_says_why_it_does_nothing(content, tmp_path):
    session = new_session(content, tmp_path, seed=1)  # eliminate: the squad lands in the open

    async def steps(pilot):
        await pilot.press("o")
        await pilot.pause()
        return screen_text(app)

    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)
    assert "✗ Nothing next to Anton to open, close or work on" in run_app(app, steps)


def test_civilians_are_not_offered_as_targets(content, tmp_path):
    for seed in range(1, 60):
        session = new_session(content, tmp_path, seed=seed, mission="terror", name=f"t{seed}.jsonl")
        seen = session.chronicle.visible
        shown = [u for u in session.state.units.values() if u.side != "xcom" and seen[u.pos[1], u.pos[0]]]
        if shown and all(u.side == "civilians" for u in shown):
            break
        session.close()
    else:
        pytest.skip("no seed with only civilians in sight")

    async def steps(pilot):
        await pilot.press("f")
        await pilot.pause()
        return screen_text(app), app.screen.mode

    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)
    text, mode = run_app(app, steps)
    assert mode == "move" and "✗ No hostile in sight" in text
