"""The mission log: append-only JSON Lines, hash-chained, fsynced per record.

Line 1 is the header. Every line carries `prev`, the sha256 of the previous line's bytes. The
secret seed lives beside the log in `<log>.seed` (mode 0600) until a reveal record publishes it;
then that file also names the log's last line and its hash, so a finished log cut short is caught.
The writer holds an flock on the log itself for the whole session. Files are opened through
`engine.core.files`: never through a symbolic link, never a device.
This module, `engine.content.loader` and `engine.play.roster` are the only ones that touch files.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Iterator, NamedTuple

from engine.core import files
from engine.core.codec import canonical
from engine.log.companion import (  # noqa: F401 - re-exported: log.seed_path, log.Lock, ...
    Companion, Lock, lock_path, read_companion, read_seed, seal, seed_path, write_seed)
from engine.log.errors import LogError  # noqa: F401 - re-exported: log.LogError

FORMAT = "xenotac-log"
VERSION = 4
GENESIS = "0" * 64


def line_hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


class CommandRecord(NamedTuple):
    """A command record with its command and events already canonical JSON text. Event text has one writer,
    engine.core.canon: the game writes its lines with it and verify recomputes them with it, so the two cannot
    disagree."""

    base: int
    command: bytes  # canonical JSON of the dumped command
    events: bytes  # canon.events_text of the events
    state: str  # codec.state_hash after them
    ai: bool

    def line(self, n: int, prev: str) -> bytes:
        """Byte for byte `canonical({"n": n, "kind": "command", "base": ..., "command": ..., "events": ...,
        "state": ..., "ai": true (only when true), "prev": prev})`."""
        return b'{"n":%d,"kind":"command","base":%d,"command":%s,"events":%s,"state":"%s"%s,"prev":"%s"}' % (
            n, self.base, self.command, self.events, self.state.encode(), b',"ai":true' if self.ai else b"",
            prev.encode())


class Writer:
    """Appends records through the locked descriptor; each one is on disk (fsynced) before `append` returns."""

    def __init__(self, path: Path, last_hash: str, next_line: int, lock: Lock | None = None) -> None:
        self.path = path
        self.last_hash = last_hash
        self.next_line = next_line
        self._lock = lock or Lock(path)
        self.offset = os.lseek(self._lock.fd, 0, os.SEEK_END)

    @classmethod
    def create(cls, path: Path, header: dict[str, Any], seed: bytes) -> "Writer":
        """A new log: created exclusively and locked first, then its seed file (exclusively), then the header.
        Two processes given the same name: one wins, the other is refused before it has written anything."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            files.writable_folder(path.parent)
        except (OSError, files.FileProblem) as exc:
            raise LogError(f"cannot write a log in {path.parent}: {exc}") from None
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise LogError(f"{path}: not a regular file; a log must be a new file in a folder you may write in")
        lock = Lock(path, create=True)
        first = canonical({"n": 1, **header, "prev": GENESIS}).encode()  # what `append` will write
        try:
            write_seed(path, seed, line_hash(first))
        except BaseException:
            os.unlink(path)  # ours, empty and locked: no one else's mission is lost
            lock.release()
            raise
        files.sync_dir(path.parent)
        writer = cls(path, GENESIS, 1, lock)
        writer.append(header)
        return writer

    @property
    def fd(self) -> int:
        return self._lock.fd

    def append(self, record: dict[str, Any] | CommandRecord) -> tuple[int, int]:
        """Writes the record as line `n`; returns (n, byte offset of the line)."""
        n = self.next_line
        raw = record.line(n, self.last_hash) if type(record) is CommandRecord else \
            canonical({"n": n, **record, "prev": self.last_hash}).encode()
        offset = self.offset
        files.write_all(self._lock.fd, raw + b"\n")  # O_APPEND: one write, at the end
        os.fsync(self._lock.fd)
        self.offset += len(raw) + 1
        self.last_hash = line_hash(raw)
        self.next_line += 1
        return n, offset

    def close(self) -> None:
        self._lock.release()


def parse(raw: bytes, line: int) -> dict[str, Any]:
    try:
        record = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise LogError("torn or corrupt record (not valid JSON)", line) from None
    except RecursionError:
        raise LogError("corrupt record (nested too deeply)", line) from None
    except ValueError:  # an integer of more than 4300 digits
        raise LogError("corrupt record (a number too long to read)", line) from None
    if not isinstance(record, dict):
        raise LogError("a record must be a JSON object", line)
    return record


def parse_prev(raw: bytes) -> str | None:
    """The `prev` hash at the end of a canonical line, without parsing the JSON."""
    tail = raw[-75:]
    return tail[9:73].decode() if tail.startswith(b',"prev":"') and tail.endswith(b'"}') else None


def open_log(path: Path):
    """The log for reading: a regular file (never a device or a pipe) of a sane size, as a LogError if not."""
    try:
        return files.open_read(path, files.MAX_LOG)
    except files.FileProblem as exc:
        text = str(exc)
        raise LogError(text.replace(": no such file", ": no such log")) from None


def read_lines(path: Path) -> Iterator[tuple[int, int, bytes]]:
    """(line number, byte offset, raw bytes without the newline) for every line, checking nothing."""
    try:
        with open_log(path) as f:
            offset = 0
            for i, raw in enumerate(f, start=1):
                yield i, offset, raw.rstrip(b"\n")
                offset += len(raw)
    except OSError as exc:
        raise LogError(f"{path}: cannot read ({exc.strerror})") from None


def read_at(path: Path, offset: int) -> bytes:
    with open_log(path) as f:
        f.seek(offset)
        return f.readline().rstrip(b"\n")


def read_header(path: Path) -> dict[str, Any]:
    for n, _offset, raw in read_lines(path):
        header = parse(raw, n)
        if header.get("format") != FORMAT:
            raise LogError(f"not a xenotac mission log (format {str(header.get('format'))[:40]!r})", 1)
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
    with open_log(path) as f:
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
    except (OSError, LogError):
        return False
    return any(b'"kind":"reveal"' in raw for _off, _len, raw in lines)


def list_logs(folder: Path) -> list[Path]:
    """Mission logs in a save folder, newest first (by name order of modification); regular files that hold
    at least a header (an empty one is a log whose creator stopped before writing it)."""
    if not folder.is_dir():
        return []
    logs = []
    for p in folder.glob("*.jsonl"):
        try:
            info = p.lstat()
        except OSError:
            continue
        if p.is_file() and info.st_size > 0:
            logs.append((info.st_mtime_ns, p.name, p))
    return [p for _t, _name, p in sorted(logs, reverse=True)]


def torn_tail(path: Path) -> tuple[int, bytes]:
    """(size of the complete lines, the bytes after them). A record is written with its newline in
    one go, so bytes with no newline after them are a record the process died writing."""
    with open_log(path) as f:
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


def set_aside(path: Path, lock: Lock) -> str | None:
    """Move a torn last record into `<log>.torn` and cut it from the log (through the writer's locked
    descriptor, so only the lock holder ever cuts); say what was done."""
    complete, torn = torn_tail(path)
    if not torn:
        return None
    aside = path.with_name(path.name + ".torn")
    try:
        fd = files.open_fd(aside, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except files.FileProblem as exc:
        raise LogError(str(exc)) from None
    try:
        files.write_all(fd, torn + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    os.ftruncate(lock.fd, complete)
    os.fsync(lock.fd)
    return f"a record torn by a crash ({len(torn)} bytes) was set aside in {aside.name}"


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
