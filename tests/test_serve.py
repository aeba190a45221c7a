"""`xenotac serve`, piece by piece and without a network: names, passwords, keys, rate limits, the
online table, the live viewer and the lobby in Textual's pilot, the host key, the command line
and the programs the host starts.

The end-to-end sessions over a real SSH connection are in test_serve_ssh.py and test_serve_openssh.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("asyncssh", reason="the server extra (asyncssh) is not installed")

from engine.core.commands import EndTurn, Move, Rejected  # noqa: E402
from engine.log import writer as log  # noqa: E402
from engine.play.simulate import play_out  # noqa: E402
from tui.serve import accounts, spawn, status, watchcount  # noqa: E402
from tui.serve.accounts import Accounts, BadName, Taken, check_name  # noqa: E402
from tui.serve.command import listen_address  # noqa: E402
from tui.serve.limits import Window  # noqa: E402
from tui.testing import new_session, run_app  # noqa: E402
from tui.textshot import screen_text  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


class Clock:
    """Time that moves only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# -- names, passwords, keys ---------------------------------------------------------------------


@pytest.mark.parametrize("typed, name", [("anna", "anna"), ("Anna", "anna"), ("j-p_2", "j-p_2"),
                                         ("ab", "ab"), ("a" * 16, "a" * 16)])
def test_good_names_become_lowercase_names(typed, name):
    assert check_name(typed) == name


@pytest.mark.parametrize("typed", ["..", "../bob", "a/b", "bob/..", "a", "a" * 17, "1anna", "-x", "an na", "anna\n",
                                   "", "ánna", "play", "a.b", "a\\b"])
def test_bad_names_are_refused_with_the_rule(typed):
    with pytest.raises(BadName) as err:
        check_name(typed)
    assert "2-16 of a-z 0-9 - _, a letter first" in str(err.value) or "reserved for the host" in str(err.value)
    assert "\n" not in str(err.value)


def test_a_password_is_kept_as_a_salted_scrypt_hash_in_a_private_file(tmp_path):
    acc = Accounts(tmp_path)
    folder = acc.register("anna", "correct horse")
    assert folder == tmp_path / "players" / "anna" and folder.is_dir()
    path = tmp_path / "accounts" / "anna.json"
    assert path.stat().st_mode & 0o777 == 0o600
    text = path.read_text()
    assert "correct horse" not in text
    assert json.loads(text)["password"].startswith("scrypt$16384$8$1$")
    assert acc.check_password("anna", "correct horse")
    assert not acc.check_password("anna", "correct hors")
    assert not acc.check_password("bob", "correct horse")  # nobody of that name
    acc.register("bob", "correct horse")
    assert json.loads(path.read_text())["password"] != json.loads((tmp_path / "accounts" / "bob.json").read_text())[
        "password"]  # salted: the same password hashes differently


def test_a_name_is_registered_once_and_passwords_have_a_minimum(tmp_path):
    acc = Accounts(tmp_path)
    acc.register("anna", "12345678")
    with pytest.raises(Taken):
        acc.register("Anna", "something else")
    with pytest.raises(ValueError, match="8 to 200 characters"):
        acc.register("bob", "short")
    assert not acc.exists("bob")


def test_keys_are_compared_without_their_comment_and_capped(tmp_path):
    acc = Accounts(tmp_path)
    acc.register("anna", "12345678", key="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA anna@laptop")
    assert acc.has_key("anna", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA other comment")
    assert not acc.has_key("anna", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB")
    assert not acc.has_key("bob", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA")
    for i in range(accounts.MAX_KEYS - 1):
        assert acc.add_key("anna", f"ssh-ed25519 KEY{i}")
    assert not acc.add_key("anna", "ssh-ed25519 ONE_TOO_MANY")
    import asyncssh

    key = asyncssh.generate_private_key("ssh-ed25519")
    line = key.export_public_key().decode()
    assert accounts.fingerprint(line) == f"ssh-ed25519 {key.get_fingerprint()}"  # as ssh-keygen -l says it


def test_a_player_folder_is_always_under_players(tmp_path):
    acc = Accounts(tmp_path)
    with pytest.raises(BadName):
        acc.folder("../accounts")
    assert acc.folder("Anna") == tmp_path / "players" / "anna"

# -- rate limits --------------------------------------------------------------------------------


def test_a_window_allows_so_many_events_per_address_and_forgets_old_ones():
    clock = Clock()
    window = Window(3, 60.0, clock)
    assert [window.allow("1.2.3.4") for _ in range(4)] == [True, True, True, False]
    assert window.allow("5.6.7.8")  # another address has its own count
    assert window.wait("1.2.3.4") == 60.0
    clock.now += 59.9
    assert not window.allow("1.2.3.4")
    clock.now += 0.2
    assert window.allow("1.2.3.4") and not window.full("5.6.7.8")

# -- the online table ---------------------------------------------------------------------------


def test_a_log_is_described_from_its_end(content, tmp_path):
    session = new_session(content, tmp_path)
    session.submit(Move(unit="anton", path=((13, 37),)))
    assert status.describe(content, session.path) == "Eliminate (xcom-trpg) · phase 1, X-COM turn"
    play_out(session.game)
    assert status.describe(content, session.path).startswith("Eliminate (xcom-trpg) · over: ")
    session.close()


def test_watcher_notes_say_who_watches():
    assert watchcount.words([]) == "Nobody is watching now"
    assert watchcount.words(["bob"]) == "👁 1 watching: bob"
    assert watchcount.words(list("abcdef")) == "👁 6 watching: a, b, c, d and 2 more"


def test_the_game_notes_each_change_of_watchers(tmp_path):
    notes, timers = [], []

    class App:
        def notify(self, text, **_kw):
            notes.append(text)

        def set_interval(self, _every, fn):
            timers.append(fn)

    path = tmp_path / "watchers-1.json"
    watchcount.follow(App(), path)
    [look] = timers
    look()  # no file yet: nothing to say
    status.write_json(path, {"watchers": []})
    look()
    status.write_json(path, {"watchers": ["bob"]})
    look()
    look()  # the same: said once
    status.write_json(path, {"watchers": []})
    look()
    assert notes == ["👁 1 watching: bob", "Nobody is watching now"]

# -- the live viewer in Textual's pilot ---------------------------------------------------------



def test_the_live_viewer_follows_new_records_and_keeps_the_fog(content, tmp_path):
    from tui.serve.follow import Follow, WatchApp, open_timeline

    session = new_session(content, tmp_path)
    session.submit(Move(unit="anton", path=((13, 37),)))
    timeline = open_timeline(content, session.path)
    app = WatchApp(content, tmp_path, {}, timeline, "anna", None)

    async def steps(pilot):
        follow = app.screen
        assert isinstance(follow, Follow)
        first = (follow.n, screen_text(app))
        session.submit(Move(unit="anton", path=((13, 36),)))
        follow.poll()  # what the interval timer does; called here so no test waits on a clock
        await pilot.pause()
        moved = (follow.n, screen_text(app))
        await pilot.press("left")  # back through what was missed
        back = follow.n
        assert not isinstance(session.submit(EndTurn(side="xcom")), Rejected)
        follow.poll()
        await pilot.pause()
        stays = (follow.n, screen_text(app))
        await pilot.press("f")
        await pilot.pause()
        full = screen_text(app)
        await pilot.press("end")
        await pilot.pause()
        return first, moved, back, stays, full, follow.n

    first, moved, back, stays, full, last = run_app(app, steps)
    records = [n for n, _off, _raw in log.read_lines(session.path)]
    assert first[0] == 3 and "● LIVE anna · Record 3/3" in first[1] and "Anton moves to 13,37" in first[1]
    assert moved[0] == 4 and "Record 4/4" in moved[1] and "Anton moves to 13,36" in moved[1]
    assert back == 3
    assert stays[0] == 3 and "● 2 new record(s) since the one on show" in stays[1]  # the watcher keeps its place
    assert "The full map opens when the mission ends" in full  # the fog of war holds while it is live
    assert last == max(records) == 5
    session.close()


def test_the_live_viewer_waits_for_a_half_written_record(content, tmp_path):
    from tui.serve.follow import WatchApp, open_timeline

    session = new_session(content, tmp_path)
    timeline = open_timeline(content, session.path)
    app = WatchApp(content, tmp_path, {}, timeline, "anna", None)

    async def steps(pilot):
        follow = app.screen
        before = follow.n
        with open(session.path, "ab") as f:
            f.write(b'{"n":3,"kind":"comm')  # the player's game is in the middle of a write
        follow.poll()
        await pilot.pause()
        return before, follow.n, screen_text(app)

    before, after, text = run_app(app, steps)
    assert before == after == 2 and "DAMAGED" not in text
    session.close()

# -- the lobby in Textual's pilot ---------------------------------------------------------------


def make_root(tmp_path) -> Path:
    acc = Accounts(tmp_path)
    acc.register("anna", "12345678")
    acc.register("bob", "12345678")
    return tmp_path


def test_the_lobby_offers_to_resume_and_hands_back_what_to_start(content, tmp_path):
    from tui.serve.lobby import LobbyApp

    root = make_root(tmp_path)
    session = new_session(content, root / "players" / "anna")
    session.submit(Move(unit="anton", path=((13, 37),)))
    session.close()
    app = LobbyApp(content, root, "anna")

    async def steps(pilot):
        lobby = screen_text(app)
        await pilot.press("enter")
        return lobby

    lobby = run_app(app, steps)
    for words in ("you are anna", "Resume Eliminate · phase 1", "New mission", "My replays", "Watch a live game",
                  "Finished missions", "Squad", "Help", "Quit", "Your mission was left unfinished"):
        assert words in lobby, lobby
    assert app.return_value == {"do": "resume", "log": session.path.name}


def test_a_new_mission_from_the_lobby_has_no_seed_to_choose(content, tmp_path):
    from tui.serve.lobby import LobbyApp

    app = LobbyApp(content, make_root(tmp_path), "anna")

    async def steps(pilot):
        await pilot.press("n")
        await pilot.pause()
        form = screen_text(app)
        await pilot.press("s")
        return form

    form = run_app(app, steps)
    assert "Eliminate" in form and "Start mission" in form and "secret seed" in form
    assert "Seed" not in form
    assert app.return_value == {"do": "play", "ruleset": "xcom-trpg", "mission": "eliminate"}
    assert not log.list_logs(tmp_path / "players" / "anna")  # the host starts the game, not the lobby


def test_the_lobby_shows_who_is_online_and_watches_a_live_game(content, tmp_path):
    from tui.serve.lobby import LobbyApp

    root = make_root(tmp_path)
    session = new_session(content, root / "players" / "bob")
    rel = str(session.path.relative_to(root))
    status.write_json(status.online_path(root), {"sessions": [
        {"id": 4, "player": "bob", "doing": "playing", "log": rel, "watchers": ["carol"]},
        {"id": 5, "player": "carol", "doing": "watching", "watching_player": "bob", "watchers": []},
        {"id": 6, "player": "anna", "doing": "lobby", "watchers": []}]})
    app = LobbyApp(content, root, "anna")

    async def steps(pilot):
        lobby = screen_text(app)
        await pilot.press("w")
        await pilot.pause()
        games = screen_text(app)
        await pilot.press("enter")
        return lobby, games

    lobby, games = run_app(app, steps, size=(100, 30))
    assert "Online now (3)" in lobby and "bob plays Eliminate (xcom-trpg) · phase 1, X-COM turn" in lobby
    assert "1 watching" in lobby and "carol watches bob" in lobby and "anna in the lobby" in lobby
    assert "bob" in games and "Eliminate (xcom-trpg)" in games
    assert app.return_value == {"do": "watch", "session": 4}
    session.close()


def test_finished_missions_of_every_player_open_in_the_viewer_with_the_seed(content, tmp_path):
    from tui.serve.lobby import LobbyApp

    root = make_root(tmp_path)
    done = new_session(content, root / "players" / "bob", seed=3)
    play_out(done.game)
    done.close()
    unfinished = new_session(content, root / "players" / "bob", seed=4)  # not listed: it would show the fog
    unfinished.close()
    app = LobbyApp(content, root, "anna")

    async def steps(pilot):
        await pilot.press("f")
        await pilot.pause()
        listed = screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        return listed, type(app.screen).__name__, app.screen

    listed, screen, viewer = run_app(app, steps)
    assert "bob" in listed and "over:" in listed and "1 finished mission" in listed
    assert screen == "Viewer" and viewer.timeline.path == done.path and viewer.timeline.ended

# -- the host key, the command line, the programs the host starts -------------------------------


def test_the_host_key_is_made_once_with_mode_0600_and_a_readable_one_is_refused(tmp_path):
    from tui.serve.host import BadSetup, host_key

    first = host_key(tmp_path)
    path = tmp_path / "host_key"
    assert path.stat().st_mode & 0o777 == 0o600
    assert host_key(tmp_path).get_fingerprint() == first.get_fingerprint()  # kept across starts
    os.chmod(path, 0o644)
    with pytest.raises(BadSetup, match="can be read by others .mode 644.: chmod 600 it"):
        host_key(tmp_path)


@pytest.mark.parametrize("text, address", [("127.0.0.1:2222", ("127.0.0.1", 2222)), (":0", ("0.0.0.0", 0)),
                                           ("[::1]:22", ("::1", 22)), ("localhost:65535", ("localhost", 65535))])
def test_listen_addresses(text, address):
    assert listen_address(text) == address


@pytest.mark.parametrize("args, words", [
    (["--listen", "2222"], "expected HOST:PORT"),
    (["--listen", "host:99999"], "expected HOST:PORT"),
    (["--max-sessions", "0"], "at least 1"),
    (["--root", "{file}"], "cannot use it as the host's folder"),
])
def test_serve_refuses_bad_options_in_one_line(tmp_path, args, words):
    afile = tmp_path / "a-file"
    afile.write_text("")
    args = [a.replace("{file}", str(afile)) for a in args]
    done = subprocess.run([sys.executable, "-c", "import sys; from tui.cli import main; sys.exit(main())", "serve",
                           "--listen", "127.0.0.1:0", *args], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def test_the_last_line_of_a_program_is_read_without_terminal_codes():
    out = b"\x1b[?1049h\x1b[1;1Hdrawing\x1b[0m\r\n\x1b[31mxenotac: eliminate.jsonl is in use by PID 7\x1b[0m\r\n"
    assert spawn.last_line(out) == "xenotac: eliminate.jsonl is in use by PID 7"
    crash = "│ some code │\r\n╰──────╯\r\nValueError: the map is gone\r\n\r\nNOTE: 1 of 3 errors shown.\r\n"
    assert spawn.last_line(crash.encode()) == "ValueError: the map is gone"
    assert spawn.last_line(b"") == ""


def test_the_child_runs_only_lobby_game_or_watch():
    done = subprocess.run(spawn.command("shell"), capture_output=True, text=True, cwd=ROOT, timeout=30,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2 and "runs only lobby, game or watch" in done.stderr
