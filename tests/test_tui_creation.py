"""The Squad screen and character creation in the client, driven by keys through Textual's Pilot at 80×24."""

from __future__ import annotations


from engine.play import roster
from engine.core.creation import Draft
from engine.core.dice import seed_from_int
from engine.rules.xcom_trpg import creation as xc
from tui.app import XenotacApp
from tui.screens.creation import Creation
from tui.screens.roster import RosterScreen
from tui.textshot import screen_text
from tui.testing import run_app

ANTON = dict(strength=7, agility=4, intelligence=6, bravery=6, charisma=4, luck=6, psionics=3)
ORDER = list(ANTON)



async def allocate(pilot, stats: dict[str, int], start: dict[str, int]) -> None:
    """From the name field: ↓ past the ruleset row (xcom-trpg, the first) and the race row, then → on each stat
    up to its value."""
    await pilot.press("down", "down")  # the ruleset row, the race row
    for name in ORDER:
        await pilot.press("down", *["right"] * (stats[name] - start[name]))


MINIMUM = dict(strength=1, agility=1, intelligence=1, bravery=1, charisma=1, luck=1, psionics=0)


def test_squad_from_the_title_creates_a_character_with_keys_only(content, tmp_path):
    app = XenotacApp(content, tmp_path)

    async def steps(pilot):
        await pilot.press("s")
        empty = screen_text(app)
        await pilot.press("n")
        await pilot.press(*"Anna")
        await allocate(pilot, ANTON, MINIMUM)
        sheet = screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        return empty, sheet, screen_text(app), type(app.screen).__name__

    empty, sheet, listing, screen = run_app(app, steps)
    assert "No characters yet" in empty and "n:new character" in empty
    assert "0 left to spend" in sheet and "Psionics" in sheet and "locked until initiation" in sheet
    assert "HP 61–70, rolled once on save with final strength 7" in sheet
    assert "⚠ agility 4: a soldier usually has 6+ (a guideline)" in sheet  # a warning, and it still saves
    assert "⏎:save" in sheet and "?/f1:help" in sheet
    [made] = roster.load(tmp_path / "roster.toml", content)
    anna = made.record
    assert made.ruleset == "xcom-trpg" and (anna.name, anna.race, anna.stats) == ("Anna", "human", ANTON)
    assert 61 <= anna.hp <= 70 and anna.hp_roll == f"hp (7-1)*10+{anna.hp - 60}={anna.hp}"
    assert screen == "RosterScreen" and f"Anna joins the roster: {anna.hp_roll}" in listing
    assert "Anna" in listing and "S7 A4 I6 B6 C4 L6 P3  HP" in listing


def test_hp_is_rolled_with_the_seed_given(content, tmp_path):
    seed = seed_from_int(9)
    app = XenotacApp(content, tmp_path)

    async def steps(pilot):
        app.push_screen(RosterScreen(seed=seed))
        await pilot.pause()
        await pilot.press("n", *"Julia")
        await allocate(pilot, dict(strength=5, agility=10, intelligence=6, bravery=5, charisma=7, luck=2,
                                   psionics=1), MINIMUM)
        await pilot.press("enter")
        await pilot.pause()

    run_app(app, steps)
    expected, _rolls = roster.create(content, "xcom-trpg", Draft(name="Julia", picks={"race": "human"}, numbers=dict(
        strength=5, agility=10, intelligence=6, bravery=5, charisma=7, luck=2, psionics=1)), roster.dice_for(seed))
    assert roster.load(tmp_path / "roster.toml", content) == [expected]


def anna(content, name):
    return roster.create(content, "xcom-trpg", Draft(name=name, picks={"race": "human"}, numbers=ANTON),
                         roster.dice_for(b"x"))[0]


def open_creation(app, pilot):
    app.push_screen(Creation(seed_from_int(1)))
    return pilot.pause()


def test_a_refused_choice_says_why_in_one_line(content, tmp_path):
    app = XenotacApp(content, tmp_path)

    async def steps(pilot):
        await open_creation(app, pilot)
        await pilot.press("down", "down", "l")  # the race row (after the ruleset's): human → the next race, a sectoid
        await pilot.press("j", *["l"] * 5)  # Strength 1 → 5, then a sixth: refused
        refused = screen_text(app)
        await pilot.press("up", "plus")  # the race after the sectoid, an ethereal, has at most 3
        lowered = screen_text(app)
        await pilot.press("minus", "minus")  # back to a human
        for _ in range(3):
            await pilot.press("down")
        await pilot.press(*["right"] * 10)  # Intelligence 1 → 10, its cap
        await pilot.press("down", *["right"] * 20)  # Bravery 1 → 10; the rest refused
        capped = screen_text(app)
        await pilot.press("down", *["right"] * 20)  # Charisma 1 → 10
        await pilot.press("down", *["right"] * 20)  # Luck takes the last point
        full = screen_text(app)
        await pilot.press("minus")
        return refused, lowered, capped, full, screen_text(app)

    refused, lowered, capped, full, after = run_app(app, steps)
    assert "Ethereal: lowered to its caps: strength 3" in lowered
    assert "✗ Bravery 11: a human has at most 10" in capped
    assert "✗ Strength 6: a sectoid has at most 5" in refused and "[1–5]" in refused
    assert "Sectoid" in refused
    assert "✗ No points left: a human has 36" in full and "0 left to spend" in full
    assert "1 left to spend" in after


def test_a_muton_shows_its_final_strength_and_a_berserker_its_42_points(content, tmp_path):
    app = XenotacApp(content, tmp_path)
    races = xc.playable_races(content)

    async def steps(pilot):
        await open_creation(app, pilot)
        await pilot.press("down", "down", *["right"] * races.index("muton"))
        muton = screen_text(app)
        await pilot.press(*["right"] * (races.index("muton_berserker") - races.index("muton")))
        return muton, screen_text(app)

    muton, berserker = run_app(app, steps)
    assert "final 6 (+5 muton)" in muton and "Muton (36 points)" in muton and "[1–7]" in muton
    assert "Muton berserker (epic, 42 points) · 27 left to spend" in berserker
    assert "placed automatically" in berserker and "[10–10]" in berserker


def test_saving_needs_a_name_and_every_point_spent(content, tmp_path):
    app = XenotacApp(content, tmp_path)

    async def steps(pilot):
        await open_creation(app, pilot)
        await pilot.press("enter")
        no_name = screen_text(app)
        await pilot.press(*"Ed", "enter")
        return no_name, screen_text(app), type(app.screen).__name__

    no_name, unspent, screen = run_app(app, steps)
    assert "✗ Give the character a name first" in no_name
    assert "✗ 30 of 36 points still to spend" in unspent and screen == "Creation"
    assert not (tmp_path / "roster.toml").exists()


def test_delete_asks_first(content, tmp_path):
    path = tmp_path / "roster.toml"
    roster.save(path, [anna(content, n) for n in ("Anna", "Bob")])
    app = XenotacApp(content, tmp_path)

    async def steps(pilot):
        app.push_screen(RosterScreen())
        await pilot.pause()
        await pilot.press("d")
        question = screen_text(app)
        await pilot.press("n")
        kept = [c.name for c in roster.load(path, content)]
        await pilot.press("d", "y")
        await pilot.pause()
        return question, kept, screen_text(app)

    question, kept, after = run_app(app, steps)
    assert "Delete Anna from the roster?" in question and kept == ["Anna", "Bob"]
    assert [c.name for c in roster.load(path, content)] == ["Bob"] and "Anna left the roster" in after


def test_a_corrupt_roster_is_shown_and_left_alone(content, tmp_path):
    path = tmp_path / "roster.toml"
    path.write_text("[[character]]\nname = 5\n", encoding="utf-8")
    app = XenotacApp(content, tmp_path)

    async def steps(pilot):
        app.push_screen(RosterScreen())
        await pilot.pause()
        shown = screen_text(app)
        await pilot.press("n")
        return shown, type(app.screen).__name__

    shown, screen = run_app(app, steps)
    assert "✗" in shown and "character[0].name: expected string" in shown
    assert "new character" not in shown and screen == "RosterScreen"
    assert path.read_text(encoding="utf-8") == "[[character]]\nname = 5\n"


def test_help_lists_the_creation_keys(content, tmp_path):
    app = XenotacApp(content, tmp_path)

    async def steps(pilot):
        await open_creation(app, pilot)
        await pilot.press("down", "down", "question_mark")
        return screen_text(app)

    text = run_app(app, steps)
    assert "HELP — creation" in text and "←/h/minus" in text and "save" in text


def test_the_new_mission_form_shows_the_roster_squad(content, tmp_path):
    roster.save(tmp_path / "roster.toml", [anna(content, "Anna")])
    app = XenotacApp(content, tmp_path)

    async def steps(pilot):
        await pilot.press("n")
        return screen_text(app)

    text = run_app(app, steps)
    assert "Squad (1 from the roster):" in text and "1 Anna (shotgun)" in text and "2 Julia (rifle)" in text
    assert "Your roster changes the squad" in text


def test_the_ruleset_row_makes_a_character_of_another_ruleset(content, tmp_path):
    """The rows come from the ruleset's Form: xxxzone has nothing to set, neo-troops a varan type and a weapon."""
    app = XenotacApp(content, tmp_path)

    async def steps(pilot):
        app.push_screen(RosterScreen(seed=seed_from_int(1)))
        await pilot.pause()
        await pilot.press("n", *"Rex", "down", "left")  # the ruleset row: X-COM TRPG → the last one, XXXzone
        xxx = screen_text(app)
        await pilot.press("left")  # Neo-Troops
        await pilot.press("down", "down", "right")  # the held weapon: the pistol
        neo = screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        return xxx, neo, screen_text(app)

    xxx, neo, listing = run_app(app, steps)
    assert "New character — Operative (section 14.1: every attribute rolled)" in xxx and "Strength" not in xxx
    assert "◂ XXXzone ▸   4 of 4" in xxx and "each 1d4+1 (2–5)" in xxx
    assert "Held weapon       ◂ Pistol ▸   2 of 2" in neo and "AV 5 · HP 3" in neo
    [rex] = roster.load(tmp_path / "roster.toml", content)
    assert (rex.ruleset, rex.record.type, rex.record.held) == ("neo-troops", "varan", "pistol")
    assert "Rex joins the roster: a Cybervaran" in listing
    assert f"{'Rex':<16} {'Cybervaran':<15} AV 5 HP 3 Pistol" in listing
