"""Dice as data: every face is a pure function of (secret seed, stream, index).

A die is HMAC-SHA256(seed, "stream:index"), its first unbiased 32-bit word mapped onto 1..sides.
Nothing here keeps hidden state: the caller says which index it wants, and the state of the
game says which index comes next.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Literal

import attrs

Crit = Literal["success", "failure"] | None

_WORDS = 8  # one SHA-256 digest holds eight 32-bit words


def seed_from_int(n: int) -> bytes:
    """The secret seed for a player-chosen number (`--seed 1`)."""
    return hashlib.sha256(b"xenotac-seed:%d" % n).digest()


def commitment(seed: bytes) -> str:
    """Published in the log header before any die is rolled."""
    return hashlib.sha256(seed).hexdigest()


def _message(stream: str, index: int, block: int) -> bytes:
    return f"{stream}:{index}:{block}".encode()


def derive(seed: bytes, stream: str, index: int, sides: int, block: int = 0) -> tuple[bytes, int, int]:
    """The HMAC output, the accepted word and the face: everything an auditor needs."""
    if sides < 1:
        raise ValueError(f"a die needs at least one side, got {sides}")
    limit = (1 << 32) - ((1 << 32) % sides)  # reject the top sliver so every face is equally likely
    while True:
        digest = hmac.digest(seed, _message(stream, index, block), "sha256")
        for w in range(_WORDS):
            word = int.from_bytes(digest[w * 4 : w * 4 + 4], "big")
            if word < limit:
                return digest, word, word % sides + 1
        block += 1


class Faces:
    """Seeded faces; the keyed HMAC is prepared once per mission."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self._mac = hmac.new(seed, digestmod="sha256")

    def face(self, stream: str, index: int, sides: int) -> int:
        mac = self._mac.copy()
        mac.update(_message(stream, index, 0))
        word = int.from_bytes(mac.digest()[:4], "big")
        limit = (1 << 32) - ((1 << 32) % sides)
        if word < limit:
            return word % sides + 1
        return derive(self.seed, stream, index, sides)[2]


class DiceExhausted(Exception):
    """A scripted dice source ran out: names the roll that needed another die."""


@attrs.frozen
class Roll:
    """One die roll as a tabletop player would write it down."""

    actor: str
    purpose: str
    expr: str  # "1d100"
    faces: tuple[int, ...]
    formula: str  # "4*88=352"
    total: int
    crit: Crit = None
    stream: str = "main"
    index: int = 0  # index of the first face in its stream; -1 for scripted dice


class Dice:
    """Hands out faces for one decision, counting indices from the state's counters.

    With `script`, faces come from that list instead (tests, `resolve --dice`).
    """

    def __init__(self, faces: Faces | None, counters: dict[str, int] | None = None,
                 script: list[int] | None = None) -> None:
        self._faces = faces
        self.counters = dict(counters or {})
        self._script = list(script) if script is not None else None
        self._given = len(self._script) if self._script is not None else 0

    @classmethod
    def scripted(cls, faces: list[int]) -> "Dice":
        return cls(None, script=faces)

    @property
    def scripted_left(self) -> int:
        return len(self._script) if self._script is not None else 0

    def d(self, sides: int, actor: str, purpose: str, stream: str = "main") -> tuple[int, int]:
        """One face and the index it came from."""
        index = self.counters.get(stream, 0)
        self.counters[stream] = index + 1
        if self._script is not None:
            if not self._script:
                raise DiceExhausted(
                    f"no scripted die left for {actor}'s {purpose} (1d{sides}); "
                    f"{self._given} were given")
            face = self._script.pop(0)
            if not 1 <= face <= sides:
                raise DiceExhausted(
                    f"scripted die {face} for {actor}'s {purpose} is not a face of 1d{sides}")
            return face, -1
        assert self._faces is not None
        return self._faces.face(stream, index, sides), index
