"""The players of a host: names, passwords, public keys and each player's folder.

`ROOT/accounts/NAME.json` (mode 0600) holds a player's scrypt hash and public keys; the game never
sees it. `ROOT/players/NAME/` is the player's save folder (logs, roster.toml, keys.toml). A name
is checked before it ever becomes part of a path, so nothing typed reaches another folder.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import re
import secrets
from pathlib import Path

NAME = re.compile(r"[a-z][a-z0-9_-]{1,15}")
NAME_RULE = "2-16 of a-z 0-9 - _, a letter first"
LOBBY_USERS = ("play", "xenotac")  # `ssh play@host` asks for the name on the terminal instead
MIN_PASSWORD = 8
MAX_PASSWORD = 200
MAX_KEYS = 8
# scrypt at n=2**14, r=8 costs ~16 MB and ~50 ms a check: slow for a guesser, fine for a login
SCRYPT = {"n": 2**14, "r": 8, "p": 1}


class BadName(ValueError):
    """A name that cannot be a player's: the message says why in one line."""


class Taken(Exception):
    """The name was registered by someone else in the meantime."""


def check_name(text: str) -> str:
    """The player name for what was typed (lowercased), or BadName."""
    name = text.lower()
    if not name:
        raise BadName(f"an empty name: {NAME_RULE}")
    shown = text[:24]  # shown with repr: a control character in a name is seen, not obeyed
    if name in LOBBY_USERS:
        raise BadName(f"{shown!r} is reserved for the host: pick another name")
    if not NAME.fullmatch(name):
        raise BadName(f"{shown!r} is not a name: {NAME_RULE}")
    return name


def hash_password(password: str, salt: bytes | None = None) -> str:
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, dklen=32, **SCRYPT)
    return f"scrypt${SCRYPT['n']}${SCRYPT['r']}${SCRYPT['p']}${salt.hex()}${digest.hex()}"


def password_matches(password: str, stored: str) -> bool:
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        got = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p),
                             dklen=len(digest) // 2)
    except (ValueError, MemoryError):
        return False
    return hmac.compare_digest(got.hex(), digest)


def key_text(openssh_line: str) -> str:
    """`type base64` of an OpenSSH public key line, without its comment: the form keys are compared in."""
    parts = openssh_line.split()
    return " ".join(parts[:2])


def fingerprint(key: str) -> str:
    """`ssh-ed25519 SHA256:...`, as `ssh-keygen -l` shows a key."""
    kind, _, blob = key_text(key).partition(" ")
    try:
        digest = hashlib.sha256(base64.b64decode(blob, validate=True)).digest()
    except (binascii.Error, ValueError):
        return kind or "a key"
    return f"{kind} SHA256:{base64.b64encode(digest).decode().rstrip('=')}"


class Accounts:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.dir = root / "accounts"
        self.players = root / "players"

    def _file(self, name: str) -> Path:
        return self.dir / f"{check_name(name)}.json"

    def folder(self, name: str) -> Path:
        return self.players / check_name(name)

    def load(self, name: str) -> dict | None:
        try:
            data = json.loads(self._file(name).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise OSError(f"account file of {name} does not read: {exc}") from None
        return data if isinstance(data, dict) else None

    def exists(self, name: str) -> bool:
        return self._file(name).exists()

    def register(self, name: str, password: str, key: str | None = None) -> Path:
        """A new account and its folder; Taken if the name went in the meantime."""
        if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise ValueError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
        record = {"name": check_name(name), "password": hash_password(password), "keys": [key_text(key)] if key else []}
        self.dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:  # O_EXCL: two newcomers typing the same name at once cannot both get it
            fd = os.open(self._file(name), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            raise Taken(name) from None
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(record, f)
        folder = self.folder(name)
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        return folder

    def check_password(self, name: str, password: str) -> bool:
        record = self.load(name)
        return bool(record) and password_matches(password, str(record.get("password", "")))

    def has_key(self, name: str, key: str) -> bool:
        record = self.load(name)
        return bool(record) and key_text(key) in record.get("keys", [])

    def add_key(self, name: str, key: str) -> bool:
        """Registers a public key for the name; False if it has MAX_KEYS already (or this one)."""
        record = self.load(name)
        key = key_text(key)
        if record is None or key in record["keys"] or len(record["keys"]) >= MAX_KEYS:
            return False
        record["keys"].append(key)
        tmp = self._file(name).with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(record, f)
        os.replace(tmp, self._file(name))
        return True
