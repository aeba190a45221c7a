"""One program of a session in its own pseudo-terminal, bridged to the SSH channel.

The program is `tui.serve.child` in a new session (setsid) whose controlling terminal is the pty,
so a resize reaches it as SIGWINCH and a dropped connection as SIGHUP, exactly as over a plain
`ssh host xenotac`. Bytes go both ways unchanged; when the client reads slowly, the pty is no
longer read, so the program blocks instead of the server buffering without end.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import pty
import re
import signal
import struct
import sys
import termios
from pathlib import Path
from typing import Callable

CODE_ROOT = Path(__file__).resolve().parent.parent.parent  # so the child imports this same tree
LAUNCH = "import sys; from tui.serve.child import main; sys.exit(main())"
TAIL = 4096  # bytes of output kept to explain a failure
CHOICE_MAX = 4096
# what a program killed mid-screen leaves on: alternate screen, hidden cursor, mouse reports, paste mode
RESTORE = b"\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[0m\r\n"
_EXCEPTION = re.compile(r"[A-Za-z_.]*(Error|Exception|Interrupt)(:|$)")
_ESCAPES = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b.")


def command(kind: str, *args: str) -> list[str]:
    return [sys.executable, "-c", LAUNCH, kind, *args]


def last_line(output: bytes) -> str:
    """The last line of text a program printed, without terminal codes: what it said before exiting."""
    text = _ESCAPES.sub(b"", output).decode("utf-8", "replace")
    lines = [ln.strip(" │┃|") for ln in re.split(r"[\r\n]+", text)]
    lines = [ln.strip() for ln in lines if ln.strip() and ln.strip().strip("─━═╭╮╰╯┏┓┗┛") != ""]
    errors = [ln for ln in lines if _EXCEPTION.match(ln)]  # a traceback's last word is what went wrong
    return (errors or lines or [""])[-1][:200]


def set_size(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


class Child:
    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path, size: tuple[int, int],
                 output: Callable[[bytes], None]) -> None:
        self.argv, self.env, self.cwd, self.size = argv, env, cwd, size
        self.output = output
        self.tail = b""
        self.choice: dict | None = None  # what a lobby chose, read from its pipe when it exits
        self.proc: asyncio.subprocess.Process | None = None
        self._master = -1
        self._choice_fd = -1
        self._pending = b""  # keys the pty could not take yet
        self._reading = False
        self._eof = asyncio.Event()

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        master, slave = pty.openpty()
        read_end, write_end = os.pipe()
        try:
            set_size(slave, *self.size)
            env = dict(self.env, XENOTAC_CHOICE_FD=str(write_end))
            self.proc = await asyncio.create_subprocess_exec(
                *self.argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=str(self.cwd),
                start_new_session=True, pass_fds=(write_end,))
        except BaseException:
            for fd in (master, read_end):
                os.close(fd)
            raise
        finally:
            os.close(slave)
            os.close(write_end)
        self._master, self._choice_fd = master, read_end
        os.set_blocking(master, False)
        self._loop = loop
        self.resume()

    # -- bytes both ways ---------------------------------------------------------------------------

    def _readable(self) -> None:
        try:
            data = os.read(self._master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the program and everything it started have closed the terminal
            data = b""
        if not data:
            self.pause()
            self._eof.set()
            return
        self.tail = (self.tail + data)[-TAIL:]
        self.output(data)

    def pause(self) -> None:
        """The client reads slowly: stop reading the pty until it catches up."""
        if self._reading:
            self._loop.remove_reader(self._master)
            self._reading = False

    def resume(self) -> None:
        if not self._reading and self._master >= 0 and not self._eof.is_set():
            self._loop.add_reader(self._master, self._readable)
            self._reading = True

    def write(self, data: bytes) -> None:
        if self._master < 0:
            return
        self._pending += data
        self._flush()

    def _flush(self) -> None:
        try:
            while self._pending:
                sent = os.write(self._master, self._pending)
                self._pending = self._pending[sent:]
        except BlockingIOError:
            self._loop.add_writer(self._master, self._writable)
            return
        except OSError:
            self._pending = b""  # the program is gone; what was typed for it goes with it

    def _writable(self) -> None:
        self._loop.remove_writer(self._master)
        self._flush()

    def resize(self, cols: int, rows: int) -> None:
        self.size = (cols, rows)
        if self._master >= 0:
            set_size(self._master, cols, rows)  # the kernel sends SIGWINCH to the program's group
            self._signal(signal.SIGWINCH)

    # -- ending ------------------------------------------------------------------------------------

    def _signal(self, sig: int) -> None:
        if self.proc is not None and self.proc.returncode is None:
            try:
                os.killpg(self.proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass

    async def wait(self) -> int:
        """The exit status (negative: the signal that ended it), once all its output is through."""
        assert self.proc is not None
        code = await self.proc.wait()
        try:  # the last screenful may still be in the pty
            await asyncio.wait_for(self._eof.wait(), 2.0)
        except asyncio.TimeoutError:
            pass
        self._close()
        return code

    async def hangup(self, grace: float) -> None:
        """As when a terminal closes: SIGHUP, then SIGKILL if the program is still there after `grace`."""
        if self.proc is None:
            return
        self._signal(signal.SIGHUP)
        try:
            await asyncio.wait_for(asyncio.shield(self.proc.wait()), grace)
        except asyncio.TimeoutError:
            self._signal(signal.SIGKILL)
            await self.proc.wait()
        self._close()

    def _close(self) -> None:
        self.pause()
        if self._master >= 0:
            self._loop.remove_writer(self._master)
            os.close(self._master)
            self._master = -1
        if self._choice_fd >= 0:
            self.choice = self._read_choice()
            os.close(self._choice_fd)
            self._choice_fd = -1

    def _read_choice(self) -> dict | None:
        """The one JSON object a lobby writes to its pipe before it exits (the program is gone now)."""
        os.set_blocking(self._choice_fd, False)
        data = b""
        try:
            while len(data) <= CHOICE_MAX:
                chunk = os.read(self._choice_fd, CHOICE_MAX)
                if not chunk:
                    break
                data += chunk
        except BlockingIOError:
            pass
        if not data or len(data) > CHOICE_MAX:
            return None
        try:
            choice = json.loads(data)
        except ValueError:
            return None
        return choice if isinstance(choice, dict) else None
