"""Issue 14, the files beside a log: one writer, an exclusive seed file, no link followed, no device read.

Each test is a finding of the attack on the log's trust, turned into a regression test.
"""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from engine.core.dice import seed_from_int
from engine.log import writer as log
from engine.play import roster
from engine.play.game import Game
from tui.cli import main


def start(content, path: Path, seed: int = 1) -> Game:
    return Game.new(content, "xcom-trpg", "eliminate", seed_from_int(seed), path, public=seed)


def one_line(argv, capsys) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    _out, err = capsys.readouterr()
    assert err.count("\n") <= 1 and "Traceback" not in err, err
    return code, err


# -- two processes creating the same log -----------------------------------------------------------


def _create(args) -> str:
    from engine.content import loader

    path, seed = args
    try:
        start(loader.load(), Path(path), seed).close()
        return "won"
    except log.LogError as exc:
        return str(exc)


def test_two_processes_creating_one_log_leave_the_winner_resumable(content, tmp_path):
    """Seen 2 of 40 times: the loser overwrote the winner's seed file before it was refused."""
    ctx = multiprocessing.get_context("fork")
    for attempt in range(6):
        path = tmp_path / f"race-{attempt}.jsonl"
        with ctx.Pool(2) as pool:
            results = pool.map(_create, [(str(path), 1), (str(path), 2)])
        assert sorted(r == "won" for r in results) == [False, True], results
        loser = next(r for r in results if r != "won")
        assert "already exists" in loser or "in use" in loser
        winner = 1 + results.index("won")
        assert log.read_seed(log.seed_path(path)) == seed_from_int(winner)
        Game.resume(content, path).close()  # the winner's mission carries on


def test_a_new_log_never_goes_over_an_existing_seed_file(content, tmp_path):
    path = tmp_path / "m.jsonl"
    log.seed_path(path).write_text("not mine\n")
    with pytest.raises(log.LogError, match="already exists"):
        start(content, path)
    assert log.seed_path(path).read_text() == "not mine\n" and not path.exists()


# -- the lock is on the log itself ----------------------------------------------------------------------


def test_deleting_the_lock_file_lets_no_second_writer_in(content, tmp_path):
    game = start(content, tmp_path / "m.jsonl")
    log.lock_path(game.path).unlink()
    with pytest.raises(log.LogError, match="in use by PID"):
        Game.resume(content, game.path)
    game.close()
    Game.resume(content, game.path).close()


# -- links and devices -------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".seed", ".lock"])
def test_a_planted_link_beside_a_new_log_is_never_written_through(content, tmp_path, suffix):
    target = tmp_path / "target.txt"
    target.write_text("precious\n")
    mode = target.stat().st_mode
    path = tmp_path / "m.jsonl"
    path.with_name(path.name + suffix).symlink_to(target)
    with pytest.raises(log.LogError):
        start(content, path)
    assert target.read_text() == "precious\n" and target.stat().st_mode == mode


def test_a_planted_torn_link_is_never_written_through(content, tmp_path):
    game = start(content, tmp_path / "m.jsonl")
    game.close()
    target = tmp_path / "target.txt"
    target.write_text("precious\n")
    game.path.with_name(game.path.name + ".torn").symlink_to(target)
    with open(game.path, "ab") as f:
        f.write(b'{"n":99,"kind":"comm')  # a torn record for resume to set aside
    with pytest.raises(log.LogError, match="symbolic link"):
        Game.resume(content, game.path)
    assert target.read_text() == "precious\n"


def test_a_planted_roster_tmp_link_is_never_written_through(content, tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("precious\n")
    (tmp_path / "roster.toml.tmp").symlink_to(target)
    roster.save(tmp_path / "roster.toml", [])
    assert target.read_text() == "precious\n" and (tmp_path / "roster.toml").is_file()


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604])
def test_a_seed_file_others_could_read_is_refused(content, tmp_path, mode):
    game = start(content, tmp_path / "m.jsonl")
    game.close()
    os.chmod(log.seed_path(game.path), mode)
    with pytest.raises(log.LogError, match="must be 0600 and yours"):
        Game.resume(content, game.path)


def test_a_seed_file_that_is_a_link_is_refused(content, tmp_path):
    game = start(content, tmp_path / "m.jsonl")
    game.close()
    seed = log.seed_path(game.path)
    real = tmp_path / "elsewhere.seed"
    seed.rename(real)
    seed.symlink_to(real)
    with pytest.raises(log.LogError, match="symbolic link"):
        Game.resume(content, game.path)


@pytest.mark.parametrize("out", ["/dev/null", "{dir}", "{link}"])
def test_a_log_path_that_is_not_a_new_regular_file_is_refused(tmp_path, capsys, out):
    (tmp_path / "real.jsonl").write_text("")
    (tmp_path / "link.jsonl").symlink_to(tmp_path / "real.jsonl")
    place = out.format(dir=tmp_path, link=tmp_path / "link.jsonl")
    code, err = one_line(["simulate", "--seed", "1", "--max-turns", "1", "--out", place], capsys)
    assert code == 2 and err
    assert not Path("/dev/null.seed").exists()


def test_a_log_in_a_folder_you_may_not_write_in_is_refused(tmp_path, capsys):
    if os.geteuid() == 0:
        pytest.skip("root may write anywhere")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    code, err = one_line(["simulate", "--seed", "1", "--out", str(folder / "m.jsonl")], capsys)
    assert code == 2 and "write" in err


@pytest.mark.parametrize("command", [["replay", "{p}", "--verify"], ["audit", "{p}"], ["replay", "{p}", "--story"],
                                     ["resume", "{p}"], ["simulate", "--resume", "{p}"]])
def test_a_device_given_as_a_log_is_one_line(tmp_path, capsys, command):
    code, err = one_line([a.format(p="/dev/zero") for a in command], capsys)
    assert code in (1, 2) and "not a regular file" in err
