"""The one error of `engine.log`, in a module of its own so every log module can raise it."""

from __future__ import annotations


class LogError(Exception):
    """A log that cannot be read or written, with the line it concerns when there is one."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
