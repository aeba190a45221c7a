"""The title menu, the new-mission form, the replays list and the command-line entry points."""

from __future__ import annotations

import re

from engine.core.dice import commitment, seed_from_int
from engine.log import writer as log
from engine.play.simulate import play_out
from tui.app import XenotacApp
from tui.cli import main
from tui.testing import new_session, run_app
from tui.textshot import screen_text



def test_title_menu_new_mission_with_an_edited_seed_starts_a_battle(content, tmp_path):
    app = XenotacApp(content, tmp_path, alien_delay=0)

    async def steps(pilot):
        title = screen_text(app)
        await pilot.press("n")
        form = screen_text(app)
        await pilot.press("tab", "tab")  # ruleset list → mission list → seed
        app.screen.query_one("#seed").value = ""
        await pilot.press(*"42", "enter")
        await pilot.pause()
        return title, form, type(app.screen).__name__, screen_text(app)

    title, form, screen, battle = run_app(app, steps)
    for choice in ("New mission", "Resume", "Replays", "Help", "Quit"):
        assert choice in title
    assert "X-COM TRPG" in form and "Eliminate" in form and "Anton" in form and "Seed" in form
    assert screen == "BattleScreen" and "public seed 42: anyone could foresee" in battle  # the client says so
    assert [p.name for p in log.list_logs(tmp_path)] == ["eliminate-seed42.jsonl"]  # a public seed, named
    assert log.read_header(tmp_path / "eliminate-seed42.jsonl")["seed_public"] == 42


def test_a_mission_started_from_the_menu_keeps_its_seed_secret(content, tmp_path):
    """The seed field starts empty: 32 random bytes, and a log whose name says nothing about them."""
    app = XenotacApp(content, tmp_path, alien_delay=0)

    async def steps(pilot):
        await pilot.press("n")
        assert app.screen.query_one("#seed").value == ""
        await pilot.press("tab", "tab", "enter")  # ruleset list → mission list → seed; ⏎ starts
        await pilot.pause()
        return type(app.screen).__name__

    assert run_app(app, steps) == "BattleScreen"
    [path] = log.list_logs(tmp_path)
    assert re.fullmatch(r"eliminate-\d{8}-\d{6}(-\d+)?\.jsonl", path.name)
    header = log.read_header(path)
    seed = log.read_seed(log.seed_path(path))
    assert header["seed_public"] is False and len(seed) == 32 and commitment(seed) == header["seed_commitment"]
    assert not any(seed_from_int(n) == seed for n in range(1000))


def test_resume_from_the_title_without_saves_says_so(content, tmp_path):
    app = XenotacApp(content, tmp_path)

    async def steps(pilot):
        await pilot.press("r")
        return screen_text(app)

    assert "No unfinished mission in" in run_app(app, steps)


def test_replays_list_logs_and_open_summary_or_battle(content, tmp_path):
    done = new_session(content, tmp_path, seed=2, name="done.jsonl")
    play_out(done.game, ("xcom", "aliens"))
    done.close()
    open_ = new_session(content, tmp_path, seed=1, name="open.jsonl")
    open_.close()
    app = XenotacApp(content, tmp_path, alien_delay=0)

    async def steps(pilot):
        await pilot.press("p")
        listing = screen_text(app)
        await pilot.press("enter")  # the newest first: open.jsonl, unfinished
        first = type(app.screen).__name__
        await pilot.press("q")
        return listing, first

    listing, first = run_app(app, steps)
    assert "UNFINISHED" in listing and "finished" in listing and "done.jsonl" in listing
    assert first == "BattleScreen"


def test_play_rejects_an_unknown_ruleset_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XENOTAC_SAVES", str(tmp_path))
    assert main(["play", "--ruleset", "ufo"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown ruleset 'ufo'" in err


def test_resume_without_an_unfinished_mission_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XENOTAC_SAVES", str(tmp_path))
    assert main(["resume"]) == 2
    assert "no unfinished mission in" in capsys.readouterr().err


def test_resume_of_a_finished_log_points_to_audit(content, tmp_path, capsys):
    done = new_session(content, tmp_path, seed=2)
    play_out(done.game, ("xcom", "aliens"))
    done.close()
    assert main(["resume", str(done.path)]) == 2
    assert "xenotac audit" in capsys.readouterr().err


def test_the_summary_goes_back_to_the_title_menu(content, tmp_path):
    done = new_session(content, tmp_path, seed=2, name="done.jsonl")
    play_out(done.game, ("xcom", "aliens"))
    done.close()
    app = XenotacApp(content, tmp_path)

    async def steps(pilot):
        await pilot.press("p", "enter")
        summary = type(app.screen).__name__
        await pilot.press("enter")
        return summary, type(app.screen).__name__, len(app.screen_stack)

    assert run_app(app, steps) == ("Summary", "Title", 2)


def test_a_menu_after_a_command_line_mission_offers_every_ruleset(content):
    """`play` reads its own ruleset's tables alone (a sooner first frame); the menu its summary opens reads them all."""
    from engine.content import loader
    from engine.play import catalog

    one = loader.load(None, ["xcom-trpg"])
    assert one.rulesets == ("xcom-trpg",) and catalog.rulesets(one) == ["xcom-trpg"]
    assert one.sha_for("xcom-trpg") == content.sha_for("xcom-trpg")  # the same bundle, for its logs
    app = XenotacApp(one, None, whole=lambda: content)
    assert app.content is one
    app.to_menu()
    assert app.content is content and len(catalog.rulesets(app.content)) == 4
