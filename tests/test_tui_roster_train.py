"""The roster screen's `t`: an annihilation character's skill slots spent through `Creation.train`, as
`xenotac roster train` spends them, typed in the status line, refusals shown there; driven by keys through Pilot
at 80×24, and typed ahead in one go (a `d` in the line deletes no one)."""

from __future__ import annotations

import asyncio

import attrs

from engine.core.dice import Dice
from engine.play import roster
from tui.app import XenotacApp
from tui.screens.roster import RosterScreen
from tui.textshot import screen_text

EDU_50 = [1] * 7 * 12 + [10, 10, 10, 4, 3, 2, 1] + [1] * 7  # TV-A3: Edu 50 → 12 slots


def kurt(content) -> roster.Character:
    rules = roster.creation(content, "annihilation")
    draft = attrs.evolve(rules.draft().set("medic", 2).set("rifles", 3).set("fusion", 1), name="Kurt")
    return roster.create(content, "annihilation", draft, Dice.scripted(EDU_50))[0]  # 4 slots spent, 8 left


def test_t_trains_the_highlighted_character_and_shows_a_refusal(content, tmp_path):
    path = tmp_path / roster.FILE
    roster.save(path, [kurt(content)])
    app = XenotacApp(content, tmp_path)

    async def steps(pilot):
        app.push_screen(RosterScreen())
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        asked = screen_text(app)
        await pilot.press(*"medic=5,pistols=6", "enter")
        await pilot.pause()
        trained = screen_text(app), roster.load(path, content)[0]
        await pilot.press("t", *"fusion=3", "enter")
        await pilot.pause()
        refused = screen_text(app), roster.load(path, content)[0]
        await pilot.press("t", "escape")
        await pilot.pause()
        return asked, trained, refused, screen_text(app), type(app.screen).__name__

    asked, (shown, after), (no, same), cancelled, screen = asyncio.run(_run(app, steps))
    assert "Train Kurt, skill=level,...: ▏ · ⏎ trains, esc cancels" in asked and "slots 8/12" in asked
    assert (after.record.skills["medic"], after.record.skills["pistols"]) == (90, 95)  # Expert, Master
    assert "Kurt trained:" in shown and "slots 1/12" in shown
    assert "✗ Kurt: that costs 2 slots; 1 of 12 are left (Edu 50)" in no and same == after
    assert "Kurt is not trained" in cancelled and screen == "RosterScreen"


def test_keys_typed_ahead_in_one_go_land_in_the_line(content, tmp_path):
    path = tmp_path / roster.FILE
    roster.save(path, [kurt(content)])
    app = XenotacApp(content, tmp_path)

    async def steps(pilot):
        app.push_screen(RosterScreen())
        await pilot.pause()
        for key in ["t", *"medic=5", "enter"]:  # no pause between: as one packet from a terminal
            app.screen.post_message(_key(key))
        await pilot.pause()
        await pilot.pause()
        return screen_text(app), type(app.screen).__name__

    shown, screen = asyncio.run(_run(app, steps))
    assert screen == "RosterScreen" and "Kurt trained:" in shown
    assert roster.load(path, content)[0].record.skills["medic"] == 90


def _key(key: str):
    from textual import events

    return events.Key(key, key if len(key) == 1 else None)


def test_a_ruleset_with_nothing_to_train_says_so(content, tmp_path):
    path = tmp_path / roster.FILE
    draft = attrs.evolve(roster.creation(content, "xcom-trpg").draft(), name="Anna", numbers=dict(
        strength=7, agility=4, intelligence=6, bravery=6, charisma=4, luck=6, psionics=3))
    anna = roster.create(content, "xcom-trpg", draft, Dice.scripted([4]))[0]
    roster.save(path, [anna])
    app = XenotacApp(content, tmp_path)

    async def steps(pilot):
        app.push_screen(RosterScreen())
        await pilot.pause()
        await pilot.press("t", *"str=8", "enter")
        await pilot.pause()
        return screen_text(app)

    shown = asyncio.run(_run(app, steps))
    assert "✗" in shown and "nothing to train" in shown
    assert roster.load(path, content)[0] == anna


def test_help_names_the_train_key(content, tmp_path):
    app = XenotacApp(content, tmp_path)

    async def steps(pilot):
        app.push_screen(RosterScreen())
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        return screen_text(app)

    shown = asyncio.run(_run(app, steps))
    assert "t trains the highlighted one" in shown and "train skills" in shown


async def _run(app, steps):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        return await steps(pilot)
