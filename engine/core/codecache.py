"""The methods attrs writes for each class, and the hooks cattrs writes, kept compiled between runs.

attrs and cattrs make their functions by compiling generated source: about a fifth of the time a client spends
importing the engine, paid again by every process. This keeps the compiled code (marshal, as a .pyc holds it) in
the engine's `__pycache__`, keyed by a digest of the source, so a later start loads it instead. Nothing here
evaluates anything: the libraries still run their own code; they only get it compiled sooner. A cache that is
missing, damaged, written by another Python, or not writable is simply not used. `XENOTAC_CACHE=off` turns it off
with the content cache (engine.content.cache); unlike that one it stays beside the bytecode whatever
`XENOTAC_CACHE` names, since what it holds runs: it is trusted as the `.pyc` files beside it are.
"""

from __future__ import annotations

import atexit
import builtins
import hashlib
import importlib.util
import marshal
import os
import re
import sys
from pathlib import Path
from typing import Any

_FILE = Path(__file__).parent / "__pycache__" / f"generated.{sys.implementation.cache_tag}.marshal"
_KEEP = 1000  # entries (a start loads them all: ~3 ms for 560); past it, a save keeps only what its own process used
# attrs salts each class's __hash__ with hash() of its name, which differs per process (PYTHONHASHSEED): the salt is
# left out of the key, and the kept one serves, as any per-process constant would
_SALT = re.compile(rb"^([ \t]+)-?\d+,$", re.M)

_compile = builtins.compile
_code: dict[bytes, Any] = {}
_used: set[bytes] = set()
_new = False


def install() -> None:
    """Give attrs and cattrs the caching compile; once per process, before either generates anything."""
    import attr._make

    if getattr(attr._make, "compile", None) is _cached or os.environ.get("XENOTAC_CACHE") == "off":
        return
    _load()
    attr._make.compile = _cached  # a module global shadows the builtin for that module alone
    import cattrs.gen  # after attrs has it: cattrs makes attrs classes of its own as it loads

    cattrs.gen.compile = _cached
    atexit.register(_save)


def _stamp() -> bytes:
    """What else decides the compiled code: the compiler, and -O. The source is in the key, so a new attrs or
    cattrs that writes other code finds no entry and compiles it."""
    return importlib.util.MAGIC_NUMBER + bytes([sys.flags.optimize])


def _cached(source, filename, mode, *args, **kwargs):
    if args or kwargs or not isinstance(source, str):
        return _compile(source, filename, mode, *args, **kwargs)
    global _new
    text = source.encode()
    if filename.startswith("<attrs generated"):
        text = _SALT.sub(rb"\1#", text)
    key = hashlib.blake2b(b"\0".join([text, filename.encode(), mode.encode()]), digest_size=16).digest()
    _used.add(key)
    code = _code.get(key)
    if code is None:
        code = _code[key] = _compile(source, filename, mode)
        _new = True
    return code


def _load() -> None:
    try:
        stamp, table = marshal.loads(_FILE.read_bytes())
        if stamp == _stamp() and isinstance(table, dict):
            _code.update(table)
    except (OSError, EOFError, ValueError, TypeError):
        pass


def _save() -> None:
    if not _new or sys.dont_write_bytecode:
        return
    table = _code if len(_code) <= _KEEP else {k: v for k, v in _code.items() if k in _used}
    tmp = _FILE.with_name(f"{_FILE.name}.{os.getpid()}.tmp")
    try:
        _FILE.parent.mkdir(exist_ok=True)
        tmp.write_bytes(marshal.dumps((_stamp(), table)))
        os.replace(tmp, _FILE)  # whole or not at all: parallel test workers may save at once
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
