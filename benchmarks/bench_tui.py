"""Terminal-client figures, in a real pseudo-terminal at 80×24 with TERM=xterm-256color and no COLORTERM
(an SSH session), each compared with a minimal Textual app measured in the same run, interleaved.

Screens are found by name: with XENOTAC_READY_FILE set, every screen appends its class name to that file
once its first frame is drawn (tui/screens/base.py), and the minimal app does the same. Both sides load
their code from cached bytecode: the project is compiled (compileall) before anything is timed, as
Textual in site-packages already is, and one untimed round of starts lets the engine keep the code attrs and
cattrs generate (engine.core.codecache), as any start after a player's first finds it.
"""

from __future__ import annotations

import compileall
import os
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from benchmarks.bench_engine import ROOT, child_env
from benchmarks.common import Figure, at_most
from engine.core.ruleset import available
from tui.ptyterm import KEYS, Terminal, env_for_terminal

MINIMAL = textwrap.dedent("""
    import os
    from textual.app import App
    from textual.widgets import Static

    class Minimal(App):
        BINDINGS = [("k", "tick", "tick"), ("j", "tick", "tick")]
        n = 0

        def compose(self):
            yield Static("minimal app ready", id="s")

        def on_mount(self):
            self.call_after_refresh(self.announce)

        def announce(self):
            with open(os.environ["XENOTAC_READY_FILE"], "a") as f:
                f.write("Minimal\\n")

        def action_tick(self):
            self.n += 1
            self.query_one("#s", Static).update(f"minimal app ready {self.n}")

    Minimal().run()
""")
RUNS = 7
KEYPRESSES = 40


class Run:
    """A program in a terminal, with the file its screens announce themselves in."""

    def __init__(self, argv: list[str], folder: Path, saves: Path | None = None) -> None:
        self.ready = folder / f"ready-{time.perf_counter_ns()}"
        extra = {"XENOTAC_READY_FILE": str(self.ready), **child_env()}
        extra = {k: v for k, v in extra.items() if k in ("XENOTAC_READY_FILE", "PYTHONPATH")}
        if saves is not None:
            extra["XENOTAC_SAVES"] = str(saves)
        self.term = Terminal(argv, env=env_for_terminal(extra), cwd=str(ROOT))

    def wait_screen(self, name: str, timeout: float = 30) -> float:
        """Seconds from the start to the screen's first frame."""
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            self.term.read(0.005)
            if self.ready.exists() and name in self.ready.read_text().split():
                return time.perf_counter() - self.term.started
        raise RuntimeError(f"no {name} screen: {self.term.text()!r}")

    def kill(self) -> None:
        self.term.kill()


def xenotac(*args: str) -> list[str]:
    """This checkout's client, whatever `xenotac` script is installed."""
    return [sys.executable, "-m", "tui.cli", *args]


def _startup(argv: list[str], screen: str, folder: Path, saves: Path | None = None) -> float:
    run = Run(argv, folder, saves)
    try:
        return run.wait_screen(screen)
    finally:
        run.kill()


def startup_figures(folder: Path, script: Path) -> list[Figure]:
    """The title menu, and the first battle frame of `play` in every ruleset, each against the minimal app."""
    rulesets = available()
    _warm_up(folder, rulesets)
    minimal, title = [], []
    battle: dict[str, list[float]] = {r: [] for r in rulesets}
    for i in range(RUNS):  # interleaved, so all of them see the same machine load
        minimal.append(_startup([sys.executable, str(script)], "Minimal", folder))
        saves = folder / f"startup{i}"
        saves.mkdir()
        title.append(_startup(xenotac(), "Title", folder, saves))
        for ruleset in rulesets:
            battle[ruleset].append(_startup(xenotac("play", "--ruleset", ruleset, "--seed", "1"), "BattleScreen",
                                            folder, saves))
    m, t = statistics.median(minimal), statistics.median(title)
    ref = f" (both from cached bytecode); the minimal Textual app: {m * 1000:.0f} ms"
    out = [at_most("first frame of `xenotac` (title) ÷ a minimal Textual app", t / m, "×", 1.5,
                   reference=f": {t * 1000:.0f} ms{ref}", ratio=t / m)]
    for ruleset, runs in battle.items():
        b = statistics.median(runs)
        out.append(at_most(f"first battle frame of `xenotac play` ({ruleset}) ÷ a minimal Textual app", b / m, "×",
                           2.0, reference=f": {b * 1000:.0f} ms{ref}", ratio=b / m))
    return out


def _warm_up(folder: Path, rulesets: list[str]) -> None:
    """Each start once, untimed, allowed to write its caches even where the caller's environment says not to
    write bytecode: what a player's second start finds on disk."""
    saved = os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    try:
        saves = folder / "warm-up"
        saves.mkdir()
        _startup(xenotac(), "Title", folder, saves)
        for ruleset in rulesets:
            _startup(xenotac("play", "--ruleset", ruleset, "--seed", "1"), "BattleScreen", folder, saves)
    finally:
        if saved is not None:
            os.environ["PYTHONDONTWRITEBYTECODE"] = saved


def _latencies(term: Terminal, keys: str, count: int) -> list[float]:
    """Key written to the last byte of the repaint it causes."""
    out = []
    for i in range(count):
        term.send(keys[i % len(keys)])
        n, last = term.settle(quiet=0.08, timeout=5)
        if n:
            out.append(last)  # to the last byte, not to the end of the quiet wait
    return out


def _records(saves: Path) -> int:
    """Lines in the mission logs of `saves`: a command the game accepted is one more."""
    return sum(len(p.read_bytes().splitlines()) for p in saves.rglob("*.jsonl"))


def move_and_latency_figures(folder: Path, script: Path) -> list[Figure]:
    saves = folder / "moves"
    saves.mkdir()
    run = Run(xenotac("play", "--seed", "1"), folder, saves)
    term = run.term
    try:
        run.wait_screen("BattleScreen")
        term.settle(0.5)
        full = term.received
        before = term.received
        records = _records(saves)
        term.send("k")
        term.settle(0.3)
        term.send(KEYS["enter"])
        term.settle(0.3)
        if _records(saves) <= records:  # the log, not the screen's wording, says whether the move was made
            raise RuntimeError(f"the move did not happen: {term.text()!r}")
        move_bytes = term.received - before
        term.send("U")  # undo, so the cursor keys below move over a quiet map
        term.settle(0.3)
        lat = _latencies(term, "kjkjhlhl", KEYPRESSES)
    finally:
        run.kill()
    ref = Run([sys.executable, str(script)], folder)
    try:
        ref.wait_screen("Minimal")
        ref.term.settle(0.5)
        ref_lat = _latencies(ref.term, "kj", KEYPRESSES)
    finally:
        ref.kill()
    median, ref_median = statistics.median(lat), statistics.median(ref_lat)
    return [
        Figure("bytes written for one single-step move (k, ⏎)", move_bytes, "bytes", "<= 4096", move_bytes <= 4096,
               f"× the first full frame ({full} bytes)", move_bytes / full),
        Figure("keypress to updated screen, median", median * 1000, "ms", "<= 50 ms", median <= 0.050,
               f"× a minimal Textual app updating one label ({ref_median * 1000:.1f} ms)", median / ref_median),
    ]


def figures() -> list[Figure]:
    for package in ("engine", "tui"):  # cached bytecode, as Textual's own is
        compileall.compile_dir(str(ROOT / package), quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        script = folder / "minimal_app.py"
        script.write_text(MINIMAL)
        return [*startup_figures(folder, script), *move_and_latency_figures(folder, script)]
