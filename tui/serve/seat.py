"""One SSH session on the host: the login prompts, then lobby → game or live viewer → lobby.

Every program runs in its own pseudo-terminal and process (tui.serve.spawn); this only routes
bytes, sizes and hangups, and turns the lobby's choices into the next program. A refusal is one
line (`xenotac: ...`) and exit status 2; a crashed program is reported in the next lobby.
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import asyncssh

from tui.serve import spawn, status
from tui.serve.login import Refused, log_in

LOG_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,120}\.jsonl")
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_@-]{0,60}")  # a ruleset or mission id the lobby hands back
TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,40}")
FIND_LOG = 30.0  # seconds a new game has to create its log before the online table gives up


class Seat(asyncssh.SSHServerSession):
    def __init__(self, host, gate) -> None:
        self.host, self.gate = host, gate
        self.id = 0
        self.player: str | None = None
        self.doing = "login"  # login, lobby, playing, watching
        self.log: Path | None = None  # the log being played
        self.watching: int | None = None  # the session being watched
        self.watching_player = ""  # and whose it was
        self.chan: asyncssh.SSHServerChannel | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.refusal: str | None = None
        self.child: spawn.Child | None = None
        self.task: asyncio.Task | None = None
        self.last_input = host.config.clock()
        self.leaving = False
        self._typed = bytearray()  # keys typed at the login prompts, not yet read
        self._more = asyncio.Event()
        self._gone = False

    # -- asyncssh's calls --------------------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self.chan = chan
        chan.set_write_buffer_limits(high=256 * 1024)

    def pty_requested(self, term_type: str, term_size, term_modes) -> bool:
        self.term = term_type if TERM.fullmatch(term_type or "") else "xterm"
        self._sized(term_size[0], term_size[1])
        return True

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._sized(width, height)
        if self.child is not None:
            self.child.resize(*self.size)

    def _sized(self, width: int, height: int) -> None:
        self.size = (min(max(width, 1), 1000), min(max(height, 1), 1000)) if width and height else (80, 24)

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.refusal = "this host runs only the game: connect without a command (ssh -t NAME@HOST)"
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False  # no SFTP, no anything

    def session_started(self) -> None:
        self.id = self.host.opened(self)
        self.task = asyncio.ensure_future(self.run())

    def data_received(self, data: bytes, datatype) -> None:
        self.last_input = self.host.config.clock()
        if self.child is not None:
            self.child.write(data)
        elif len(self._typed) < 4096:
            self._typed += data
            self._more.set()

    def eof_received(self) -> bool:
        return True  # keep the session: a client may close its input and still watch the output

    def pause_writing(self) -> None:
        if self.child is not None:
            self.child.pause()

    def resume_writing(self) -> None:
        if self.child is not None:
            self.child.resume()

    def connection_lost(self, exc: Exception | None) -> None:
        self._gone = True
        child, self.child = self.child, None
        if child is not None and self.player:
            self.host.game_ending(self.player, child.hangup(self.host.config.hangup_grace))
        if self.task is not None:
            self.task.cancel()
        if self.player:  # a client that vanished mid-session is `dropped`
            self.host.log.write("logout" if exc is None else "dropped", self.player, self.gate.address)
        self.host.closed(self)
        if self.gate.conn is not None:  # one session per connection: it ends with its session
            self.gate.conn.close()

    # -- talking on the terminal before any program runs ---------------------------------------------

    def write(self, text: str | bytes) -> None:
        if not self._gone and self.chan is not None:
            self.chan.write(text.encode() if isinstance(text, str) else text)

    async def ask(self, prompt: str, echo: bool = True, limit: int = 200) -> str:
        """One line typed at a prompt, with backspace; no echo for a password. Ctrl+C or Ctrl+D leaves."""
        self.write(prompt)
        line = bytearray()
        escape = 0  # inside an escape sequence (an arrow key): skip it
        while True:
            while not self._typed:
                self._more.clear()
                await self._more.wait()
            b = self._typed.pop(0)
            if escape:
                escape = 2 if b == ord("[") and escape == 1 else (0 if 0x40 <= b <= 0x7E else 2)
            elif b == 0x1B:
                escape = 1
            elif b in (3, 4):
                self.write("\r\n")
                raise Refused("")
            elif b in (13, 10):
                if b == 13 and self._typed[:1] == b"\n":
                    self._typed.pop(0)
                self.write("\r\n")
                return line.decode("utf-8", "replace")
            elif b in (8, 127):
                if line:
                    del line[-1]
                    while line and 0x80 <= line[-1] < 0xC0:  # the rest of a UTF-8 character
                        del line[-1]
                    if echo:
                        self.write("\b \b")
            elif b >= 32 and len(line) < limit:
                line.append(b)
                if echo:
                    self.write(bytes([b]))

    # -- the session -------------------------------------------------------------------------------

    async def run(self) -> None:
        code = 0
        try:
            if self.refusal:
                raise Refused(self.refusal)
            if self.term is None:
                raise Refused("this host needs a terminal: connect with ssh -t NAME@HOST")
            player = await log_in(self)
            most = self.host.config.max_per_player
            if self.host.sessions_of(player) >= most:
                raise Refused(f"{player} has {most} session(s) open already, the most this host allows; "
                              "close one first")
            self.player = player
            self._typed.clear()  # keys typed ahead of the lobby would echo as garbage
            await self.lobby_loop()
        except Refused as refusal:
            if refusal.line:  # a terminal needs the carriage return; a plain pipe would show it
                self.write(f"xenotac: {refusal.line}" + ("\r\n" if self.term else "\n"))
            code = 2
        except asyncio.CancelledError:
            return
        except Exception as exc:  # noqa: BLE001 - one session's fault never takes the host down
            self.host.log.write("error", self.player or "-", self.gate.address, f"{type(exc).__name__}: {exc}")
            self.write(spawn.RESTORE + b"xenotac: the host hit an error (it is in the server log)\r\n")
            code = 1
        self.finish(code)

    def finish(self, code: int) -> None:
        if not self._gone and self.chan is not None:
            self.chan.exit(code)

    async def kick(self, why: str) -> None:
        """Ends the session from the host's side: idle, or the host stopping."""
        self.leaving = True
        child, self.child = self.child, None
        if self.task is not None:
            self.task.cancel()
        if child is not None:
            await child.hangup(self.host.config.hangup_grace)
        self.write(spawn.RESTORE + f"xenotac: {why}\r\n".encode())
        self.finish(1)

    def set_doing(self, doing: str, log: Path | None = None, watching: int | None = None) -> None:
        self.doing, self.log, self.watching = doing, log, watching
        self.host.changed()

    @property
    def folder(self) -> Path:
        return self.host.accounts.folder(self.player)

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """The program's environment: the player's folder, the client's TERM and colour wishes, nothing else."""
        folder = str(self.folder)
        env = {"PATH": os.environ.get("PATH", os.defpath), "HOME": folder, "XDG_CONFIG_HOME": folder,
               "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": self.term or "xterm",
               "PYTHONPATH": str(spawn.CODE_ROOT), "XENOTAC_SAVES": folder}
        client = self.chan.get_environment() if self.chan is not None else {}
        if client.get("COLORTERM") in ("truecolor", "24bit"):
            env["COLORTERM"] = client["COLORTERM"]
        if "NO_COLOR" in client:
            env["NO_COLOR"] = "1"
        keys = self.folder / "keys.toml"
        if keys.is_file():
            env["XENOTAC_KEYS"] = str(keys)
        env.update(extra or {})
        return env

    async def run_child(self, kind: str, args: list[str], extra: dict[str, str] | None = None) -> tuple[int, spawn.Child]:
        child = spawn.Child(spawn.command(kind, *args), self.env(extra), self.folder, self.size, self.write)
        self.child = child
        try:
            await child.start()
            return await child.wait(), child
        except asyncio.CancelledError:  # the connection dropped or the host ended it: the program goes too
            self.host.game_ending(self.player, child.hangup(self.host.config.hangup_grace))
            raise
        finally:
            if self.child is child:
                self.child = None

    async def lobby_loop(self) -> None:
        note, failures = "", 0
        while True:
            self.set_doing("lobby")
            args = ["--root", str(self.host.root), "--player", self.player] + (["--note", note] if note else [])
            code, child = await self.run_child("lobby", args)
            note = ""
            if code != 0:
                failures += 1
                self.host.log.write("error", self.player, f"lobby status {code}", spawn.last_line(child.tail))
                if failures >= 2:
                    raise Refused(f"the lobby failed twice (status {code}); the server log has the details")
                self.write(spawn.RESTORE)
                note = f"✗ The lobby stopped (status {code}) and was started again"
                continue
            failures = 0
            choice = child.choice or {"do": "quit"}
            if choice.get("do") == "quit":
                self.write(spawn.RESTORE + b"Bye! Everything is saved: log in again to carry on.\r\n")
                return
            note = await self.follow(choice)

    async def follow(self, choice: dict) -> str:
        """Starts what the lobby chose; the note for the next lobby."""
        do = choice.get("do")
        if do == "play":
            ruleset, mission = choice.get("ruleset"), choice.get("mission")
            if not all(isinstance(v, str) and WORD.fullmatch(v) for v in (ruleset, mission)):
                return "✗ That mission cannot be started here"
            return await self.play(["play", "--ruleset", ruleset, "--mission", mission], None)
        if do == "resume":
            name = choice.get("log")
            path = self.folder / name if isinstance(name, str) and LOG_NAME.fullmatch(name) else None
            if path is None or path.is_symlink() or not path.is_file():
                return "✗ That log is not in your folder"
            return await self.play(["resume", str(path)], path)
        if do == "watch":
            target = self.host.live_game(choice.get("session"))
            if target is None:
                return "✗ That game is not being played any more"
            return await self.watch(target)
        return "✗ The lobby asked for something the host does not do"

    async def play(self, args: list[str], path: Path | None) -> str:
        await self.host.settled(self.player)  # the game of a dropped connection still holds its log
        before = set(self.folder.glob("*.jsonl"))
        self.set_doing("playing", log=path)
        finder = None if path else asyncio.ensure_future(self._find_log(before))
        watchers = status.watchers_path(self.host.root, self.id)
        status.write_json(watchers, {"watchers": []})
        try:
            code, child = await self.run_child("game", args, {"XENOTAC_WATCHERS": str(watchers)})
        finally:
            if finder is not None:
                finder.cancel()
        self.write(spawn.RESTORE)
        if code == 0:
            return ""
        said = spawn.last_line(child.tail)
        if code == 2:
            return f"✗ {said}" if said else "✗ The game refused to start"
        self.host.log.write("crash", self.player, self.log.name if self.log else "-", f"status {code}", said)
        return (f"✗ Your game stopped unexpectedly (status {code}{': ' + said if said else ''}). "
                "The host is fine and nothing is lost: Resume carries on")

    async def _find_log(self, before: set[Path]) -> None:
        """A new mission's log appears once the game has started: then the lobbies can show it."""
        loop = asyncio.get_running_loop()
        end = loop.time() + FIND_LOG
        while loop.time() < end:
            new = [p for p in self.folder.glob("*.jsonl") if p not in before]
            if new:
                self.set_doing("playing", log=max(new, key=lambda p: p.stat().st_mtime_ns))
                return
            await asyncio.sleep(0.2)

    async def watch(self, target) -> str:
        self.watching_player = target.player
        self.set_doing("watching", watching=target.id)
        args = [str(target.log), "--player", target.player, "--online", str(status.online_path(self.host.root))]
        code, child = await self.run_child("watch", args)
        self.write(spawn.RESTORE)
        if code != 0:
            said = spawn.last_line(child.tail)
            self.host.log.write("error", self.player, "viewer", f"status {code}", said)
            return f"✗ The viewer stopped (status {code}{': ' + said if said else ''})"
        return ""
