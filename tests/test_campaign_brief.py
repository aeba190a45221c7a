"""Issue 18: a campaign told in brief (engine/campaign/story.py) and at 80×24. A soldier's many wounds are one line
with their kinds, counts and days on the debrief screen and in the campaign's log (`L`), every note and roll a key
(`r`, or `campaign advance --rolls`) away; the calendar always shows the offer's deadline and the next offer."""

from __future__ import annotations


import attrs

from engine.campaign import decide as d
from engine.campaign.ledger import Ledger, folder_of
from engine.campaign.seam import Outcome, Timer
from engine.campaign.state import Applied, Running
from engine.campaign.story import told
from engine.core.dice import seed_from_int
from tui.app import XenotacApp
from tui.screens.campaign import DebriefScreen
from tui.textshot import screen_text
from tui.testing import run_app

KINDS = [("Minor Wound", "1d6", 6), ("Minor Wound", "1d6", 2), ("Severe Wound", "4d8", 14), ("Minor Wound", "1d6", 4)]


def _debrief() -> Applied:
    """xxxzone's debrief as its downtime writes it: a note and a timer per wound."""
    notes = [f"Trevor: {kind} heals in {expr}: {days}={days} days" for kind, expr, days in KINDS]
    notes += ["Vadin: Minor Wound (ignored by Toughness) heals in 1 day", "Salvage: 2 of 8 enemy items, 2F"]
    timers = [Timer(days, f"heal:Trevor:{i}", f"Trevor's {kind} heals", "Trevor")
              for i, (kind, _, days) in enumerate(KINDS)]
    timers.append(Timer(1, "heal:Vadin:1", "Vadin's Minor Wound heals", "Vadin"))
    return Applied("debrief", Outcome(records=(), notes=tuple(notes), timers=tuple(timers), funding=2))


def test_a_soldiers_wounds_are_one_line_in_brief_and_every_one_whole():
    brief = told([_debrief()], whole=False)
    assert brief == ["debrief: Trevor: 4 to heal: Minor Wound ×3 (2–6 days), Severe Wound (14 days); all done in 14 "
                     "days",
                     "debrief: Vadin: Minor Wound (ignored by Toughness) heals in 1 day",  # one: its note alone
                     "debrief: Salvage: 2 of 8 enemy items, 2F", "funding +2"]
    whole = told([_debrief()])
    assert "debrief: Trevor: Severe Wound heals in 4d8: 14=14 days" in whole
    assert "Trevor's Minor Wound heals (in 2 days)" in whole and len(whole) == 12  # 6 notes, funding, 5 timers


def test_salvage_is_one_line_in_brief_and_a_roll_an_item_whole():
    """xxxzone's salvage rolls a d100 for every enemy item, a note each: in brief one line, the items counted by
    verdict; every roll on `r` (the whole telling)."""
    rolled = [("Muton", "Laser Rifle", 34, "≤", "salvaged"), ("Muton 2", "Laser Rifle", 12, "≤", "salvaged"),
              ("Muton 2", "Frag Grenade", 88, ">", "lost"), ("Sectoid", "Laser Rifle", 3, "≤", "salvaged"),
              ("Sectoid", "Pistol", 41, "≤", "salvaged")]
    notes = [f"Salvage: {who}'s {item}: d100 {face} {sign} 50: {end}" for who, item, face, sign, end in rolled]
    notes[-1] = notes[-1].replace("50: ", "70 (Loot Drops: Kim): ").replace("41 ≤ 50", "41 ≤ 70")
    notes += ["Salvage: 4 of 5 enemy items, 4 × 1F = 4F", "Kim: Minor Wound heals in 1 day"]
    event = Applied("debrief", Outcome(records=(), notes=tuple(notes), funding=4))
    assert told([event], whole=False) == [
        "debrief: Salvage: 3 × Laser Rifle, Pistol salvaged; Frag Grenade lost",
        "debrief: Salvage: 4 of 5 enemy items, 4 × 1F = 4F", "debrief: Kim: Minor Wound heals in 1 day", "funding +4"]
    whole = told([event])
    assert whole[:5] == [f"debrief: {n}" for n in notes[:5]] and len(whole) == 8
    lone = Applied("debrief", Outcome(records=(), notes=(notes[0],)))  # one item: its note as it is
    assert told([lone], whole=False) == [f"debrief: {notes[0]}"]


def test_the_same_healing_told_again_is_counted_once_in_brief():
    healed = [Applied(f"due:heal:Trevor:{i}", Outcome(records=(), notes=("Trevor's Minor Wound has healed",)))
              for i in range(3)]
    assert told(healed, whole=False) == ["due: Trevor's Minor Wound has healed (×3)"]
    assert told(healed)[0] == "due: heal:Trevor:0: Trevor's Minor Wound has healed" and len(told(healed)) == 3



def test_the_debrief_screen_shows_the_brief_and_r_every_roll(content, tmp_path):
    app = XenotacApp(content, tmp_path, alien_delay=0)

    async def steps(pilot):
        app.push_screen(DebriefScreen(told([_debrief()], whole=False), whole=told([_debrief()])))
        await pilot.pause()
        seen = [screen_text(app)]
        await pilot.press("r")
        await pilot.pause()
        seen.append(screen_text(app))
        await pilot.press("r")
        await pilot.pause()
        seen.append(screen_text(app))
        return seen

    brief, whole, again = run_app(app, steps)
    for text in (brief, whole):
        assert len(text.splitlines()) <= 24 and all(len(line) <= 80 for line in text.splitlines())
    assert "DEBRIEF · in brief (r: every roll)" in brief and "Minor Wound ×3 (2–6 days)" in brief
    assert brief.splitlines()[-1].startswith("r:every roll ")  # the key bar says what `r` shows next
    assert whole.splitlines()[-1].startswith("r:brief ") and "every roll" not in whole.splitlines()[-1]
    assert "4d8: 14=14 days" not in brief
    assert "every note and roll (r: in brief)" in whole and "4d8: 14=14 days" in whole and "×3" not in whole
    assert again == brief


def test_the_calendar_at_80x24_shows_the_offer_and_the_next_one_behind_many_wounds(content, tmp_path):
    book = Ledger.new(content, folder_of(tmp_path, "busy"), "busy", "xxxzone", seed_from_int(5), 5, [])
    while not book.state.offers:
        book.submit(d.Advance())
    s = book.state
    offer = s.offers[0]
    who = s.records[0].name
    wounds = tuple(Running(Timer(1, f"heal:{who}:{i}", f"{who}'s wound {i} heals", who), s.day + 1 + i)
                   for i in range(8))  # eight lines due before the offer's deadline
    book.state = attrs.evolve(s, timers=s.timers + wounds)
    app = XenotacApp(content, tmp_path, alien_delay=0, campaign=book)

    async def steps(pilot):
        for _ in range(50):
            if type(app.screen).__name__ == "CampaignScreen":
                break
            await pilot.pause(0.05)
        await pilot.pause()
        return screen_text(app)

    try:
        text = run_app(app, steps)
    finally:
        book.close()
    lines = text.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    assert f"day {offer.deadline:<4} offer {offer.id} ({offer.mission}) expires" in text
    assert f"day {book.state.next_offer:<4} a mission will be offered" in text
    assert f"until day {offer.deadline}" in text and f"{who}'s wound 0 heals" in text


def test_campaign_advance_tells_in_brief_and_every_roll_with_rolls(tmp_path, capsys):
    from tui.cli import main

    saves = ["--saves", str(tmp_path)]
    for name in ("one", "two"):  # the same seed: the same first day
        assert main(saves + ["campaign", "new", "--seed", "4", "--name", name]) == 0
    capsys.readouterr()
    assert main(saves + ["campaign", "advance", "one"]) == 0
    brief = capsys.readouterr().out
    assert "mission m1 offered" in brief and "  campaign: " not in brief
    assert main(saves + ["campaign", "advance", "two", "--rolls"]) == 0
    whole = capsys.readouterr().out
    assert whole.startswith(brief.splitlines()[0]) and "  campaign: mission offered 1d6" in whole  # its dice
