"""The mission log: tampering is caught and named by line; resume and checkpoints give the live state.

A finished AI-vs-AI mission (seed 3: long enough for three checkpoints) is logged once per module; each test works on
its own copy.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import codec
from engine.log import writer as log
from engine.ai.planner import Ai
from engine.play.recovery import recover
from engine.core.commands import Rejected
from engine.core.dice import seed_from_int
from engine.play.game import CHECKPOINT_EVERY, Game
from engine.play.simulate import run
from engine.play.verify import verify
from tui.cli import main

# -- helpers -------------------------------------------------------------------------------------


def read_lines(path: Path) -> list[bytes]:
    data = path.read_bytes()
    assert data.endswith(b"\n")
    return data[:-1].split(b"\n")


def write_lines(path: Path, lines: list[bytes]) -> None:
    path.write_bytes(b"".join(line + b"\n" for line in lines))


def rechain(lines: list[bytes], start: int) -> list[bytes]:
    """Recompute `prev` for lines[start:] (pass the edited line's 1-based number): a forger who
    repairs the hash chain after editing."""
    out = list(lines)
    for i in range(max(start, 1), len(out)):
        record = json.loads(out[i])
        record["prev"] = log.line_hash(out[i - 1])
        out[i] = codec.canonical(record).encode()
    return out


def records(lines: list[bytes]) -> list[dict]:
    return [json.loads(line) for line in lines]


def copy_log(src: Path, dst: Path) -> Path:
    shutil.copy(src, dst)
    shutil.copy(log.seed_path(src), log.seed_path(dst))
    return dst


def replay_verify(path: Path, capsys) -> tuple[int, str, str]:
    code = main(["replay", str(path), "--verify"])
    out, err = capsys.readouterr()
    return code, out, err


def dump(state) -> dict:
    return codec.dump_state(state)


@pytest.fixture(scope="module")
def finished(tmp_path_factory, content) -> Path:
    """A whole mission, ended and revealed, written by the kernel."""
    path = tmp_path_factory.mktemp("finished") / "m.jsonl"
    run(content, "xcom-trpg", "eliminate", seed_from_int(3), path).close()
    return path


@pytest.fixture
def mission(finished, tmp_path) -> Path:
    return copy_log(finished, tmp_path / "m.jsonl")


def first_line_with_roll(lines: list[bytes], event_kind: str) -> int:
    """Line number (1-based) of the first command whose `event_kind` event carries a seeded roll."""
    for n, record in enumerate(records(lines), start=1):
        for event in record.get("events", []):
            if event["kind"] == event_kind and any(r["index"] >= 0 for r in event.get("rolls", [])):
                return n
    raise AssertionError(f"no {event_kind} event with a roll")


def change_first_face(line: bytes, event_kind: str) -> tuple[bytes, int, int]:
    """The line with the first seeded face of its first `event_kind` event changed (still a legal face)."""
    record = json.loads(line)
    event = next(e for e in record["events"] if e["kind"] == event_kind and e.get("rolls"))
    roll = next(r for r in event["rolls"] if r["index"] >= 0)
    sides = int(roll["expr"].split("d")[1])
    old = roll["faces"][0]
    roll["faces"][0] = old % sides + 1
    return codec.canonical(record).encode(), old, roll["faces"][0]


# -- the untouched log ---------------------------------------------------------------------------


def test_the_mission_log_is_well_formed(mission):
    lines = read_lines(mission)
    recs = records(lines)
    assert recs[0]["kind"] == "header" and recs[0]["prev"] == log.GENESIS
    assert [r["n"] for r in recs] == list(range(1, len(recs) + 1))
    assert all(r["prev"] == log.line_hash(lines[i - 1]) for i, r in enumerate(recs) if i)
    assert recs[-1]["kind"] == "reveal"
    assert sum(r["kind"] == "checkpoint" for r in recs) >= 2
    assert lines == [codec.canonical(r).encode() for r in recs]  # canonical: re-dumping changes nothing


def test_the_unchanged_log_verifies(mission, content, capsys):
    n = len(read_lines(mission))
    report = verify(content, mission)
    assert report.failure is None and report.records == n and report.seed_source == "revealed"
    assert replay_verify(mission, capsys) == (0, f"verified {n} records\n", "")


def test_rechain_alone_changes_nothing(mission, content):
    lines = read_lines(mission)
    assert rechain(lines, 1) == lines


# -- tampering -----------------------------------------------------------------------------------


@pytest.mark.parametrize("event_kind", ["resolved", "spawned"])
def test_a_changed_die_face_is_named(mission, content, capsys, event_kind):
    lines = read_lines(mission)
    n = first_line_with_roll(lines, event_kind)
    lines[n - 1], _old, _new = change_first_face(lines[n - 1], event_kind)
    write_lines(mission, lines)
    assert verify(content, mission).failure.line == n
    code, out, err = replay_verify(mission, capsys)
    assert (code, out) == (1, "") and err.startswith(f"FAILED at line {n}: ")


@pytest.mark.parametrize("event_kind", ["resolved", "spawned"])
def test_a_changed_die_face_is_named_even_with_the_hash_chain_repaired(mission, content, capsys, event_kind):
    """The forger recomputes every later `prev`: only re-deciding the command with the seed catches it."""
    lines = read_lines(mission)
    n = first_line_with_roll(lines, event_kind)
    lines[n - 1], old, new = change_first_face(lines[n - 1], event_kind)
    write_lines(mission, rechain(lines, n))
    failure = verify(content, mission).failure
    assert failure.line == n
    assert "faces[0]" in failure.message and f"expected {old}, found {new}" in failure.message
    code, _out, err = replay_verify(mission, capsys)
    assert code == 1 and err.startswith(f"FAILED at line {n}: ")


def test_a_changed_outcome_with_the_chain_repaired_is_named(mission, content):
    """Editing what happened (HP left) rather than the dice is caught the same way."""
    lines = read_lines(mission)
    recs = records(lines)
    n = next(i for i, r in enumerate(recs, start=1)
             if any(e["kind"] == "changed" and "hp" in e["changes"] for e in r.get("events", [])))
    event = next(e for e in recs[n - 1]["events"] if e["kind"] == "changed" and "hp" in e["changes"])
    event["changes"]["hp"] += 10
    lines[n - 1] = codec.canonical(recs[n - 1]).encode()
    write_lines(mission, rechain(lines, n))
    assert verify(content, mission).failure.line == n


def middle_command(lines: list[bytes]) -> int:
    recs = records(lines)
    return next(n for n in range(len(recs) // 2, len(recs)) if recs[n - 1]["kind"] == "command")


def deleted(lines: list[bytes], k: int) -> list[bytes]:
    return lines[:k - 1] + lines[k:]


def swapped(lines: list[bytes], k: int) -> list[bytes]:
    return lines[:k - 1] + [lines[k], lines[k - 1]] + lines[k + 1:]


@pytest.mark.parametrize("where", ["second", "middle", "before_last"])
@pytest.mark.parametrize("edit", [deleted, swapped])
def test_a_deleted_or_swapped_line_is_caught(mission, content, capsys, edit, where):
    lines = read_lines(mission)
    k = {"second": 2, "middle": middle_command(lines), "before_last": len(lines) - 1}[where]
    write_lines(mission, edit(lines, k))
    code, _out, err = replay_verify(mission, capsys)
    assert code == 1 and err.startswith(f"FAILED at line {k}: ")


@pytest.mark.parametrize("where", ["second", "middle", "before_last"])
@pytest.mark.parametrize("edit", [deleted, swapped])
def test_a_deleted_or_swapped_line_is_named_by_its_number(mission, content, edit, where):
    """Deleting line k, or swapping lines k and k+1, puts a record numbered k+1 where k belongs."""
    lines = read_lines(mission)
    k = {"second": 2, "middle": middle_command(lines), "before_last": len(lines) - 1}[where]
    write_lines(mission, edit(lines, k))
    assert verify(content, mission).failure.line == k


def test_a_renumbered_line_with_the_chain_repaired_is_named(mission, content):
    lines = read_lines(mission)
    k = middle_command(lines)
    recs = records(lines)
    recs[k - 1]["n"] = k + 7
    lines[k - 1] = codec.canonical(recs[k - 1]).encode()
    write_lines(mission, rechain(lines, k))
    failure = verify(content, mission).failure
    assert failure.line == k and "record number" in failure.message


def test_a_truncated_last_line_is_named(mission, content, capsys):
    data = mission.read_bytes()
    mission.write_bytes(data[:-40])  # the game stopped while writing the reveal record
    n = data.count(b"\n")
    failure = verify(content, mission).failure
    assert failure.line == n and "torn" in failure.message
    code, _out, err = replay_verify(mission, capsys)
    assert code == 1 and err.startswith(f"FAILED at line {n}: torn")


def test_a_forged_reveal_is_named(mission, content):
    lines = read_lines(mission)
    recs = records(lines)
    recs[-1]["seed"] = seed_from_int(2).hex()
    lines[-1] = codec.canonical(recs[-1]).encode()
    write_lines(mission, lines)
    failure = verify(content, mission).failure
    assert failure.line == len(lines) and "commitment" in failure.message


def test_a_log_for_other_content_is_refused_at_line_1(mission, content):
    lines = read_lines(mission)
    recs = records(lines)
    recs[0]["content_sha256"] = "0" * 64
    lines[0] = codec.canonical(recs[0]).encode()
    write_lines(mission, rechain(lines, 1))
    failure = verify(content, mission).failure
    assert failure.line == 1 and "content sha" in failure.message


@pytest.mark.parametrize("where", range(0, 40))
def test_a_flipped_byte_anywhere_is_named_by_its_line(mission, content, capsys, where):
    """Flip one byte at 40 spread places: verify names the line holding it, as a one-line failure."""
    data = bytearray(mission.read_bytes())
    at = (where * 7919 + 13) % len(data)
    while data[at:at + 1] == b"\n":
        at += 1
    data[at] ^= 0x04
    mission.write_bytes(bytes(data))
    line = data[:at].count(b"\n") + 1
    failure = verify(content, mission).failure
    assert failure is not None and failure.line == line, (at, failure)
    code, _out, err = replay_verify(mission, capsys)
    assert code == 1 and err.count("\n") == 1 and err.startswith(f"FAILED at line {line}: ")


@pytest.mark.parametrize("garbage", [b"junk\n", b'{"n": 999}\n', b"\x00\xff\n"], ids=["text", "json", "binary"])
def test_appended_garbage_is_named(mission, content, garbage):
    lines = read_lines(mission)
    mission.write_bytes(mission.read_bytes() + garbage)
    failure = verify(content, mission).failure
    assert failure.line == len(lines) + 1


def test_a_header_from_another_mission_is_named(mission, content, tmp_path):
    """Same content, same kind of mission, another seed: the header commits to another seed."""
    other = tmp_path / "other.jsonl"
    run(content, "xcom-trpg", "eliminate", seed_from_int(9), other, max_phases=1).close()
    lines = read_lines(mission)
    lines[0] = read_lines(other)[0]
    write_lines(mission, rechain(lines, 1))
    failure = verify(content, mission).failure  # the seed file holds the hash of the header as written
    assert failure.line == 1 and "mission was started with" in failure.message
    log.seed_path(mission).unlink()  # without it, the reveal tells
    failure = verify(content, mission).failure
    assert failure.line == len(lines) and "a header from another mission" in failure.message


# -- a mission in progress: the seed is still secret, in <log>.seed ------------------------------------


@pytest.fixture
def in_progress(content, tmp_path) -> Path:
    path = tmp_path / "live.jsonl"
    game = Game.new(content, "xcom-trpg", "eliminate", seed_from_int(5), path)
    ai = {side: Ai(game.ruleset, side) for side in game.state.sides}
    for _ in range(40):
        command = ai[game.state.side].next_command(game.state)
        result = game.submit(command)
        if isinstance(result, Rejected):
            ai[game.state.side].rejected(command, result)
    game.close()
    return path


def test_an_unfinished_log_verifies_with_its_seed_file(in_progress, content, capsys):
    assert (log.seed_path(in_progress).stat().st_mode & 0o777) == 0o600
    report = verify(content, in_progress)
    assert report.failure is None and report.seed_source == str(log.seed_path(in_progress))
    assert replay_verify(in_progress, capsys)[0] == 0


def test_an_unfinished_log_needs_the_seed(in_progress, content, tmp_path, capsys):
    moved = tmp_path / "elsewhere.seed"
    log.seed_path(in_progress).rename(moved)
    failure = verify(content, in_progress).failure
    assert failure is not None and "--seed-file" in failure.message
    assert main(["replay", str(in_progress), "--verify", "--seed-file", str(moved)]) == 0
    assert capsys.readouterr().out.startswith("verified ")


def test_the_wrong_seed_file_is_refused(in_progress, content, tmp_path):
    wrong = tmp_path / "wrong.seed"
    wrong.write_text(seed_from_int(6).hex() + "\n")
    failure = verify(content, in_progress, wrong).failure
    assert failure is not None and "is not the seed this log committed to" in failure.message


# -- checkpoints: resume a long game from the file, then undo across the checkpoint ----------------

LONG = max(200, 3 * CHECKPOINT_EVERY + 10)  # records: at least three checkpoints


def play(game: Game, ais: dict[str, Ai], until_line: int, undo_every: int = 0) -> None:
    """AI commands (and, in a casual game, an undo now and then) until the log reaches `until_line`."""
    steps = 0
    while game.writer.next_line <= until_line:
        assert game.state.winner is None, "the mission ended too early for this test: pick another seed"
        ai = ais[game.state.side]
        command = ai.next_command(game.state)
        result = game.submit(command)
        if isinstance(result, Rejected):
            ai.rejected(command, result)
        steps += 1
        if undo_every and steps % undo_every == 0:
            assert not isinstance(game.undo(), Rejected)


@pytest.fixture
def long_game(content, tmp_path) -> Game:
    """A casual game of more than LONG records, with undos mixed in; closed, still running."""
    game = Game.new(content, "xcom-trpg", "eliminate", seed_from_int(3), tmp_path / "long.jsonl", casual=True)
    play(game, {side: Ai(game.ruleset, side) for side in game.state.sides}, LONG, undo_every=9)
    game.close()
    kinds = [json.loads(line)["kind"] for line in read_lines(game.path)]
    assert kinds.count("checkpoint") >= 3 and kinds.count("undo") > 10
    return game


def states_by_record(game: Game) -> dict[int, dict]:
    return {entry.n: dump(entry.state) for entry in game.history}


def test_a_long_game_resumes_to_the_live_state(long_game, content):
    resumed = Game.resume(content, long_game.path)
    assert dump(resumed.state) == dump(long_game.state)
    live = states_by_record(long_game)
    for entry in resumed.history:  # the undo trail kept by the checkpoint is the live branch
        assert dump(entry.state) == live[entry.n]
    resumed.close()


def test_undo_after_resume_walks_back_through_the_checkpoint(long_game, content):
    resumed = Game.resume(content, long_game.path)
    live = [(e.n, dump(e.state)) for e in long_game.history]
    last_checkpoint = max(n for n, line in enumerate(read_lines(long_game.path), start=1)
                          if json.loads(line)["kind"] == "checkpoint")
    undone = 0
    while not isinstance(resumed.undo_problem(), Rejected):
        state = resumed.undo()
        undone += 1
        assert (resumed.history[-1].n, dump(state)) == live[-1 - undone]
    assert resumed.history[-1].n < last_checkpoint, "undo must reach records before the checkpoint"
    assert undone >= CHECKPOINT_EVERY // 2
    resumed.close()
    assert verify(content, long_game.path).failure is None


def test_redo_after_resume_and_undo_gives_the_same_events(long_game, content):
    """Casual undo rewinds the dice counters with the state, so the same command rolls the same dice."""
    resumed = Game.resume(content, long_game.path)
    n = resumed.history[-1].n
    record = json.loads(next(line for line in read_lines(long_game.path) if json.loads(line)["n"] == n))
    command = codec.load_command(record["command"])
    assert not isinstance(resumed.undo(), Rejected)
    events = resumed.submit(command)
    assert [codec.dump_event(e) for e in events] == record["events"]
    assert dump(resumed.state) == dump(long_game.state)
    resumed.close()
    assert verify(content, long_game.path).failure is None


def test_resume_play_on_and_resume_again(long_game, content):
    """Offsets recorded after a resume must be right for the next resume's checkpoint trail."""
    first = Game.resume(content, long_game.path)
    play(first, {side: Ai(first.ruleset, side) for side in first.state.sides},
         first.writer.next_line + CHECKPOINT_EVERY + 10, undo_every=5)
    first.close()
    second = Game.resume(content, long_game.path)
    assert dump(second.state) == dump(first.state)
    live = states_by_record(first)
    for entry in second.history:
        assert dump(entry.state) == live[entry.n]
    assert not isinstance(second.undo(), Rejected)
    assert dump(second.state) == dump(first.history[-2].state)
    second.close()
    assert verify(content, long_game.path).failure is None


def test_resume_refuses_a_changed_log_and_recover_keeps_the_original(long_game, content, tmp_path):
    """Damage among the records resume reads (from the last checkpoint on) stops it with the line;
    recover carries the good part on in a new file and leaves the damaged one as it was."""
    lines = read_lines(long_game.path)
    recs = records(lines)
    last_checkpoint = max(n for n in range(1, len(recs) + 1) if recs[n - 1]["kind"] == "checkpoint")
    k = next(n for n in range(last_checkpoint + 1, len(recs)) if recs[n - 1]["kind"] == "command")
    lines[k - 1] = lines[k - 1].replace(b'"kind":"command"', b'"kind":"commant"', 1)  # same length
    write_lines(long_game.path, lines)
    damaged = long_game.path.read_bytes()
    with pytest.raises(log.LogError, match=f"line {k}: .*--recover"):
        Game.resume(content, long_game.path)
    assert verify(content, long_game.path).failure.line == k
    copy = tmp_path / "recovered.jsonl"
    recovered, note = recover(content, long_game.path, copy)
    assert f"recovered lines 1-{k - 1}" in note and "unchanged" in note
    assert recovered.history[-1].n < k  # only records before the damage
    assert verify(content, copy).failure is None
    recovered.close()
    assert long_game.path.read_bytes() == damaged


def test_damage_before_the_last_checkpoint_is_left_to_verify(long_game, content):
    """Resume folds only what follows the last checkpoint (that keeps it flat); verify names it."""
    lines = read_lines(long_game.path)
    recs = records(lines)
    k = next(n for n in range(3, 40) if recs[n - 1]["kind"] == "command")
    lines[k - 1] = lines[k - 1].replace(b'"kind":"command"', b'"kind":"commant"', 1)  # same length
    write_lines(long_game.path, lines)
    assert dump(Game.resume(content, long_game.path).state) == dump(long_game.state)
    assert verify(content, long_game.path).failure.line == k


def test_resume_sets_a_torn_record_aside(long_game, content):
    data = long_game.path.read_bytes()
    long_game.path.write_bytes(data[:-25])
    game = Game.resume(content, long_game.path)
    assert game.notes and "set aside" in game.notes[0]
    torn = long_game.path.with_name(long_game.path.name + ".torn").read_bytes()
    assert data.endswith(torn.rstrip(b"\n") + data[-25:])
    assert long_game.path.read_bytes() == data[: data.rstrip(b"\n").rfind(b"\n") + 1]
    game.close()
    assert verify(content, long_game.path).failure is None


def test_a_second_writer_is_told_who_holds_the_log(long_game, content):
    first = Game.resume(content, long_game.path)
    with pytest.raises(log.LogError, match=f"in use by PID {os.getpid()}"):
        Game.resume(content, long_game.path)
    first.close()
    Game.resume(content, long_game.path).close()


# -- any edit of what a command did is named, chain repaired or not ---------------------------------

_VALUES = [None, "x", "", [], {}, -1, 12345, [5], {"kind": "spawned"}, 0.0, 1.5, True, False]


def leaf_paths(obj, prefix=()):
    """Every path into a JSON value, the value itself excluded."""
    if isinstance(obj, dict):
        items = obj.items()
    elif isinstance(obj, list):
        items = enumerate(obj)
    else:
        return
    for key, value in items:
        yield prefix + (key,)
        yield from leaf_paths(value, prefix + (key,))


@pytest.fixture(scope="module")
def finished_lines(finished) -> list[bytes]:
    return read_lines(finished)


@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_edit_of_a_commands_events_or_state_is_named(finished, finished_lines, content, tmp_path, data):
    lines = list(finished_lines)
    commands = [n for n, r in enumerate(records(lines), start=1) if r["kind"] == "command"]
    n = data.draw(st.sampled_from(commands), label="line")
    record = json.loads(lines[n - 1])
    where = data.draw(st.sampled_from([p for p in leaf_paths(record) if p[0] in ("events", "state")]), label="path")
    parent = record
    for key in where[:-1]:
        parent = parent[key]
    old = parent[where[-1]]
    if isinstance(parent, dict) and data.draw(st.booleans(), label="delete"):
        del parent[where[-1]]
    else:
        parent[where[-1]] = data.draw(st.sampled_from([v for v in _VALUES if v != old]), label="value")
    lines[n - 1] = codec.canonical(record).encode()
    repaired = data.draw(st.booleans(), label="chain repaired")
    path = copy_log(finished, tmp_path / f"edit-{n}.jsonl")
    write_lines(path, rechain(lines, n) if repaired else lines)
    failure = verify(content, path).failure
    assert failure is not None and failure.line == n, failure


# -- holes in verification (engine bugs) -----------------------------------------------------------


def retype_first_integer(line: bytes, to) -> bytes:
    """The line with the spawned unit's `facing` (an integer) written as another JSON type."""
    record = json.loads(line)
    unit = record["events"][0]["unit"]
    assert unit["facing"] in (0, 1)  # the squad deploys facing north (0): bool() keeps the value
    unit["facing"] = to(unit["facing"])
    return codec.canonical(record).encode()


@pytest.mark.parametrize("to", [float, bool], ids=["float", "bool"])
def test_an_integer_retyped_in_the_log_is_named(mission, content, to):
    lines = read_lines(mission)
    lines[1] = retype_first_integer(lines[1], to)
    write_lines(mission, rechain(lines, 2))
    assert verify(content, mission).failure.line == 2


def test_resume_names_a_malformed_record(in_progress, content):
    lines = read_lines(in_progress)
    lines[1] = retype_first_integer(lines[1], float)
    write_lines(in_progress, rechain(lines, 2))
    with pytest.raises(log.LogError) as caught:
        Game.resume(content, in_progress)
    assert caught.value.line == 2


def test_a_tampered_checkpoint_trail_is_named(content, tmp_path):
    path = tmp_path / "cp.jsonl"
    game = Game.new(content, "xcom-trpg", "eliminate", seed_from_int(2), path)
    ais = {side: Ai(game.ruleset, side) for side in game.state.sides}
    while records(read_lines(path))[-1]["kind"] != "checkpoint":
        ai = ais[game.state.side]
        command = ai.next_command(game.state)
        result = game.submit(command)
        if isinstance(result, Rejected):
            ai.rejected(command, result)
    game.close()
    lines = read_lines(path)
    checkpoint = json.loads(lines[-1])
    checkpoint["trail"][-1][1] = checkpoint["trail"][-2][1]  # the last entry points at the record before
    lines[-1] = codec.canonical(checkpoint).encode()
    write_lines(path, lines)
    # resume must not fold the wrong record, and verification names the checkpoint
    with pytest.raises(log.LogError, match=f"line {len(lines)}: the checkpoint points at byte"):
        Game.resume(content, path)
    assert verify(content, path).failure.line == len(lines)


def test_a_strict_log_with_an_undo_across_dice_is_refused(content, tmp_path, monkeypatch):
    # no checkpoint: rewriting the header moves every byte offset a checkpoint records
    monkeypatch.setattr("engine.play.game.CHECKPOINT_EVERY", 10**6)
    path = tmp_path / "forged.jsonl"
    game = Game.new(content, "xcom-trpg", "eliminate", seed_from_int(2), path, casual=True)
    ais = {side: Ai(game.ruleset, side) for side in game.state.sides}
    for _ in range(1000):
        ai = ais[game.state.side]
        command = ai.next_command(game.state)
        events = game.submit(command)
        if isinstance(events, Rejected):
            ai.rejected(command, events)
        elif any(e.rolls for e in events) and len(game.history) > 3:
            assert not isinstance(game.undo(), Rejected)  # fine in a casual game...
            break
    game.close()
    lines = read_lines(path)
    header = json.loads(lines[0])
    header["mission"]["casual"] = False  # ...but this log now claims to be strict
    lines[0] = codec.canonical(header).encode()
    write_lines(path, rechain(lines, 1))
    assert verify(content, path).failure.line == 1  # the seed file holds the hash of the header as written
    log.seed_path(path).write_text(seed_from_int(2).hex() + "\n")  # a forger who rewrote that too
    assert verify(content, path).failure.line == len(lines)


@pytest.mark.parametrize("edit", ["event_is_null", "spawned_without_unit", "roll_is_a_number", "base_is_a_table"])
def test_audit_of_a_malformed_log_is_one_line(mission, capsys, edit):
    lines = read_lines(mission)
    record = json.loads(lines[1])
    if edit == "event_is_null":
        record["events"][1] = None
    elif edit == "spawned_without_unit":
        del record["events"][0]["unit"]
    elif edit == "roll_is_a_number":
        record["events"][0]["rolls"] = [5]
    else:
        record["base"] = {}
    lines[1] = codec.canonical(record).encode()
    write_lines(mission, rechain(lines, 2))
    try:
        code = main(["audit", str(mission)])
    except SystemExit as exc:
        code = exc.code
    _out, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and err.startswith("xenotac: line 2")
