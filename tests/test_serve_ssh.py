"""`xenotac serve` over a real SSH connection: asyncssh's own client against the host, on a free
loopback port, in a temporary root. Every program the host starts is a real process in a real
pseudo-terminal; the client reads the screen back through pyte.

Time limits here only bound a hang; nothing waits for a clock to be right. The idle timeout and
the rate limits run on a clock the tests move by hand.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
from pathlib import Path

import pytest

asyncssh = pytest.importorskip("asyncssh", reason="the server extra (asyncssh) is not installed")

from engine.log import writer as log  # noqa: E402
from engine.play import verify  # noqa: E402
from tui.serve.host import Host  # noqa: E402
from tui.serve.limits import Config  # noqa: E402
from tui.serve.sshterm import KEYS, connect  # noqa: E402

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX pseudo-terminals")
PASSWORD = "correct horse"
MOVED = re.compile(r"Anton moves to (\d+,\d+)")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def run(scenario, limit: float = 240.0):
    """One scenario against a host that is stopped afterwards, whatever happens."""
    return asyncio.run(asyncio.wait_for(scenario, limit))


class Running:
    def __init__(self, tmp_path: Path, **settings) -> None:
        self.clock = Clock()
        self.host = Host(Config(root=tmp_path / "host", port=0, clock=self.clock, **settings))
        self.conns: list = []

    async def __aenter__(self) -> "Running":
        _addr, self.port = await self.host.start()
        return self

    async def __aexit__(self, *_exc) -> None:
        for conn in self.conns:
            conn.close()
        await self.host.stop()

    async def open(self, name: str, **kw):
        conn, term = await connect(self.port, name, **kw)
        self.conns.append(conn)
        return conn, term

    async def register(self, name: str, **kw):
        conn, term = await self.open(name, **kw)
        assert await term.wait_for("Password (8 characters or more)"), term.text()
        term.send(PASSWORD + "\r")
        assert await term.wait_for("The same again"), term.text()
        term.send(PASSWORD + "\r")
        assert await term.wait_for("Online now", f"you are {name}"), term.text()
        return conn, term

    async def log_in(self, name: str, password: str = PASSWORD, **kw):
        conn, term = await self.open(name, **kw)
        assert await term.wait_for(f"Password for {name}:"), term.text()
        term.send(password + "\r")
        return conn, term

    async def drop(self, conn) -> None:
        """Closes a connection and waits (bounded) until the host has let its session go."""
        sessions = len(self.host.seats)
        conn.close()
        await conn.wait_closed()
        for _ in range(100):
            if len(self.host.seats) < sessions:
                return
            await asyncio.sleep(0.05)

    def log_lines(self) -> list[str]:
        return (self.host.root / "server.log").read_text().splitlines()

    def seat(self, player: str):
        return next(s for s in self.host.seats.values() if s.player == player)


async def start_mission(term) -> str:
    term.send("n")
    assert await term.wait_for("Start mission", "secret seed"), term.text()
    term.send("s")
    assert await term.wait_for("Phase 1/40", "X-COM turn", "save+quit", timeout=60), term.text()
    term.send("k" + KEYS["enter"])
    assert await term.wait_for("Anton moves to"), term.text()
    await term.settle()  # the needle can arrive before the rest of its line: read the frame to its end
    found = MOVED.search(term.text())
    assert found, term.text()
    return found.group(1)


def map_rows(text: str) -> list[str]:
    """The map's rows on a screen: below the top line, left of the side panel, down to the logs."""
    out = []
    for line in text.splitlines()[1:]:
        if "▔" in line:
            break
        out.append(line.split("▏")[0].rstrip())
    return out


def overlap(a: list[str], b: list[str]) -> tuple[int, int]:
    """Two windows onto one map, at different sizes and origins: (cells that agree, cells that do not)
    at the alignment where the most agree. Blank (unexplored or off the map) cells are not compared."""
    best = (0, 0)
    for dy in range(-10, 11):
        for dx in range(-40, 41):
            agree = differ = 0
            for y, row in enumerate(a):
                other = b[y + dy] if 0 <= y + dy < len(b) else ""
                for x, ch in enumerate(row):
                    theirs = other[x + dx] if 0 <= x + dx < len(other) else " "
                    if ch != " " and theirs != " ":
                        agree, differ = (agree + 1, differ) if ch == theirs else (agree, differ + 1)
            best = max(best, (agree, -differ))
    return best[0], -best[1]


# -- the whole visit ----------------------------------------------------------------------------


@pytest.mark.slow
def test_register_play_drop_and_resume_exactly(tmp_path, content):
    async def scenario():
        async with Running(tmp_path) as r:
            conn, t = await r.register("anna")
            assert await t.wait_for("Welcome! n starts a mission"), t.text()  # the lobby paints it a frame later
            cell = await start_mission(t)
            assert "Actions 1/2" in t.text()
            [path] = log.list_logs(r.host.root / "players" / "anna")
            game = r.seat("anna").child
            conn.close()  # the connection drops mid-mission
            assert await asyncio.wait_for(game.proc.wait(), 10) is not None  # and the game ends with it

            conn, t = await r.log_in("anna")
            assert await t.wait_for("Resume Eliminate", "left unfinished: ⏎ resumes it"), t.text()
            t.send(KEYS["enter"])
            assert await t.wait_for("Phase 1/40", f"Anton moves to {cell}", timeout=60), t.text()
            assert "Actions 1/2" in t.text() and ("5/6 ready" in t.text() or "6/6 ready" in t.text())
            t.resize(60, 20)  # a window resize reaches the game
            assert await t.wait_for("Terminal too small: 60×20"), t.text()
            t.resize(80, 24)
            assert await t.wait_for("Phase 1/40"), t.text()
            t.send("q")  # save and quit: back to the lobby
            assert await t.wait_for("Online now", "you are anna"), t.text()
            t.send("q")
            assert await t.closed_with() == 0
            assert "Bye! Everything is saved: log in again to carry on." in t.said()
            lines = r.log_lines()
        return path, lines

    path, lines = run(scenario())
    assert verify.verify(content, path, log.seed_path(path)).failure is None
    assert any(" register anna 127.0.0.1" in ln for ln in lines)
    assert any(" login anna 127.0.0.1 password" in ln for ln in lines)


@pytest.mark.slow
def test_a_watcher_sees_the_same_map_live_and_its_keys_change_nothing(tmp_path):
    async def scenario():
        async with Running(tmp_path) as r:
            _c1, anna = await r.register("anna")
            await start_mission(anna)
            await anna.settle()
            _c2, bob = await r.register("bob", cols=100, rows=30)  # the watcher's own terminal size
            assert await bob.wait_for("anna plays Eliminate"), bob.text()
            bob.send("w")
            assert await bob.wait_for("Games being played now", "anna"), bob.text()
            bob.send(KEYS["enter"])
            assert await bob.wait_for("● LIVE anna", "Anton moves to", "X-COM's fog", timeout=60), bob.text()
            assert await anna.wait_for("1 watching: bob"), anna.text()
            await anna.settle()
            await bob.settle()
            player_view, watcher_view = map_rows(anna.text()), map_rows(bob.text())

            # the watcher presses what would move, shoot, end the turn and undo in the game
            path = next(iter(log.list_logs(r.host.root / "players" / "anna")))
            before = path.read_bytes()
            screen = anna.text()
            bob.send("k" + KEYS["enter"] + "e" + "y" + "U" + KEYS["tab"] + "w" + "c" + "f")
            await bob.settle(0.5)
            full = bob.text()
            await anna.settle(0.5)
            assert path.read_bytes() == before and anna.text() == screen
            assert "● LIVE anna" in full  # still watching

            # the player moves on: the watcher, at the newest record, follows; then steps back to what it missed
            anna.send("\t" + "k" + KEYS["enter"])  # the next soldier walks a cell north
            assert await anna.wait_for("Julia moves to"), anna.text()
            assert await bob.wait_for("Julia moves to", timeout=20), bob.text()
            bob.send(KEYS["left"])
            assert await bob.wait_for("Anton moves to"), bob.text()
            online = r.host.seats
            watcher = r.seat("bob")
            assert watcher.doing == "watching" and online[watcher.watching].player == "anna"
        return player_view, watcher_view, full

    player_view, watcher_view, full = run(scenario())
    agree, differ = overlap(player_view, watcher_view)
    shown = sum(ch != " " for row in player_view for ch in row)
    assert agree >= 100 and agree >= 0.8 * shown and differ <= agree // 50, (agree, differ, shown, player_view,
                                                                             watcher_view)
    assert "The full map opens when the mission ends" in full  # the fog of war holds for the watcher


# -- refusals: one clear line each --------------------------------------------------------------


@pytest.mark.parametrize("name", ["../etc", "bob/..", "A!", "x"])
def test_a_bad_name_gets_one_line_and_status_2(tmp_path, name):
    async def scenario():
        async with Running(tmp_path) as r:
            _conn, t = await r.open(name)
            status = await t.closed_with()
            players = list((r.host.root / "players").iterdir())
        return status, t.said(), players

    status, said, players = run(scenario())
    assert status == 2 and players == []
    lines = [ln for ln in said.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("xenotac: ") and "is not a name" in lines[0], said


def test_a_wrong_password_gets_one_line_and_too_many_lock_the_address_out(tmp_path):
    async def scenario():
        async with Running(tmp_path, failed_logins=(2, 600.0)) as r:
            r.host.accounts.register("anna", PASSWORD)
            said = []
            for _ in range(2):
                _conn, t = await r.log_in("anna", "not the password")
                said.append((await t.closed_with(), t.said()))
            with pytest.raises(asyncssh.DisconnectError, match="too many failed logins from 127.0.0.1: wait 10"):
                await r.open("anna")
            r.clock.now += 601  # ten minutes on, the address may try again
            _conn, t = await r.log_in("anna")
            ok = await t.wait_for("Online now")
        return said, ok, r.log_lines()

    said, ok, lines = run(scenario())
    for status, text in said:
        assert status == 2
        assert text.endswith("Password for anna: \r\nxenotac: wrong password for anna\r\n"), text
        assert "not the password" not in text  # never echoed
    assert ok
    assert sum(" refused 127.0.0.1 anna wrong password" in ln for ln in lines) == 2


def test_a_full_host_and_a_player_at_the_cap_are_told_so(tmp_path):
    async def scenario():
        async with Running(tmp_path, max_sessions=2, max_per_player=1) as r:
            r.host.accounts.register("anna", PASSWORD)
            _c, first = await r.log_in("anna")
            assert await first.wait_for("Online now"), first.text()
            _c, second = await r.log_in("anna")
            capped = (await second.closed_with(), second.said())
            _c, third = await r.open("carol")  # registering: counts as a session
            assert await third.wait_for("Password (8"), third.text()
            with pytest.raises(asyncssh.DisconnectError) as full:
                await r.open("dave")
        return capped, str(full.value), r.log_lines()

    capped, full, lines = run(scenario())
    assert capped[0] == 2 and capped[1].rstrip().splitlines()[-1] == (
        "xenotac: anna has 1 session(s) open already, the most this host allows; close one first")
    assert full.startswith("xenotac: the server is full (2 sessions); try again later")
    assert any(" refused 127.0.0.1 dave the server is full" in ln for ln in lines)


def test_too_many_connections_from_one_address_are_refused(tmp_path):
    async def scenario():
        async with Running(tmp_path, connections=(2, 60.0)) as r:
            for name in ("anna", "bob"):
                _c, t = await r.open(name)
                assert await t.wait_for("Password (8"), t.text()
            with pytest.raises(asyncssh.DisconnectError, match="too many connections from 127.0.0.1"):
                await r.open("carol")
            r.clock.now += 61
            _c, t = await r.open("carol")
            return await t.wait_for("Password (8")

    assert run(scenario())


def test_no_command_no_terminal_no_sftp_no_forwarding(tmp_path):
    async def scenario():
        async with Running(tmp_path) as r:
            r.host.accounts.register("anna", PASSWORD)
            _c, cmd = await r.open("anna", command="cat /etc/passwd")
            by_command = (await cmd.closed_with(), cmd.said())
            _c, bare = await r.open("anna", term=None)
            no_pty = (await bare.closed_with(), bare.said())
            conn = await asyncssh.connect("127.0.0.1", r.port, username="anna", known_hosts=None, agent_path=None,
                                          client_keys=None, password="unused")
            r.conns.append(conn)
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.start_sftp_client()
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.open_connection("127.0.0.1", r.port)
            with pytest.raises(asyncssh.ChannelListenError):
                await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
        return by_command, no_pty

    by_command, no_pty = run(scenario())
    assert by_command == (2, "xenotac: this host runs only the game: connect without a command "
                             "(ssh -t NAME@HOST)\r\n")
    assert no_pty == (2, "xenotac: this host needs a terminal: connect with ssh -t NAME@HOST\n")


# -- keys, idle sessions, crashes ---------------------------------------------------------------


def test_a_key_offered_when_registering_logs_in_from_then_on(tmp_path):
    key = asyncssh.generate_private_key("ssh-ed25519")
    other = asyncssh.generate_private_key("ssh-ed25519")

    async def scenario():
        async with Running(tmp_path) as r:
            c, t = await r.register("anna", key=key)
            first = t.said()
            await r.drop(c)
            c, t = await r.open("anna", key=key)
            assert await t.wait_for("Online now", "you are anna"), t.text()
            by_key = t.said()
            await r.drop(c)
            c, t = await r.open("anna", key=other)  # a key nobody registered: the password is asked
            assert await t.wait_for("Password for anna:"), t.text()
            t.send(PASSWORD + "\r")
            assert await t.wait_for("Let your key"), t.text()
            t.send("y\r")
            assert await t.wait_for("Online now"), t.text()
            offered = t.said()
            await r.drop(c)
            _c, t = await r.open("anna", key=other)
            assert await t.wait_for("Online now"), t.text()
        return first, by_key, offered, t.said(), r.log_lines()

    first, by_key, offered, second, lines = run(scenario())
    assert f"Your key ssh-ed25519 {key.get_fingerprint()} logs you in from now on" in first
    assert "Password" not in by_key and "Password" not in second
    assert f"ssh-ed25519 {other.get_fingerprint()}" in offered and "Done: next time no password" in offered
    assert sum(" login anna 127.0.0.1 key" in ln for ln in lines) == 2


def test_an_idle_session_is_closed_and_its_program_with_it(tmp_path):
    async def scenario():
        async with Running(tmp_path, idle_timeout=600.0, login_timeout=120.0) as r:
            _c, waiting = await r.open("anna")  # stays at the first prompt
            assert await waiting.wait_for("Password (8"), waiting.text()
            _c, t = await r.register("bob")
            lobby = r.seat("bob").child
            r.clock.now += 121
            ended = [r.host.sweep()]  # the login prompt has waited long enough; bob has not
            statuses = [await waiting.closed_with()]
            t.send("j")  # bob presses a key: his ten minutes start again
            await t.settle()
            r.clock.now += 599
            ended.append(r.host.sweep())
            r.clock.now += 1
            ended.append(r.host.sweep())
            statuses.append(await t.closed_with())
            await asyncio.wait_for(lobby.proc.wait(), 10)
        return ended, statuses, waiting.said(), t.said(), r.log_lines()

    ended, statuses, waiting, bob, lines = run(scenario())
    assert [len(e) for e in ended] == [1, 0, 1] and statuses == [1, 1]
    assert waiting.rstrip().splitlines()[-1] == "xenotac: not logged in within 2 minute(s): disconnected"
    assert "xenotac: idle for 10 minute(s): disconnected. Your game is saved; log in again to resume" in bob
    assert sum(" idle " in ln for ln in lines) == 2


def test_ssh_play_at_host_asks_for_the_name_on_the_terminal(tmp_path):
    async def scenario():
        async with Running(tmp_path) as r:
            _c, t = await r.open("play")
            assert await t.wait_for("Your player name:"), t.text()
            t.send("Anna\r")
            return await t.wait_for("'anna' is a new name here", "Password (8"), t.text()

    ok, text = run(scenario())
    assert ok, text


@pytest.mark.slow
def test_a_crashed_game_is_reported_in_the_lobby_and_the_host_keeps_going(tmp_path):
    async def scenario():
        async with Running(tmp_path) as r:
            _c, t = await r.register("anna")
            await start_mission(t)
            game = r.seat("anna").child
            os.kill(game.pid, signal.SIGSEGV)
            assert await t.wait_for("Your game stopped unexpectedly (status -11", timeout=30), t.text()
            assert await t.wait_for("Online now", "Resume Eliminate"), t.text()
            _c, other = await r.register("bob")  # the host still takes new players
            t.send(KEYS["enter"])
            assert await t.wait_for("Phase 1/40", "Anton moves to", timeout=60), t.text()
        return r.log_lines()

    lines = run(scenario())
    assert any(" crash anna " in ln and "status -11" in ln for ln in lines)


def test_the_game_gets_the_clients_terminal_and_colour_wishes_only(tmp_path):
    async def scenario():
        async with Running(tmp_path) as r:
            _c, t = await r.register("anna", term="screen-256color", env={"NO_COLOR": "1", "LD_PRELOAD": "x.so",
                                                                           "COLORTERM": "truecolor"})
            return r.seat("anna").env(), r.host.root

    env, root = run(scenario())
    assert env["TERM"] == "screen-256color" and env["NO_COLOR"] == "1" and env["COLORTERM"] == "truecolor"
    assert "LD_PRELOAD" not in env
    assert env["XENOTAC_SAVES"] == env["HOME"] == str(root / "players" / "anna")


@pytest.mark.slow
def test_the_load_benchmark_plays_sessions_side_by_side():
    """benchmarks/run.py serve, small: a separate `xenotac serve`, players pressing keys at once."""
    from benchmarks.bench_serve import load

    result = load(sessions=3, seconds=2.0)
    assert len(result["latencies"]) >= 3 * 4  # every player's keys were answered, a few times each
    assert 0 < result["server_kib"] < result["total_kib"]  # the games are processes of their own
