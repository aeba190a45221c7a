"""`simulate --trials N`: N seeded AI-against-AI missions per mission and difficulty, in memory,
reported as win rate, mean phases and casualties per side, each with a 95% confidence interval.

Trial i of every mission and level plays seed `seed + i`, so levels are compared on the same dice
seeds. Missions run in worker processes when asked (each loads the content itself; only ids and
plain numbers travel); the result does not depend on how many.
"""

from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Iterable

import attrs

from engine.content import missions
from engine.content.models import Content
from engine.core.dice import seed_from_int

Z95 = 1.959964


@attrs.frozen
class Outcome:
    """One finished mission, as the tally needs it."""

    mission: str
    level: str
    seed: int
    winner: str
    phases: int
    lost: dict[str, int]  # side -> units dead or unconscious at the end


def play(content: Content, ruleset: str, mission: str, level: str, seed: int, max_phases: int | None) -> Outcome:
    from engine.play.simulate import run

    game = run(content, ruleset, f"{mission}@{level}", seed_from_int(seed), None, max_phases=max_phases)
    state = game.state
    lost: dict[str, int] = {}
    for unit in state.units.values():
        lost[unit.side] = lost.get(unit.side, 0) + (unit.status != "active")
    return Outcome(mission, level, seed, state.winner or "draw", state.phase, lost)


def wilson(hits: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval for a proportion: sound at 0 and n, unlike the normal one."""
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: list[float]) -> dict[str, float]:
    """Mean with a 95% normal-approximation interval (± 1.96 standard errors)."""
    n = len(values)
    mean = sum(values) / n if n else 0.0
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n) if n else 0.0
    floor = min(values, default=0.0)  # counts: an interval below the least seen value means nothing
    return {"mean": mean, "low": max(floor, mean - half) if floor >= 0 else mean - half, "high": mean + half}


def tally(outcomes: list[Outcome], sides: Iterable[str]) -> dict[str, Any]:
    n = len(outcomes)
    wins = {side: sum(o.winner == side for o in outcomes) for side in (*sides, "draw")}
    low, high = wilson(wins[missions.PLAYER], n)
    return {"mission": outcomes[0].mission, "difficulty": outcomes[0].level, "trials": n, "wins": wins,
            "win_rate": {"value": wins[missions.PLAYER] / n, "low": low, "high": high},
            "phases": mean_interval([o.phases for o in outcomes]),
            "casualties": {side: mean_interval([o.lost.get(side, 0) for o in outcomes]) for side in sides}}


_worker: Content | None = None


def _load_worker(directory: str | None) -> None:
    global _worker
    from engine.content import loader

    _worker = loader.load(directory)


def _play_in_worker(ruleset: str, mission: str, level: str, seed: int, max_phases: int | None) -> tuple:
    assert _worker is not None
    o = play(_worker, ruleset, mission, level, seed, max_phases)
    return o.winner, o.phases, sorted(o.lost.items())


def run_trials(content: Content, ruleset: str, mission_ids: list[str], levels: list[str], trials: int, seed: int,
               max_phases: int | None = None, jobs: int = 1, content_dir: list[str] | str | None = None,
               progress: Callable[[int, int, str], None] | None = None) -> list[dict[str, Any]]:
    """Every (mission, level) pair, `trials` missions each; rows in the order asked. With jobs > 1,
    workers load the content from `content_dir` (the built-in content if None)."""
    work = [(m, level, seed + i) for m in mission_ids for level in levels for i in range(trials)]
    done: list[Outcome] = []
    report = progress or (lambda _d, _t, _label: None)
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_load_worker, initargs=(content_dir,)) as pool:
            futures = [pool.submit(_play_in_worker, ruleset, m, level, s, max_phases) for m, level, s in work]
            for i, ((m, level, s), future) in enumerate(zip(work, futures)):
                winner, phases, lost = future.result()
                done.append(Outcome(m, level, s, winner, phases, dict(lost)))
                report(i + 1, len(work), f"{m}@{level}")
    else:
        for i, (m, level, s) in enumerate(work):
            done.append(play(content, ruleset, m, level, s, max_phases))
            report(i + 1, len(work), f"{m}@{level}")
    rows = []
    for m in mission_ids:
        sides = [missions.PLAYER, missions.ALIENS] + ([missions.CIVILIANS] if content.missions[m].civilians else [])
        for level in levels:
            rows.append(tally([o for o in done if o.mission == m and o.level == level], sides))
    return rows
