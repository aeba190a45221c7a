"""Issue 14, the log: cut short, carried on, revealed twice or too early, an edited header, a crash after line 1.

Each test is a finding of the attack on the log's trust, turned into a regression test.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.core import codec
from engine.core.dice import seed_from_int
from engine.log import writer as log
from engine.play.game import Game
from engine.play.simulate import play_out, run
from engine.play.verify import verify
from tui.cli import main


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines()


def write(path: Path, lines: list[bytes]) -> None:
    path.write_bytes(b"".join(raw + b"\n" for raw in lines))


def rechain(lines: list[bytes], start: int) -> list[bytes]:
    out = list(lines)
    for i in range(max(start, 1), len(out)):
        record = json.loads(out[i])
        record["prev"] = log.line_hash(out[i - 1])
        out[i] = codec.canonical(record).encode()
    return out


def record(n: int, body: dict, prev: bytes) -> bytes:
    return codec.canonical({"n": n, **body, "prev": log.line_hash(prev)}).encode()


@pytest.fixture(scope="module")
def finished_log(tmp_path_factory, content) -> Path:
    path = tmp_path_factory.mktemp("done") / "m.jsonl"
    run(content, "xcom-trpg", "eliminate", seed_from_int(1), path, public=1).close()
    return path


@pytest.fixture
def done(finished_log, tmp_path) -> Path:
    copy = tmp_path / "m.jsonl"
    shutil.copy(finished_log, copy)
    shutil.copy(log.seed_path(finished_log), log.seed_path(copy))
    return copy


def verify_cli(path: Path, capsys, *extra: str) -> tuple[int, str, str]:
    code = main(["replay", str(path), "--verify", *extra])
    out, err = capsys.readouterr()
    return code, out, err


# -- a finished log cut short, or carried on -----------------------------------------------------------


@pytest.mark.parametrize("keep", [2, 40, -2, -1])
def test_a_finished_log_cut_short_names_its_last_good_line(done, content, capsys, keep):
    lines = lines_of(done)
    kept = lines[:keep]
    write(done, kept)
    failure = verify(content, done).failure
    assert failure is not None and failure.line == len(kept) + 1
    assert f"the log stops at line {len(kept)}, its last good line" in failure.message
    code, out, err = verify_cli(done, capsys)
    assert (code, out) == (1, "") and err.startswith(f"FAILED at line {len(kept) + 1}: the log was cut short")


def test_an_old_seed_file_given_does_not_hide_the_ending(done, content, tmp_path):
    """--seed-file with a copy taken before the end: the seed file beside the log still names the last line."""
    old = tmp_path / "old.seed"
    old.write_text(log.read_seed(log.seed_path(done)).hex() + "\n")
    lines = lines_of(done)
    write(done, lines[:-3])
    failure = verify(content, done, old).failure
    assert failure.line == len(lines) - 2 and "cut short" in failure.message


def test_a_finished_log_cut_and_carried_on_to_the_same_length_is_caught(done, content):
    lines = lines_of(done)
    forged = lines[:-1] + [record(len(lines), {"kind": "checkpoint"}, lines[-2])]
    write(done, forged)
    assert verify(content, done).failure.line == len(lines)


def test_an_unfinished_mission_verified_with_its_seed_file_says_so(content, tmp_path, capsys):
    path = tmp_path / "live.jsonl"
    game = Game.new(content, "xcom-trpg", "eliminate", seed_from_int(3), path)  # a secret seed
    play_out(game, ("aliens",))
    game.close()
    moved = tmp_path / "kept.seed"
    shutil.move(log.seed_path(path), moved)
    n = len(lines_of(path))
    report = verify(content, path, moved)
    assert report.failure is None and report.unfinished == f"unfinished: the mission has not ended; the log stops at line {n}"
    assert verify_cli(path, capsys, "--seed-file", str(moved))[1] == f"verified {n} records\n{report.unfinished}\n"


# -- exactly one reveal, after the mission's end ------------------------------------------------------


def test_a_second_reveal_with_another_seed_is_refused(done, content, capsys):
    lines = lines_of(done)
    lines.append(record(len(lines) + 1, {"kind": "reveal", "seed": seed_from_int(2).hex()}, lines[-1]))
    write(done, lines)
    log.seed_path(done).unlink()  # or the seed file's ending would name it first
    failure = verify(content, done).failure
    assert failure.line == len(lines) and "a second reveal" in failure.message
    assert main(["audit", str(done)]) == 2 and "a second reveal" in capsys.readouterr().err


def test_a_reveal_in_the_middle_of_a_mission_is_refused(done, content):
    lines = lines_of(done)
    k = len(lines) // 2
    seed = json.loads(lines[-1])["seed"]
    forged = lines[:k] + [record(k + 1, {"kind": "reveal", "seed": seed}, lines[k - 1])]
    write(done, forged)
    log.seed_path(done).unlink()
    failure = verify(content, done).failure
    assert failure.line == k + 1 and "revealed before the mission ended" in failure.message
    rest = [codec.canonical({**json.loads(raw), "n": i}).encode() for i, raw in enumerate(lines[k:], start=k + 2)]
    write(done, rechain(forged + rest, k + 1))  # ...and the mission carried on after it, re-chained
    assert verify(content, done).failure.line == k + 1


def test_a_reveal_appended_to_a_mission_cut_midway_is_refused_by_both_passes(done, content, monkeypatch):
    """The quick pass must not prove it good either: the reveal is last, but the mission had not ended."""
    from engine.play import verify_fast

    lines = lines_of(done)
    k = len(lines) // 2
    write(done, lines[:k] + [record(k + 1, {"kind": "reveal", "seed": json.loads(lines[-1])["seed"]}, lines[k - 1])])
    log.seed_path(done).unlink()
    assert verify_fast.verify(content, done) is None
    failure = verify(content, done).failure
    assert failure.line == k + 1 and "revealed before the mission ended" in failure.message


def test_resume_refuses_a_reveal_before_the_end(content, tmp_path):
    path = tmp_path / "live.jsonl"
    game = Game.new(content, "xcom-trpg", "eliminate", seed_from_int(3), path)
    game.close()
    lines = lines_of(path)
    lines.append(record(len(lines) + 1, {"kind": "reveal", "seed": seed_from_int(3).hex()}, lines[-1]))
    write(path, lines)
    with pytest.raises(log.LogError, match="revealed before the mission ended"):
        Game.resume(content, path)


# -- the header is checked on every resume ------------------------------------------------------------


@pytest.mark.parametrize("field, value", [("casual", True), ("max_phases", 99)])
@pytest.mark.parametrize("rechained", [False, True])
def test_resume_refuses_an_edited_header(content, tmp_path, field, value, rechained):
    path = tmp_path / "live.jsonl"
    game = Game.new(content, "xcom-trpg", "eliminate", seed_from_int(2), path)
    play_out(game, ("aliens",))
    game.close()
    lines = lines_of(path)
    header = json.loads(lines[0])
    header["mission"][field] = value
    lines[0] = codec.canonical(header).encode()
    write(path, rechain(lines, 1) if rechained else lines)
    with pytest.raises(log.LogError, match="line 1: the header was changed after it was written"):
        Game.resume(content, path)


@pytest.mark.parametrize("value", [0, -3, 10**9, "10", None])
def test_a_header_phase_limit_the_rules_cannot_mean_is_refused(content, tmp_path, value):
    path = tmp_path / "live.jsonl"
    Game.new(content, "xcom-trpg", "eliminate", seed_from_int(2), path).close()
    lines = lines_of(path)
    header = json.loads(lines[0])
    header["mission"]["max_phases"] = value
    lines[0] = codec.canonical(header).encode()
    write(path, rechain(lines, 1))
    failure = verify(content, path).failure
    assert failure.line == 1 and ("phase limit" in failure.message or "mission parameters" in failure.message)


def test_an_unknown_ruleset_in_a_header_is_one_line(content, tmp_path, capsys):
    path = tmp_path / "live.jsonl"
    Game.new(content, "xcom-trpg", "eliminate", seed_from_int(2), path).close()
    lines = lines_of(path)
    header = json.loads(lines[0])
    header["ruleset"] = "chess"
    lines[0] = codec.canonical(header).encode()
    write(path, rechain(lines, 1))
    assert "unknown ruleset 'chess'" in verify(content, path).failure.message
    for argv in (["audit", str(path), "--record", "2", "--explain"], ["simulate", "--resume", str(path)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "unknown ruleset 'chess'" in err


# -- a crash between the header and the first record --------------------------------------------------


def test_a_log_of_only_its_header_resumes_into_a_normal_start(content, tmp_path):
    whole = tmp_path / "whole.jsonl"
    run(content, "xcom-trpg", "eliminate", seed_from_int(4), whole, public=4).close()
    path = tmp_path / "cut.jsonl"
    Game.new(content, "xcom-trpg", "eliminate", seed_from_int(4), path, public=4).close()
    write(path, lines_of(path)[:1])  # the game died right after writing line 1
    game = Game.resume(content, path)
    assert game.state.units and game.history[-1].n == 2  # the mission start, as in an unbroken run
    play_out(game)
    game.close()
    assert path.read_bytes() == whole.read_bytes()


def test_the_client_and_simulate_resume_a_header_only_log(content, tmp_path, capsys):
    from tui.session import Session

    path = tmp_path / "cut.jsonl"
    Game.new(content, "xcom-trpg", "eliminate", seed_from_int(4), path, public=4).close()
    write(path, lines_of(path)[:1])
    session = Session.resume(content, path)  # what `xenotac resume` opens: a mission at its start
    assert session.players_turn and len(session.squad()) == 6 and session.chronicle.journal
    session.close()
    write(path, lines_of(path)[:1])
    assert main(["simulate", "--resume", str(path)]) == 0
    out = capsys.readouterr().out
    assert "winner:     None" not in out and "winner:" in out
    assert verify(content, path).failure is None
