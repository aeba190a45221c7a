"""The hash chain of a log: every line parsed, or the first line where the chain or numbering breaks."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import attrs

from engine.log import upcast
from engine.log import writer as log


@attrs.frozen
class Failure:
    line: int | None
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


@contextmanager
def collector_paused() -> Iterator[None]:
    """Reading a whole log keeps every record parsed (JSON: no cycles), and the garbage collector would walk
    them all again at each of its passes, the time growing with the square of the log; paused while reading."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def chain(path: Path) -> tuple[list[tuple[int, bytes, dict[str, Any]]], Failure | None]:
    """Every line parsed, or the first line where the chain or numbering breaks."""
    with collector_paused():
        return _chain(path)


def _chain(path: Path) -> tuple[list[tuple[int, bytes, dict[str, Any]]], Failure | None]:
    out: list[tuple[int, bytes, dict[str, Any]]] = []
    raws = [raw for _n, _offset, raw in log.read_lines(path)]
    prev = log.GENESIS
    version: Any = None
    header: dict[str, Any] = {}
    for n, raw in enumerate(raws, start=1):
        try:
            record = log.parse(raw, n)
        except log.LogError as exc:
            if n == len(raws) and log.torn_tail(path)[1] == raw:
                return out, Failure(n, "torn record: the game stopped while writing it (resume sets it aside); "
                                       f"the {len(out)} records before it are complete")
            return out, Failure(n, str(exc).split(": ", 1)[1])
        if record.get("n") != n:
            return out, Failure(n, f"record number {record.get('n')!r} found where {n} was expected "
                                   "(a line was deleted or moved)")
        if record.get("prev") != prev:
            if n == 1:
                return out, Failure(n, "the first line is not a header")
            failure = _blame(raws, n)
            return (out[:-1] if failure.line == n - 1 else out), failure  # never hand back a changed line
        if n == 1:
            version, header = record.get("version"), record
        else:
            record = upcast.upgrade(record, version, header)
        out.append((n, raw, record))
        prev = log.line_hash(raw)
    if not out:
        return out, Failure(None, f"{path}: empty log")
    return out, None


def _blame(raws: list[bytes], n: int) -> Failure:
    """Line n does not carry the hash of line n-1: which of the two was changed? If line n+1 still
    carries line n's hash, line n is as written and n-1 was changed; otherwise line n was."""
    if n < len(raws) and log.parse_prev(raws[n]) == log.line_hash(raws[n - 1]):
        return Failure(n - 1, "changed after it was written (the next line holds its original hash)")
    return Failure(n, "changed after it was written (its hash of the line before does not match)")
