"""2,000 random keys at the client: no exception, and every log it wrote passes `replay --verify`."""

from __future__ import annotations

import asyncio
import random

import pytest

from textual import events

from engine.log import writer as log
from engine.play import verify
from tui import keys
from tui.app import XenotacApp
from tui.screens.battle import BattleScreen
from tui.session import Session
from tui.testing import advance_to_contact, new_session

PRESSES = 2000
BURST = 4
QUIT = {"q", "ctrl+q", "ctrl+c"}  # quitting ends the run early; it has its own tests


def key_pool() -> list[str]:
    bound = {name for table in keys.TABLES.values() for k in table for name in k.keys.split(",")}
    noise = list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") + [
        "space", "delete", "insert", "f1", "f5", "ctrl+a", "ctrl+z", "minus", "full_stop", "comma"]
    # the battle keys come up far more often than noise, so the fuzz plays rather than only typing
    return sorted(bound - QUIT) * 4 + [k for k in noise if k not in QUIT]


@pytest.mark.slow
def test_two_thousand_random_keys(content, tmp_path):
    session = new_session(content, tmp_path, seed=3)
    assert advance_to_contact(session)  # hostiles in sight: firing and throwing get fuzzed too
    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)
    rng = random.Random(20251130)  # a fixed sequence: the test never depends on the clock
    pool = key_pool()

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(PRESSES // BURST):
                # keys arrive in bursts, as typed ahead over a slow link; Pilot.press would wait after each
                for key in rng.sample(pool, BURST):
                    event = events.Key(key, key if len(key) == 1 else None)
                    event.set_sender(app)
                    app._driver.send_message(event)  # noqa: SLF001 - what Pilot.press does, minus its waits
                await pilot.pause()
                screen = app.screen
                if isinstance(screen, BattleScreen) and screen.mode == "aliens" and rng.random() < 0.5:
                    await pilot.pause(0.01)  # sometimes let the timer-driven alien turn run by itself
            await pilot.pause()

    asyncio.run(main())  # an exception inside the app is re-raised here
    logs = log.list_logs(tmp_path)
    assert session.path in logs
    for path in logs:
        report = verify.verify(content, path, None)
        assert report.failure is None, f"{path.name}: {report.failure}"
    if not session.over:
        again = Session.resume(content, session.path)
        assert again.state.units == session.state.units and again.chronicle.rolls == session.chronicle.rolls
