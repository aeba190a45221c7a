"""`replay --verify` at speed: one streaming pass that proves a good log good, or hands it to the full pass.

`verify.verify` asks this module first. It reads each line once, parses it once, checks its number and
chain hash, re-decides each command and compares the line with the record as recomputed (its events
and state hash, a checkpoint's anchor and trail), written as canonical JSON: bytes against bytes. It keeps only the states an undo or a checkpoint may still
reach (the undo trail), finds a checkpoint's anchor through an index rather than a list rebuilt each
time, and with jobs > 1 verifies checkpoint segments in worker processes, each from its checkpoint's
anchor, each segment's end held to the next anchor.

It never names a problem. Anything it cannot prove good (a divergence, a record written another way,
an undo deeper than the trail it keeps, an older log format) makes it answer None, and the full pass
in verify.py walks the log again and names the first divergence exactly. A log that verifies gives
the same report either way, whatever `jobs` is; tests/test_verify_fast.py holds the two passes equal.
"""

from __future__ import annotations

import gc
import hashlib
import json
from pathlib import Path
from typing import Any, Iterator, NamedTuple

from engine.ai import memory
from engine.content.models import Content
from engine.core import canon, codec
from engine.core.commands import Rejected
from engine.core.dice import Dice, Faces, commitment, seed_from_int
from engine.core.model import State
from engine.core.reducer import fold
from engine.log import writer as log
from engine.play import verify_segments as segments
from engine.play.game import UNDO_TRAIL, build, check_header
from engine.play.verify_segments import Start

KEEP = 2 * UNDO_TRAIL + 2  # branch entries (and their states) kept behind the head


class Unsure(Exception):
    """This pass cannot prove the log good; the full pass decides and names the problem."""


class Walk:
    """The live branch as far as it is kept, (record, rolled dice, byte offset) each, and its states.

    `cut` says entries below the kept ones exist but are gone: anything that would need them is Unsure.
    """

    def __init__(self, entries: list[tuple[int, bool, int]], states: dict[int, State], cut: bool) -> None:
        self.branch = entries
        self.states = states
        self.at = {n: i for i, (n, _r, _o) in enumerate(entries)}  # record -> its place on the branch
        self.cut = cut
        self.ended = 0  # the command line the mission ended on, once this walk has seen it

    def decided(self, n: int, events: list, offset: int, state: State) -> None:
        """A command line proven: on the branch, and the line the mission ended on if it did."""
        self.push(n, any(e.rolls for e in events), offset, state)
        if state.winner is not None and not self.ended:
            self.ended = n

    def push(self, n: int, rolled: bool, offset: int, state: State) -> None:
        self.at[n] = len(self.branch)
        self.branch.append((n, rolled, offset))
        self.states[n] = state
        if len(self.branch) > 2 * KEEP:  # forget all but the last KEEP: memory stays flat
            gone, self.branch = self.branch[:-KEEP], self.branch[-KEEP:]
            for old, _r, _o in gone:
                self.states.pop(old, None)
            self.at = {n: i for i, (n, _r, _o) in enumerate(self.branch)}
            self.cut = True

    def pop(self) -> None:
        n, _r, _o = self.branch.pop()
        del self.at[n]
        self.states.pop(n, None)


def verify(content: Content, path: Path, seed_file: Path | None = None, jobs: int = 1):
    """A Report when the log is proven good, else None (the full pass then explains)."""
    from engine.play.verify import Report, conclude

    try:
        found = _verify(content, path, seed_file, jobs)
        if found is None:
            return None
        source, first, ran = found
        lines = ends_read(first, ran)  # its end and line 1, as the seed file names them
        report = conclude(path, log.read_header(path), seed_file, Report(lines.count, None, source), lines)
    except Exception:  # noqa: BLE001 - whatever went wrong, the full pass finds it and says what
        return None
    return report if report.failure is None else None


def _verify(content: Content, path: Path, seed_file: Path | None, jobs: int) -> tuple[str, bytes, list[Ran]] | None:
    """(where the seed came from, line 1, what each segment read), or None for the full pass."""
    header = log.read_header(path)
    if header.get("version") != log.VERSION:
        return None  # an older format is upcast record by record: the full pass's work
    check_header(content, header)
    first, last = _ends(path)
    head = log.parse(first, 1)
    if head.get("n") != 1 or head.get("prev") != log.GENESIS or head != header:
        return None
    seed, source = _seed(header, log.parse(last, 0), seed_file, path)
    ruleset, initial = build(content, header)
    job = Job(content, header, seed, ruleset, initial, path)
    bounds = segments.starts(path, jobs) if jobs > 1 else []
    frozen = gc.isenabled()
    gc.disable()  # the collector would walk every state kept, again and again, for no cycle
    try:
        ran = [job.run(None, None)] if not bounds else segments.parallel(job, bounds, jobs)
    finally:
        if frozen:
            gc.enable()
    return source, first, ran


def ends_read(first: bytes, ran: list[Ran]):
    """`verify.Ends` as the segments read it on their way: no second read of the log."""
    from engine.play.verify import Ends

    ended = min((r.ended for r in ran if r.ended), default=0)  # segments overlap: each may have seen it
    return Ends(first, ran[-1].raw, ran[-1].last, ended)


class Ran(NamedTuple):
    """What a segment read: its last line's number and bytes, and the line the mission ended on (0: none)."""

    last: int
    raw: bytes
    ended: int


def _ends(path: Path) -> tuple[bytes, bytes]:
    """The first and the last line."""
    with open(path, "rb") as f:
        first = f.readline().rstrip(b"\n")
        size = f.seek(0, 2)
        back = min(size, 1 << 16)
        f.seek(size - back)
        last = f.read(back).rstrip(b"\n").rsplit(b"\n", 1)[-1]
    return first, last


def _seed(header: dict[str, Any], last: dict[str, Any], seed_file: Path | None, path: Path) -> tuple[bytes, str]:
    """As the full pass finds it: the reveal (here: only on the last line), a public seed, else the seed file."""
    if last.get("kind") == "reveal":
        seed = bytes.fromhex(last["seed"])
        if commitment(seed) != header.get("seed_commitment"):
            raise Unsure
        return seed, "revealed"
    public = header.get("seed_public")
    if isinstance(public, int) and not isinstance(public, bool):  # check_header proved it the committed one
        return seed_from_int(public), f"public seed {public}"
    candidate = seed_file or log.seed_path(path)
    seed = log.read_seed(candidate)
    if commitment(seed) != header.get("seed_commitment"):
        raise Unsure
    return seed, str(candidate)


class Job:
    """Everything a segment needs; a forked worker inherits it."""

    def __init__(self, content: Content, header: dict[str, Any], seed: bytes, ruleset, initial: State,
                 path: Path) -> None:
        self.content, self.header, self.seed, self.ruleset, self.initial = content, header, seed, ruleset, initial
        self.path = path
        self.casual = bool(header["mission"].get("casual"))

    def run(self, start: Start | None, end: int | None) -> Ran:
        """Lines after `start` (None: from the header) up to line `end` (None: the end of the log): the last
        line's number and bytes, and the line the mission ended on (0: not in these lines)."""
        with open(self.path, "rb") as f:
            if start is None:
                raw = f.readline().rstrip(b"\n")
                n, walk, covered = 1, Walk([(1, False, 0)], {1: self.initial}, cut=False), 0
            else:
                n, covered = start.line, start.covered
                f.seek(start.offset)
                raw = f.readline().rstrip(b"\n")
                walk = self._restore(start, raw)
            last, raw = self._lines(_lines(f, raw, n, f.tell()), walk, end, n, raw, covered)
        if end is not None and last != end:
            raise Unsure
        return Ran(last, raw, walk.ended)

    def _restore(self, start: Start, raw: bytes) -> Walk:
        """The branch from a command line, its state read from the anchor of the checkpoint `start` names and
        held to the hash on that line. The segment before this one re-decides that line, so its hash, and
        the state it hashes, are proven there."""
        checkpoint = log.parse(log.read_at(self.path, start.checkpoint), 0)
        anchor = checkpoint.get("anchor")
        record = log.parse(raw, start.line)
        if not isinstance(anchor, dict) or anchor.get("of") != start.line or record.get("n") != start.line \
                or record.get("kind") != "command":
            raise Unsure
        state = codec.load_state(anchor["state"], self.initial.grid)
        if codec.state_hash(state) != record.get("state"):
            raise Unsure
        return Walk([(start.line, False, start.offset)], {start.line: state}, cut=True)

    def _decide(self, base: State, command: Any):
        events = self.ruleset.decide(base, codec.load_command(command), Dice(self.faces, base.dice))
        if isinstance(events, Rejected):
            raise Unsure
        return events, fold(base, events)

    @property
    def faces(self) -> Faces:
        faces = self.__dict__.get("_faces")
        if faces is None:
            faces = self.__dict__["_faces"] = Faces(self.seed)
        return faces

    def _lines(self, lines: Iterator[tuple[int, bytes, int, str]], walk: Walk, end: int | None,
               n: int, raw: bytes, covered: int) -> tuple[int, bytes]:
        """Each line held to the rules; a checkpoint up to line `covered` may name an anchor before this
        segment's start: the segment before checks it."""
        revealed = False
        for n, raw, offset, prev in lines:
            if revealed:
                raise Unsure  # a reveal before the last line: the full pass reads it as the seed
            if self._as_written(walk, raw, n, offset, prev) or self._checkpoint_written(walk, raw, n, prev):
                if n == end:
                    break
                continue
            record = json.loads(raw)
            if not isinstance(record, dict) or record.get("n") != n or record.get("prev") != prev:
                raise Unsure
            kind = record.get("kind")
            if kind == "command":
                self._command(walk, record, n, offset)
            elif kind == "undo":
                self._undo(walk, record)
            elif kind == "checkpoint":
                anchor = record.get("anchor")
                if n > covered or not isinstance(anchor, dict) or anchor.get("of") in walk.at:
                    self._checkpoint(walk, record, raw)
            elif kind == "reveal":
                if bytes.fromhex(record["seed"]) != self.seed or walk.states[walk.branch[-1][0]].winner is None:
                    raise Unsure  # one reveal, after the mission's end (the full pass names an early one)
                revealed = True
            else:
                raise Unsure
            if n == end:
                break
        return n, raw

    def _as_written(self, walk: Walk, raw: bytes, n: int, offset: int, prev: str) -> bool:
        """A command line held to the very bytes the game writes, without parsing the whole line: its head
        (number, kind, base) as expected, its command parsed alone, then everything after the command
        recomputed and compared as bytes. Equal bytes parse to the record the full pass would accept.
        False when the line is not of that shape (it is then parsed and checked as a record)."""
        base_n = walk.branch[-1][0]
        head = b'{"n":%d,"kind":"command","base":%d,"command":' % (n, base_n)
        if not raw.startswith(head):
            return False
        cut = raw.find(b',"events":', len(head))  # no command has an `events` field, and a string holds no bare `"`
        base = walk.states[base_n]
        if cut < 0 or base.winner is not None:
            return False
        try:
            command = json.loads(raw[len(head):cut])
        except ValueError:
            return False
        events, state = self._decide(base, command)
        ai = raw.endswith(b',"ai":true,"prev":"%s"}' % prev.encode())
        line = log.CommandRecord(base_n, raw[len(head):cut], canon.events_text(events, base).encode(),
                                 codec.state_hash(state), ai).line(n, prev)  # as the game writes it
        if line != raw:
            return False  # written another way: parsed and held to the full pass's rules instead
        walk.decided(n, events, offset, state)
        return True

    def _checkpoint_written(self, walk: Walk, raw: bytes, n: int, prev: str) -> bool:
        """A checkpoint line held to the bytes the game writes (Game.checkpoint) without parsing it whole: its head,
        the anchor's state (canon.state_text: each unit's text kept on the unit) and trail as recomputed, then
        the AIs' memories parsed alone. False when the line is not of that shape (`_checkpoint` then decides)."""
        head = b'{"n":%d,"kind":"checkpoint","of":%d,"anchor":{"of":' % (n, walk.branch[-1][0])
        if not raw.startswith(head):
            return False
        cut = raw.find(b',"state":', len(head), len(head) + 24)
        of = raw[len(head):cut]
        at = walk.at.get(int(of)) if cut > 0 and of.isdigit() and b"%d" % int(of) == of else None
        state = walk.states.get(int(of)) if at is not None else None
        if state is None:
            return False
        trail = [[t, offset, rolled] for t, rolled, offset in walk.branch[at + 1:]]
        body = b'%s,"state":%s},"trail":%s' % (raw[:cut], canon.state_text(state).encode(),
                                                codec.canonical(trail).encode())
        end = b',"prev":"%s"}' % prev.encode()
        if not (raw.startswith(body) and raw.endswith(end)) or len(raw) < len(body) + len(end):
            return False
        minds = raw[len(body):len(raw) - len(end)]
        if minds:  # the AIs' memories must read back, as a resume reads them
            if not minds.startswith(b',"ai":{'):
                return False
            try:
                found = json.loads(minds[6:])
                if codec.canonical(found).encode() != minds[6:]:
                    return False
                for data in found.values():
                    memory.decode(data)
            except (ValueError, RecursionError):
                return False
        return True

    def _command(self, walk: Walk, record: dict[str, Any], n: int, offset: int) -> None:
        base_n = walk.branch[-1][0]
        if record.get("base") != base_n or walk.states[base_n].winner is not None or record.get("ai", True) is not True:
            raise Unsure  # a command after the end, or an AI mark that is not `true`: the full pass names it
        events, state = self._decide(walk.states[base_n], record.get("command"))
        if canon.events_text(events, walk.states[base_n]) != codec.canonical(record.get("events")) \
                or record.get("state") != codec.state_hash(state):
            raise Unsure  # the full pass's rules, for a line written another way: it names the difference
        walk.decided(n, events, offset, state)

    def _undo(self, walk: Walk, record: dict[str, Any]) -> None:
        branch = walk.branch
        if len(branch) < 2 or (len(branch) < 3 and not walk.cut):
            raise Unsure
        if record.get("undone") != branch[-1][0] or record.get("base") != branch[-2][0]:
            raise Unsure
        if branch[-1][1] and not self.casual:
            raise Unsure
        undone = walk.states.get(branch[-1][0])
        if undone is None or undone.winner is not None:
            raise Unsure
        walk.pop()
        head = walk.states.get(branch[-1][0])
        if head is None or record.get("state") != codec.state_hash(head):
            raise Unsure

    def _checkpoint(self, walk: Walk, record: dict[str, Any], raw: bytes) -> None:
        of = walk.branch[-1][0]
        anchor = record.get("anchor")
        if record.get("of") != of or not isinstance(anchor, dict):
            raise Unsure
        at = walk.at.get(anchor.get("of"))  # type: ignore[arg-type]
        state = walk.states.get(anchor.get("of")) if at is not None else None  # type: ignore[arg-type]
        if state is None:
            raise Unsure
        dumped = codec.dump_state(state)
        trail = [[t, offset, rolled] for t, rolled, offset in walk.branch[at + 1:]]
        line = codec.canonical({**record, "anchor": {**anchor, "state": dumped}, "trail": trail}).encode()
        if line != raw and (codec.canonical(dumped) != codec.canonical(anchor.get("state"))
                            or codec.canonical(trail) != codec.canonical(record.get("trail"))):
            raise Unsure
        minds = record.get("ai", {})  # the AIs' memory must read back, as a resume reads it
        if not isinstance(minds, dict):
            raise Unsure
        try:
            for data in minds.values():
                memory.decode(data)
        except ValueError:
            raise Unsure from None


def _lines(f, first: bytes, n: int, offset: int) -> Iterator[tuple[int, bytes, int, str]]:
    """(number, raw line, byte offset, hash of the line before) for each line after `first` (line n)."""
    prev = hashlib.sha256(first).hexdigest()
    for raw in f:
        n += 1
        stripped = raw.rstrip(b"\n")
        yield n, stripped, offset, prev
        prev = hashlib.sha256(stripped).hexdigest()
        offset += len(raw)
