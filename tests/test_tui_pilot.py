"""Every key path of the battle screen, driven through Textual's Pilot at 80×24 with fixed seeds."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine.play import verify
from engine.core.commands import EndTurn, Rejected
from tui.app import XenotacApp
from tui.screens.battle import BattleScreen
from tui.session import Session
from tui.testing import hostiles_in_sight, new_session
from tui.textshot import screen_text
from tests.xcom_record import counters, evolved, flags
from engine.rules.xcom_trpg.record import soldier


def play(content, session: Session, keys_then, size=(80, 24), keymap=None, saves: Path | None = None):
    """Run the app on `session`, then the async function `keys_then(pilot, app)`; returns its result."""
    app = XenotacApp(content, saves or session.path.parent, keymap=keymap, session=session, alien_delay=0)

    async def main():
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            return await keys_then(pilot, app)

    return asyncio.run(main())


async def settle(pilot, app) -> None:
    """Wait for an alien turn (driven by timers) to hand back to the player."""
    for _ in range(2000):
        screen = app.screen
        if not isinstance(screen, BattleScreen) or screen.mode != "aliens":
            break
        await pilot.pause(0.005)
    await pilot.pause()


@pytest.fixture
def fresh(content, tmp_path):
    return new_session(content, tmp_path, seed=1)


def test_the_battle_screen_opens_on_the_squads_turn(content, fresh):
    async def check(pilot, app):
        text = screen_text(app)
        assert isinstance(app.screen, BattleScreen)
        assert "Phase 1/40" in text and "X-COM turn" in text
        assert "[1] Anton" in text  # the first soldier is selected
        assert "save+quit" in text  # the footer
        return True

    assert play(content, fresh, check)


def test_cursor_keys_then_enter_move_the_soldier(content, fresh):
    anton = fresh.state.units["anton"].pos

    async def check(pilot, app):
        await pilot.press("k")  # vi up
        await pilot.press("enter")
        return app.screen

    play(content, fresh, check)
    assert fresh.state.units["anton"].pos == (anton[0], anton[1] - 1)
    assert soldier(fresh.state.units["anton"]).actions == 1
    assert "Anton moves to" in fresh.chronicle.messages[-1]


@pytest.mark.parametrize("key,delta", [("up", (0, -1)), ("8", (0, -1)), ("y", (-1, -1)), ("home", (-1, -1)),
                                       ("u", (1, -1)), ("9", (1, -1)), ("pageup", (1, -1))])
def test_arrows_vi_keys_and_numpad_all_move_the_cursor(content, fresh, key, delta):
    start = fresh.state.units["anton"].pos

    async def check(pilot, app):
        await pilot.press(key)
        return app.screen.cursor

    assert play(content, fresh, check) == (start[0] + delta[0], start[1] + delta[1])


def test_a_move_too_far_is_refused_with_the_engines_reason_and_nothing_changes(content, fresh):
    before = fresh.state

    async def check(pilot, app):
        unit, grid, seen = app.screen.unit, fresh.state.grid, fresh.chronicle.explored
        # a seen cell 11 to 15 cells' walk away: three sectors of 5 (xcom-trpg 1.3), more than 2 actions walk
        far = next((x, y) for y in range(grid.height) for x in range(grid.width)
                   if seen[y, x] and grid.walkable[y, x] and 11 <= len(grid.path(unit.pos, (x, y))) <= 15)
        dx, dy = far[0] - unit.pos[0], far[1] - unit.pos[1]
        await pilot.press(*(["l" if dx > 0 else "h"] * abs(dx) + ["j" if dy > 0 else "k"] * abs(dy)))
        await pilot.press("enter")
        return screen_text(app)

    text = play(content, fresh, check)
    assert "✗ Anton has 2 action(s): " in text and "sectors of 5 cells (1.3)" in text
    assert fresh.state is before


def test_combo_moves_two_cells_and_leaves_one_action(content, fresh):
    async def check(pilot, app):
        await pilot.press("k", "k", "c")

    play(content, fresh, check)
    anton = fresh.state.units["anton"]
    assert soldier(anton).actions == 1 and ("combo" in flags(anton))


def test_tab_cycles_soldiers_and_shift_tab_goes_back(content, fresh):
    async def check(pilot, app):
        seen = [app.screen.selected]
        await pilot.press("tab")
        seen.append(app.screen.selected)
        await pilot.press("shift+tab")
        seen.append(app.screen.selected)
        return seen

    assert play(content, fresh, check) == ["anton", "julia", "anton"]


def test_undo_takes_back_a_move(content, fresh):
    start = fresh.state.units["anton"].pos

    async def check(pilot, app):
        await pilot.press("k", "enter")
        moved = fresh.state.units["anton"].pos
        await pilot.press("U")
        return moved

    moved = play(content, fresh, check)
    assert moved != start
    assert fresh.state.units["anton"].pos == start
    assert soldier(fresh.state.units["anton"]).actions == 2


def test_undo_at_the_start_of_the_turn_is_refused_with_a_reason(content, fresh):
    async def check(pilot, app):
        await pilot.press("U")
        return screen_text(app)

    assert "✗ Nothing to undo" in play(content, fresh, check)  # the key is refused with the reason


def test_undo_after_a_shot_says_it_stops_at_the_dice_roll(content, contact):
    julia = contact.state.units["julia"]
    assert julia.conscious

    async def check(pilot, app):
        app.screen._select("julia")
        await pilot.press("f", "enter")
        fired = soldier(contact.state.units["julia"]).actions == 0
        await pilot.press("U")
        return fired, screen_text(app)

    fired, text = play(content, contact, check)
    assert fired and "✗ Undo stops at the last dice roll" in text


def test_reload_with_a_full_weapon_says_why_not(content, fresh):
    async def check(pilot, app):
        await pilot.press("r")
        return screen_text(app)

    assert "is already loaded" in play(content, fresh, check)


def test_an_unknown_key_gets_a_one_line_hint(content, fresh):
    async def check(pilot, app):
        await pilot.press("z")
        return screen_text(app)

    assert "z does nothing here: press ? for the keys" in play(content, fresh, check)


def test_end_turn_asks_when_soldiers_can_still_act_and_no_keeps_the_turn(content, fresh):
    async def check(pilot, app):
        await pilot.press("e")
        asked = screen_text(app)
        await pilot.press("n")
        return asked

    asked = play(content, fresh, check)
    assert "End the turn anyway?" in asked
    assert fresh.state.side == "xcom" and fresh.state.phase == 1


def test_end_turn_plays_the_alien_turn_and_hands_back(content, fresh):
    async def check(pilot, app):
        await pilot.press("e", "y")
        await settle(pilot, app)
        return screen_text(app)

    text = play(content, fresh, check)
    assert fresh.state.phase == 2 and fresh.state.side == "xcom"
    assert "Phase 2/40" in text and "Alien turn" in fresh.chronicle.messages
    assert any(line.startswith("── PHASE 2") for line in fresh.chronicle.messages)


def test_any_key_skips_the_alien_delay(content, fresh):
    fresh.submit(EndTurn(side="xcom"))  # the aliens are up when the screen opens
    app = XenotacApp(content, fresh.path.parent, session=fresh, alien_delay=60.0)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.screen.mode == "aliens"
            await pilot.press("space")
            await settle(pilot, app)
            return app.screen.mode

    assert asyncio.run(main()) == "move"
    assert fresh.players_turn and fresh.state.phase == 2


def test_fire_shows_the_odds_and_enter_fires(content, contact):
    target = None

    async def check(pilot, app):
        nonlocal target
        await pilot.press("f")
        text = screen_text(app)
        target = app.screen.target
        await pilot.press("enter")
        return text

    shooter = contact.state.units[contact.ready()[0].id] if contact.ready() else None
    text = play(content, contact, check)
    assert "Hit " in text and "Damage" in text and "Headshot" in text and "dodge" in text and "Cover" in text \
        or "✗" in text  # out of range or full cover is said instead of odds
    assert target is not None and shooter is not None
    after = contact.state.units[shooter.id]
    shot = any(line.startswith(shooter.name) and "→" in line for line in contact.chronicle.rolls)
    assert shot or soldier(after).actions == soldier(shooter).actions  # fired with every roll logged, or refused harmlessly


def test_targeting_cancel_fires_nothing(content, contact):
    before = contact.state

    async def check(pilot, app):
        await pilot.press("f")
        mode = app.screen.mode
        await pilot.press("backspace")
        return mode, app.screen.mode

    assert play(content, contact, check) == ("target", "move")
    assert contact.state is before


def test_tab_cycles_targets_in_targeting_mode(content, contact):
    async def check(pilot, app):
        await pilot.press("f")
        first = app.screen.target.id
        await pilot.press("tab")
        return first, app.screen.target.id

    first, second = play(content, contact, check)
    assert (first == second) == (len(hostiles_in_sight(contact)) == 1)


def test_machine_gun_toggles_single_and_burst(content, contact):
    stephen = contact.state.units["stephen"]
    assert stephen.conscious

    async def check(pilot, app):
        app.screen._select("stephen")
        await pilot.press("f")
        modes = [app.screen.fire_mode]
        await pilot.press("m")
        modes.append(app.screen.fire_mode)
        return modes

    assert play(content, contact, check) == ["single", "burst"]


def test_throw_shows_range_and_refuses_out_of_range_with_the_reason(content, fresh):
    before = fresh.state

    async def check(pilot, app):
        await pilot.press("t")
        text = screen_text(app)
        for _ in range(30):
            await pilot.press("k")
        await pilot.press("enter")
        return text, screen_text(app)

    shown, after = play(content, fresh, check)
    assert "Hand grenade" in shown and "range 0/14" in shown
    assert "✗" in after and ("cells away" in after or "cannot see" in after)
    assert fresh.state is before


def test_throw_at_a_cell_in_range_throws_and_logs_the_rolls(content, fresh):
    async def check(pilot, app):
        await pilot.press("t", "k", "k", "k", "enter")

    play(content, fresh, check)
    assert fresh.state.units["anton"].items.get("hand_grenade", 0) == 0
    assert any(line.startswith("Anton") for line in fresh.chronicle.rolls)


def test_look_mode_describes_the_cell_and_cancel_returns(content, fresh):
    async def check(pilot, app):
        await pilot.press("x", "h", "h")
        text = screen_text(app)
        await pilot.press("escape")
        return text, app.screen.mode

    text, mode = play(content, fresh, check)
    assert "Grass" in text and mode == "move"


def test_help_lists_every_key_of_the_context_and_closes(content, fresh):
    async def check(pilot, app):
        await pilot.press("question_mark")
        text = screen_text(app)
        await pilot.press("escape")
        return text, type(app.screen).__name__

    text, after = play(content, fresh, check)
    assert "HELP — battle, now moving" in text
    for words in ("fire", "throw", "reload", "combo", "end turn", "undo", "look", "save+quit"):
        assert words in text
    assert after == "BattleScreen"


def test_full_log_opens_and_searches(content, fresh):
    async def check(pilot, app):
        await pilot.press("L")
        opened = type(app.screen).__name__
        await pilot.press("slash", *"Muton", "enter")
        unseen = screen_text(app)
        await pilot.press("slash", *"Viktor", "enter")
        text = screen_text(app)
        await pilot.press("escape")
        return opened, unseen, text, type(app.screen).__name__

    opened, unseen, text, back = play(content, fresh, check)
    assert "No line contains 'Muton'" in unseen  # the mutons are out of sight at the start
    assert opened == "Reader" and "Match 1/" in text and back == "BattleScreen"


def test_quit_then_resume_shows_the_same_turn_units_and_logs(content, fresh, tmp_path):
    async def moves(pilot, app):
        await pilot.press("k", "enter", "tab", "j", "enter", "e", "y")
        await settle(pilot, app)
        await pilot.press("k", "enter")
        await pilot.press("q")
        return app.return_value

    message = play(content, fresh, moves)
    assert "xenotac resume" in message
    fresh.close()
    before = (fresh.state.phase, fresh.state.side, fresh.state.units, fresh.chronicle.rolls,
              fresh.chronicle.messages, fresh.chronicle.last_seen, fresh.chronicle.explored.tolist())
    again = Session.resume(content, fresh.path)

    async def look(pilot, app):
        return screen_text(app)

    text = play(content, again, look)
    after = (again.state.phase, again.state.side, again.state.units, again.chronicle.rolls,
             again.chronicle.messages, again.chronicle.last_seen, again.chronicle.explored.tolist())
    assert after == before
    assert "Phase 2/40" in text
    assert verify.verify(content, fresh.path, None).failure is None


def test_the_mission_end_opens_the_summary(content, tmp_path):
    from engine.play.simulate import play_out

    session = new_session(content, tmp_path, seed=2)
    play_out(session.game, ("xcom", "aliens"))
    session.catch_up()
    assert session.over

    async def check(pilot, app):
        return type(app.screen).__name__, screen_text(app)

    name, text = play(content, session, check)
    assert name == "Summary" and "MISSION OVER" in text and "Seed:" in text


def test_below_80x24_shows_a_notice_and_keys_are_held(content, fresh):
    before = fresh.state

    async def check(pilot, app):
        text = screen_text(app)
        await pilot.press("k", "enter")
        return text

    text = play(content, fresh, check, size=(70, 20))
    assert "Terminal too small: 70×20" in text
    assert fresh.state is before


def test_a_bigger_terminal_shows_more_map(content, fresh):
    async def check(pilot, app):
        return app.screen.query_one("MapView").size

    grid = fresh.state.grid
    small = play(content, fresh, check)
    size = play(content, fresh, check, size=(160, 50))
    assert small.height < grid.height  # at 80×24 the view scrolls; at 160×50 the whole map is in view
    assert size.width >= grid.width and size.height >= grid.height


def test_a_key_map_rebinds_fire(content, contact):
    async def check(pilot, app):
        await pilot.press("f")
        after_f = app.screen.mode
        await pilot.press("F")
        return after_f, app.screen.mode

    assert play(content, contact, check, keymap={"fire": "F"}) == ("move", "target")


def test_the_winning_command_goes_straight_to_the_summary(content, tmp_path):
    """Replay a finished AI-v-AI mission up to its last command, then give that command from the screen."""
    import json

    from engine.core import codec
    from engine.play.simulate import play_out

    done = new_session(content, tmp_path, seed=6, name="done.jsonl")  # a seed the squad wins
    play_out(done.game, ("xcom", "aliens"))
    done.close()
    records = [json.loads(line) for line in done.path.read_text().splitlines()]
    commands = [codec.load_command(r["command"]) for r in records if r.get("kind") == "command"][1:]
    again = new_session(content, tmp_path, seed=6, name="again.jsonl")
    for command in commands[:-1]:
        assert not isinstance(again.submit(command), Rejected)
    assert not again.over and again.players_turn

    async def check(pilot, app):
        app.screen._do(commands[-1])
        await pilot.pause()
        return type(app.screen).__name__, screen_text(app)

    name, text = play(content, again, check)
    assert name == "Summary" and "X-COM wins" in text
