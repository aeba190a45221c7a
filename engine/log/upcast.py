"""Older log formats are upgraded record by record as they are read; the file is never rewritten.

Each released format version keeps a fixture in tests/fixtures/logs/ that must still read,
verify and audit. To change the format: bump `engine.log.VERSION`, add an upcaster from the old
version to the new one here, and check in a fixture of the new version.
"""

from __future__ import annotations

from typing import Any, Callable

from engine.log.writer import VERSION, LogError

Record = dict[str, Any]



def _v1_to_v2(record: Record) -> Record:
    """Version 2 adds `seed_public` to the header (a version-1 header is read as it is: whether its seed
    was public is unknown) and the AI's memory (`ai`) to checkpoints (none: the AI starts afresh), and the
    seed file gains the header's hash and the log's ending. No record of version 1 changes."""
    return record


# version v -> the function turning a version-v record into a version-(v+1) one.
UPCASTERS: dict[int, Callable[[Record], Record]] = {1: _v1_to_v2}


def check_version(version: Any) -> int:
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise LogError(f"unknown log format version {version!r}", 1)
    if version > VERSION:
        raise LogError(f"log format version {version} was written by a newer xenotac; this one reads up to "
                       f"{VERSION}", 1)
    missing = [v for v in range(version, VERSION) if v not in UPCASTERS]
    if missing:
        raise LogError(f"no upcaster from log format version {missing[0]}", 1)
    return version


def upgrade(record: Record, version: Any) -> Record:
    """The record in the current format; a version check_version refuses is left as it is."""
    if isinstance(version, int) and not isinstance(version, bool):
        for v in range(version, VERSION):
            if v not in UPCASTERS:
                break
            record = UPCASTERS[v](record)
    return record
