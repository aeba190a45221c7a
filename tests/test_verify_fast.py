"""The quick verify pass (engine/play/verify_fast.py) proves good logs good, with any number of jobs,
and never passes a log the full pass refuses: that one names the divergence, exactly as before."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from engine.ai.planner import Ai
from engine.core import codec
from engine.core.commands import Rejected
from engine.core.dice import seed_from_int
from engine.log import writer as log
from engine.play import verify, verify_fast, verify_segments
from engine.play.game import Game
from engine.play.simulate import run


def full(content, path: Path, seed_file: Path | None = None, monkeypatch=None):
    """The full pass alone: the quick one made to say it is not sure."""
    monkeypatch.setattr(verify_fast, "verify", lambda *a, **k: None)
    try:
        return verify.verify(content, path, seed_file)
    finally:
        monkeypatch.undo()


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes()[:-1].split(b"\n")


def write(path: Path, lines: list[bytes], like: Path) -> Path:
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    shutil.copy(log.seed_path(like), log.seed_path(path))
    return path


def rechain(lines: list[bytes], start: int) -> list[bytes]:
    out = list(lines)
    for i in range(max(start, 1), len(out)):
        record = json.loads(out[i])
        record["prev"] = log.line_hash(out[i - 1])
        out[i] = codec.canonical(record).encode()
    return out


def casual_game(content, path: Path, seed: int, records: int, undo_every: int = 7) -> Path:
    """AI play with an undo now and then, left unfinished: the seed file, not a reveal."""
    game = Game.new(content, "xcom-trpg", "eliminate", seed_from_int(seed), path, casual=True, max_phases=10**6)
    ais = {side: Ai(game.ruleset, side) for side in game.state.sides}
    steps = 0
    while game.writer.next_line <= records and game.state.winner is None:
        ai = ais[game.state.side]
        command = ai.next_command(game.state)
        if isinstance(game.submit(command), Rejected):
            ai.rejected(command, Rejected("x", "x"))
        steps += 1
        if steps % undo_every == 0:
            game.undo()
    assert game.state.winner is None, "the mission ended before the records the test needs: pick another seed"
    game.close()
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory, content) -> list[Path]:
    folder = tmp_path_factory.mktemp("quick")
    out = [run(content, "xcom-trpg", m, seed_from_int(s), folder / f"{m}-{s}.jsonl").path
           for m in content.missions for s in (1, 2)]
    out += [casual_game(content, folder / f"casual-{s}.jsonl", s, 200) for s in (3, 5)]  # both last past 200 lines
    return out


def test_every_mission_log_is_proven_good_as_the_full_pass_finds_it(logs, content, monkeypatch):
    for path in logs:
        quick = verify_fast.verify(content, path)
        assert quick is not None, path
        assert quick == full(content, path, monkeypatch=monkeypatch)


@pytest.mark.parametrize("jobs", [2, 3])
@pytest.mark.parametrize("fork", [True, False])
def test_segments_in_workers_give_the_same_report(logs, content, monkeypatch, jobs, fork):
    """Forked workers, and workers started afresh (a process with threads is never forked)."""
    monkeypatch.setattr(verify_segments, "SEGMENT_MIN", 50)  # short logs in segments too
    monkeypatch.setattr(verify_segments, "SPAWN_MIN", 50)
    if fork and not verify_segments._can_fork():
        pytest.skip("this process has other threads: it is never forked")
    monkeypatch.setattr(verify_segments, "_can_fork", lambda: fork)
    for path in logs if fork else logs[-3:]:
        assert verify_segments.starts(path, jobs) or len(lines_of(path)) < 200
        assert verify_fast.verify(content, path, jobs=jobs) is not None, path  # the workers proved it
        assert verify.verify(content, path, jobs=jobs) == verify.verify(content, path, jobs=1)



@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_the_ends_read_on_the_way_are_those_of_a_read_of_the_whole_log(logs, content, monkeypatch, jobs):
    """Line 1, the last line, how many and the line the mission ended on, as the segments saw them: what
    `verify.ends` reads line by line, for missions won, lost and left unfinished."""
    monkeypatch.setattr(verify_segments, "SEGMENT_MIN", 50)
    monkeypatch.setattr(verify_segments, "SPAWN_MIN", 50)
    fork = verify_segments._can_fork()  # a test worker with threads starts its workers afresh: slower, fewer logs
    chosen = logs if fork or jobs == 1 else logs[-4:]  # the last four: two finished, two left unfinished
    ended = 0
    for path in chosen:
        _source, first, ran = verify_fast._verify(content, path, None, jobs)
        got = verify_fast.ends_read(first, ran)
        assert got == verify.ends(raw for _n, _o, raw in log.read_lines(path)), path
        ended += bool(got.ended)
    assert 0 < ended < len(chosen)  # finished missions and unfinished ones


def test_segments_start_at_anchors_and_share_the_log_by_bytes(tmp_path, monkeypatch):
    """A worker starts at a checkpoint's anchor (that checkpoint holds its state) near its share of the bytes
    (a long line, an AI's walk, is long work); the segment before ends at the last checkpoint before that one,
    whose anchor the worker may not hold."""
    path = tmp_path / "marks.jsonl"
    pad = {n: b" " * (400 - len(b"%d" % n) if n <= 1000 else 40) for n in range(1, 2001)}  # lines 1-1000: long
    anchor = {n: (1 if n == 50 else n - 60) for n in range(50, 2001, 50)}  # a trail reaches past the last one
    path.write_bytes(b"".join((b'{"n":%d,"kind":"checkpoint","of":%d,"anchor":{"of":%d,%s}}\n'
                               % (n, n - 1, anchor[n], pad[n]) if n in anchor else b'{"n":%d%s}\n' % (n, pad[n]))
                              for n in range(1, 2001)))
    monkeypatch.setattr(verify_segments, "_can_fork", lambda: True)
    monkeypatch.setattr(verify_segments, "SEGMENT_MIN", 50)  # a short file, split as a long log is
    (start,) = verify_segments.starts(path, 2)
    assert (start.line, start.covered) == (540, 550)  # half the bytes lies near line 550, not 1000
    assert path.read_bytes()[start.offset:].startswith(b'{"n":540 ')
    held = b'{"n":600,"kind":"checkpoint","of":599,"anchor":{"of":540,'  # the checkpoint that holds its state
    assert path.read_bytes()[start.checkpoint:].startswith(held)
    three = verify_segments.starts(path, 3)
    assert [s.line for s in three][1:] == [740] and three[0].line < 540
    monkeypatch.setattr(verify_segments, "SEGMENT_MIN", 2001)
    assert verify_segments.starts(path, 2) == []  # too short to pay for a worker


def test_the_kept_states_stay_within_the_undo_trail():
    walk = verify_fast.Walk([(1, False, 0)], {1: None}, cut=False)  # type: ignore[dict-item]
    for n in range(2, 2000):
        walk.push(n, False, n, None)  # type: ignore[arg-type]
        assert len(walk.states) <= 2 * verify_fast.KEEP and len(walk.branch) <= 2 * verify_fast.KEEP
    assert walk.cut and walk.branch[-1][0] == 1999 and walk.at[1999] == len(walk.branch) - 1


def test_an_edited_log_is_never_passed_and_is_named_as_before(logs, content, tmp_path, monkeypatch):
    """Edits anywhere — a digit of a command's record, its chain repaired or not — in one job or several."""
    monkeypatch.setattr(verify_segments, "SEGMENT_MIN", 50)
    monkeypatch.setattr(verify_segments, "SPAWN_MIN", 10**9)  # forked workers only, if any: fresh ones are slow
    rng = random.Random(7)
    tried = 0
    for path in logs[:4] + logs[-2:]:
        lines = lines_of(path)
        for _ in range(6):
            k = rng.randrange(1, len(lines))
            digits = [i for i, ch in enumerate(lines[k]) if chr(ch).isdigit()]
            i = rng.choice(digits)
            edited = lines[k][:i] + str((int(chr(lines[k][i])) + 1) % 10).encode() + lines[k][i + 1:]
            for repair in (False, True):
                changed = list(lines)
                changed[k] = edited
                if repair:
                    changed = rechain(changed, k + 1)
                bad = write(tmp_path / f"bad-{tried}.jsonl", changed, path)
                expected = full(content, bad, monkeypatch=monkeypatch)
                monkeypatch.setattr(verify_segments, "SEGMENT_MIN", 50)
                monkeypatch.setattr(verify_segments, "SPAWN_MIN", 10**9)
                for jobs in (1, 2):
                    if expected.failure is not None:
                        assert verify_fast.verify(content, bad, jobs=jobs) is None
                    assert verify.verify(content, bad, jobs=jobs) == expected
                tried += 1
    assert tried >= 60


def test_replay_verify_takes_jobs(logs, capsys):
    from tui.cli import main

    path = logs[-1]
    assert main(["replay", str(path), "--verify", "--jobs", "2"]) == 0
    one = capsys.readouterr().out
    assert main(["replay", str(path), "--verify"]) == 0
    assert capsys.readouterr().out == one and one.startswith("verified ")


def _last_command(lines: list[bytes]) -> int:
    """The last command line with events after the last checkpoint: a line whose length may change without
    moving the byte offsets a checkpoint's trail names."""
    checkpoint = max(i for i, line in enumerate(lines) if b'"kind":"checkpoint"' in line[:40])
    return max(i for i, line in enumerate(lines) if i > checkpoint and b'"kind":"command"' in line[:40]
               and b'"events":[{' in line)


def test_a_command_line_written_another_way_is_judged_as_a_record(logs, content, tmp_path, monkeypatch):
    """The same values in other bytes (spaces, another key order), the chain repaired: not the game's bytes, so
    the line is parsed and held to the full pass's rules, and the log verifies as the full pass says."""
    path = logs[-1]  # unfinished: its seed file names no last line
    lines = lines_of(path)
    k = _last_command(lines)
    record = json.loads(lines[k])
    reordered = {"n": record["n"], "kind": "command", "events": record["events"], "base": record["base"],
                 **{key: v for key, v in record.items() if key not in ("n", "kind", "events", "base")}}
    for i, other in enumerate((json.dumps(record, ensure_ascii=False).encode(),
                               codec.canonical(reordered).encode())):
        changed = list(lines)
        changed[k] = other
        bad = write(tmp_path / f"other-{i}.jsonl", rechain(changed, k + 1), path)
        expected = full(content, bad, monkeypatch=monkeypatch)
        assert expected.failure is None
        assert verify_fast.verify(content, bad) == expected == verify.verify(content, bad)


def test_a_line_that_hides_other_events_is_never_passed(logs, content, tmp_path, monkeypatch):
    """A command line that holds the recomputed events where a byte search could find them, and others where
    the record really keeps them: the quick pass must not take the first for the second."""
    path = logs[-1]  # unfinished: its seed file names no last line
    lines = lines_of(path)
    k = _last_command(lines)
    record = json.loads(lines[k])
    right = codec.canonical(record["events"])
    events = json.loads(right)
    events[0]["kind"] = "resolved" if events[0]["kind"] != "resolved" else "moved"
    wrong = codec.canonical(events)
    head = codec.canonical({key: record[key] for key in ("n", "kind", "base", "command")})[:-1]
    state = f',"state":"{record["state"]}"'
    tail = state + (',"ai":true' if record.get("ai") else "") + f',"prev":"{record["prev"]}"}}'
    hidden = [f'{head},"events":{right}{state},"events":{wrong}{tail}',  # duplicate keys: the last ones count
              f'{head},"x":{{"events":{right}{state}}},"events":{wrong}{tail}']  # a nested copy
    for i, text in enumerate(hidden):
        changed = list(lines)
        changed[k] = text.encode()
        bad = write(tmp_path / f"hidden-{i}.jsonl", rechain(changed, k + 1), path)
        expected = full(content, bad, monkeypatch=monkeypatch)
        assert expected.failure is not None and expected.failure.line == k + 1
        assert verify_fast.verify(content, bad) is None
        assert verify.verify(content, bad) == expected
