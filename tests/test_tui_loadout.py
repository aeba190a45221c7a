"""The loadout screen before a new mission (tui/screens/loadout.py), driven by keys through Pilot at 80×24: Light
Flying Armor chosen for a roster soldier is in the mission's header, a refusal is shown, Esc starts nothing and a
ruleset without a loadout goes straight to the battle."""

from __future__ import annotations

import asyncio

import attrs

from engine.core.dice import Dice
from engine.core.ruleset import make
from engine.play import roster
from tui.app import XenotacApp
from tui.textshot import screen_text

ID = "annihilation"


def kurt(content) -> roster.Character:
    draft = attrs.evolve(roster.creation(content, ID).draft(), name="Kurt")
    faces = [f for i in range(14) for f in [(i % 10) + 1] + [1] * 6]
    return roster.create(content, ID, draft, Dice.scripted(faces))[0]


async def _run(app, steps):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        return await steps(pilot)


def _downs_to(content, record, pick: str, option: str) -> int:
    """How many rows down the option lies from the first in the pick's options."""
    picks = make(ID, content, None).loadout().picks("crash", 0, record)
    options = next(p.options for p in picks if p.id == pick)
    return [k for k, _label in options].index(option)


def test_light_flying_armor_chosen_on_the_screen_is_in_the_missions_header(content, tmp_path):
    k = kurt(content)
    roster.save(tmp_path / roster.FILE, [k])
    app = XenotacApp(content, tmp_path, alien_delay=0)
    downs = _downs_to(content, k.record, "armour", "light_flying_armor")

    async def steps(pilot):
        assert app.start_mission(ID, "crash", 7) is None
        await pilot.pause()
        first = screen_text(app), type(app.screen).__name__
        await pilot.press("right", "right")
        for _ in range(downs - app.screen.cursor[2]):
            await pilot.press("down")
        await pilot.press("space")
        await pilot.pause()
        chosen = screen_text(app)
        await pilot.press("question_mark")
        await pilot.pause()
        helped = screen_text(app)
        await pilot.press("escape")
        await pilot.press("enter")
        await pilot.pause()
        return first, chosen, helped, type(app.screen).__name__, app.sessions[-1].game.header

    (first, screen), chosen, helped, now, header = asyncio.run(_run(app, steps))
    assert screen == "Loadout" and "Kurt" in first and "Armour: Light Body Armor" in first
    assert "Armour: Light Flying Armor" in chosen and "ENC 2: TU 17 → 15 a turn" in chosen
    assert "HELP — loadout" in helped and "start mission" in helped and "back, unchanged" in helped
    assert now == "BattleScreen"
    assert header["mission"]["squad"][0]["outfit"]["armour"] == "light_flying_armor"
    kept = roster.load(tmp_path / roster.FILE, content)  # the last kit is where the next loadout starts
    assert kept[0].record.outfit.armour == "light_flying_armor"


def test_a_refusal_is_shown_and_esc_starts_nothing(content, tmp_path):
    roster.save(tmp_path / roster.FILE, [kurt(content)])
    app = XenotacApp(content, tmp_path, alien_delay=0)

    async def steps(pilot):
        app.start_mission(ID, "crash", 7)
        await pilot.pause()
        lines = [p.id for p in app.screen._picks()]  # noqa: SLF001 - where the smoke grenade line is
        await pilot.press("right", *["down"] * lines.index("smoke_grenade"), "minus")
        await pilot.pause()
        refused = screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        return refused, type(app.screen).__name__, list(app.sessions)

    refused, screen, sessions = asyncio.run(_run(app, steps))
    assert "✗ No Smoke Grenade to take off" in refused
    assert screen != "Loadout" and sessions == []


def test_a_ruleset_without_a_loadout_goes_straight_to_battle_with_its_roster_soldier(content, tmp_path):
    from tests.test_tui_creation import anna

    roster.save(tmp_path / roster.FILE, [anna(content, "Anna")])
    app = XenotacApp(content, tmp_path, alien_delay=0)
    assert make("xcom-trpg", content, None).loadout() is None

    async def steps(pilot):
        app.start_mission("xcom-trpg", "crash", 7)
        await pilot.pause()
        return type(app.screen).__name__, app.sessions[-1].game.header["mission"]["squad"][0]["name"]

    assert asyncio.run(_run(app, steps)) == ("BattleScreen", "Anna")


def test_play_from_the_command_line_outfits_first_and_esc_starts_no_mission(content, tmp_path):
    from engine.core.dice import seed_from_int
    from tui.session import Session

    made = []

    def start(chars):
        made.append(Session.new(content, ID, "crash", seed_from_int(7), tmp_path / "crash.jsonl", squad=chars))
        return made[-1]

    loadout = (make(ID, content, None).loadout(), "crash", [kurt(content)], start)
    app = XenotacApp(content, tmp_path, alien_delay=0, loadout=loadout)

    async def steps(pilot):
        first = type(app.screen).__name__
        await pilot.press("right", "down", "down", "down", "plus", "enter")  # one more spare clip
        await pilot.pause()
        return first, type(app.screen).__name__

    assert asyncio.run(_run(app, steps)) == ("Loadout", "BattleScreen")
    assert made[0].game.header["mission"]["squad"][0]["outfit"]["clips"] == 2 + 1
    gone = XenotacApp(content, tmp_path, alien_delay=0, loadout=loadout)

    async def leave(pilot):
        await pilot.press("escape")
        await pilot.pause()
        return gone.return_value

    assert asyncio.run(_run(gone, leave)) == "No mission started: the loadout was left with esc" and len(made) == 1
