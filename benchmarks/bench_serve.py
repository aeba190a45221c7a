"""Host figures (issue 17, `xenotac serve`): concurrent sessions on loopback playing scripted keys.

`xenotac serve` runs as its own process, as on a real host; the players are asyncssh sessions in
this one. Each registers, starts a mission from the lobby, and once every session is in its game
they all press cursor keys for a bounded time. Key-to-screen latency is the time from writing a
key to the first byte of the answer on that session's screen. The reference, measured in the same
run, is one session alone on the same host. Memory is the server's RSS, and with every program it
started (lobbies and games).
"""

from __future__ import annotations

import asyncio
import os
import re
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import Figure

ROOT = Path(__file__).resolve().parent.parent
SESSIONS = 20
SECONDS = 10.0  # of keys, once every session is in its game
KEY_GAP = 0.2  # seconds between one session's keys: a brisk player
PASSWORD = "benchmark"


def start_host(root: Path, sessions: int) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from tui.cli import main; sys.exit(main())",
                             "serve", "--listen", "127.0.0.1:0", "--root", str(root), "--max-sessions",
                             str(sessions + 4)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready, _, _ = select.select([proc.stdout], [], [], 60)
    found = re.search(r"listening on 127\.0\.0\.1:(\d+)", proc.stdout.readline() if ready else "")
    if not found:
        proc.kill()
        raise RuntimeError(f"the host did not start: {proc.stderr.read() if proc.poll() is not None else ''}")
    return proc, int(found.group(1))


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree(pid: int) -> list[int]:
    """The process and every descendant, from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            parents.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += parents.get(p, [])
    return out


async def player(port: int, name: str, seconds: float, in_game: asyncio.Barrier, latencies: list[float]) -> None:
    from tui.serve.sshterm import connect

    conn, term = await connect(port, name)
    try:
        for prompt in ("Password (8", "The same again"):
            if not await term.wait_for(prompt, timeout=120):
                raise RuntimeError(f"{name}: no {prompt!r}: {term.text()!r}")
            term.send(PASSWORD + "\r")
        if not await term.wait_for("Online now", timeout=180):
            raise RuntimeError(f"{name}: no lobby: {term.text()!r}")
        term.send("n")
        await term.wait_for("Start mission", timeout=120)
        term.send("s")
        if not await term.wait_for("Phase 1/40", "save+quit", timeout=300):
            raise RuntimeError(f"{name}: no game: {term.text()!r}")
        await term.settle(0.5, 30)
        term.parse = False  # from here only bytes count: this process hosts every player's terminal
        await in_game.wait()
        end = time.monotonic() + seconds
        keys = "lh"
        i = 0
        while time.monotonic() < end:
            await term.settle(0.05, 2)  # the last answer is all in
            t0 = time.perf_counter()
            term.send(keys[i % 2])
            if await term.changed(5.0):
                latencies.append(time.perf_counter() - t0)
            i += 1
            await asyncio.sleep(KEY_GAP)
        term.parse = True
        term.send("q")
        await term.wait_for("Online now", timeout=60)
    finally:
        conn.close()


def load(sessions: int = SESSIONS, seconds: float = SECONDS) -> dict:
    """Runs `sessions` players at once against a fresh host; latencies (s) and memory (KiB)."""
    with tempfile.TemporaryDirectory() as d:
        proc, port = start_host(Path(d) / "host", sessions)
        try:
            idle = rss_kib(proc.pid)
            latencies: list[float] = []
            peak = {"server": 0, "total": 0}

            async def watch_memory(stop: asyncio.Event) -> None:
                while not stop.is_set():
                    peak["server"] = max(peak["server"], rss_kib(proc.pid))
                    peak["total"] = max(peak["total"], sum(rss_kib(p) for p in tree(proc.pid)))
                    try:
                        await asyncio.wait_for(stop.wait(), 1.0)
                    except asyncio.TimeoutError:
                        pass

            async def run() -> None:
                barrier = asyncio.Barrier(sessions)
                stop = asyncio.Event()
                memory = asyncio.ensure_future(watch_memory(stop))
                try:
                    await asyncio.gather(*(player(port, f"p{i:02d}", seconds, barrier, latencies)
                                           for i in range(sessions)))
                finally:
                    stop.set()
                    await memory

            started = time.perf_counter()
            asyncio.run(run())
            took = time.perf_counter() - started
        finally:
            proc.terminate()
            proc.wait(30)
    return {"latencies": latencies, "idle_kib": idle, "server_kib": peak["server"], "total_kib": peak["total"],
            "seconds": took}


def figures() -> list[Figure]:
    alone = load(1, SECONDS / 2)
    busy = load(SESSIONS, SECONDS)
    one, many = alone["latencies"], busy["latencies"]
    median, worst = statistics.median(many), max(many)
    return [
        Figure(f"serve: key to screen, {SESSIONS} sessions (median)", median * 1000, "ms", "< 150 ms", median < 0.15,
               f"× one session alone (median {statistics.median(one) * 1000:.0f} ms)", median / statistics.median(one)),
        Figure(f"serve: key to screen, {SESSIONS} sessions (worst of {len(many)})", worst * 1000, "ms", "< 1000 ms",
               worst < 1.0, f"× one session alone (worst {max(one) * 1000:.0f} ms)", worst / max(one)),
        Figure(f"serve: server RSS with {SESSIONS} sessions", busy["server_kib"] / 1024, "MiB", "< 200 MiB",
               busy["server_kib"] < 200 * 1024, f"× the server idle ({busy['idle_kib'] / 1024:.0f} MiB)",
               busy["server_kib"] / max(1, busy["idle_kib"])),
        Figure(f"serve: server and its {SESSIONS} games, RSS", busy["total_kib"] / 1024, "MiB", "none: one process a game",
               True, f"× server and one game ({alone['total_kib'] / 1024:.0f} MiB)",
               busy["total_kib"] / max(1, alone["total_kib"])),
    ]
