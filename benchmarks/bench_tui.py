"""Terminal-client figures (issue: the Textual battle client, Performance), in a real pseudo-terminal.

Every figure runs `xenotac play` at 80×24 with TERM=xterm-256color and no COLORTERM (an SSH session),
and is compared with a minimal Textual app measured in the same run.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from benchmarks.common import Figure
from tui.ptyterm import KEYS, Terminal, env_for_terminal, xenotac

READY = ("Phase 1/40", "save & quit")  # the first battle frame is complete once the footer is drawn
MINIMAL = textwrap.dedent("""
    from textual.app import App
    from textual.widgets import Static

    class Minimal(App):
        BINDINGS = [("k", "tick", "tick"), ("j", "tick", "tick")]
        n = 0

        def compose(self):
            yield Static("minimal app ready", id="s")

        def action_tick(self):
            self.n += 1
            self.query_one("#s", Static).update(f"minimal app ready {self.n}")

    Minimal().run()
""")
RUNS = 5
KEYPRESSES = 40


def _battle(saves: Path) -> Terminal:
    return Terminal(xenotac("play", "--seed", "1"), env=env_for_terminal({"XENOTAC_SAVES": str(saves)}))


def _minimal(script: Path) -> Terminal:
    return Terminal([sys.executable, str(script)], env=env_for_terminal())


def _startup(start, ready: tuple[str, ...]) -> float:
    t0 = time.perf_counter()
    term = start()
    try:
        if not term.wait_for(*ready, timeout=30):
            raise RuntimeError(f"no first frame: {term.text()!r}")
        return time.perf_counter() - t0
    finally:
        term.kill()


def startup_figure(saves: Path, script: Path) -> Figure:
    battle, minimal = [], []
    for i in range(RUNS):  # interleaved, so both see the same machine load
        minimal.append(_startup(lambda: _minimal(script), ("minimal app ready",)))
        folder = saves / f"startup{i}"
        folder.mkdir()
        battle.append(_startup(lambda: _battle(folder), READY))
    b, m = statistics.median(battle), statistics.median(minimal)
    return Figure("startup to the first battle frame", b * 1000, "ms", "<= 1.5× minimal app", b / m <= 1.5,
                  f"× a minimal Textual app's startup ({m * 1000:.0f} ms)", b / m)


def _latencies(term: Terminal, keys: str, count: int) -> list[float]:
    """Key written to the last byte of the repaint it causes."""
    out = []
    for i in range(count):
        term.send(keys[i % len(keys)])
        n, last = term.settle(quiet=0.08, timeout=5)
        if n:
            out.append(last)  # to the last byte, not to the end of the quiet wait
    return out


def move_and_latency_figures(saves: Path, script: Path) -> list[Figure]:
    term = _battle(saves / "moves")
    try:
        if not term.wait_for(*READY, timeout=30):
            raise RuntimeError(f"no first frame: {term.text()!r}")
        term.settle(0.5)
        full = term.received
        before = term.received
        term.send("k")
        term.settle(0.3)
        term.send(KEYS["enter"])
        term.settle(0.3)
        if "Anton moves to" not in term.text():
            raise RuntimeError(f"the move did not happen: {term.text()!r}")
        move_bytes = term.received - before
        term.send("U")  # undo, so the cursor keys below move over a quiet map
        term.settle(0.3)
        lat = _latencies(term, "kjkjhlhl", KEYPRESSES)
    finally:
        term.kill()
    ref = _minimal(script)
    try:
        ref.wait_for("minimal app ready", timeout=30)
        ref.settle(0.5)
        ref_lat = _latencies(ref, "kj", KEYPRESSES)
    finally:
        ref.kill()
    median, ref_median = statistics.median(lat), statistics.median(ref_lat)
    return [
        Figure("bytes written for one single-step move (k, ⏎)", move_bytes, "bytes", "<= 4096", move_bytes <= 4096,
               f"× the first full frame ({full} bytes)", move_bytes / full),
        Figure("keypress to updated screen, median", median * 1000, "ms", "<= 50", median <= 0.050,
               f"× a minimal Textual app updating one label ({ref_median * 1000:.1f} ms)", median / ref_median),
    ]


def figures() -> list[Figure]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        script = folder / "minimal_app.py"
        script.write_text(MINIMAL)
        (folder / "moves").mkdir()
        return [*move_and_latency_figures(folder, script), startup_figure(folder, script)]
