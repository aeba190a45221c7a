"""A terminal on the far end of an SSH connection, read back through pyte: for the host's tests and
its load benchmark. asyncssh's own client; pyte is a test extra and only this module needs it.
"""

from __future__ import annotations

import asyncio
import time

import asyncssh
import pyte

KEYS = {"enter": "\r", "tab": "\t", "escape": "\x1b", "backspace": "\x7f", "up": "\x1b[A", "down": "\x1b[B",
        "right": "\x1b[C", "left": "\x1b[D", "end": "\x1b[F", "home": "\x1b[H"}


class SshTerm(asyncssh.SSHClientSession):
    def __init__(self, cols: int = 80, rows: int = 24) -> None:
        self.cols, self.rows = cols, rows
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.received = 0
        self.raw = bytearray()  # everything, for what pyte does not keep (lines scrolled away)
        self.closed = False
        self.parse = True  # False: only count bytes (a load test's many clients would spend their time in pyte)
        self.chan: asyncssh.SSHClientChannel | None = None
        self._event = asyncio.Event()

    # -- asyncssh's calls --------------------------------------------------------------------------

    def connection_made(self, chan) -> None:
        self.chan = chan

    def data_received(self, data: bytes, datatype) -> None:
        self.received += len(data)
        if self.parse:
            self.raw += data
            self.stream.feed(data)
        self._event.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._event.set()

    # -- what a test does --------------------------------------------------------------------------

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def said(self) -> str:
        """Everything received as text, escape codes left in: for lines printed outside a screen."""
        return self.raw.decode("utf-8", "replace")

    async def changed(self, timeout: float) -> bool:
        """Waits until more output arrives (or the connection closes); False on timeout."""
        self._event.clear()
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except asyncio.TimeoutError:
            return False
        return True

    async def wait_for(self, *needles: str, timeout: float = 30.0, raw: bool = False) -> bool:
        end = time.monotonic() + timeout
        while True:
            seen = self.said() if raw else self.text()
            if all(n in seen for n in needles):
                return True
            left = end - time.monotonic()
            if left <= 0 or self.closed:
                seen = self.said() if raw else self.text()
                return all(n in seen for n in needles)
            await self.changed(min(left, 1.0))

    async def settle(self, quiet: float = 0.3, timeout: float = 10.0) -> None:
        """Until nothing arrives for `quiet` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end and await self.changed(quiet):
            pass

    def send(self, keys: str) -> None:
        assert self.chan is not None
        self.chan.write(keys.encode())

    def resize(self, cols: int, rows: int) -> None:
        assert self.chan is not None
        self.cols, self.rows = cols, rows
        self.screen.resize(rows, cols)
        self.chan.change_terminal_size(cols, rows)

    async def closed_with(self, timeout: float = 20.0) -> int | None:
        """The exit status once the host closes the session (None if it did not within `timeout`)."""
        assert self.chan is not None
        try:
            await asyncio.wait_for(self.chan.wait_closed(), timeout)
        except asyncio.TimeoutError:
            return None
        return self.chan.get_exit_status()


async def connect(port: int, username: str, cols: int = 80, rows: int = 24, key=None,
                  term: str | None = "xterm-256color", env: dict[str, str] | None = None,
                  command: str | None = None) -> tuple[asyncssh.SSHClientConnection, SshTerm]:
    """A session as `ssh -t -p PORT USERNAME@127.0.0.1` opens it; `key` is a private key or None."""
    conn = await asyncssh.connect("127.0.0.1", port, username=username, known_hosts=None, agent_path=None,
                                  client_keys=[key] if key is not None else None, password="unused",
                                  preferred_auth="publickey,keyboard-interactive")
    _chan, session = await conn.create_session(lambda: SshTerm(cols, rows), command, term_type=term,
                                               term_size=(cols, rows) if term else None, encoding=None,
                                               env=env or {})
    return conn, session
