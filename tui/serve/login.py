"""Who is at the terminal: a registered key, a password, or a new name registering.

Asked on the terminal rather than in the SSH handshake, so that a bad name, a wrong password or
a refused registration is one clear line in any client. The slow hash runs off the event loop.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from tui.serve import accounts
from tui.serve.accounts import MIN_PASSWORD, BadName, Taken, check_name, fingerprint


class Refused(Exception):
    """Ends the session with this line (`xenotac: ...`) and exit status 2; an empty line says nothing."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


# two at a time: each scrypt check takes ~16 MB and ~50 ms of a core, so a crowd of logins queues
# here instead of taking the host's memory and processors
HASHING = ThreadPoolExecutor(max_workers=2, thread_name_prefix="scrypt")


async def _off_loop(fn, *args):
    return await asyncio.get_running_loop().run_in_executor(HASHING, fn, *args)


async def log_in(seat) -> str:
    host, gate = seat.host, seat.gate
    typed = gate.username
    if typed.strip().lower() in accounts.LOBBY_USERS:  # `ssh play@host`: the name comes next
        typed = (await seat.ask("Your player name: ", limit=40)).strip()
    try:
        name = check_name(typed)
    except BadName as exc:
        host.log.write("refused", gate.address, "bad name", repr(typed[:40]))
        raise Refused(str(exc)) from None
    proved = gate.proved[1] if gate.proved and gate.proved[0] == gate.username else None
    if proved and await _off_loop(host.accounts.has_key, name, proved):
        host.log.write("login", name, gate.address, "key")
        return name
    if host.accounts.exists(name):
        await _password(seat, name)
        await _offer_key(seat, name)
        return name
    return await _register(seat, name, proved)


async def _password(seat, name: str) -> None:
    host, address = seat.host, seat.gate.address
    if host.failures.full(address):
        minutes = max(1, round(host.failures.wait(address) / 60))
        raise Refused(f"too many failed logins from {address}: wait {minutes} minute(s)")
    typed = await seat.ask(f"Password for {name}: ", echo=False)
    if not await _off_loop(host.accounts.check_password, name, typed):
        host.failures.note(address)
        host.log.write("refused", address, name, "wrong password")
        raise Refused(f"wrong password for {name}")
    host.log.write("login", name, address, "password")


async def _offer_key(seat, name: str) -> None:
    """A password login from a client that offered a key: that key may log in from now on."""
    offered = [k for k in seat.gate.offered if not seat.host.accounts.has_key(name, k)]
    if not offered:
        return
    answer = await seat.ask(f"Let your key {fingerprint(offered[0])} log you in as {name} from now on? [y/N] ",
                            limit=3)
    if answer.strip().lower() in ("y", "yes"):
        added = await _off_loop(seat.host.accounts.add_key, name, offered[0])
        seat.write("Done: next time no password.\r\n" if added else
                   f"Not added: {name} has {accounts.MAX_KEYS} keys already.\r\n")


async def _register(seat, name: str, key: str | None) -> str:
    host, address = seat.host, seat.gate.address
    if host.failures.full(address):
        raise Refused(f"too many failed logins from {address}: wait a few minutes")
    seat.write(f"Welcome to xenotac! '{name}' is a new name here: choose a password to register it.\r\n")
    password = None
    for _ in range(3):
        first = await seat.ask(f"Password ({MIN_PASSWORD} characters or more): ", echo=False)
        if len(first) < MIN_PASSWORD:
            seat.write(f"That is {len(first)} characters; a password needs {MIN_PASSWORD} or more.\r\n")
            continue
        if await seat.ask("The same again: ", echo=False) == first:
            password = first
            break
        seat.write("The two differ; once more.\r\n")
    if password is None:
        raise Refused("no password was chosen: nothing was registered")
    try:
        await _off_loop(host.accounts.register, name, password, key)
    except Taken:
        raise Refused(f"{name} was registered by someone else a moment ago: pick another name") from None
    host.log.write("register", name, address, "with a key" if key else "password only")
    seat.write(f"Registered {name}." + (f" Your key {fingerprint(key)} logs you in from now on." if key else "")
               + "\r\n")
    return name
