"""The built-in content's TOML documents kept as JSON, keyed by the sha256 of each file's bytes.

Parsing TOML is pure Python; reading the same document back from JSON is not, which shortens the
start of every command that loads the content. Only plain data is kept (what JSON round-trips
exactly, never a serialised object), each entry names its file's sha256 and carries a digest of its document:
an entry that is missing, corrupt, for other bytes or not plain data is ignored and rewritten.
XENOTAC_CACHE=DIR puts it elsewhere, XENOTAC_CACHE=off turns it off.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def folder() -> Path | None:
    where = os.environ.get("XENOTAC_CACHE", "")
    if where == "off":
        return None
    if where:
        return Path(where)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "xenotac" / "content"


def _digest(doc: Any) -> str:
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def get(key: bytes) -> dict[str, Any] | None:
    where = folder()
    if where is None:
        return None
    from engine.core import files

    try:  # a regular file of a sane size (never a planted link to a device), nested no deeper than JSON allows
        entry = json.loads(files.read_capped(where / f"{key.hex()}.json", 4 * files.MAX_TEXT))
        if not isinstance(entry, dict) or entry.get("sha256") != key.hex() or not isinstance(entry.get("doc"), dict):
            return None
        return entry["doc"] if entry.get("digest") == _digest(entry["doc"]) else None
    except (OSError, ValueError, RecursionError, files.FileProblem):
        return None


def put(key: bytes, doc: dict[str, Any]) -> None:
    where = folder()
    if where is None:
        return
    try:
        text = json.dumps({"sha256": key.hex(), "digest": _digest(doc), "doc": doc}, ensure_ascii=False)
        if json.loads(text)["doc"] != doc:
            return  # not plain data (a TOML date, a NaN): not kept
        where.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=where, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, where / f"{key.hex()}.json")  # whole or not at all
    except (OSError, TypeError, ValueError):
        pass  # a cache that cannot be written is only slower
