"""`replay --verify`: recompute a whole mission from its header, seed and commands.

Two passes. The first walks the hash chain and the record numbers, so an edited, deleted,
swapped or truncated line is named by its number. The second re-decides every command against
the seeded dice and compares every event and state hash.

A quick streaming pass (verify_fast.py, `jobs` worker processes) goes first: a log it proves good
is reported at once; anything else is walked here, which names the first divergence.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs

from engine.ai import memory
from engine.core import canon, codec
from engine.log import writer as log
from engine.log.chain import Failure, chain
from engine.core.commands import Rejected
from engine.content.models import Content
from engine.core.dice import Dice, Faces, commitment, seed_from_int
from engine.log.reading import first_malformed, seed_note
from engine.play import verify_fast
from engine.play.game import build, check_header
from engine.core.model import State
from engine.core.reducer import fold


@attrs.frozen
class Report:
    records: int
    failure: Failure | None
    seed_source: str = ""
    unfinished: str = ""  # said plainly when the log holds a mission that has not ended (yet)
    seed_note: str = ""  # a public seed: anyone could foresee these dice


def verify(content: Content, path: Path, seed_file: Path | None = None, jobs: int = 1) -> Report:
    proven = verify_fast.verify(content, path, seed_file, jobs)  # it holds the records to the same rules
    if proven is not None:
        return proven
    try:
        header = log.read_header(path)  # format and version first: a log from elsewhere is said so plainly
        lines, broken = chain(path)
    except log.LogError as exc:
        return Report(0, Failure(exc.line, str(exc).split(": ", 1)[-1] if exc.line else str(exc)))
    if broken and not lines:
        return Report(0, broken)
    try:
        check_header(content, header)
    except log.LogError as exc:
        return Report(0, Failure(1, str(exc).split(": ", 1)[-1]))
    companion, problem = _companion(path, seed_file, lines[0][1])
    if problem:
        return Report(0, problem)
    seed, source, problem = _seed(lines, header, seed_file, path, companion)
    if problem and broken:  # the reveal past a break still proves its seed (the commitment): replay up to the break
        seed, source = _reveal_past(path, header)
        problem = None if seed is not None else problem
    if problem:  # a break hides the reveal after it: name the break, not the missing seed
        return Report(0, broken if broken and problem.line is None else problem)
    assert seed is not None
    replay_failure = _replay(content, header, seed, lines)
    failure = broken or replay_failure
    if broken and replay_failure and replay_failure.line and broken.line and replay_failure.line < broken.line:
        failure = replay_failure
    if failure is not None:
        return Report(len(lines), failure, source)
    return conclude(path, header, seed_file, Report(len(lines), None, source), ends(raw for _n, raw, _r in lines))


@attrs.frozen
class Ends:
    """What `conclude` reads of a log's lines: the first and the last, how many, and the line the mission ended on
    (0 if none did). Made in one pass over the lines, keeping none of them: memory stays flat."""

    first: bytes
    last: bytes
    count: int
    ended: int


def ends(raws) -> Ends:
    first = last = b""
    count = ended = 0
    for count, raw in enumerate(raws, start=1):
        if count == 1:
            first = raw
        last = raw
        if not ended and _ends_mission(raw, count):
            ended = count
    return Ends(first, last, count, ended)


def _ends_mission(raw: bytes, n: int) -> bool:
    """Whether line n is the command that ended the mission (in a verified log none is undone: an undo after the
    end is refused)."""
    return b'"kind":"ended"' in raw and raw.startswith(b'{"n":%d,"kind":"command"' % n) and any(
        e.get("kind") == "ended" for e in log.parse(raw, n).get("events", []))


def conclude(path: Path, header: dict[str, Any], seed_file: Path | None, report: Report,
              lines: Ends) -> Report:
    """A log whose records verify, held to what the seed file says of line 1 and of its end, and said plainly:
    unfinished, or of a public seed. Both passes end here (verify_fast too), so they report alike."""
    companion, problem = _companion(path, seed_file, lines.first)
    if problem:
        return Report(0, problem)
    if companion is not None and companion.end is not None:
        failure = _ending(lines, companion.end)
        if failure:
            return Report(report.records, failure, report.seed_source)
    unfinished = ""
    if b'"kind":"reveal"' not in lines.last[:40]:  # a verified log's reveal can only be its last line
        ended = lines.ended
        unfinished = (f"unfinished: the mission ended on line {ended}, but the seed was never revealed "
                      "(resuming it writes the reveal)" if ended else
                      f"unfinished: the mission has not ended; the log stops at line {lines.count}")
    note = seed_note(header) if "seed_public" in header and header["seed_public"] is not False else ""
    return attrs.evolve(report, unfinished=unfinished, seed_note=note)


def _companion(path: Path, seed_file: Path | None, first: bytes) -> tuple[log.Companion | None, Failure | None]:
    """The seed file given, and the one beside the log: what they say of line 1 and of the end. The given one
    supplies the seed; the end is taken from either (an old copy given with --seed-file must not hide it)."""
    found: list[tuple[Path, log.Companion]] = []
    for candidate in dict.fromkeys([p for p in (seed_file, log.seed_path(path)) if p is not None]):
        if candidate != seed_file and not candidate.exists():
            continue
        try:
            found.append((candidate, log.read_companion(candidate)))
        except log.LogError as exc:
            if candidate == seed_file:
                return None, Failure(None, str(exc))
    for candidate, companion in found:
        if companion.header is not None and log.line_hash(first) != companion.header:
            return None, Failure(1, f"the header is not the one this mission was started with ({candidate.name} "
                                    "holds the hash of the original)")
    if not found:
        return None, None
    end = next((c.end for _p, c in found if c.end is not None), None)
    return attrs.evolve(found[0][1], end=end), None


def _ending(lines: Ends, end: tuple[int, str]) -> Failure | None:
    """The seed file names the line the mission ended on: the log must stop there, with that very line."""
    last, digest = end
    have = lines.count
    if have < last:
        return Failure(have + 1, f"the log was cut short: the mission ended on line {last} (the seed file says so), "
                                 f"but the log stops at line {have}, its last good line")
    if have > last:
        return Failure(last + 1, f"records after the mission's last line {last} (the seed file says so)")
    if log.line_hash(lines.last) != digest:
        return Failure(last, "this is not the line the mission ended on (the seed file holds another hash)")
    return None


def _reveal_past(path: Path, header: dict[str, Any]) -> tuple[bytes | None, str]:
    """The seed of a reveal on the log's last line, when the chain broke before it: the record before the break
    may be the one tampered with, and only a replay can tell."""
    try:
        with log.open_log(path) as f:
            size = f.seek(0, 2)
            f.seek(max(0, size - 4096))
            last = f.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
        record = json.loads(last)
        seed = bytes.fromhex(record["seed"]) if record.get("kind") == "reveal" else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError, log.LogError):
        return None, ""
    if seed is None or commitment(seed) != header.get("seed_commitment"):
        return None, ""
    return seed, "revealed on the last line"


def _seed(lines, header, seed_file: Path | None, path: Path,
          companion: log.Companion | None) -> tuple[bytes | None, str, Failure | None]:
    for n, _raw, record in lines:
        if record.get("kind") == "reveal":
            try:
                seed = bytes.fromhex(record["seed"])
            except (KeyError, TypeError, ValueError):
                return None, "", Failure(n, "the revealed seed is not hex")
            if commitment(seed) != header.get("seed_commitment"):
                return None, "", Failure(n, "the revealed seed does not match the commitment on line 1 "
                                            "(a forged reveal, or a header from another mission)")
            return seed, "revealed", None
    public = header.get("seed_public")
    if isinstance(public, int) and not isinstance(public, bool):  # check_header proved it is the committed one
        return seed_from_int(public), f"public seed {public}", None
    candidate = seed_file or log.seed_path(path)
    if companion is None:
        try:
            companion = log.read_companion(candidate)
        except log.LogError as exc:
            bad = first_malformed(lines)  # a reveal tampered out of shape is that line's fault, not a missing seed's
            if bad is not None:
                return None, "", Failure(bad[0], f"malformed record: {bad[1]}")
            return None, "", Failure(None, f"the seed is not revealed yet and {exc}; pass --seed-file")
    if commitment(companion.seed) != header.get("seed_commitment"):
        return None, "", Failure(None, f"{candidate} is not the seed this log committed to")
    return companion.seed, str(candidate), None


def _replay(content: Content, header: dict[str, Any], seed: bytes, lines) -> Failure | None:
    """Re-decide every command, and hold undo, checkpoint and reveal records to the kernel's own rules."""
    ruleset, initial = build(content, header)
    faces = Faces(seed)
    casual = bool(header["mission"].get("casual"))
    states: dict[int, State] = {1: initial}
    branch: list[tuple[int, bool, int]] = [(1, False, 0)]  # (record, rolled dice, byte offset): the live history
    offset, revealed = 0, 0
    for n, raw, record in lines:
        here, offset = offset, offset + len(raw) + 1
        if n == 1:
            continue
        kind = record.get("kind")
        if revealed:
            what = "a second reveal" if kind == "reveal" else "a record"
            return Failure(n, f"{what} after the reveal on line {revealed} (there is one, and it ends the log)")
        try:
            if kind == "command":
                if record.get("base") != branch[-1][0]:
                    return Failure(n, f"a command must follow the current record {branch[-1][0]}, "
                                      f"not {record.get('base')!r}")
                if states[branch[-1][0]].winner is not None:
                    return Failure(n, f"a command after the mission ended on line {branch[-1][0]}")
                if record.get("ai", True) is not True:
                    return Failure(n, "its mark of the AI's commands is not `true`")
                problem = _command(ruleset, faces, states, n, record)
                if problem:
                    return problem
                branch.append((n, any(e.get("rolls") for e in record["events"]), here))
            elif kind == "undo":
                problem = _undo(states, branch, casual, record)
                if problem:
                    return Failure(n, problem)
            elif kind == "checkpoint":
                problem = _checkpoint(states, branch, record)
                if problem:
                    return Failure(n, problem)
            elif kind == "reveal":
                if states[branch[-1][0]].winner is None:
                    return Failure(n, "the seed is revealed before the mission ended")
                revealed = n
            else:
                return Failure(n, f"unknown record kind {str(kind)[:40]!r}")
        except (codec.CodecError, KeyError, TypeError, AttributeError, ValueError) as exc:
            return Failure(n, f"malformed record: {str(exc)[:200]}")
    return None


def _undo(states: dict[int, State], branch: list[tuple[int, bool, int]], casual: bool,
          record: dict[str, Any]) -> str | None:
    if len(branch) < 3 or record.get("undone") != branch[-1][0] or record.get("base") != branch[-2][0]:
        return f"undo of {record.get('undone')!r} back to {record.get('base')!r} is not the last command"
    if branch[-1][1] and not casual:
        return "an undo across a dice roll in a mission that is not casual"
    if states[branch[-1][0]].winner is not None:
        return "an undo after the mission ended"
    branch.pop()
    if record.get("state") != codec.state_hash(states[branch[-1][0]]):
        return "state hash after undo does not match"
    return None


def _checkpoint(states: dict[int, State], branch: list[tuple[int, bool, int]], record: dict[str, Any]) -> str | None:
    if record.get("of") != branch[-1][0]:
        return f"checkpoint of record {record.get('of')!r}, but the current record is {branch[-1][0]}"
    anchor = record["anchor"]
    numbers = [n for n, _rolled, _offset in branch]
    if anchor.get("of") not in numbers:
        return f"checkpoint anchor {anchor.get('of')!r} is not on the current branch"
    at = numbers.index(anchor["of"])
    if codec.canonical(codec.dump_state(states[anchor["of"]])) != codec.canonical(anchor.get("state")):
        return "checkpoint state differs from the recomputed one"
    trail = [[n, offset, rolled] for n, rolled, offset in branch[at + 1:]]
    if codec.canonical(trail) != codec.canonical(record.get("trail")):
        return "checkpoint trail does not match the records on the current branch"
    minds = record.get("ai", {})  # what the AIs remember decides only which legal commands they give next
    try:
        for data in (minds.values() if isinstance(minds, dict) else [None]):
            memory.decode(data)
    except ValueError as exc:
        return f"checkpoint: {exc}"
    return None


def _command(ruleset, faces: Faces, states: dict[int, State], n: int, record: dict[str, Any]) -> Failure | None:
    base = states.get(record.get("base"))  # type: ignore[arg-type]
    if base is None:
        return Failure(n, f"command on unknown record {record.get('base')!r}")
    command = codec.load_command(record.get("command"))
    dice = Dice(faces, base.dice)
    events = ruleset.decide(base, command, dice)
    if isinstance(events, Rejected):
        return Failure(n, f"the command is not legal here: {events}")
    found = record.get("events")
    if canon.events_text(events, base) != codec.canonical(found):  # as the game writes them; not ==: 0, 0.0 and false
        return Failure(n, _first_difference([codec.dump_event(e) for e in events], found))  # differ in a log
    state = fold(base, events)
    if record.get("state") != codec.state_hash(state):
        return Failure(n, f"state hash: expected {codec.state_hash(state)}, found {record.get('state')}")
    states[n] = state
    return None


def _first_difference(expected: list[Any], found: Any) -> str:
    if not isinstance(found, list):
        return "events are not a list"
    for i, (e, f) in enumerate(zip(expected, found)):
        if not _same(e, f):
            path, ev, fv = _diff(e, f, f"event {i + 1}")
            return f"{path}: expected {json.dumps(ev, ensure_ascii=False)}, found {json.dumps(fv, ensure_ascii=False)}"
    return f"expected {len(expected)} events, found {len(found)}"


def _diff(e: Any, f: Any, path: str) -> tuple[str, Any, Any]:
    if isinstance(e, dict) and isinstance(f, dict):
        for k in list(e) + [k for k in f if k not in e]:
            if not _same(e.get(k), f.get(k)):
                return _diff(e.get(k), f.get(k), f"{path}.{k}")
    if isinstance(e, list) and isinstance(f, list) and len(e) == len(f):
        for i, (a, b) in enumerate(zip(e, f)):
            if not _same(a, b):
                return _diff(a, b, f"{path}[{i}]")
    return path, e, f


def _same(a: Any, b: Any) -> bool:
    return codec.canonical(a) == codec.canonical(b)
