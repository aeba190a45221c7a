"""Opening files safely: never through a symbolic link when writing, never a device or a pipe, never past a sane size.

A link planted beside a log would receive the secret seed in its target, or be truncated through; a device
(`/dev/zero`) or a pipe would be read forever. The files the game is given (logs, content, scenarios, rosters, key
maps) and those it writes beside a log go through here, so each of those is one plain message (FileProblem)
instead of a hang or a traceback.
"""

from __future__ import annotations

import errno
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

MAX_LOG = 256 << 20  # bytes; a mission of 10,000 records is about 10 MB
MAX_TEXT = 4 << 20  # a content file, scenario, roster or key map
MAX_SEED = 4096


class FileProblem(Exception):
    """A file that cannot be used, as one line naming it."""


def open_fd(path: Path, flags: int, mode: int = 0o600, follow: bool = False) -> int:
    """os.open that refuses what is not a regular file; without `follow`, also a symbolic link.
    O_NONBLOCK keeps a planted pipe from blocking the open; it changes nothing for a regular file."""
    extra = os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags | extra, mode)
    except (FileExistsError, FileNotFoundError):
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileProblem(f"{path}: is a symbolic link, never followed here (remove it)") from None
        if exc.errno == errno.EISDIR:
            raise FileProblem(f"{path}: is a directory, not a file") from None
        if exc.errno == errno.ENXIO:
            raise FileProblem(f"{path}: not a regular file (a pipe or a socket)") from None
        raise FileProblem(f"{path}: cannot open ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
    except OSError as exc:
        os.close(fd)
        raise FileProblem(f"{path}: cannot open ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        what = "a directory" if stat.S_ISDIR(info.st_mode) else "a device, a pipe or a socket"
        raise FileProblem(f"{path}: not a regular file ({what})")
    return fd


def open_read(path: Path, limit: int, follow: bool = True):
    """A binary file object for reading a regular file of at most `limit` bytes."""
    try:
        fd = open_fd(path, os.O_RDONLY, follow=follow)
    except FileNotFoundError:
        raise FileProblem(f"{path}: no such file") from None
    size = os.fstat(fd).st_size
    if size > limit:
        os.close(fd)
        raise FileProblem(f"{path}: {size} bytes is too large (at most {limit})")
    return os.fdopen(fd, "rb")


def read_capped(path: Path, limit: int = MAX_TEXT, follow: bool = True) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (FileNotFoundError if there is none)."""
    fd = open_fd(path, os.O_RDONLY, follow=follow)
    with os.fdopen(fd, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise FileProblem(f"{path}: too large (at most {limit} bytes)")
    return data


def toml(text: str) -> dict[str, Any]:
    """tomllib.loads, with nesting too deep and integers too long to convert as TOMLDecodeError too.
    (tomllib recurses per bracket, and int() refuses more than 4300 digits.)"""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError("nested too deeply") from None
    except tomllib.TOMLDecodeError:
        raise
    except ValueError:
        raise tomllib.TOMLDecodeError("a number too long to convert") from None


def write_new(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Create `path` exclusively (never over a file or through a link), write, fsync."""
    fd = open_fd(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def replace_atomically(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Write a fresh temporary file beside `path` and rename it over `path`: a crash leaves the old file or
    the new one, never half of one. A stale temporary file (or a link planted there) is removed, not followed."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        os.unlink(tmp)  # a link is removed itself, its target untouched
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise FileProblem(f"{tmp}: cannot remove ({exc.strerror})") from None
    try:
        write_new(tmp, data, mode)
    except FileExistsError:
        raise FileProblem(f"{tmp}: created by someone else meanwhile") from None
    os.replace(tmp, path)  # rename never follows a link at `path`: it replaces the link itself
    sync_dir(path.parent)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        done = os.write(fd, view)
        view = view[done:]


def sync_dir(folder: Path) -> None:
    """fsync a folder, so a file just created or renamed in it survives a power cut."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def writable_folder(folder: Path) -> None:
    """FileProblem unless `folder` is a directory this process may create files in."""
    if not folder.is_dir():
        raise FileProblem(f"{folder}: not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FileProblem(f"{folder}: not a folder you may write in")
