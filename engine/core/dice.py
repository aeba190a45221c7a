"""Dice as data: every face is a pure function of (secret seed, stream, index).

A die is one 32-bit word of HMAC-SHA256(seed, "stream:block"), mapped without bias onto 1..sides.
Nothing here keeps hidden state: the caller says which index it wants, and the state of the
game says which index comes next. (Faces caches a digest; the cache never changes a face.)
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Literal

import attrs

Crit = Literal["success", "failure"] | None

_WORDS = 8  # one SHA-256 digest holds eight 32-bit words: dice 8k..8k+7 of a stream share one HMAC


def seed_from_int(n: int) -> bytes:
    """The secret seed for a player-chosen number (`--seed 1`)."""
    return hashlib.sha256(b"xenotac-seed:%d" % n).digest()


def commitment(seed: bytes) -> str:
    """Published in the log header before any die is rolled."""
    return hashlib.sha256(seed).hexdigest()


def _limit(sides: int) -> int:
    """Words at or above this are rejected, so every face is equally likely."""
    return (1 << 32) - ((1 << 32) % sides)


@attrs.frozen
class Derivation:
    """How one face came out of the seed: what an auditor recomputes."""

    message: str  # the HMAC input
    digest: str  # the HMAC output, hex
    slot: int  # which of the digest's eight 32-bit words
    word: int  # the accepted 32-bit word
    face: int


def derive(seed: bytes, stream: str, index: int, sides: int) -> Derivation:
    """Die `index` of `stream`: word index%8 of HMAC(seed, "stream:index//8"); if that word falls in
    the rejected sliver, the first good word of HMAC(seed, "stream:index:retry-k"), k = 1, 2, ..."""
    if sides < 1:
        raise ValueError(f"a die needs at least one side, got {sides}")
    limit = _limit(sides)
    message = f"{stream}:{index // _WORDS}"
    digest = hmac.digest(seed, message.encode(), "sha256")
    word = int.from_bytes(digest[(index % _WORDS) * 4:(index % _WORDS) * 4 + 4], "big")
    slot, retry = index % _WORDS, 0
    while word >= limit:
        retry += 1
        message = f"{stream}:{index}:retry-{retry}"
        digest = hmac.digest(seed, message.encode(), "sha256")
        words = [int.from_bytes(digest[i:i + 4], "big") for i in range(0, 32, 4)]
        slot = next((i for i, w in enumerate(words) if w < limit), -1)
        word = words[slot] if slot >= 0 else limit
    return Derivation(message, digest.hex(), slot, word, word % sides + 1)


class Faces:
    """Seeded faces; keeps the last digest per stream, so a run of dice costs one HMAC per eight."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self._cache: dict[str, tuple[int, bytes]] = {}

    def face(self, stream: str, index: int, sides: int) -> int:
        if sides < 1:
            raise ValueError(f"a die needs at least one side, got {sides}")
        block = index // _WORDS
        cached = self._cache.get(stream)
        if cached is None or cached[0] != block:
            digest = hmac.digest(self.seed, f"{stream}:{block}".encode(), "sha256")
            self._cache[stream] = (block, digest)
        else:
            digest = cached[1]
        at = (index % _WORDS) * 4
        word = int.from_bytes(digest[at:at + 4], "big")
        if word < _limit(sides):
            return word % sides + 1
        return derive(self.seed, stream, index, sides).face


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
    kept: tuple[int, ...] = ()  # a pool's dice that count, as indices into `faces` (keep the best); () = all


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
        # Only while a record is being explained (audit --explain): where each roll's numbers came from.
        self.sources: dict[tuple[str, int], list[str]] | None = None

    def note(self, roll: Roll, *lines: str) -> None:
        """Say where a roll's numbers came from; free unless a record is being explained."""
        if self.sources is not None:
            self.sources.setdefault((roll.stream, roll.index), []).extend(line for line in lines if line)

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
