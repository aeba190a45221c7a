"""The host's settings and its per-address rate limits. Time comes from an injected clock, so the
tests move it by hand instead of sleeping."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

Clock = Callable[[], float]


@dataclass
class Config:
    root: Path
    host: str = "127.0.0.1"
    port: int = 2222
    max_sessions: int = 32
    max_per_player: int = 3
    idle_timeout: float = 30 * 60.0  # seconds without a key from the client
    login_timeout: float = 120.0  # seconds to get through the login prompts
    connections: tuple[int, float] = (30, 60.0)  # per address: at most 30 connections a minute
    failed_logins: tuple[int, float] = (5, 600.0)  # per address: 5 wrong passwords, then 10 minutes out
    hangup_grace: float = 3.0  # seconds a game has to exit after a hangup before it is killed
    sweep_every: float = 30.0  # how often idle sessions are looked for
    clock: Clock = field(default=time.monotonic)


class Window:
    """At most `limit` events per `seconds` for each key (an address), over a sliding window."""

    def __init__(self, limit: int, seconds: float, clock: Clock = time.monotonic) -> None:
        self.limit, self.seconds, self.clock = limit, seconds, clock
        self._events: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        now = self.clock()
        events = self._events.get(key)
        if events is None:
            return deque()
        while events and now - events[0] >= self.seconds:
            events.popleft()
        if not events:
            del self._events[key]  # so the table only holds addresses seen lately
        return events

    def full(self, key: str) -> bool:
        return len(self._recent(key)) >= self.limit

    def note(self, key: str) -> None:
        self._recent(key)
        self._events.setdefault(key, deque()).append(self.clock())

    def allow(self, key: str) -> bool:
        """Notes the event and says yes, or says no (and notes nothing) when the window is full."""
        if self.full(key):
            return False
        self.note(key)
        return True

    def wait(self, key: str) -> float:
        """Seconds until `key` may have one more event."""
        events = self._recent(key)
        if len(events) < self.limit:
            return 0.0
        return max(0.0, self.seconds - (self.clock() - events[0]))
