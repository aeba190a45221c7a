"""Funding is shown where a ruleset's campaign keeps it (xcom-trpg's bonuses, xxxzone's F) and nowhere else:
annihilation and neo-troops have none, so no header, list or calendar says "funding 0"."""

from __future__ import annotations

import pytest

from engine.campaign.ledger import Ledger, folder_of
from engine.core.dice import seed_from_int
from tui.app import XenotacApp
from tui.cli import main
from tui.screens.campaign import CampaignScreen
from tui.textshot import screen_text
from tui.testing import run_app

FUNDED = {"xcom-trpg": True, "xxxzone": True, "annihilation": False, "neo-troops": False}


@pytest.mark.parametrize("ruleset", sorted(FUNDED))
def test_the_campaign_screen_and_list_show_funding_only_where_the_ruleset_keeps_it(content, tmp_path, ruleset,
                                                                                  capsys, monkeypatch):
    book = Ledger.new(content, folder_of(tmp_path, "c"), "c", ruleset, seed_from_int(5), 5, [])
    assert book.downtime.funded is FUNDED[ruleset]
    app = XenotacApp(content, tmp_path, alien_delay=0)

    async def steps(pilot):
        app.push_screen(CampaignScreen(book))
        for _ in range(600):
            if type(app.screen).__name__ == "CampaignScreen" and "CAMPAIGN c" in screen_text(app):
                return screen_text(app)
            await pilot.pause(0.05)
        raise AssertionError("the campaign screen never came up")

    drawn = run_app(app, steps)
    book.close()
    head = next(line for line in drawn.splitlines() if "CAMPAIGN c" in line)
    assert ("· funding " in head) is FUNDED[ruleset], head
    assert ("first of the month: funding" in drawn) is FUNDED[ruleset]
    monkeypatch.chdir(tmp_path)
    assert main(["--saves", str(tmp_path), "campaign", "list"]) == 0
    listed = capsys.readouterr().out
    assert ("funding" in listed) is FUNDED[ruleset], listed
