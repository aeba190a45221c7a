"""A program in a real pseudo-terminal, read back through pyte: for the end-to-end test and the benchmarks.

pyte is a test extra; only this module needs it.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path
from typing import Sequence

import pyte


def env_for_terminal(extra: dict[str, str] | None = None) -> dict[str, str]:
    """An SSH-like terminal: xterm-256color, no truecolor, no colour overrides from the caller, and no COLUMNS or
    LINES (a test runner's workers set them, and they would outrank the terminal's own size)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLORTERM", "NO_COLOR", "TEXTUAL", "FORCE_COLOR", "COLUMNS", "LINES")}
    env.update({"TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
    env.update(extra or {})
    return env


class Terminal:
    def __init__(self, argv: Sequence[str], cols: int = 80, rows: int = 24, env: dict[str, str] | None = None,
                 cwd: str | None = None) -> None:
        self.cols, self.rows = cols, rows
        self.started = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:  # the child: size the terminal before the program asks for it
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
                if cwd:
                    os.chdir(cwd)
                os.execvpe(argv[0], list(argv), env or env_for_terminal())
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.received = 0
        self.exit_status: int | None = None

    # -- reading ----------------------------------------------------------------------------------

    def read(self, timeout: float) -> bytes:
        """Whatever arrives within `timeout` seconds of the first byte (or nothing)."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return b""
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the program has exited
            return b""
        self.received += len(data)
        self.stream.feed(data)
        return data

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, *needles: str, timeout: float = 20.0) -> bool:
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            screen = self.text()
            if all(n in screen for n in needles):
                return True
            if not self.read(0.05) and not self.alive():
                return all(n in self.text() for n in needles)
        return False

    def settle(self, quiet: float = 0.25, timeout: float = 10.0) -> tuple[int, float]:
        """Read until nothing arrives for `quiet` seconds: (bytes read, seconds to the last byte)."""
        start = time.perf_counter()
        last = start
        total = 0
        while time.perf_counter() - start < timeout:
            data = self.read(quiet)
            if not data:
                break
            total += len(data)
            last = time.perf_counter()
        return total, last - start

    # -- writing ----------------------------------------------------------------------------------

    def send(self, keys: str | bytes) -> None:
        os.write(self.fd, keys.encode() if isinstance(keys, str) else keys)

    def resize(self, cols: int, rows: int) -> None:
        self.cols, self.rows = cols, rows
        self.screen.resize(rows, cols)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        os.kill(self.pid, signal.SIGWINCH)

    # -- ending -----------------------------------------------------------------------------------

    def alive(self) -> bool:
        if self.exit_status is not None:
            return False
        pid, status = os.waitpid(self.pid, os.WNOHANG)
        if pid == 0:
            return True
        self.exit_status = os.waitstatus_to_exitcode(status)
        return False

    def wait(self, timeout: float = 10.0) -> int | None:
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            self.read(0.05)
            if not self.alive():
                return self.exit_status
        return None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.alive():
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass
            self.wait(5.0)
        try:
            os.close(self.fd)
        except OSError:
            pass


KEYS = {"enter": "\r", "tab": "\t", "escape": "\x1b", "backspace": "\x7f", "up": "\x1b[A", "down": "\x1b[B",
        "right": "\x1b[C", "left": "\x1b[D", "shift+tab": "\x1b[Z"}


def xenotac(*args: str) -> list[str]:
    """The installed `xenotac` script beside the running interpreter, or the same entry point through it."""
    script = Path(sys.executable).with_name("xenotac")
    if script.is_file():
        return [str(script), *args]
    return [sys.executable, "-c", "import sys; from tui.cli import main; sys.exit(main())", *args]
