"""The SSH server: who may connect, who is online, idle sweeps, the server's own log.

Authentication: a public key registered to the name logs straight in; otherwise the SSH layer lets
the connection through keyboard-interactive without questions and the session asks on the
terminal (a password, or a new name's registration), where every refusal can be one clear line.
A key offered for a name nobody has is accepted too, so registering can keep it: it is proved.
Refused outright: shells, commands, subsystems (SFTP), agent/X11/port forwarding.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import asyncssh

from tui.serve import status
from tui.serve.accounts import Accounts, BadName, check_name, key_text
from tui.serve.limits import Config, Window


class ServerLog:
    """One line per login, refusal and error: `2025-05-01T12:00:00 login anna 127.0.0.1 key`."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def write(self, kind: str, *words: object) -> None:
        text = " ".join(" ".join(str(w).split()) for w in words if str(w))
        line = f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {kind} {text}".rstrip()[:500]
        try:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(line + "\n")
        except OSError:
            pass  # a full disk must not take the host down with it


class BadSetup(Exception):
    """The root folder or the host key cannot be used: one line."""


def host_key(root: Path) -> asyncssh.SSHKey:
    """The host's key, made on first start and kept in ROOT/host_key, readable by its owner only."""
    path = root / "host_key"
    if not path.exists():
        key = asyncssh.generate_private_key("ssh-ed25519")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
    mode = path.stat().st_mode & 0o777
    if mode & 0o077:
        raise BadSetup(f"{path} can be read by others (mode {mode:o}): chmod 600 it")
    try:
        return asyncssh.read_private_key(path)
    except (asyncssh.KeyImportError, OSError) as exc:
        raise BadSetup(f"{path}: not a usable host key ({exc})") from None


def prepare(root: Path) -> None:
    try:
        for folder in (root, root / "players", root / "accounts", status.run_dir(root)):
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        probe = status.run_dir(root) / ".probe"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise BadSetup(f"{root}: cannot use it as the host's folder ({exc.strerror or exc})") from None


class Gate(asyncssh.SSHServer):
    """One SSH connection: its address, the name it gave, the keys it offered and proved."""

    def __init__(self, host: "Host") -> None:
        self.host = host
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.username = ""
        self.admitted = False
        self.offered: list[str] = []  # public keys offered, OpenSSH form, first few
        self._valid: tuple[str, str] | None = None  # (username, key) last accepted for signing
        self.proved: tuple[str, str] | None = None  # the key whose signature logged this connection in
        self.seat = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"

    def connection_lost(self, exc: Exception | None) -> None:
        self.host.gates.discard(self)

    def begin_auth(self, username: str) -> bool:
        self.username = username
        if not self.admitted:
            refusal = self.host.admit(self)
            if refusal:
                self.host.log.write("refused", self.address, username[:40], refusal)
                assert self.conn is not None
                self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, f"xenotac: {refusal}")
            self.admitted = refusal is None
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        text = key_text(key.export_public_key().decode("ascii", "replace"))
        if text not in self.offered and len(self.offered) < 4:
            self.offered.append(text)
        self._valid = None
        try:
            name = check_name(username)
        except BadName:
            return False
        accounts = self.host.accounts
        if accounts.has_key(name, text) or not accounts.exists(name):
            self._valid = (username, text)  # asyncssh asks again with the signature, right before success
        return self._valid is not None

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self._valid = None  # whatever key was tried did not log in: the terminal will ask
        return True

    def auth_completed(self) -> None:
        self.proved = self._valid

    def session_requested(self):
        if self.seat is not None:
            return False  # one session per connection: the caps count connections
        from tui.serve.seat import Seat

        self.seat = Seat(self.host, self)
        return self.seat

    def connection_requested(self, *_args) -> bool:
        return False  # no port forwarding

    def server_requested(self, *_args) -> bool:
        return False

    def unix_connection_requested(self, *_args) -> bool:
        return False

    def unix_server_requested(self, *_args) -> bool:
        return False


class Host:
    def __init__(self, config: Config) -> None:
        self.config = config
        self.root = config.root
        self.accounts = Accounts(config.root)
        self.log = ServerLog(config.root / "server.log")
        self.connections = Window(*config.connections, clock=config.clock)
        self.failures = Window(*config.failed_logins, clock=config.clock)
        self.gates: set[Gate] = set()
        self.seats: dict[int, object] = {}
        self.ending: dict[str, set[asyncio.Task]] = {}  # games still closing after a dropped connection
        self._next_id = 1
        self.server: asyncssh.SSHAcceptor | None = None
        self._sweeper: asyncio.Task | None = None

    async def start(self) -> tuple[str, int]:
        prepare(self.root)
        key = host_key(self.root)
        self.server = await asyncssh.create_server(
            lambda: Gate(self), self.config.host, self.config.port, server_host_keys=[key], encoding=None,
            allow_pty=True, line_editor=False, agent_forwarding=False, x11_forwarding=False, allow_scp=False,
            sftp_factory=None, password_auth=False, gss_auth=False, host_based_auth=False, login_timeout=60,
            keepalive_interval=60, keepalive_count_max=3)
        host, port = self.server.sockets[0].getsockname()[:2]
        self.fingerprint = key.get_fingerprint()
        self._sweeper = asyncio.create_task(self._sweep_loop())
        self.changed()
        self.log.write("start", f"{host}:{port}", self.fingerprint)
        return host, port

    async def stop(self) -> None:
        if self._sweeper:
            self._sweeper.cancel()
        if self.server:
            self.server.close()
        await asyncio.gather(*(seat.kick("the host is shutting down; your game is saved")
                               for seat in list(self.seats.values())), return_exceptions=True)
        for gate in list(self.gates):
            if gate.conn is not None:
                gate.conn.close()
        await self.settled(None)
        if self.server:
            await self.server.wait_closed()
        self.log.write("stop")

    # -- who may come in ---------------------------------------------------------------------------

    def admit(self, gate: Gate) -> str | None:
        """Why a new connection is refused, or None (then it is counted)."""
        address = gate.address
        if self.failures.full(address):
            minutes = max(1, round(self.failures.wait(address) / 60))
            return f"too many failed logins from {address}: wait {minutes} minute(s)"
        if not self.connections.allow(address):
            return f"too many connections from {address}: wait a minute"
        if len(self.gates) >= self.config.max_sessions:
            return f"the server is full ({self.config.max_sessions} sessions); try again later"
        self.gates.add(gate)
        return None

    def sessions_of(self, player: str) -> int:
        return sum(getattr(seat, "player", None) == player for seat in self.seats.values())

    # -- sessions ----------------------------------------------------------------------------------

    def opened(self, seat) -> int:
        sid = self._next_id
        self._next_id += 1
        self.seats[sid] = seat
        return sid

    def closed(self, seat) -> None:
        self.seats.pop(seat.id, None)
        try:
            status.watchers_path(self.root, seat.id).unlink()
        except OSError:
            pass
        self.changed()

    def game_ending(self, player: str, hangup) -> None:
        """A dropped session's game closing: the player's next game waits for it (the log's lock)."""
        task = asyncio.ensure_future(hangup)
        tasks = self.ending.setdefault(player, set())
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    async def settled(self, player: str | None) -> None:
        tasks = [t for p, ts in self.ending.items() if player is None or p == player for t in ts]
        if tasks:
            await asyncio.wait(tasks, timeout=self.config.hangup_grace + 5)

    def sweep(self) -> list[int]:
        """Ends every session idle for longer than its limit (shorter at the login prompts); the ids ended."""
        now, config = self.config.clock(), self.config
        ended = []
        for seat in list(self.seats.values()):
            limit = config.idle_timeout if seat.player else min(config.login_timeout, config.idle_timeout)
            if seat.leaving or now - self._last_key(seat) < limit:
                continue
            seat.leaving = True
            ended.append(seat.id)
            self.log.write("idle", seat.player or "-", seat.gate.address)
            minutes = max(1, round(limit / 60))
            why = (f"idle for {minutes} minute(s): disconnected. Your game is saved; log in again to resume"
                   if seat.player else f"not logged in within {minutes} minute(s): disconnected")
            asyncio.ensure_future(seat.kick(why))
        return ended

    def _last_key(self, seat) -> float:
        """A watcher is busy as long as the game it watches is played."""
        target = self.seats.get(seat.watching) if seat.doing == "watching" else None
        return max(seat.last_input, target.last_input) if target is not None else seat.last_input

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_every)
            try:
                self.sweep()
            except Exception as exc:  # noqa: BLE001 - the sweeper must outlive any one session's fault
                self.log.write("error", "sweep", repr(exc))

    # -- the online table --------------------------------------------------------------------------

    def changed(self) -> None:
        """Rewrites the online table and each game's watcher list."""
        seats = [s for s in self.seats.values() if s.player]
        watchers: dict[int, list[str]] = {}
        for s in seats:
            if s.doing == "watching" and s.watching is not None:
                watchers.setdefault(s.watching, []).append(s.player)
        rows = []
        for s in seats:
            row = {"id": s.id, "player": s.player, "doing": s.doing, "log": None, "watchers": watchers.get(s.id, [])}
            if s.doing == "playing" and s.log is not None:
                row["log"] = str(s.log.relative_to(self.root))
            if s.doing == "watching":
                row["watching_player"] = s.watching_player  # kept when the player leaves
            rows.append(row)
        try:
            status.write_json(status.online_path(self.root), {"sessions": rows})
            for s in seats:
                if s.doing == "playing":
                    status.write_json(status.watchers_path(self.root, s.id), {"watchers": watchers.get(s.id, [])})
        except OSError as exc:
            self.log.write("error", "online table", exc)

    def live_game(self, sid: object):
        """The session playing `sid`'s game, if it still is."""
        seat = self.seats.get(sid) if isinstance(sid, int) else None
        if seat is None or seat.doing != "playing" or seat.log is None:
            return None
        return seat
