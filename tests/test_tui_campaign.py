"""The client's campaign: the title menu's entry, the campaign screen, the squad pick, a battle and its debrief."""

from __future__ import annotations


from engine.campaign import decide as d
from engine.campaign.ledger import Ledger, folder_of
from engine.core.dice import seed_from_int
from engine.play.simulate import play_out
from tui.app import XenotacApp
from tui.screens.campaigns import entries
from tui.textshot import screen_text
from tui.testing import run_app



async def until(pilot, app, name: str, text: str = "") -> str:
    """Pause until the screen `name` is up and, given `text`, drawn with it: a loaded machine may take many
    refreshes (a pushed screen is current before its first paint), so wait long, and say which never came.
    Returns the text that matched: a second read may catch the compositor mid-refresh, without the modal."""
    for _ in range(600):
        if type(app.screen).__name__ == name and text in (drawn := screen_text(app)):
            return drawn
        await pilot.pause(0.05)
    raise AssertionError(f"{name} showing {text!r} never came up; the screen is {type(app.screen).__name__}")


def test_a_campaign_from_the_title_menu_advances_deploys_fights_and_debriefs(content, tmp_path):
    app = XenotacApp(content, tmp_path, alien_delay=0)

    async def steps(pilot):
        seen = {"title": screen_text(app)}
        await pilot.press("c")
        picks = [value for _label, value in entries(app)]
        for _ in range(picks.index(("new", "xcom-trpg"))):
            await pilot.press("down")
        await pilot.press("enter")
        seen["campaign"] = await until(pilot, app, "CampaignScreen", "CAMPAIGN")
        book = app.screen.book
        while not book.state.offers:
            await pilot.press("space")
        seen["offer"] = await until(pilot, app, "CampaignScreen", "until day")  # the last advance, drawn
        await pilot.press("d")
        seen["pick"] = await until(pilot, app, "SquadPick", "Squad for")
        seen["places"] = book.rules.places(book.state.offers[0].mission)  # the seed is secret: any mission
        await pilot.press("enter")
        await until(pilot, app, "BattleScreen")
        seen["battle"] = type(app.screen).__name__
        session = app.screen.session
        play_out(session.game)
        session.catch_up()
        app.screen._finish()
        seen["debrief"] = await until(pilot, app, "DebriefScreen", "DEBRIEF")
        await pilot.press("enter")
        await until(pilot, app, "CampaignScreen")
        seen["after"] = type(app.screen).__name__
        await pilot.press("L")
        seen["log"] = await until(pilot, app, "DebriefScreen", "CAMPAIGN LOG")
        return seen, book

    seen, book = run_app(app, steps)
    assert "Campaign" in seen["title"]
    assert "CAMPAIGN xcom-trpg-1 · X-COM TRPG · day 0" in seen["campaign"]
    assert "Roster: 8 of 8 alive" in seen["campaign"]
    assert "Missions on offer" in seen["offer"] and "until day" in seen["offer"]
    assert 3 <= seen["places"] < 7  # every mission takes a squad of 3 to 6: the 7th of the 8 stays home
    assert f"Squad for m1: up to {seen['places']}" in seen["pick"] and "[x] Ash" in seen["pick"]
    assert "[ ] Gale" in seen["pick"]
    assert seen["battle"] == "BattleScreen"
    assert "DEBRIEF" in seen["debrief"] and ("mission won" in seen["debrief"] or "mission lost" in seen["debrief"])
    assert seen["after"] == "CampaignScreen" and len(book.state.flown) == 1
    assert book.state.flown[0].hash  # the debrief record holds the mission log's final hash
    assert "CAMPAIGN LOG" in seen["log"] and "debrief:" in seen["log"]  # the log's last lines: the debrief's


def test_the_campaign_screen_debriefs_a_mission_that_ended_before_its_debrief(content, tmp_path):
    folder = folder_of(tmp_path, "left")
    book = Ledger.new(content, folder, "left", "xcom-trpg", seed_from_int(5), 5, [])
    while not book.state.offers:
        book.submit(d.Advance())
    book.submit(d.Deploy(book.state.offers[0].id, tuple(r.name for r in book.state.records)[:6]))
    game = book.mission()
    play_out(game)
    game.close()
    book.close()
    again = Ledger.open(content, folder)
    app = XenotacApp(content, tmp_path, alien_delay=0, campaign=again)

    async def steps(pilot):
        await until(pilot, app, "DebriefScreen")
        return type(app.screen).__name__, screen_text(app)

    screen, text = run_app(app, steps)
    assert screen == "DebriefScreen" and ("mission won" in text or "mission lost" in text)
    assert again.state.flying is None and len(again.state.flown) == 1
