"""The battle screen at 80×24 (issue 15): nothing cut, the map the room it can use, enemies easy to find, every
action a line in words, and keys whose hints and refusals tell the truth. Textual Pilot with fixed seeds."""

from __future__ import annotations

import asyncio
from pathlib import Path

import attrs
import numpy as np
import pytest

from engine.core.commands import Move, Wait
from engine.core.ruleset import Throwable
from engine.log.story import verdict
from tui import keys, scene, told
from tui.app import XenotacApp
from tui.screens.dialogs import Confirm
from tui.screens.modes import LookScreen, TargetScreen, ThrowScreen
from tui.screens.picker import Picker
from tui.session import Session
from tui.testing import advance_to_contact, hostiles_in_sight, new_session
from tui.textshot import screen_text
from tui.widgets.mapview import MapView
from tui.widgets.panels import StatusLine
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier


def play(content, session: Session, steps, size=(80, 24), keymap=None):
    app = XenotacApp(content, session.path.parent, keymap=keymap, session=session, alien_delay=0)

    async def main():
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            return await steps(pilot, app)

    return asyncio.run(main())


# -- the screen at 80×24 -------------------------------------------------------------------------------


@pytest.mark.parametrize("mission, counter", [("terror", "alive, 4 needed"), ("defend", "phase 1/8")])
def test_the_objectives_and_their_counters_are_whole_at_80x24(content, tmp_path, mission, counter):
    session = new_session(content, tmp_path, seed=5, mission=mission)

    async def steps(pilot, app):
        return screen_text(app), app.screen.query_one(MapView).size

    text, view = play(content, session, steps)
    assert counter in text
    if mission == "defend":  # and how it is lost
        assert "outnumbered" in text
    assert view.width >= session.state.grid.width  # the whole width of the map, the panels beside it


def test_a_long_status_line_wraps_instead_of_being_cut(content, tmp_path):
    session = new_session(content, tmp_path)
    long = "A message long enough to need a second row at eighty columns, " * 2 + "and its END"

    async def steps(pilot, app):
        app.screen.say(long)
        await pilot.pause()
        return screen_text(app)

    text = play(content, session, steps)
    assert "END" in text


def test_a_bigger_terminal_shows_the_whole_map_and_wider_panels(content, tmp_path):
    session = new_session(content, tmp_path, mission="terror")

    async def steps(pilot, app):
        return app.screen.query_one(MapView).size, app.screen.query_one("#side").size.width

    (small, side_small), (big, side_big) = play(content, session, steps), play(content, session, steps, (200, 60))
    grid = session.state.grid
    assert small.height < grid.height <= big.height and big.width >= grid.width
    assert side_big > side_small


def test_the_new_mission_form_shows_every_mission_and_the_whole_squad(content, tmp_path):
    app = XenotacApp(content, tmp_path, alien_delay=0)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            return screen_text(app)

    text = asyncio.run(main())
    for mission in content.missions.values():
        assert mission.name in text
    for template in content.missions["eliminate"].squad:
        assert xcom(content).units[template].name in text
    assert "same seed with the same squad" in text


# -- enemies easy to find ----------------------------------------------------------------------------


def test_the_in_sight_bar_lists_the_hostiles_and_s_centres_on_each(content, contact):
    seen = sorted(hostiles_in_sight(contact), key=lambda u: (u.pos[1], u.pos[0], u.id))

    async def steps(pilot, app):
        text = screen_text(app)
        cells = []
        for _ in seen:
            await pilot.press("s")
            cells.append(app.screen.cursor)
        return text, cells

    text, cells = play(content, contact, steps)
    assert "In sight (s):" in text and all(u.glyph in text.split("In sight (s):")[1][:40] for u in seen)
    assert sorted(cells) == sorted(u.pos for u in seen)


def test_stacked_units_and_the_unconscious_are_told_apart_without_colour(content, tmp_path):
    session = new_session(content, tmp_path)
    state = session.state
    anton, julia = state.units["anton"], state.units["julia"]
    units = dict(state.units, julia=attrs.evolve(julia, pos=anton.pos),
                 stephen=attrs.evolve(state.units["stephen"], status="unconscious"))
    state = attrs.evolve(state, units=units)
    every = np.ones((state.grid.height, state.grid.width), dtype=bool)
    frame = scene.draw(scene.Palette(content), state, "xcom", every, every, {}, scene.Overlay())
    x, y = anton.pos
    assert frame.attrs[y, x] & scene.ITALIC
    sx, sy = units["stephen"].pos
    assert chr(frame.console.ch[sy, sx]) == scene.DOWN_GLYPH != units["stephen"].glyph
    lone = state.units["laura"].pos
    assert not frame.attrs[lone[1], lone[0]] & scene.ITALIC


# -- reading what happened ---------------------------------------------------------------------------


def test_repeats_merge_and_smoke_merges_wherever_it_thins():
    repeat = told.Repeat()
    lines = ["Smoke thins at 3,4", "Smoke thins over 3 cells round 5,5", "Smoke thins at 9,9"]
    merged = [repeat.merge(line, told.drift_key(line)) for line in lines]
    assert merged == [None, "Smoke thins ×2", "Smoke thins ×3"]
    assert repeat.merge("Anton waits") is None and repeat.merge("Anton waits") == "Anton waits ×2"
    assert told.drift_key("Door at 3,4 opens") is None


def test_after_the_alien_turn_one_line_per_alien_seen_acting():
    deeds = {"sectoid_2": ["Sectoid 2 moves to 3,4", "Sectoid 2 moves to 4,4", "Sectoid 2 → Anton: HIT, 9 dmg"],
             "muton_1": ["Muton 1 moves to 8,8"]}
    lines = told.turn_lines(deeds, {"sectoid_2": "Sectoid 2", "muton_1": "Muton 1"})
    assert lines == ["Sectoid 2: moves to 4,4; → Anton: HIT, 9 dmg", "Muton 1: moves to 8,8"]


def test_the_alien_turn_ends_with_its_summary_and_marks(content, tmp_path):
    session = new_session(content, tmp_path, seed=3)
    assert advance_to_contact(session)
    chron = session.chronicle
    heading = [i for i, line in enumerate(chron.messages) if line.startswith("While you waited")]
    assert heading and chron.acted
    count = int(chron.messages[heading[-1]].split(": ")[1].split()[0])
    assert count == len(chron.acted)
    for uid in chron.acted:
        assert any(line.startswith(f"{chron.names[uid]}: ") for line in chron.messages[heading[-1]:])


def test_every_player_action_leaves_a_line_in_words(content, tmp_path):
    session = new_session(content, tmp_path)
    session.submit(Wait(unit="anton"))
    assert session.chronicle.messages[-1] == "Anton waits"
    assert told.plain_names("roster_anna_k takes cover", {"roster_anna_k": "Anna K"}) == "Anna K takes cover"


def test_the_verdict_has_its_grammar_and_a_draw_says_so():
    assert verdict("aliens", "the squad is down").startswith("Aliens win")
    assert verdict("xcom", "all hostiles eliminated").startswith("X-COM wins")
    assert verdict("draw", "phase limit 40 reached") == "a draw, nobody wins — phase limit 40 reached"


# -- keys that do what they say ----------------------------------------------------------------------


def test_tab_skips_soldiers_with_nothing_left_and_the_squad_list_selects_any(content, tmp_path):
    session = new_session(content, tmp_path)
    session.submit(Wait(unit="julia"))

    async def steps(pilot, app):
        picked = []
        for _ in range(len(session.squad())):
            await pilot.press("tab")
            picked.append(app.screen.selected)
        await pilot.press("S")
        listed = screen_text(app)
        shown = isinstance(app.screen, Picker)
        ids = [u.id for u in session.squad()]
        await pilot.press(*["down"] * ((ids.index("julia") - ids.index(picked[-1])) % len(ids)), "enter")
        return picked, listed, shown, app.screen.selected

    picked, listed, shown, chosen = play(content, session, steps)
    assert "julia" not in picked and len(set(picked)) == len(session.squad()) - 1
    assert shown and "Julia" in listed and "done" in listed and "ready" in listed
    assert chosen == "julia"  # the spent one is still there to look at


def test_the_throw_preview_never_calls_an_unseen_cell_in_range_and_shows_its_odds(content, tmp_path):
    session = new_session(content, tmp_path)
    anton = session.state.units["anton"]
    grid, rules = session.state.grid, xcom(content).rulesets["xcom-trpg"]
    reach = session.ruleset.throw_range(session.state, anton, "hand_grenade")
    hidden = next((x, y) for y in range(grid.height) for x in range(grid.width)
                  if max(abs(x - anton.pos[0]), abs(y - anton.pos[1])) <= reach
                  and not grid.sees(anton.pos, (x, y), rules.vision_radius))

    async def steps(pilot, app):
        await pilot.press("t")
        own = screen_text(app)
        app.screen.cursor = hidden
        app.screen.update_view()
        await pilot.pause()
        return own, screen_text(app)

    own, unseen = play(content, session, steps)
    assert "Lands" in own and "Astray" in own and "Anton 17 dmg" in own.replace(":", "")
    assert "cannot see" in unseen and "in range" not in unseen and "Lands" not in unseen


def test_a_throw_that_would_hit_the_squad_asks_first(content, tmp_path):
    session = new_session(content, tmp_path)

    async def steps(pilot, app):
        await pilot.press("t", "enter")  # the cursor starts on the thrower: no hostile in reach
        asked = isinstance(app.screen, Confirm) and "Really throw at your own feet?" in screen_text(app)
        await pilot.press("n")
        return asked, type(app.screen)

    asked, after = play(content, session, steps)
    assert asked and after is ThrowScreen
    assert session.state.units["anton"].items.get("hand_grenade") == 1  # nothing thrown


def test_hints_follow_a_remapped_key_and_a_clash_is_named(content, contact):
    keymap = {"fire": "F", "next_target": "n", "prev_target": "N", "yes": "Y", "help": "H"}

    async def steps(pilot, app):
        start = app.screen.query_one(StatusLine).message
        await pilot.press("x")
        look = app.screen.query_one(StatusLine).message
        await pilot.press("escape", "e")
        asked = screen_text(app)
        await pilot.press("escape", "z")
        return start, look, asked, app.screen.query_one(StatusLine).message

    start, look, asked, refused = play(content, contact, steps, keymap=keymap)
    assert "F to fire" in start and "H for help" in start and "n: next hostile" in look
    assert "Y  yes" in asked and "press H for the keys" in refused
    with pytest.raises(keys.KeyMapError, match="'t' is bound to both fire and throw"):
        keys.parse('[keys]\nfire = "t"\n')


def test_a_shot_the_unit_cannot_take_says_why_at_once(content, contact):
    sniper = next(u for u in contact.ready() if "sniper" in xcom(content).weapons[soldier(u).weapon].modes)
    step = next(c for c in contact.state.grid.path(sniper.pos, (sniper.pos[0], sniper.pos[1] + 1), [])[:1])
    contact.submit(Move(unit=sniper.id, path=(step,)))
    targets = [u.id for u in hostiles_in_sight(contact)]
    assert targets

    async def steps(pilot, app):
        app.push_screen(TargetScreen(contact, sniper.id, targets, "sniper"))
        await pilot.pause()
        return app.screen.query_one(StatusLine).message

    assert play(content, contact, steps).startswith("✗ Sniper shot needs 2 actions")


def test_a_wall_is_not_move_the_cursor_first(content, tmp_path):
    session = new_session(content, tmp_path)
    grid, chron = session.state.grid, session.chronicle
    wall = next((x, y) for y in range(grid.height) for x in range(grid.width)
                if chron.explored[y, x] and not grid.walkable[y, x])

    async def steps(pilot, app):
        app.screen.cursor = wall
        app.screen.update_view()
        await pilot.press("enter")
        return app.screen.query_one(StatusLine).message

    message = play(content, session, steps)
    assert "nobody can stand there" in message and "cursor" not in message


def test_esc_then_a_key_read_as_alt_is_taken_as_the_two_keys(content, tmp_path, monkeypatch):
    from textual import constants

    monkeypatch.delenv("ESCDELAY", raising=False)
    monkeypatch.setattr(constants, "ESCAPE_DELAY", constants.ESCAPE_DELAY)
    session = new_session(content, tmp_path)

    async def steps(pilot, app):
        await pilot.press("k", "alt+x")  # esc: the cursor back on Anton; x: look
        return type(app.screen), app.screen.cursor

    kind, cursor = play(content, session, steps)
    assert kind is LookScreen and cursor == session.state.units["anton"].pos
    assert constants.ESCAPE_DELAY == 0.2


def test_throw_lets_the_player_choose_what_to_throw(content, tmp_path, monkeypatch):
    session = new_session(content, tmp_path)
    kit = [Throwable("hand_grenade", "Hand grenade", 2), Throwable("alien_grenade", "Alien grenade", 1)]
    monkeypatch.setattr(session.ruleset, "throwables", lambda state, unit: kit)

    async def steps(pilot, app):
        await pilot.press("t")
        asked = screen_text(app) if isinstance(app.screen, Picker) else ""
        await pilot.press("down", "enter")
        first = (type(app.screen), app.screen.item)
        await pilot.press("i", "up", "enter")
        return asked, first, app.screen.item

    asked, first, again = play(content, session, steps)
    assert "Hand grenade ×2" in asked and "Alien grenade ×1" in asked  # the ruleset's counts, not Unit.items
    assert first == (ThrowScreen, "alien_grenade") and again == "hand_grenade"


# -- logs: --out, the Replays menu, the viewer ---------------------------------------------------------


def test_play_out_refuses_a_file_that_exists_in_one_line(tmp_path, capsys, monkeypatch):
    from tui.cli import main

    monkeypatch.setenv("XENOTAC_SAVES", str(tmp_path))
    taken = tmp_path / "mine.jsonl"
    taken.write_text("")
    assert main(["play", "--out", str(taken)]) == 2
    assert main(["play", "--out", str(tmp_path / "mine.txt")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "already exists" in err and "ends in .jsonl" in err


def test_play_out_names_the_log(tmp_path):
    from engine.log import writer as log
    from tui.ptyterm import Terminal, env_for_terminal, xenotac

    out = tmp_path / "elsewhere" / "my-mission.jsonl"
    tree = str(Path(__file__).resolve().parents[1])  # the code under test, wherever the script was installed from
    term = Terminal(xenotac("play", "--seed", "1", "--out", str(out)),
                    env=env_for_terminal({"XENOTAC_SAVES": str(tmp_path / "saves"), "PYTHONPATH": tree}))
    try:
        assert term.wait_for("Phase 1/40", "save+quit"), term.text()
        term.send("q")
        assert term.wait(10) == 0
    finally:
        term.kill()
    assert out.is_file() and log.read_header(out)["seed_public"] == 1


def test_the_replays_menu_tells_mission_ruleset_outcome_and_phase(content, tmp_path):
    from engine.play.simulate import play_out

    done = new_session(content, tmp_path, seed=2, name="done.jsonl")
    play_out(done.game, ("xcom", "aliens"))
    done.close()
    ended = done.state
    app = XenotacApp(content, tmp_path, alien_delay=0)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("p")
            await pilot.pause()
            return screen_text(app)

    listing = asyncio.run(main())
    said = verdict(ended.winner, "").rstrip(" —")
    assert f"Eliminate (xcom-trpg) · {said} · phase {ended.phase}" in listing and "done.jsonl" in listing


def test_the_replay_viewer_pans(content, tmp_path):
    from engine.play.timeline import Timeline
    from tui.screens.viewer import Viewer

    session = new_session(content, tmp_path, seed=1)
    session.close()
    app = XenotacApp(content, tmp_path, replay=Timeline(content, session.path))

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            start = app.screen.origin
            await pilot.press("shift+up")
            panned = app.screen.origin
            await pilot.press("K")
            return isinstance(app.screen, Viewer), start, panned, app.screen.origin

    viewer, start, panned, further = asyncio.run(main())
    assert viewer and panned[1] < start[1] and further[1] < panned[1] and panned[0] == start[0]


def test_the_view_follows_a_seen_alien_and_the_turn_marks_who_acted(content, contact):
    hostile = hostiles_in_sight(contact)[0]
    contact.chronicle.acted = {hostile.id: hostile.pos}

    async def steps(pilot, app):
        screen = app.screen
        marked = screen.overlay().marked
        contact.chronicle.last_actor = hostile.id  # as if it had just acted in the alien turn
        screen._alien_step()
        return marked, screen.cursor

    marked, cursor = play(content, contact, steps)
    assert marked == (hostile.pos,) and cursor == hostile.pos


def test_the_alien_turn_lines_tell_what_they_did_not_what_the_squad_did_to_them(content, contact):
    chron = contact.chronicle
    target = hostiles_in_sight(contact)[0]
    hurt = {"kind": "changed", "unit": target.id, "changes": {"hp": target.hp - 5}, "cause": "shot", "rolls": []}
    moved = {"kind": "changed", "unit": target.id, "changes": {"hp": target.hp - 6}, "cause": "a fall", "rolls": []}
    chron.feed({"kind": "command", "n": 900, "command": {"kind": "wait", "unit": "anton"}, "events": [hurt]})
    chron.feed({"kind": "command", "n": 901, "command": {"kind": "end_turn", "side": "aliens"},
                "events": [moved, {"kind": "side", "side": "xcom", "rolls": []}]})
    last = max(i for i, line in enumerate(chron.messages) if line.startswith("While you waited"))
    summary = chron.messages[last + 1:]
    assert summary == [f"{target.name}: HP {target.hp - 6}"]  # its own turn's line, not the wound of ours


def test_a_civilian_in_the_way_is_named_not_called_a_hostile(content, tmp_path):
    from engine.core.commands import Rejected

    session = new_session(content, tmp_path, seed=5, mission="terror")
    state = session.state
    civilians = [u for u in state.units.values() if u.side == "civilians"]
    _length, soldier, civilian = min(((len(state.grid.path(u.pos, c.pos, [])), u, c)
                                      for u in session.squad() for c in civilians), key=lambda t: t[0])
    refused = session.submit(Move(unit=soldier.id, path=tuple(state.grid.path(soldier.pos, civilian.pos, []))))
    assert isinstance(refused, Rejected) and "hostile" not in refused.reason
    assert civilian.name in refused.reason or "someone unseen" in refused.reason
