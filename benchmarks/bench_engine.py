"""Engine figures: trials, verification, resume and undo, simulate; each against a reference doing the
same work in the same run, interleaved, medians. Trials and verification are measured for every ruleset.
"""

from __future__ import annotations

import hmac
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import logs
from benchmarks import common
from benchmarks.common import Figure, Note, at_least, at_most, interleaved, rounds
from engine.content import loader
from engine.core.commands import Rejected
from engine.core.dice import Dice, Faces, derive, seed_from_int
from engine.core.ruleset import available, kind, make
from engine.log import writer as log
from engine.play import catalog, trials, verify
from engine.play.game import Game

ROOT = Path(__file__).resolve().parent.parent
SHOTS = 20_000
JOBS = 2  # the verify goal: both cores may be used
LONGEST = 20_000  # the longest log per ruleset; the shorter ones are its first lines
SIZES = (1_000, 2_000, 10_000, 20_000)  # linearity 20k ÷ 1k, memory 10k ÷ 2k, the rate at 10k

# Each ruleset's trial: a plain shot of its own rules. A ruleset with no `resolve` has no trial.
TRIAL_SCENARIOS = {"xcom-trpg": ROOT / "benchmarks/scenarios/xcom-trpg-rifle.toml",
                   "annihilation": ROOT / "docs/scenarios/annihilation/shoot.toml",
                   "xxxzone": ROOT / "docs/scenarios/xxxzone/shot.toml",
                   "neo-troops": ROOT / "docs/scenarios/neo-troops/spray.toml"}


def sizes() -> tuple[int, ...]:
    return tuple(s // 5 for s in SIZES) if common.QUICK else SIZES


def long_log(content, path: Path, records: int, mission: str = "eliminate", ruleset: str = "xcom-trpg") -> None:
    logs.long_log(content, path, records, mission, ruleset)


def bare_d100(seed: bytes, count: int) -> None:
    """The documented derivation and nothing else: word i%8 of HMAC-SHA256(seed, "main:i//8"), a word in the
    rejected sliver replaced by derive()'s retry; faces computed, not kept."""
    limit = (1 << 32) - (1 << 32) % 100
    block = drawn = 0
    while drawn < count:
        for slot, word in enumerate(struct.unpack(">8I", hmac.digest(seed, b"main:%d" % block, "sha256"))):
            face = word % 100 + 1 if word < limit else derive(seed, "main", block * 8 + slot, 100).face
            drawn += 1
        block += 1
    del face


def _dice_drawn(content, sc, shots: int) -> int:
    """The dice that `shots` trials draw, counted by the full referee (outside any timing)."""
    rules = make(sc.ruleset, content, None)
    units, _ = rules.scenario_units(sc, Dice(Faces(seed_from_int(1))))
    dice = Dice(Faces(seed_from_int(1)))
    for _ in range(shots):
        rules.referee(units, sc.action, dice)
    return sum(dice.counters.values())


def trials_figures(content) -> list:
    out: list = []
    shots = SHOTS  # --quick too: a tenth of the shots would time the set-up (a referee per distinct outcome), not trials
    for ruleset in available():
        if kind(ruleset).scenario is None:
            out.append(Note(f"resolve --trials ({ruleset})", "no `resolve` in this ruleset"))
            continue
        if ruleset not in TRIAL_SCENARIOS:
            out.append(Figure(f"resolve --trials ({ruleset})", 0, "shots/s", ">= 20000", False,
                              ": this ruleset has no trial scenario in benchmarks/bench_engine.py"))
            continue
        sc = loader.load_scenario(TRIAL_SCENARIOS[ruleset])
        count = _dice_drawn(content, sc, shots)
        seed = seed_from_int(1)

        def engine_dice() -> None:
            dice = Dice(Faces(seed))
            for _ in range(count):
                dice.d(100, "x", "bare")

        t = interleaved({"trials": lambda: trials.run(content, sc, shots, 1), "bare": lambda: bare_d100(seed, count),
                         "engine": engine_dice}, rounds=rounds(5))
        rate = shots / t["trials"]
        what = TRIAL_SCENARIOS[ruleset].stem
        out.append(at_least(f"resolve --trials {shots:,} ({ruleset}, {what})", rate, "shots/s", 20_000,
                            reference=f"× the shots/s of drawing the same dice bare ({shots / t['bare']:,.0f}/s)",
                            ratio=t["bare"] / t["trials"]))
        out.append(at_most(f"resolve --trials ÷ its {count / shots:.1f} dice drawn bare ({ruleset})",
                           t["trials"] / t["bare"], "×", 10,
                           reference=f"× the engine's own Dice drawing them ({count / t['bare']:,.0f} d100/s bare, "
                                     f"{count / t['engine']:,.0f}/s through Dice)",
                           ratio=t["trials"] / t["engine"]))
    return out


def _verify_ok(content, path: Path, jobs: int) -> None:
    report = verify.verify(content, path, jobs=jobs)
    assert report.failure is None, report.failure


def _parse(lines: list[bytes]) -> None:
    for line in lines:  # the results are not kept: keeping them would make the collector walk them all
        json.loads(line)


def _peak_mb(path: Path, jobs: int) -> float:
    """Peak memory of `replay --verify` in a child of its own, as that child measures it."""
    code = (common.PEAK_KIB + "from pathlib import Path; from engine.content import loader; "
            "from engine.play import verify; "
            f"r = verify.verify(loader.load(), Path({str(path)!r}), jobs={jobs}); assert r.failure is None, r; "
            "print(_peak_kib())")
    child = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT,
                           env=child_env())
    return int(child.stdout.split()[-1]) / 1024


def child_env() -> dict[str, str]:
    """This checkout's code first, whatever else is installed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return env


def verify_figures() -> list[Figure]:
    """Each ruleset's verify figures in a process of its own, as `xenotac replay --verify` runs: what earlier
    figures left in the benchmark's process (a larger heap to fork, caches filled by other rulesets' logs) slowed
    the figures that came after them (xcom-trpg 10,000 records, --jobs 2, alternated five times: 19,300-19,600/s
    in a fresh process, 18,500/s with two million more objects alive, 4 December 2026). Both sides of each
    comparison still run in that one process."""
    out: list[Figure] = []
    for ruleset in available():
        out.extend(in_child("verify_figures_of", ruleset))
    return out


def verify_figures_of(ruleset: str) -> list[Figure]:
    content = loader.load()
    small_n, two_n, mid_n, large_n = sizes()
    if "eliminate" not in catalog.missions_for(content, ruleset):
        return [Figure(f"replay --verify ({ruleset})", 0, "records/s", ">= 20000", False,
                       ": the ruleset has no eliminate mission to play")]
    out: list[Figure] = []
    path = {n: logs.shared(content, ruleset, n, sizes()[-1]) for n in sizes()}
    big = path[mid_n]
    lines = big.read_bytes().splitlines()
    t = interleaved({"verify": lambda: _verify_ok(content, big, JOBS), "json": lambda: _parse(lines),
                     "one": lambda: _verify_ok(content, big, 1)}, rounds=3)
    rate = len(lines) / t["verify"]
    out.append(at_least(f"replay --verify --jobs {JOBS}, {len(lines):,} records ({ruleset})", rate, "records/s",
                        20_000, reference=f"× json.loads alone ({len(lines) / t['json']:,.0f}/s); --jobs 1: "
                                          f"{len(lines) / t['one']:,.0f}/s",
                        ratio=rate / (len(lines) / t["json"])))
    out.append(at_most(f"replay --verify ÷ json.loads of the same lines ({ruleset})", t["verify"] / t["json"],
                       "×", 10, reference=f"× with --jobs 1 ({t['one'] / t['json']:.1f}×)",
                       ratio=t["one"] / t["json"]))
    real = logs.real(content, ruleset)
    real_lines = [line for p in real for line in p.read_bytes().splitlines()]
    t = interleaved({"verify": lambda: [_verify_ok(content, p, JOBS) for p in real],
                     "json": lambda: _parse(real_lines)}, rounds=rounds(5))
    rate = len(real_lines) / t["verify"]
    out.append(at_least(f"replay --verify --jobs {JOBS}, {len(real)} AI missions, {len(real_lines):,} records "
                        f"({ruleset})", rate, "records/s", 20_000,
                        reference=f"× json.loads alone ({len(real_lines) / t['json']:,.0f}/s, "
                                  f"{t['verify'] / len(real) * 1000:.0f} ms a mission)",
                        ratio=rate / (len(real_lines) / t["json"])))
    small, large = path[small_n], path[large_n]
    t = interleaved({"small": lambda: _verify_ok(content, small, 1),  # one core: --jobs would split only
                     "large": lambda: _verify_ok(content, large, 1)}, rounds=3)  # the large log, not grow it
    per = (t["large"] / large_n) / (t["small"] / small_n)
    out.append(at_most(f"replay --verify --jobs 1 time per record, {large_n // 1000}k ÷ {small_n / 1000:g}k "
                       f"({ruleset})",
                       per, "×", 1.1, reference=f": {t['small'] / small_n * 1e6:.1f} µs at {small_n:,}, "
                                                f"{t['large'] / large_n * 1e6:.1f} µs at {large_n:,}", ratio=per))
    at2, at10 = _peak_mb(path[two_n], 1), _peak_mb(path[mid_n], 1)
    out.append(at_most(f"replay --verify peak memory, {mid_n // 1000}k ÷ {two_n / 1000:g}k ({ruleset})",
                       at10 / at2, "×", 1.3, reference=f": {at2:.0f} MB at {two_n:,}, {at10:.0f} MB at "
                                                       f"{mid_n:,} (whole process, --jobs 1)", ratio=at10 / at2))
    return out


def in_child(function: str, *args: str) -> list[Figure]:
    """The figures `function(*args)` of this module gives, measured in a new interpreter of their own."""
    code = ("import dataclasses, json, sys\n"
            "from benchmarks import bench_engine, common\n"
            f"common.QUICK = {common.QUICK!r}\n"
            f"figures = bench_engine.{function}(*sys.argv[1:])\n"
            "print(json.dumps([dataclasses.asdict(f) for f in figures]))\n")
    child = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=child_env(),
                           cwd=str(ROOT))
    if child.returncode != 0:
        raise RuntimeError(f"{function}{args}: {(child.stderr.strip().splitlines() or ['no output'])[-1]}")
    return [Figure(**f) for f in json.loads(child.stdout.splitlines()[-1])]


def undo_after_resume(content, path: Path) -> float:
    """One undo on a fresh copy of the log, resumed (an undo appends a record)."""
    copy = path.with_name(f"undo-{time.perf_counter_ns()}-{path.name}")
    shutil.copyfile(path, copy)
    shutil.copy(log.seed_path(path), log.seed_path(copy))  # with its mode: resume wants a 0600 seed file
    os.sync()  # the copy's own dirty pages must not land in the undo's fsync
    game = Game.resume(content, copy)
    t = time.perf_counter()
    result = game.undo()
    took = time.perf_counter() - t
    assert not isinstance(result, Rejected), result
    game.close()
    return took


def undo_pair(content, small: Path, big: Path, rounds: int = 5) -> tuple[float, float]:
    """Median undo at each size, the two sizes taken in turn."""
    import statistics

    at_small, at_big = [], []
    for _ in range(rounds):
        at_small.append(undo_after_resume(content, small))
        at_big.append(undo_after_resume(content, big))
    return statistics.median(at_small), statistics.median(at_big)


def resume_and_undo(content, small: Path, big: Path) -> list[Figure]:
    t = interleaved({"small": lambda: Game.resume(content, small).close(),
                     "big": lambda: Game.resume(content, big).close()}, rounds=5)
    u_small, u_big = undo_pair(content, small, big)
    n_small, n_big = logs.lines_of(small), logs.lines_of(big)
    return [at_most(f"resume at {n_big:,} records ÷ at {n_small:,}", t["big"] / t["small"], "×", 2,
                    reference=f": {t['small'] * 1000:.2f} ms at {n_small:,}, {t['big'] * 1000:.2f} ms at {n_big:,}",
                    ratio=t["big"] / t["small"]),
            at_most(f"undo after resume at {n_big:,} records ÷ at {n_small:,}", u_big / u_small, "×", 2,
                    reference=f": {u_small * 1000:.2f} ms at {n_small:,}, {u_big * 1000:.2f} ms at {n_big:,}",
                    ratio=u_big / u_small)]


def simulate_figures(tmp: Path) -> list[Figure]:
    """A whole 40x40 mission, 6 soldiers against 8 aliens, in a child process: its time and peak memory,
    against a child that only starts and loads the content."""
    out = tmp / "sim.jsonl"
    sim = (common.PEAK_KIB + "import sys; from tui.cli import main; "
           f"code = main(['simulate', '--seed', '1', '--out', {str(out)!r}]); "
           "print(_peak_kib(), file=sys.stderr); sys.exit(code)")
    load = "import engine.content.loader; engine.content.loader.load()"
    peaks = []

    def run_sim() -> None:
        out.unlink(missing_ok=True)
        log.seed_path(out).unlink(missing_ok=True)
        child = subprocess.run([sys.executable, "-c", sim], check=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, cwd=ROOT, env=child_env())
        peaks.append(int(child.stderr.split()[-1]) / 1024)  # measured inside the child

    t = interleaved({"sim": run_sim, "start": lambda: subprocess.run([sys.executable, "-c", load], check=True,
                                                                      cwd=ROOT, env=child_env())}, rounds=3)
    records = logs.lines_of(out)
    return [Figure("simulate 40x40, 6 vs 8", t["sim"], "s", "< 5 s", t["sim"] < 5,
                   f"× interpreter start + content load ({t['start']:.2f} s)", t["sim"] / t["start"]),
            Figure(f"simulate peak memory ({records} records)", max(peaks), "MB", "< 150 MB", max(peaks) < 150)]


def figures() -> list:
    content = loader.load()
    out = trials_figures(content)
    with tempfile.TemporaryDirectory() as d:
        out.extend(simulate_figures(Path(d)))
    out.extend(verify_figures())
    mid = sizes()[2]
    small, big = logs.shared(content, "xcom-trpg", 100, mid), logs.shared(content, "xcom-trpg", mid, mid)
    out.extend(resume_and_undo(content, small, big))
    return out
