"""Every way of tampering with a finished log, at random places, plain and re-chained by a forger.

Kinds: a flipped byte, a changed die face, an edited field, a deleted, swapped or duplicated line, a log cut
short, garbage appended, a second reveal, an early reveal, a foreign header; each also re-chained (every later
`prev` recomputed, line numbers kept in order). With the seed file beside the log (it names the last line and
its hash), every one of them is caught. Without it (a forger who deleted it), what the rules decide is still
caught; what a re-chaining forger can then get past is a cut (reported as "unfinished"), a copied or dropped
checkpoint (a cache of states verify recomputes) and the AI's marks and memory (they decide no die and no
outcome): the threat model in docs/architecture.md says so.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from pathlib import Path

import pytest

from engine.core import codec
from engine.core.dice import seed_from_int
from engine.log import writer as log
from engine.play.simulate import run
from engine.play.verify import verify

KINDS = ["byte", "face", "field", "delete", "swap", "duplicate", "cut", "garbage", "second_reveal", "early_reveal",
         "foreign_header"]


@pytest.fixture(scope="module")
def original(tmp_path_factory, content) -> Path:
    path = tmp_path_factory.mktemp("tamper") / "m.jsonl"
    run(content, "xcom-trpg", "eliminate", seed_from_int(3), path, max_phases=4).close()
    return path


@pytest.fixture(scope="module")
def foreign(tmp_path_factory, content) -> bytes:
    path = tmp_path_factory.mktemp("foreign") / "f.jsonl"
    run(content, "xcom-trpg", "eliminate", seed_from_int(9), path, max_phases=1).close()
    return path.read_bytes().splitlines()[0]


def renumber(lines: list[bytes]) -> list[bytes]:
    """What a forger does after moving lines: every record numbered in order, every `prev` recomputed."""
    out: list[bytes] = []
    for n, raw in enumerate(lines, start=1):
        record = json.loads(raw)
        record["n"] = n
        record["prev"] = log.line_hash(out[-1]) if out else log.GENESIS
        out.append(codec.canonical(record).encode())
    return out


def with_roll(lines: list[bytes]) -> list[int]:
    return [i for i, raw in enumerate(lines) if b'"index":' in raw and b'"kind":"command"' in raw]


def harmless(raw: bytes) -> bool:
    """A checkpoint holds no fact the replay does not recompute; `ai` marks decide no die."""
    return b'"kind":"checkpoint"' in raw


def tamper(lines: list[bytes], kind: str, rng: random.Random, foreign: bytes) -> tuple[list[bytes], int, bool]:
    """The mutated lines, the (0-based) index of the first line changed, and whether only what a
    re-chaining forger may change unseen was touched (see `harmless`)."""
    out, free = _tamper(lines, kind, rng, foreign)
    return out[0], out[1], free


def _tamper(lines: list[bytes], kind: str, rng: random.Random, foreign: bytes):
    out = list(lines)
    inner = rng.randrange(1, len(out) - 1)  # never the header nor the reveal
    if kind == "byte":
        i = rng.randrange(len(out))
        raw = bytearray(out[i])
        at = rng.randrange(len(raw))
        raw[at] = (raw[at] + rng.randrange(1, 255)) % 256 or 1
        out[i] = bytes(raw).replace(b"\n", b" ")
        return (out, i), False
    if kind == "face":
        i = rng.choice(with_roll(out))
        record = json.loads(out[i])
        rolls = [r for e in record["events"] for r in e["rolls"] if r["index"] >= 0]
        roll = rng.choice(rolls)
        sides = int(roll["expr"].split("d")[-1].split("*")[0]) if "d" in roll["expr"] else 100
        roll["faces"][0] = roll["faces"][0] % max(2, sides) + 1
        out[i] = codec.canonical(record).encode()
        return (out, i), False
    if kind == "field":
        i = rng.randrange(1, len(out))
        record = json.loads(out[i])
        key = rng.choice([k for k in record if k not in ("n", "prev")])
        record[key] = rng.choice([None, 0, 1, "x", [], {}, True, 10**30, [[[[[1]]]]]])
        out[i] = codec.canonical(record).encode()
        return (out, i), harmless(lines[i]) or key == "ai"
    if kind == "delete":
        del out[inner]
        return (out, inner), harmless(lines[inner])
    if kind == "swap":
        out[inner], out[inner + 1] = out[inner + 1], out[inner]
        return (out, inner), False
    if kind == "duplicate":
        out.insert(inner, out[inner])
        return (out, inner + 1), harmless(lines[inner])
    if kind == "cut":
        return (out[:inner], inner), True
    if kind == "garbage":
        out.append(rng.choice([b"[" * 50_000, b"9" * 5000, b"\x00\xff\xfe", b'{"n":1}', b"null"]))
        return (out, len(out) - 1), False
    if kind == "second_reveal":
        out.append(codec.canonical({"n": len(out) + 1, "kind": "reveal", "seed": seed_from_int(2).hex(),
                                    "prev": log.line_hash(out[-1])}).encode())
        return (out, len(out) - 1), False
    if kind == "early_reveal":
        out.insert(inner, codec.canonical({"n": inner + 1, "kind": "reveal", "seed": json.loads(out[-1])["seed"],
                                           "prev": log.line_hash(out[inner - 1])}).encode())
        return (out, inner), False
    assert kind == "foreign_header"
    out[0] = foreign
    return (out, 0), False


def check(content, original: Path, tmp_path: Path, foreign: bytes, kind: str, rechained: bool, companion: bool,
          rng: random.Random, seen: set | None = None) -> None:
    lines = original.read_bytes().splitlines()
    mutated, first, free = tamper(lines, kind, rng, foreign)
    if rechained and kind not in ("byte", "garbage"):
        mutated = renumber(mutated)
    if mutated == lines:
        return  # a byte flipped to itself cannot be caught, and needs not be
    if seen is not None:  # the same bytes, seed file and claims as a log verified already: the same verdict
        key = (hashlib.sha256(b"\n".join(mutated)).digest(), len(mutated), kind, rechained, companion, first, free)
        if key in seen:
            return
        seen.add(key)
    path = tmp_path / f"{kind}.jsonl"
    path.write_bytes(b"".join(raw + b"\n" for raw in mutated))
    seed = log.seed_path(path)
    seed.unlink(missing_ok=True)
    if companion:
        shutil.copy(log.seed_path(original), seed)
    report = verify(content, path)
    if report.failure is None:  # only what the seed file alone pins may pass once it is gone
        assert not companion and free and (rechained or kind == "cut"), (kind, rechained, first, free)
        assert report.unfinished or kind != "cut"
        return
    assert report.failure.line is None or report.failure.line >= 1
    if not rechained and kind in ("byte", "field", "face", "delete", "swap", "duplicate", "garbage"):
        assert report.failure.line == first + 1, (kind, first + 1, report.failure)  # the line, named


def run_kinds(content, original, tmp_path, foreign, times: int) -> None:
    rng, seen = random.Random(14), set()  # a second reveal or a foreign header is the same log every time
    for kind in KINDS:
        for rechained in (False, True):
            for companion in (True, False):
                for _ in range(times):
                    check(content, original, tmp_path, foreign, kind, rechained, companion, rng, seen)


def test_every_kind_of_tampering_is_caught(content, original, tmp_path, foreign):
    run_kinds(content, original, tmp_path, foreign, times=1)


@pytest.mark.slow
def test_every_kind_of_tampering_is_caught_at_many_random_places(content, original, tmp_path, foreign):
    run_kinds(content, original, tmp_path, foreign, times=12)


def test_the_last_command_tampered_is_named_though_the_chain_breaks_before_the_reveal(content, original, tmp_path):
    """With no seed file, the seed comes from the reveal; a tampered last command breaks the chain just before the
    reveal, and the reveal past the break still proves its seed, so the replay names the tampered line itself."""
    lines = original.read_bytes().splitlines()
    last = max(i for i, raw in enumerate(lines) if b'"kind":"command"' in raw[:40])
    record = json.loads(lines[last])
    record["events"] = 0
    lines[last] = codec.canonical(record).encode()
    path = tmp_path / "last.jsonl"
    path.write_bytes(b"".join(raw + b"\n" for raw in lines))
    failure = verify(content, path).failure
    assert failure is not None and failure.line == last + 1, failure
