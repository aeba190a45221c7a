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

from benchmarks.common import Figure, at_least, at_most, interleaved
from engine.content import loader
from engine.rules.xcom_trpg.scenario import Action, Scenario, ScenarioUnit, make_units
from engine.core.commands import EndTurn, Move, Rejected
from engine.core.dice import Dice, Faces, derive, seed_from_int
from engine.core.ruleset import available, make
from engine.log import writer as log
from engine.map.grid import NEIGHBOURS
from engine.play import simulate, trials, verify
from engine.play.game import Game

ROOT = Path(__file__).resolve().parent.parent
SHOTS = 20_000
JOBS = 2  # the verify goal: both cores may be used
HUMAN = {"strength": 7, "agility": 6, "intelligence": 6, "bravery": 6, "charisma": 4, "luck": 6, "psionics": 1}
SECTOID = {"strength": 4, "agility": 7, "intelligence": 8, "bravery": 4, "charisma": 3, "luck": 6, "psionics": 4}


def rifle_scenario(ruleset: str) -> Scenario:
    units = {"rifleman": ScenarioUnit(race="human", stats=HUMAN, weapon="rifle", hp=60),
             "sectoid": ScenarioUnit(race="sectoid", stats=SECTOID, hp=35)}
    return Scenario(ruleset=ruleset, units=units,
                    action=Action(type="shoot", actor="rifleman", target="sectoid", sectors_between=3))


# Each ruleset's trial: the rifle shot of its own rules. A ruleset without one is a failed figure.
TRIAL_SCENARIOS = {"xcom-trpg": rifle_scenario}


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


def _dice_drawn(content, sc: Scenario, shots: int) -> int:
    """The dice that `shots` trials draw, counted by the full referee (outside any timing)."""
    dice = Dice(Faces(seed_from_int(1)))
    units, _ = make_units(content, sc, Dice(None, script=[]))
    rules = make(sc.ruleset, content, None)
    for _ in range(shots):
        rules.referee(units, sc.action, dice)
    return sum(dice.counters.values())


def trials_figures(content) -> list[Figure]:
    out = []
    for ruleset in available():
        scenario = TRIAL_SCENARIOS.get(ruleset)
        if scenario is None:
            out.append(Figure(f"resolve --trials ({ruleset})", 0, "shots/s", ">= 20000", False,
                              ": this ruleset has no trial scenario in benchmarks/bench_engine.py"))
            continue
        sc = scenario(ruleset)
        count = _dice_drawn(content, sc, SHOTS)
        seed = seed_from_int(1)

        def engine_dice() -> None:
            dice = Dice(Faces(seed))
            for _ in range(count):
                dice.d(100, "x", "bare")

        t = interleaved({"trials": lambda: trials.run(content, sc, SHOTS, 1), "bare": lambda: bare_d100(seed, count),
                         "engine": engine_dice}, rounds=5)
        rate = SHOTS / t["trials"]
        per_shot = count / SHOTS
        out.append(at_least(f"resolve --trials ({ruleset}, rifle)", rate, "shots/s", 20_000))
        out.append(at_most(f"resolve --trials ÷ its {per_shot:.1f} dice drawn bare ({ruleset})",
                           t["trials"] / t["bare"], "×", 10,
                           reference=f"× the engine's own Dice drawing them ({count / t['bare']:,.0f} d100/s bare, "
                                     f"{count / t['engine']:,.0f}/s through Dice)",
                           ratio=t["trials"] / t["engine"]))
    return out


def long_log(content, path: Path, records: int, mission: str = "eliminate", ruleset: str = "xcom-trpg") -> None:
    """A mission of cheap moves: the soldiers shuffle about until the log holds `records` lines."""
    game = Game.new(content, ruleset, mission, seed_from_int(5), path, max_phases=10**6)
    lines = 2
    while lines < records:
        state = game.state
        if state.side != "xcom":
            game.submit(EndTurn(side=state.side))
            lines = game.writer.next_line - 1
            continue
        moved = False
        for unit in state.side_units("xcom"):
            if not (unit.actions and unit.conscious):
                continue
            for dx, dy in NEIGHBOURS:
                if not isinstance(game.submit(Move(unit=unit.id, path=((unit.pos[0] + dx, unit.pos[1] + dy),))),
                                  Rejected):
                    moved = True
                    break
            if moved:
                break
        if not moved:
            game.submit(EndTurn(side="xcom"))
        lines = game.writer.next_line - 1
    game.close()


def _mission_of(content, ruleset: str, prefer: str = "eliminate") -> str | None:
    ids = [m for m, found in content.missions.items() if found.ruleset == ruleset]
    return prefer if prefer in ids else (ids[0] if ids else None)


def _verify_ok(content, path: Path, jobs: int) -> None:
    report = verify.verify(content, path, jobs=jobs)
    assert report.failure is None, report.failure


def _parse(lines: list[bytes]) -> None:
    for line in lines:  # the results are not kept: keeping them would make the collector walk them all
        json.loads(line)


def _peak_mb(path: Path, jobs: int) -> float:
    """Peak memory of `replay --verify` in a child of its own, as that child measures it."""
    code = ("import resource, sys; from pathlib import Path; from engine.content import loader; "
            "from engine.play import verify; "
            f"r = verify.verify(loader.load(), Path({str(path)!r}), jobs={jobs}); assert r.failure is None, r; "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    child = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT,
                           env=child_env())
    return int(child.stdout.split()[-1]) / 1024


def child_env() -> dict[str, str]:
    """This checkout's code first, whatever else is installed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return env


def verify_figures(content, tmp: Path) -> list[Figure]:
    out: list[Figure] = []
    for ruleset in available():
        mission = _mission_of(content, ruleset)
        if mission is None:
            out.append(Figure(f"replay --verify ({ruleset})", 0, "records/s", ">= 20000", False,
                              ": the ruleset has no mission to play"))
            continue
        logs = {}
        for size in (1_000, 2_000, 10_000, 20_000):
            logs[size] = tmp / f"{ruleset}-{size}.jsonl"
            long_log(content, logs[size], size, mission, ruleset)
        big = logs[10_000]
        lines = big.read_bytes().splitlines()
        t = interleaved({"verify": lambda: _verify_ok(content, big, JOBS), "json": lambda: _parse(lines)}, rounds=5)
        rate = len(lines) / t["verify"]
        out.append(at_least(f"replay --verify --jobs {JOBS}, {len(lines):,} records ({ruleset})", rate, "records/s",
                            20_000, reference=f"× json.loads alone ({len(lines) / t['json']:,.0f}/s)",
                            ratio=rate / (len(lines) / t["json"])))
        out.append(at_most(f"replay --verify ÷ json.loads of the same lines ({ruleset})", t["verify"] / t["json"],
                           "×", 10))
        real = _real_logs(content, ruleset, tmp)
        real_lines = [line for p in real for line in p.read_bytes().splitlines()]
        t = interleaved({"verify": lambda: [_verify_ok(content, p, JOBS) for p in real],
                         "json": lambda: _parse(real_lines)}, rounds=5)
        rate = len(real_lines) / t["verify"]
        out.append(at_least(f"replay --verify --jobs {JOBS}, {len(real)} AI missions, {len(real_lines):,} records "
                            f"({ruleset})", rate, "records/s", 20_000,
                            reference=f"× json.loads alone ({len(real_lines) / t['json']:,.0f}/s)",
                            ratio=rate / (len(real_lines) / t["json"])))
        small, large = logs[1_000], logs[20_000]
        t = interleaved({"small": lambda: _verify_ok(content, small, JOBS),
                         "large": lambda: _verify_ok(content, large, JOBS)}, rounds=3)
        n_small, n_large = _count(small), _count(large)
        per = (t["large"] / n_large) / (t["small"] / n_small)
        out.append(at_most(f"replay --verify time per record, 20k ÷ 1k records ({ruleset})", per, "×", 1.1,
                           reference=f": {t['small'] / n_small * 1e6:.1f} µs at 1k, "
                                     f"{t['large'] / n_large * 1e6:.1f} µs at 20k", ratio=per))
        at2, at10 = _peak_mb(logs[2_000], 1), _peak_mb(logs[10_000], 1)
        out.append(at_most(f"replay --verify peak memory, 10k ÷ 2k records ({ruleset})", at10 / at2, "×", 1.3,
                           reference=f": {at2:.0f} MB at 2k, {at10:.0f} MB at 10k (whole process, --jobs 1)",
                           ratio=at10 / at2))
    return out


def _count(path: Path) -> int:
    return sum(1 for _ in path.open("rb"))


def _real_logs(content, ruleset: str, tmp: Path) -> list[Path]:
    """Every mission of the ruleset played AI against AI, as `xenotac simulate` writes it."""
    out = []
    for mission, found in content.missions.items():
        if found.ruleset != ruleset:
            continue
        path = tmp / f"real-{ruleset}-{mission}.jsonl"
        simulate.run(content, ruleset, mission, seed_from_int(11), path).close()
        out.append(path)
    return out


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
    return [at_most("resume at 10,000 records ÷ at 100", t["big"] / t["small"], "×", 2,
                    reference=f": {t['small'] * 1000:.2f} ms at 100, {t['big'] * 1000:.2f} ms at 10,000",
                    ratio=t["big"] / t["small"]),
            at_most("undo after resume at 10,000 records ÷ at 100", u_big / u_small, "×", 2,
                    reference=f": {u_small * 1000:.2f} ms at 100, {u_big * 1000:.2f} ms at 10,000",
                    ratio=u_big / u_small)]


def simulate_figures(tmp: Path) -> list[Figure]:
    """A whole 40x40 mission, 6 soldiers against 8 aliens, in a child process: its time and peak memory,
    against a child that only starts and loads the content."""
    out = tmp / "sim.jsonl"
    sim = ("import resource, sys; from tui.cli import main; "
           f"code = main(['simulate', '--seed', '1', '--out', {str(out)!r}]); "
           "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); sys.exit(code)")
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
    records = _count(out)
    return [Figure("simulate 40x40, 6 vs 8", t["sim"], "s", "< 5 s", t["sim"] < 5,
                   f"× interpreter start + content load ({t['start']:.2f} s)", t["sim"] / t["start"]),
            Figure(f"simulate peak memory ({records} records)", max(peaks), "MB", "< 150 MB", max(peaks) < 150)]


def figures() -> list[Figure]:
    content = loader.load()
    out = trials_figures(content)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        out.extend(simulate_figures(tmp))
        out.extend(verify_figures(content, tmp))
        small, big = tmp / "small.jsonl", tmp / "big.jsonl"
        long_log(content, small, 100)
        long_log(content, big, 10_000)
        out.extend(resume_and_undo(content, small, big))
    return out
