"""The campaign screen at 80×24 with a roster longer than the screen (issue 18): the roster scrolls with its
cursor (↑↓), a long note is shown whole under it, and the squad pick leaves a busy character (a course running)
out, says what ticking them breaks, and asks again before deploying them."""

from __future__ import annotations

import asyncio

import attrs
import pytest

from engine.campaign import decide as d
from engine.campaign.ledger import Ledger, folder_of
from engine.campaign.seam import Timer
from engine.campaign.state import Running
from engine.core.creation import Character
from engine.core.dice import Dice, Faces, seed_from_int
from tui.app import XenotacApp
from tui.screens.squadpick import about, busy_with
from tui.textshot import screen_text

RULESET = "xxxzone"
COURSE = ("Ash's course in Perception ends: Per 5 → 6 at the Firing Range, eighteen days of practice with an "
          "instructor who never smiles")


@pytest.fixture
def book(content, tmp_path):
    """A campaign of 14 operatives, Ash on a course (its timer running), a mission on offer."""
    first = Ledger.new(content, None, "first", RULESET, seed_from_int(5), 5, [])
    first.state = attrs.evolve(first.state, records=())
    records, _ = first._recruit(14, Dice(Faces(b"fourteen")))  # noqa: SLF001 - a long roster
    book = Ledger.new(content, folder_of(tmp_path, "big"), "big", RULESET, seed_from_int(5), 5,
                      [Character(RULESET, r) for r in records])
    while not book.state.offers:
        book.submit(d.Advance())
    course = Running(Timer(18, "train:Ash", COURSE, "Ash"), book.state.day + 18)
    ash = attrs.evolve(book.state.records[0], course="perception")
    book.state = attrs.evolve(book.state, timers=book.state.timers + (course,),
                              records=(ash,) + book.state.records[1:])
    yield book
    book.close()


def run_app(app, steps):
    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(50):
                if type(app.screen).__name__ == "CampaignScreen":
                    break
                await pilot.pause(0.05)
            await pilot.pause()
            return await steps(pilot)

    return asyncio.run(go())


def _lines(text: str) -> list[str]:
    return text.splitlines()


def test_a_long_roster_scrolls_with_its_cursor_and_shows_a_long_note_whole(content, tmp_path, book):
    app = XenotacApp(content, tmp_path, alien_delay=0, campaign=book)

    async def steps(pilot):
        seen = {"first": screen_text(app)}
        for _ in range(13):
            await pilot.press("down")
        await pilot.pause()
        seen["last"] = screen_text(app)
        await pilot.press("down")  # wraps to the first
        await pilot.pause()
        seen["again"] = screen_text(app)
        return seen

    seen = run_app(app, steps)
    first = _lines(seen["first"])
    assert len(first) <= 24 and all(len(line) <= 80 for line in first)
    heading = next(line for line in first if "Roster: 14 of 14 alive" in line)
    assert "1-" in heading and "of 14, ↑↓" in heading
    assert any(line.lstrip().startswith("▶Ash") for line in first) and "Nell" not in seen["first"]
    # Ash's row is cut at the edge (…), its note whole below, wrapped: nothing of it lost
    detail = " ".join(line.strip() for line in first if line.strip() and not line.lstrip().startswith(("▶", "Roster")))
    assert "instructor who never smiles" in detail
    # the row and the note under it name Ash once (issue 18: "Ash: Ash's course…")
    roster = first[first.index(heading):]
    assert "Ash: course in Perception ends" in detail and not any("Ash's course" in line for line in roster)
    last = seen["last"]
    assert "▶Nell" in last and "14 of 14, ↑↓" in last and "▶Ash" not in last
    assert "▶Ash" in seen["again"]


def test_the_squad_pick_leaves_a_busy_operative_out_and_asks_before_deploying_them(content, tmp_path, book):
    app = XenotacApp(content, tmp_path, alien_delay=0, campaign=book)
    assert "Ash" in busy_with(book.state)

    async def steps(pilot):
        await pilot.press("d")
        for _ in range(50):
            if type(app.screen).__name__ == "SquadPick":
                break
            await pilot.pause(0.05)
        pick = app.screen
        seen = {"chosen": set(pick.chosen), "pick": screen_text(app)}
        pick.chosen.discard(max(pick.chosen, key=[r.name for r in pick.people].index))  # room for Ash
        await pilot.press("space")  # the cursor is on Ash, the first
        await pilot.pause()
        seen["ticked"] = screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        seen["asked"] = screen_text(app)
        seen["still"] = type(app.screen).__name__
        await pilot.press("enter")
        for _ in range(50):
            if type(app.screen).__name__ == "BattleScreen":
                break
            await pilot.pause(0.05)
        seen["then"] = type(app.screen).__name__
        return seen

    seen = run_app(app, steps)
    assert "Ash" not in seen["chosen"] and "Bishop" in seen["chosen"]  # the busy one is not pre-ticked
    assert "[ ] Ash" in seen["pick"] and "[x] Bishop" in seen["pick"]
    assert "⚠ going breaks off Ash's course in Per, 18 days left" in seen["ticked"]  # Downtime.deploy_caveat
    assert "Ash: ⚠ going breaks off Ash's course in Per, 18 days left" in seen["ticked"]  # whole, under the rows
    asked = " ".join(line.split("┃")[1].strip() for line in seen["asked"].splitlines() if line.count("┃") == 2)
    assert "⚠ going breaks off Ash's course in Per, 18 days left: enter again to deploy" in asked
    assert seen["still"] == "SquadPick" and seen["then"] == "BattleScreen"
    assert "Ash" in book.state.flying.squad


def test_a_note_drops_the_name_its_row_already_shows():
    assert about("Anna", "Anna is convalescing: Health 7/19") == "convalescing: Health 7/19"
    assert about("Anna", "Anna's Minor Wound heals (day 40)") == "Minor Wound heals (day 40)"
    assert about("Anna", "Anna heals: Health 7/19") == "heals: Health 7/19"
    assert about("Anna", "Anna: Per 5 → 6") == "Per 5 → 6"
    assert about("Ann", "Anna is dead") == "Anna is dead"  # another's name, left whole
    assert about("Anna", "going breaks off Anna's course") == "going breaks off Anna's course"
