"""`xenotac campaign verify NAME`: re-derive a whole campaign and every mission it launched.

The campaign log's chain is walked (an edited, deleted or moved line is named), then every command is decided again
on its record's dice and its events compared with the logged ones. Each mission debriefed is verified with the
mission log's own `replay --verify`, and held to its link: its header names this campaign and the record that
launched it, its seed is the one the campaign gives it, its squad the one sent, and its last line has the hash the
debrief recorded, so a mission log edited (or replaced) afterwards is caught. The first divergence is named.

The seed comes from the header when it is public, else from `campaign.jsonl.seed`: the player verifies their own
campaign (it is secret to everyone else, and never revealed while the campaign goes on).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from engine.campaign import decide as d
from engine.campaign.codec import CodecError
from engine.campaign.ledger import LOG, Ledger, check_header, command_dice, mission_number
from engine.campaign.state import Flight, fold
from engine.content import missions as sides
from engine.content.models import Content
from engine.core.codec import canonical
from engine.core.commands import Rejected
from engine.core.dice import commitment, seed_from_int
from engine.log import writer as log
from engine.log.chain import chain


@attrs.frozen
class Report:
    records: int
    missions: int  # missions verified
    failure: str | None = None
    notes: tuple[str, ...] = ()


def verify(content: Content, folder: Path) -> Report:
    path = folder / LOG
    if not path.is_file():
        raise log.LogError(f"no campaign {folder.name!r} in {folder.parent} (`xenotac campaign list`)")
    lines, broken = chain(path)
    if not lines:
        return Report(0, 0, f"campaign log: {broken}")
    header = lines[0][2]
    try:
        check_header(content, header)
        seed = _seed(path, header, lines[0][1])
        book = Ledger(content, header, seed, None)
    except (log.LogError, CodecError) as exc:
        return Report(0, 0, f"campaign log: {_located(exc, 1)}")
    book.hashes[1] = log.line_hash(lines[0][1])
    flown = 0
    for n, raw, record in lines[1:]:
        book.hashes[n] = log.line_hash(raw)
        try:
            command = book.codec.load_command(record.get("command"))
            logged = book.events_of(record, n)  # they read, or the line is named
        except (CodecError, log.LogError) as exc:
            return Report(n, flown, f"campaign log line {n}: {_located(exc, n).removeprefix(f'line {n}: ')}")
        final = None
        if isinstance(command, d.Debrief) and book.state.flying is not None:
            flight = book.state.flying
            problem, final = _mission(content, folder, book, flight, command)
            if problem:
                return Report(n, flown, f"mission {flight.offer.id} ({flight.log}): {problem}")
            flown += 1
        events = d.decide(book.state, command, book.rules, command_dice(seed, n), n, final)
        if isinstance(events, Rejected):
            return Report(n, flown, f"campaign log line {n}: its command is refused when decided again ({events})")
        expected = [book.codec.dump(e) for e in events]
        if canonical(expected) != canonical(record["events"]):
            return Report(n, flown, f"campaign log line {n}: {_difference(expected, record['events'])}")
        book.state = fold(book.state, logged)
    if broken is not None:
        return Report(len(lines), flown, f"campaign log {broken}")
    notes = []
    if book.state.flying is not None:
        notes.append(f"mission {book.state.flying.offer.id} is under way: it is verified once it is debriefed")
    if header["seed_public"] is not False:
        notes.append(f"public seed {header['seed_public']}: anyone could foresee this campaign's dice")
    return Report(len(lines), flown, None, tuple(notes))


def _seed(path: Path, header: dict[str, Any], first: bytes) -> bytes:
    if header["seed_public"] is not False:
        return seed_from_int(header["seed_public"])
    companion = log.read_companion(log.seed_path(path))
    if commitment(companion.seed) != header["seed_commitment"]:
        raise log.LogError(f"{log.seed_path(path).name} is not the seed this campaign committed to")
    if companion.header is not None and companion.header != log.line_hash(first):
        raise log.LogError("the header was changed after it was written (the seed file holds its hash)", 1)
    return companion.seed


def _mission(content: Content, folder: Path, book: Ledger, flight: Flight, command: d.Debrief):
    """(why the mission log does not hold what the debrief says, or None; its final state)."""
    from engine.play import roster
    from engine.play.timeline import Timeline
    from engine.play.verify import verify as verify_mission

    path = folder / flight.log
    if not path.is_file():
        return "its log is missing", None
    try:
        header = log.read_header(path)
    except log.LogError as exc:
        return str(exc), None
    link = {"name": book.name, "record": flight.record, "hash": book.hashes.get(flight.record)}
    if header.get("campaign") != link:
        return f"its header does not name campaign record {flight.record} as the one that launched it", None
    if header.get("seed_commitment") != commitment(seed_from_int(mission_number(book.seed, flight.offer.id))):
        return "its seed is not the one the campaign gives it", None
    squad = roster.to_header(book.characters(flight.squad))
    if (header.get("mission") or {}).get("squad", []) != squad or header["mission"].get("id") != flight.offer.mission:
        return "its mission or squad is not the one the campaign sent", None
    report = verify_mission(content, path)
    if report.failure is not None:
        return str(report.failure), None
    if report.unfinished:
        return f"the debrief says it ended, but {report.unfinished}", None
    last = b""
    for _n, _off, raw in log.read_lines(path):
        last = raw
    if log.line_hash(last) != command.hash:
        return "its last line is not the one its debrief recorded (the log was changed afterwards)", None
    timeline = Timeline(content, path)
    final = timeline.state_at(timeline.final)
    if (final.winner == sides.PLAYER) != command.won or (final.ended or "") != command.result:
        return f"it ended {final.ended!r}, not as its debrief says ({command.result!r})", None
    return None, final


def _difference(expected: list[Any], found: Any) -> str:
    if not isinstance(found, list):
        return "its events are not a list"
    for i, (e, f) in enumerate(zip(expected, found), start=1):
        if canonical(e) != canonical(f):
            keys = [k for k in e if not isinstance(f, dict) or canonical(e.get(k)) != canonical(f.get(k))]
            return f"event {i} ({e.get('kind')}) differs from what the rules decide ({', '.join(keys) or 'its keys'})"
    return f"{len(found)} events logged where the rules decide {len(expected)}"


def _located(exc: Exception, n: int) -> str:
    line = getattr(exc, "line", None)
    text = str(exc)
    return text if line or text.startswith("line ") else f"line {n}: {text}" if n > 1 else text
