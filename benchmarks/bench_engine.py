"""Engine figures (issue: engine kernel, section 10), each with a reference measured in the same run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import Figure, best_of
from engine.log import writer as log
from engine.content import loader
from engine.play import trials
from engine.play import verify
from engine.core.commands import EndTurn, Move, Rejected
from engine.core.dice import Dice, Faces, seed_from_int
from engine.play.game import Game
from engine.map.grid import NEIGHBOURS
from engine.core.ruleset import make
from engine.content.scenario import Action, Scenario, ScenarioUnit, make_units

SHOTS = 20_000
HUMAN = {"strength": 7, "agility": 6, "intelligence": 6, "bravery": 6, "charisma": 4, "luck": 6, "psionics": 1}
SECTOID = {"strength": 4, "agility": 7, "intelligence": 8, "bravery": 4, "charisma": 3, "luck": 6, "psionics": 4}


def rifle_scenario() -> Scenario:
    units = {"rifleman": ScenarioUnit(race="human", stats=HUMAN, weapon="rifle", hp=60),
             "sectoid": ScenarioUnit(race="sectoid", stats=SECTOID, hp=35)}
    return Scenario(ruleset="xcom-trpg", units=units,
                    action=Action(type="shoot", actor="rifleman", target="sectoid", sectors_between=3))


def trials_figure(content) -> Figure:
    sc = rifle_scenario()
    took = best_of(lambda: trials.run(content, sc, SHOTS, 1))
    dice_per_shot = _dice_per_shot(content, sc)
    faces = Faces(seed_from_int(1))
    count = int(SHOTS * dice_per_shot)

    def bare() -> None:
        dice = Dice(faces)
        for _ in range(count):
            dice.d(100, "x", "bare")

    ref = best_of(bare)
    rate = SHOTS / took
    return Figure("resolve --trials: rifle shots per second", rate, "shots/s", ">= 20000", rate >= 20_000,
                  f"× the time to generate its {dice_per_shot:.1f} dice bare ({count / ref:,.0f} dice/s)",
                  (count / ref) / rate / dice_per_shot)


def _dice_per_shot(content, sc: Scenario) -> float:
    dice = Dice(Faces(seed_from_int(1)))
    units, _ = make_units(content, sc, Dice(None, script=[]))
    rules = make(sc.ruleset, content, None)
    for _ in range(1000):
        rules.referee(units, sc.action, dice)
    return dice.counters["main"] / 1000


def long_log(content, path: Path, records: int, mission: str = "eliminate") -> None:
    """A mission of cheap moves: the soldiers shuffle about until the log holds `records` lines."""
    game = Game.new(content, "xcom-trpg", mission, seed_from_int(5), path, max_phases=10**6)
    lines = 2
    while lines < records:
        state = game.state
        if state.side == "aliens":
            game.submit(EndTurn(side="aliens"))
            lines += 1
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


def verify_figure(content, path: Path) -> Figure:
    lines = path.read_bytes().splitlines()
    ref = best_of(lambda: [json.loads(line) for line in lines])
    took = best_of(lambda: verify.verify(content, path), repeat=1)
    rate = len(lines) / took
    return Figure(f"replay --verify ({len(lines)} records)", rate, "records/s", ">= 20000", rate >= 20_000,
                  f"× the speed of json.loads alone on the same lines ({len(lines) / ref:,.0f}/s)",
                  rate / (len(lines) / ref))


def undo_after_resume(content, path: Path) -> float:
    """The best of 5 undos, each on a fresh copy of the log resumed (an undo appends a record)."""
    best = float("inf")
    for i in range(5):
        copy = path.with_name(f"undo-{i}-{path.name}")
        shutil.copyfile(path, copy)
        shutil.copyfile(log.seed_path(path), log.seed_path(copy))
        os.sync()  # the copy's own dirty pages must not land in the undo's fsync
        game = Game.resume(content, copy)
        t = time.perf_counter()
        result = game.undo()
        best = min(best, time.perf_counter() - t)
        assert not isinstance(result, Rejected), result
        game.close()
    return best


def resume_and_undo(content, small: Path, big: Path) -> list[Figure]:
    def resume(path: Path) -> float:
        return best_of(lambda: Game.resume(content, path).close(), repeat=5)

    def undo(path: Path) -> float:
        return undo_after_resume(content, path)

    out = []
    for name, measure in (("resume", resume), ("undo after resume", undo)):
        at_small, at_big = measure(small), measure(big)
        ratio = at_big / at_small
        out.append(Figure(f"{name} at 10,000 records", at_big * 1000, "ms", "<= 2x its cost at 100", ratio <= 2,
                          f"× its cost at 100 records ({at_small * 1000:.2f} ms)", ratio))
    return out


def simulate_figures(tmp: Path) -> list[Figure]:
    """A whole 40x40 mission, 6 soldiers against 8 aliens, in a child process: its time and peak memory."""
    out = tmp / "sim.jsonl"
    code = ("import resource, sys; from tui.cli import main; "
            f"code = main(['simulate', '--seed', '1', '--out', {str(out)!r}]); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); sys.exit(code)")
    t = time.perf_counter()
    child = subprocess.run([sys.executable, "-c", code], check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - t
    peak_mb = int(child.stderr.split()[-1]) / 1024  # measured inside the child: a fork's copy of us is not it
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import engine.content.loader; engine.content.loader.load()"], check=True)
    start = time.perf_counter() - t
    records = sum(1 for _ in out.open("rb"))
    return [Figure("simulate 40x40, 6 vs 8", took, "s", "< 5 s", took < 5,
                   f"× interpreter start + content load ({start:.2f} s)", took / start),
            Figure(f"simulate peak memory ({records} records)", peak_mb, "MB", "< 150 MB", peak_mb < 150)]


def figures() -> list[Figure]:
    content = loader.load()
    out = [trials_figure(content)]
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        out.extend(simulate_figures(tmp))
        small, big = tmp / "small.jsonl", tmp / "big.jsonl"
        long_log(content, small, 100)
        long_log(content, big, 10_000)
        out.append(verify_figure(content, big))
        out.extend(resume_and_undo(content, small, big))
    return out
