"""The other side's turn, played one AI command per tick on the battle screen's timers.

A step the squad saw (a new message) waits `delay` seconds before the next, so the player can follow it;
unseen steps run at once. `skip` plays the rest of the turn in one go (the player pressed a key).
"""

from __future__ import annotations

from typing import Callable

from textual.message_pump import MessagePump

from tui.session import Session

MOST_STEPS = 1000  # an AI turn is far shorter; a bound keeps a broken AI from hanging the client


class AlienTurn:
    def __init__(self, host: MessagePump, session: Session, delay: float, on_step: Callable[[], None],
                 on_done: Callable[[], None]) -> None:
        self.host = host  # whose timers tick
        self.session = session
        self.delay = delay
        self.on_step = on_step  # redraw after each command
        self.on_done = on_done  # the player's turn, or the mission's end
        self.running = False
        self._skip = False
        self._stepping = False

    def start(self) -> None:
        self.running = True
        self._skip = False
        self._next_tick(self.delay)

    def skip(self) -> None:
        self._skip = True
        for _ in range(MOST_STEPS):
            if not self._step():
                return

    def _tick(self) -> None:
        if not self.running or self._stepping:
            return
        if self._skip:
            self.skip()
            return
        before = len(self.session.chronicle.messages)
        if self._step():
            seen = len(self.session.chronicle.messages) > before
            self._next_tick(self.delay if seen else 0.0)

    def _next_tick(self, delay: float) -> None:
        if delay > 0:
            self.host.set_timer(delay, self._tick)
        else:
            self.host.call_later(self._tick)

    def _step(self) -> bool:
        """One AI command; False once the turn is over (and the player has been handed back the screen)."""
        if not self.running:
            return False
        if self.session.players_turn or self.session.over:
            self._done()
            return False
        self._stepping = True
        try:
            self.session.ai_step()
        finally:
            self._stepping = False
        self.on_step()
        if self.session.players_turn or self.session.over:
            self._done()
            return False
        return True

    def _done(self) -> None:
        self.running = False
        self.on_done()
