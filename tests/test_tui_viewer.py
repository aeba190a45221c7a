"""The replay viewer: every key path through Textual's Pilot at 80×24, with fixed seeds, and its fog."""

from __future__ import annotations

import asyncio
import random
import shutil
import signal
from pathlib import Path

import numpy as np
import pytest
from textual import events

from engine.log import writer as log
from engine.core.commands import EndTurn, Move
from engine.play.simulate import play_out
from engine.play.timeline import Timeline
from tui import keys, launch
from tui.app import XenotacApp
from tui.chronicle import Chronicle
from tui.cli import build_parser, main
from tui.fog import Fog
from tui.replay import rolls_of
from tui.ptyterm import Terminal, env_for_terminal, xenotac
from tui.screens.dispute import Dispute
from tui.screens.viewer import Viewer
from tui.testing import new_session
from tui.textshot import screen_text


@pytest.fixture(scope="module")
def logs(content, tmp_path_factory) -> Path:
    """A save folder: done.jsonl, played out by the AI on both sides, then open.jsonl, unfinished,
    with a move undone in its first turn."""
    folder = tmp_path_factory.mktemp("viewer") / "saves"
    folder.mkdir()
    done = new_session(content, folder, seed=2, name="done.jsonl")
    play_out(done.game, ("xcom", "aliens"))
    done.close()
    live = new_session(content, folder, seed=1, name="open.jsonl")
    anton = live.state.units["anton"].pos
    live.submit(Move(unit="anton", path=((anton[0], anton[1] - 1),)))
    assert live.undo() is None
    live.submit(Move(unit="anton", path=((anton[0] + 1, anton[1]),)))
    live.submit(EndTurn(side="xcom"))
    while not live.players_turn:
        live.ai_step()
    live.close()
    return folder


@pytest.fixture
def saves(logs, tmp_path, monkeypatch) -> Path:
    """A copy of the logs, with the working folder above them: paths on screen are short and fixed."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(logs, "saves")
    return Path("saves")


def run(app, steps, size=(80, 24)):
    async def go():
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            return await steps(pilot)

    return asyncio.run(go())


def viewer_on(content, path: Path, seed_file: Path | None = None) -> XenotacApp:
    return XenotacApp(content, path.parent, replay=Timeline(content, path, seed_file))


def top(app) -> str:
    return screen_text(app).splitlines()[0]


# -- opening ---------------------------------------------------------------------------------------


def test_the_replays_menu_views_any_log_with_v_and_enter_still_resumes_or_summarises(content, saves):
    app = XenotacApp(content, saves, alien_delay=0)

    async def steps(pilot):
        await pilot.press("p")
        listing = screen_text(app)
        await pilot.press("v")  # the newest: open.jsonl, unfinished
        opened = [type(app.screen).__name__, top(app)]
        await pilot.press("escape")  # back to the list
        back = type(app.screen).__name__
        await pilot.press("down", "v")  # done.jsonl, finished
        opened += [type(app.screen).__name__, screen_text(app)]
        await pilot.press("escape", "enter")
        summary = type(app.screen).__name__
        return listing, opened, back, summary

    listing, opened, back, summary = run(app, steps)
    assert "v views the replay" in listing and "v:view replay" in listing
    assert opened[:2] == ["Viewer", opened[1]] and opened[1].startswith("Record 2/")
    assert back == "Replays"
    assert opened[2] == "Viewer" and "done.jsonl" in opened[3]
    assert summary == "Summary"


def test_enter_on_an_unfinished_log_still_resumes_it(content, saves):
    app = XenotacApp(content, saves, alien_delay=0)

    async def steps(pilot):
        await pilot.press("p", "enter")
        return type(app.screen).__name__

    assert run(app, steps) == "BattleScreen"


def test_replay_path_opens_the_viewer_and_esc_leaves(content, saves):
    path = saves / "done.jsonl"
    app = launch.viewer_app(build_parser().parse_args(["replay", str(path)]), content, path)
    exits = []

    async def steps(pilot):
        app.exit = lambda *args, **kw: exits.append(args)  # noqa: the program would end here
        text = screen_text(app)
        await pilot.press("escape")
        return text

    text = run(app, steps)
    assert text.startswith("Record 2/") and "X-COM's fog" in text and "done.jsonl" in text
    assert exits == [()]  # the viewer was the only screen: esc ends the program


@pytest.mark.parametrize("data", [b"garbage\n", b'{"a": 1}\n', b""], ids=["text", "not_a_log", "empty"])
def test_replay_of_a_bad_log_is_one_line_and_exit_2_before_the_client_starts(data, tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(data)
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("xenotac: ")


def test_story_and_verify_do_not_mix(saves, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["replay", str(saves / "done.jsonl"), "--story", "--verify"])
    assert exc.value.code == 2 and "not allowed with" in capsys.readouterr().err


# -- stepping ------------------------------------------------------------------------------------------


def test_step_by_record_forward_and_back_and_refused_at_the_first(content, saves):
    app = viewer_on(content, saves / "done.jsonl")

    async def steps(pilot):
        screen = app.screen
        stops = screen.replay.stops
        seen = [screen.n]
        await pilot.press("right")
        seen.append(screen.n)
        await pilot.press("l")
        seen.append(screen.n)
        await pilot.press("h", "left")
        seen.append(screen.n)
        first_top = top(app)
        await pilot.press("left")  # already at the first
        refused = screen_text(app)
        await pilot.press("end")
        last = screen.n
        await pilot.press("home")
        return stops, seen, first_top, refused, last, screen.n

    stops, seen, first_top, refused, last, home = run(app, steps)
    assert seen == [stops[0], stops[1], stops[2], stops[0]]
    assert first_top.startswith(f"Record {stops[0]}/")
    assert "✗ This is the first record of the log" in refused
    assert "record-" not in refused.splitlines()[-2] + refused.splitlines()[-1]  # not offered in the footer
    assert (last, home) == (stops[-1], stops[0])


def test_step_by_turn_and_by_dice(content, saves):
    app = viewer_on(content, saves / "done.jsonl")

    async def steps(pilot):
        screen = app.screen
        turns = [t.n for t in screen.replay.turns]
        await pilot.press("pagedown")
        second = (screen.n, top(app))
        await pilot.press("n", "right", "p")  # the start of this turn
        again = screen.n
        await pilot.press("pageup")
        first = screen.n
        await pilot.press("right_square_bracket")
        dice = screen.n
        await pilot.press("left_square_bracket")
        return turns, second, again, first, dice, screen.n, screen.replay.dice

    turns, second, again, first, dice, back, with_dice = run(app, steps)
    assert second[0] == turns[1] and f"turn 2/{len(turns)}" in second[1]
    assert again == turns[2] and first == turns[1]
    assert dice == min(n for n in with_dice if n > turns[1]) and back == max(n for n in with_dice if n < dice)


def test_jump_to_turn_n_or_to_a_record(content, saves):
    app = viewer_on(content, saves / "done.jsonl")

    async def steps(pilot):
        screen = app.screen
        await pilot.press("g")
        prompt = screen_text(app)
        await pilot.press("7", "enter")
        turn7 = (screen.n, top(app))
        await pilot.press("g", *"#40", "enter")
        record40 = screen.n
        await pilot.press("g", *"999", "enter")
        too_far = (screen.n, screen_text(app))
        await pilot.press("g", "5", "escape")  # cancelled: nothing moves
        cancelled = screen.n
        await pilot.press("g", "1", "2", "backspace", "enter")  # typed ahead, corrected: turn 1
        return prompt, turn7, record40, too_far, cancelled, screen.n, screen.replay

    prompt, turn7, record40, too_far, after_cancel, corrected, replay = run(app, steps)
    assert f"Go to turn (1-{len(replay.turns)}) or #record: ▏" in prompt
    assert turn7[0] == replay.turns[6].n and f"turn 7/{len(replay.turns)}" in turn7[1]
    assert record40 == replay.stop_at_or_before(40)
    assert too_far[0] == record40 and "✗ There is no turn 999" in too_far[1]
    assert after_cancel == record40 and corrected == replay.turns[0].n


# -- views and fog ---------------------------------------------------------------------------------


def test_views_squad_aliens_and_full_once_the_mission_has_ended(content, saves):
    app = viewer_on(content, saves / "done.jsonl")

    async def steps(pilot):
        seen = []
        for key in ("a", "f", "s"):
            await pilot.press(key)
            seen.append(top(app).rsplit(" · ", 1)[1])
        return seen

    assert run(app, steps) == ["Aliens' fog", "full map", "X-COM's fog"]


def test_the_full_and_aliens_views_are_refused_before_the_end_and_say_why(content, saves):
    app = viewer_on(content, saves / "open.jsonl")

    async def steps(pilot):
        footer = "\n".join(screen_text(app).splitlines()[-2:])
        await pilot.press("f")
        full = screen_text(app), app.screen.view
        await pilot.press("a")
        return footer, full, (screen_text(app), app.screen.view)

    footer, (full, view), (aliens, still) = run(app, steps)
    assert "f:full" not in footer and "a:aliens" not in footer and "s:squad" in footer
    assert "✗ The full map opens when the mission ends: until then, each side's fog only" in full and view == "xcom"
    assert "✗ The aliens' view opens when the mission ends" in aliens and still == "xcom"


def test_fog_matches_the_battle_chronicle_along_the_log(content, saves):
    """The viewer's memory of each side is what the live client's chronicle had, record by record,
    whether it comes from the background pass or from a cold jump."""
    path = saves / "done.jsonl"
    timeline = Timeline(content, path)
    warm, cold = Fog(timeline), Fog(timeline)
    warm.fill()
    checks = set(timeline.commands[::37] + [timeline.final])
    for side in timeline.initial.sides:
        chronicle = Chronicle(timeline.ruleset, timeline.initial, side)
        for n, record in timeline.records.items():
            if n == 1:
                continue
            chronicle.feed(record)
            if n in checks:
                for fog in (warm, cold):
                    sight = fog.at(n, side)
                    assert np.array_equal(sight.explored, chronicle.explored), (side, n)
                    assert np.array_equal(sight.visible, chronicle.visible), (side, n)
                    assert sight.last_seen == chronicle.last_seen, (side, n)


def test_a_far_jump_during_the_fog_pass_shows_current_sight_and_says_so(content, saves):
    app = viewer_on(content, saves / "done.jsonl")

    async def steps(pilot):
        screen = app.screen
        screen.fog, screen.filling = Fog(screen.timeline), True  # as if the background pass had just begun
        assert not screen.fog.near(screen.timeline.final)
        await pilot.press("end")
        during = top(app)
        screen.fog.fill()
        screen.filling = False
        screen.update_view()
        return during, top(app), screen.fog.near(screen.timeline.final)

    during, after, near = run(app, steps)
    assert during.endswith("X-COM's fog (memory loading)") and after.endswith("X-COM's fog") and near


def test_undone_records_are_shown_and_marked(content, saves):
    app = viewer_on(content, saves / "open.jsonl")

    async def steps(pilot):
        await pilot.press("right")  # the move that was undone
        undone = screen_text(app)
        await pilot.press("right")  # the undo itself
        undo = screen_text(app)
        await pilot.press("right")  # the move that stayed
        return undone, undo, screen_text(app)

    undone, undo, kept = run(app, steps)
    assert "(undone)" in undone.splitlines()[0] and "UNDONE" in undone and "Anton: move to" in undone
    assert "↶ undo, back to record 2" in undo and "(undone)" not in undo.splitlines()[0]
    assert "(undone)" not in kept.splitlines()[0] and "Anton: move to" in kept


# -- rolls -------------------------------------------------------------------------------------------


def first_shot(replay) -> int:
    """The first shot with three dice or more."""
    return next(n for n in replay.dice if replay.record(n)["command"]["kind"] == "shoot"
                and len(rolls_of(replay.record(n))) >= 3)


def test_tab_selects_a_roll_and_enter_shows_its_derivation(content, saves):
    app = viewer_on(content, saves / "done.jsonl")

    async def steps(pilot):
        screen = app.screen
        shot = first_shot(screen.replay)
        while screen.n != shot:
            await pilot.press("right_square_bracket")
        await pilot.press("tab")
        picked = screen.roll
        await pilot.press("enter")
        panel = [isinstance(app.screen, Dispute), screen_text(app)]
        await pilot.press("tab")
        panel.append(screen_text(app))
        await pilot.press("escape")
        return shot, picked, panel, screen.roll, isinstance(app.screen, Viewer)

    shot, picked, (is_panel, first, second), after, back = run(app, steps)
    assert picked == 1 and is_panel and back and after == 2  # the viewer follows the panel's roll
    assert f"Record {shot}, roll 2 of" in first and f"Record {shot}, roll 3 of" in second
    for text in (first, second):
        assert "Seed commitment (header):" in text and "(revealed on line" in text
        assert "HMAC-SHA256(seed, \"main:" in text and "mod 100 + 1 =" in text
        assert "from: " in text and ".toml [" in text and "Outcome: " in text


def test_the_roll_panel_of_an_unfinished_log_uses_only_a_given_seed_file(content, saves):
    bare = viewer_on(content, saves / "open.jsonl")

    async def press_enter(pilot):
        await pilot.press("enter")
        return bare.screen.lines()

    told = next(line for line in run(bare, press_enter) if line.startswith("Seed: "))
    assert told.startswith("Seed: not revealed until the mission ends (give --seed-file")
    app = viewer_on(content, saves / "open.jsonl", saves / "open.jsonl.seed")

    async def steps(pilot):
        await pilot.press("enter")  # the start record: hit points
        return app.screen.lines(), screen_text(app)

    lines, text = run(app, steps)
    seed = next(line for line in lines if line.startswith("Seed: "))
    assert "open.jsonl.seed" in seed and seed.endswith("sha256(seed) = commitment ✓")
    assert "HMAC-SHA256(seed" in text and "from: " in text


def test_why_without_dice_is_refused_with_a_reason(content, saves):
    app = viewer_on(content, saves / "open.jsonl")

    async def steps(pilot):
        await pilot.press("right", "enter")
        return screen_text(app), type(app.screen).__name__

    text, screen = run(app, steps)
    assert screen == "Viewer" and "✗ No dice were rolled in record 3" in text


def test_help_lists_the_viewer_keys(content, saves):
    app = viewer_on(content, saves / "done.jsonl")

    async def steps(pilot):
        await pilot.press("question_mark")
        return screen_text(app)

    text = run(app, steps)
    for words in ("record+", "turn-", "go to", "squad", "aliens", "full", "roll", "why", "next dice"):
        assert words in text


def test_viewer_bindings_come_from_the_key_table():
    assert {b.id for b in Viewer.BINDINGS} == {k.id for k in keys.VIEWER}
    assert {b.id for b in Dispute.BINDINGS} == {k.id for k in keys.DISPUTE}


def test_the_roll_panel_at_80x24(snap_compare, content, saves):
    timeline = Timeline(content, saves / "done.jsonl")
    shot = first_shot(Viewer(timeline).replay)

    async def to_the_shot(pilot):
        pilot.app.screen.go(shot)
        await pilot.press("tab", "enter")

    assert snap_compare(XenotacApp(content, saves, replay=timeline), run_before=to_the_shot, terminal_size=(80, 24))


def test_a_torn_log_opens_up_to_the_tear_with_a_note(content, saves):
    path = saves / "open.jsonl"
    with open(path, "ab") as f:
        f.write(b'{"n": 999, "kind": "comm')  # the machine died mid-write
    app = viewer_on(content, path)

    async def steps(pilot):
        opened = screen_text(app)
        await pilot.press("end")
        return opened, screen_text(app), app.screen.n, app.screen.replay.last

    opened, text, n, last = run(app, steps)
    tear = last + 1
    assert "✗ The log is damaged" in opened and f"DAMAGED: line {tear}: torn" in text and n == last


def test_a_line_changed_after_it_was_written_is_not_shown(content, saves):
    path = saves / "done.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    shot = next(i for i, line in enumerate(lines) if b'"kind":"shoot"' in line)
    lines[shot] = lines[shot].replace(b'"faces":[', b'"faces":[1,', 1)  # an extra die slipped into a shot
    path.write_bytes(b"".join(lines))
    app = viewer_on(content, path)

    async def steps(pilot):
        await pilot.press("end", "pagedown", "right", "right_square_bracket")  # nothing goes past it
        return app.screen.query_one("#viewer-record").plain(), app.screen.n

    panel, n = run(app, steps)
    assert f"DAMAGED: line {shot + 1}: changed after it was written" in " ".join(panel.split())
    assert n < shot + 1


def test_random_keys_at_the_viewer(content, saves):
    """Keys in bursts, as typed ahead over a slow link: nothing raises, and the screens stay the viewer's."""
    app = viewer_on(content, saves / "done.jsonl")
    rng = random.Random(20251201)
    bound = {name for k in keys.VIEWER + keys.DISPUTE for name in k.keys.split(",") if name != "q"}
    pool = sorted(bound) * 3 + list("0123456789#xz") + ["space", "f1", "ctrl+a"]

    async def steps(pilot):
        for _ in range(150):
            for key in rng.sample(pool, 4):
                event = events.Key(key, key if len(key) == 1 else None)
                event.set_sender(app)
                app._driver.send_message(event)  # noqa: SLF001 - what Pilot.press does, minus its waits
            await pilot.pause()
        return type(app.screen).__name__

    assert run(app, steps) in ("Viewer", "Dispute", "Help")


# -- a real terminal ---------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs a POSIX pseudo-terminal")
def test_replay_path_in_a_pseudo_terminal_without_colour(saves):
    term = Terminal(xenotac("replay", str((saves / "done.jsonl").resolve())), env=env_for_terminal({"NO_COLOR": "1"}))
    try:
        assert term.wait_for("Record 2/", "X-COM's fog", "q:quit"), term.text()
        term.send("]")
        term.send("\t")
        assert term.wait_for("Roll 2 of"), term.text()
        term.send("q")
        assert term.wait(10) == 0
    finally:
        term.kill()
    assert log.is_finished(saves / "done.jsonl")


def test_the_check_line_of_a_public_seed_needs_no_seed_file(content, tmp_path, monkeypatch):
    """A public seed (`--seed N`) is made from its number by anyone: the panel's own command needs no --seed-file."""
    from engine.core.dice import seed_from_int
    from tui.session import Session

    monkeypatch.chdir(tmp_path)
    path = Path("public.jsonl")
    live = Session.new(content, "xcom-trpg", "eliminate", seed_from_int(3), path, public=3)
    live.submit(EndTurn(side="xcom"))
    live.close()
    app = viewer_on(content, path)

    async def steps(pilot):
        await pilot.press("enter")  # the start record's rolls
        return app.screen.lines()

    check = next(line for line in run(app, steps) if line.startswith("Check it yourself: "))
    assert check == "Check it yourself: xenotac audit public.jsonl --record 2 --explain"  # the start record


def test_the_viewers_squad_view_keeps_tiles_changed_out_of_sight_as_seen(content):
    """In the squad's view a tile changed out of sight (smoke thinning, a door) keeps its last seen look: each such
    cell is explored, out of sight, and holds the tile the squad saw there, never one it could not see."""
    from tui.fog import Fog

    timeline = Timeline(content, Path(__file__).parent / "golden" / "logs" / "terror.jsonl")
    fog = Fog(timeline)
    fog.fill()
    found = 0
    for n in timeline.branch(timeline.final):
        sight = fog.at(n, "xcom")
        state = timeline.state_at(n)
        for (x, y), tile in sight.remembered.items():
            assert sight.explored[y, x] and not sight.visible[y, x]
            assert tile in content.terrain
            found += tile != state.grid.tile((x, y))
    assert found  # the log has smoke drifting out of the squad's sight
