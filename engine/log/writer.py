"""The mission log: append-only JSON Lines, hash-chained, fsynced per record.

Line 1 is the header. Every line carries `prev`, the sha256 of the previous line's bytes. The
secret seed lives beside the log in `<log>.seed` (mode 0600) until a reveal record publishes it.
This module and `engine.loader` are the only ones that touch files.
"""

from __future__ import annotations

import hashlib
import json
import fcntl
import os
from pathlib import Path
from typing import Any, Iterator

from engine.core.codec import canonical

FORMAT = "xenotac-log"
VERSION = 1
GENESIS = "0" * 64


class LogError(Exception):
    """A log that cannot be read or written, with the line it concerns when there is one."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


def line_hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def seed_path(log: Path) -> Path:
    return log.with_name(log.name + ".seed")


def write_seed(log: Path, seed: bytes) -> None:
    fd = os.open(seed_path(log), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, seed.hex().encode() + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)


def read_seed(path: Path) -> bytes:
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        raise LogError(f"seed file {path} not found") from None
    except OSError as exc:
        raise LogError(f"cannot read seed file {path}: {exc.strerror}") from None
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise LogError(f"seed file {path} does not hold a hex seed") from None


def lock_path(log: Path) -> Path:
    return log.with_name(log.name + ".lock")


class Lock:
    """One writer per log: an flock on `<log>.lock`, which holds the writer's PID for the message.

    The operating system drops the lock when the process dies, so a crash never leaves it stuck.
    """

    def __init__(self, log: Path) -> None:
        self._fd = os.open(lock_path(log), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = os.read(self._fd, 32).decode(errors="replace").strip() or "?"
            os.close(self._fd)
            raise LogError(f"{log} is in use by PID {pid}") from None
        os.ftruncate(self._fd, 0)
        os.write(self._fd, str(os.getpid()).encode())

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


class Writer:
    """Appends records; each one is on disk (flushed and fsynced) before `append` returns."""

    def __init__(self, path: Path, last_hash: str, next_line: int, lock: Lock | None = None) -> None:
        self.path = path
        self.last_hash = last_hash
        self.next_line = next_line
        self._lock = lock or Lock(path)
        self._file = open(path, "ab")  # noqa: SIM115 - held open for the mission
        self.offset = self._file.tell()

    @classmethod
    def create(cls, path: Path, header: dict[str, Any]) -> "Writer":
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size > 0:
            raise LogError(f"{path} already exists; choose another name")
        writer = cls(path, GENESIS, 1)
        writer.append(header)
        return writer

    def append(self, record: dict[str, Any]) -> tuple[int, int]:
        """Writes the record as line `n`; returns (n, byte offset of the line)."""
        full = {"n": self.next_line, **record, "prev": self.last_hash}
        raw = canonical(full).encode()
        offset = self.offset
        self._file.write(raw + b"\n")
        self._file.flush()
        os.fsync(self._file.fileno())
        self.offset += len(raw) + 1
        self.last_hash = line_hash(raw)
        self.next_line += 1
        return full["n"], offset

    def close(self) -> None:
        self._file.close()
        self._lock.release()


def parse(raw: bytes, line: int) -> dict[str, Any]:
    try:
        record = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise LogError("torn or corrupt record (not valid JSON)", line) from None
    if not isinstance(record, dict):
        raise LogError("a record must be a JSON object", line)
    return record


def parse_prev(raw: bytes) -> str | None:
    """The `prev` hash at the end of a canonical line, without parsing the JSON."""
    tail = raw[-75:]
    return tail[9:73].decode() if tail.startswith(b',"prev":"') and tail.endswith(b'"}') else None


def read_lines(path: Path) -> Iterator[tuple[int, int, bytes]]:
    """(line number, byte offset, raw bytes without the newline) for every line, checking nothing."""
    try:
        with open(path, "rb") as f:
            offset = 0
            for i, raw in enumerate(f, start=1):
                yield i, offset, raw.rstrip(b"\n")
                offset += len(raw)
    except FileNotFoundError:
        raise LogError(f"{path}: no such log") from None
    except IsADirectoryError:
        raise LogError(f"{path}: is a directory, not a log") from None
    except OSError as exc:
        raise LogError(f"{path}: cannot read ({exc.strerror})") from None


def read_at(path: Path, offset: int) -> bytes:
    with open(path, "rb") as f:
        f.seek(offset)
        return f.readline().rstrip(b"\n")


def read_header(path: Path) -> dict[str, Any]:
    for n, _offset, raw in read_lines(path):
        header = parse(raw, n)
        if header.get("format") != FORMAT:
            raise LogError(f"not a xenotac mission log (format {header.get('format')!r})", 1)
        from engine.log.upcast import check_version

        check_version(header.get("version"))
        return header
    raise LogError(f"{path}: empty log")


def tail(path: Path, want: str = "checkpoint") -> tuple[list[tuple[int, int, bytes]], int]:
    """The lines from the last record of kind `want` to the end, read backwards from the end.

    Returns ([(line offset, size, raw)...] oldest first, file size). Cost grows with the
    distance to that record, not with the length of the log.
    """
    needle = f'"kind":"{want}"'.encode()
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        pos, buf, found = size, b"", False
        while pos > 0 and not found:
            step = min(65536, pos)
            pos -= step
            f.seek(pos)
            buf = f.read(step) + buf
            lines = buf.split(b"\n")
            found = any(needle in ln for ln in lines[1:] if pos > 0) or (pos == 0 and any(needle in ln for ln in lines))
        start = pos
    lines = buf.split(b"\n")
    out: list[tuple[int, int, bytes]] = []
    offset = start
    for i, raw in enumerate(lines):
        if i == 0 and start > 0:  # a partial line before the window
            offset += len(raw) + 1
            continue
        if raw:
            out.append((offset, len(raw), raw))
        offset += len(raw) + 1
    first = next((i for i in range(len(out) - 1, -1, -1) if needle in out[i][2]), 0)
    return out[first:], size


def is_finished(path: Path) -> bool:
    """True once the log holds its reveal record (the mission ended)."""
    try:
        lines, _size = tail(path, "reveal")
    except OSError:
        return False
    return any(b'"kind":"reveal"' in raw for _off, _len, raw in lines)


def list_logs(folder: Path) -> list[Path]:
    """Mission logs in a save folder, newest first (by name order of modification)."""
    if not folder.is_dir():
        return []
    logs = [p for p in folder.glob("*.jsonl") if p.is_file()]
    return sorted(logs, key=lambda p: (p.stat().st_mtime_ns, p.name), reverse=True)


def torn_tail(path: Path) -> tuple[int, bytes]:
    """(size of the complete lines, the bytes after them). A record is written with its newline in
    one go, so bytes with no newline after them are a record the process died writing."""
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        pos = size
        while pos > 0:
            step = min(65536, pos)
            f.seek(pos - step)
            chunk = f.read(step)
            cut = chunk.rfind(b"\n")
            if cut >= 0:
                end = pos - step + cut + 1
                f.seek(end)
                return end, f.read()
            pos -= step
        f.seek(0)
        return 0, f.read()


def set_aside(path: Path) -> str | None:
    """Move a torn last record into `<log>.torn` and cut it from the log; say what was done."""
    complete, torn = torn_tail(path)
    if not torn:
        return None
    aside = path.with_name(path.name + ".torn")
    with open(aside, "ab") as f:
        f.write(torn + b"\n")
        f.flush()
        os.fsync(f.fileno())
    with open(path, "r+b") as f:
        f.truncate(complete)
        os.fsync(f.fileno())
    return f"a record torn by a crash ({len(torn)} bytes) was set aside in {aside.name}"


def first_break(path: Path) -> tuple[int | None, str]:
    """The first line whose number or hash chain is wrong in the whole file. (None, "") if whole."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LogError(f"{path}: cannot read ({exc.strerror})") from None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if not lines:
        return 1, "empty log"
    return chain_break(lines, 1, GENESIS.encode())


def chain_break(lines: list[bytes], first: int, prev: bytes | None) -> tuple[int | None, str]:
    """Check consecutive lines numbered from `first` by bytes alone (no JSON); `prev` is the hex
    hash the first line must carry, or None when the line before it was not read."""
    sha256 = hashlib.sha256
    for n, raw in enumerate(lines, start=first):
        if not raw.startswith(b'{"n":%d,' % n):
            return n, "its record number is wrong (a line was deleted, added or moved)"
        if prev is not None and not raw.endswith(b'"prev":"%s"}' % prev):
            return (n - 1, "it was changed after it was written") if n > 1 else (1, "not a log header")
        prev = sha256(raw).hexdigest().encode()
    return None, ""
