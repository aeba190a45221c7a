"""Beside each log: `<log>.seed`, the secret seed until the reveal, and the writer's lock.

The seed file holds the seed (hex), the hash of the log's header line, and once the mission has ended and
the seed is revealed, the log's last line number and that line's hash:

    3f2a...                      the seed
    header 9c1e...               sha256 of line 1: an edited header is caught on resume
    end 474 5d0b...              line 474 ends the mission: a log cut short (or carried on) is caught

It is created exclusively (mode 0600), never through a link, and rewritten only by an atomic rename.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import attrs

from engine.core import files
from engine.log.errors import LogError


def seed_path(log: Path) -> Path:
    return log.with_name(log.name + ".seed")


# -- the seed file: the secret until the reveal, then the seed and the log's ending --------------------


@attrs.frozen
class Companion:
    """What `<log>.seed` holds. `header`: sha256 of line 1; `end`: (last line, its sha256) once revealed.
    Seed files of older versions hold the seed alone."""

    seed: bytes
    header: str | None = None
    end: tuple[int, str] | None = None


def _companion_bytes(c: Companion) -> bytes:
    text = c.seed.hex() + "\n"
    if c.header is not None:
        text += f"header {c.header}\n"
    if c.end is not None:
        text += f"end {c.end[0]} {c.end[1]}\n"
    return text.encode()


def write_seed(log: Path, seed: bytes, header: str | None = None) -> None:
    """Create `<log>.seed` exclusively, mode 0600: never over another mission's seed, never through a link."""
    path = seed_path(log)
    try:
        files.write_new(path, _companion_bytes(Companion(seed, header)), 0o600)
    except FileExistsError:
        raise LogError(f"{path} already exists (another mission's seed); choose another name") from None
    except files.FileProblem as exc:
        raise LogError(str(exc)) from None
    files.sync_dir(path.parent)


def seal(log: Path, companion: Companion, line: int, digest: str) -> None:
    """After the reveal: the seed file names the last line and its hash, so the log cannot be cut short
    or carried on without it showing (`replay --verify`). An atomic rename: the old file or the new one."""
    sealed = attrs.evolve(companion, end=(line, digest))
    try:
        files.replace_atomically(seed_path(log), _companion_bytes(sealed), 0o600)
    except (files.FileProblem, OSError) as exc:
        raise LogError(f"{seed_path(log)}: cannot record the ending ({exc})") from None


def read_companion(path: Path, strict: bool = False) -> Companion:
    """The seed file. `strict` (the game about to roll with it): a regular file, not a link, of mode 0600,
    owned by this user; one others could read may have given the dice away."""
    try:
        fd = files.open_fd(path, os.O_RDONLY, follow=not strict)
    except FileNotFoundError:
        raise LogError(f"seed file {path} not found") from None
    except files.FileProblem as exc:
        raise LogError(f"seed file {exc}") from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if strict and (info.st_uid != os.geteuid() or info.st_mode & 0o777 != 0o600):
            raise LogError(f"seed file {path} is mode {info.st_mode & 0o777:o} and owned by uid {info.st_uid}: it "
                           "must be 0600 and yours, or someone else may know the dice")
        data = f.read(files.MAX_SEED + 1)
    try:
        return _parse(data)
    except ValueError:
        raise LogError(f"seed file {path} does not hold a hex seed") from None


def _parse(data: bytes) -> Companion:
    if len(data) > files.MAX_SEED:
        raise ValueError
    lines = data.decode("ascii").split("\n")
    seed = bytes.fromhex(lines[0].strip())
    if not seed:
        raise ValueError
    header, end = None, None
    for line in lines[1:]:
        words = line.split()
        if not words:
            continue
        if words[0] == "header" and len(words) == 2 and _is_digest(words[1]):
            header = words[1]
        elif words[0] == "end" and len(words) == 3 and words[1].isdigit() and len(words[1]) < 13 \
                and _is_digest(words[2]):
            end = (int(words[1]), words[2])
        else:
            raise ValueError
    return Companion(seed, header, end)


def _is_digest(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def read_seed(path: Path, strict: bool = False) -> bytes:
    return read_companion(path, strict).seed


# -- the writer's lock: an flock on the log itself ------------------------------------------------------


def lock_path(log: Path) -> Path:
    return log.with_name(log.name + ".lock")


class Lock:
    """One writer per log: an flock on the log file itself, held until `release`. The operating system drops it
    when the process dies, so a crash never leaves it stuck, and deleting a file beside the log cannot lift it.
    `<log>.lock` only holds the writer's PID, for the message a second writer gets.

    `create`: the log must not exist yet; it is created empty and locked before anything else is written."""

    def __init__(self, log: Path, create: bool = False) -> None:
        flags = os.O_RDWR | os.O_APPEND | (os.O_CREAT | os.O_EXCL if create else 0)
        try:
            self.fd = files.open_fd(log, flags, 0o644)
        except FileExistsError:
            raise LogError(f"{log} already exists; choose another name") from None
        except FileNotFoundError:
            raise LogError(f"{log}: no such log") from None
        except files.FileProblem as exc:
            raise LogError(str(exc)) from None
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            raise LogError(f"{log} is in use by PID {_holder(log)}") from None
        try:
            note = files.open_fd(lock_path(log), os.O_WRONLY | os.O_CREAT, 0o600)
        except files.FileProblem as exc:
            self.release()
            raise LogError(str(exc)) from None
        try:
            if os.fstat(note).st_nlink != 1:  # a hard link planted there: never truncate through it
                self.release()
                raise LogError(f"{lock_path(log)}: has other names (a hard link); remove it")
            os.ftruncate(note, 0)
            files.write_all(note, str(os.getpid()).encode())
        finally:
            os.close(note)

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _holder(log: Path) -> str:
    try:
        with os.fdopen(files.open_fd(lock_path(log), os.O_RDONLY), "rb") as f:
            return f.read(32).decode(errors="replace").strip() or "?"
    except (OSError, files.FileProblem):
        return "?"
