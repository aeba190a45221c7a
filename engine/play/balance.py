"""`simulate --trials N`: N seeded AI-against-AI missions per mission and difficulty, in memory,
reported as win rate, mean phases and casualties per side, each with a 95% confidence interval, and the
pace: the median phase of the first attack and of the end, and the share of phase-limit draws, against
the goals of the mission's kind (`goals`: its own `pace` table, else KIND_PACE by its objectives, else a fight's).

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
from engine.content.models import Content, Mission, Pace
from engine.core.commands import Rejected
from engine.core.dice import seed_from_int
from engine.core.events import Event, Resolved
from engine.core.model import State

Z95 = 1.959964
ATTACKS = ("shoot", "throw")  # the interactions that count as an attack roll
# Goals by an objective's kind, kept here, not in the mission files: every byte of a mission file is in its logs'
# content hash, so a `pace` table added to infiltrate.toml would stop its old logs verifying.
STEALTH = Pace(first_attack=0, quiet_until=6, end=20)  # slip in unseen, leave: few attacks and none early
KIND_PACE = {"escape": STEALTH}


@attrs.frozen
class Outcome:
    """One finished mission, as the tally needs it."""

    mission: str
    level: str
    seed: int
    winner: str
    phases: int
    lost: dict[str, int]  # side -> units dead or unconscious at the end
    first_attack: int | None = None  # the phase of the first attack roll between the sides; None: none came
    timed_out: bool = False  # a draw because the phase limit came


def play(content: Content, ruleset: str, mission: str, level: str, seed: int, max_phases: int | None) -> Outcome:
    from engine.play.game import Game

    game = Game.new(content, ruleset, f"{mission}@{level}", seed_from_int(seed), None, max_phases=max_phases)
    first = None
    while game.state.winner is None:
        before = game.state
        events = game.ai_step()
        if first is None and not isinstance(events, Rejected) and any(_attack(before, e) for e in events):
            first = before.phase
    state = game.state
    lost: dict[str, int] = {}
    for unit in state.units.values():
        lost[unit.side] = lost.get(unit.side, 0) + (unit.status != "active")
    limit = game.ruleset.setup.max_phases if game.ruleset.setup else 0
    return Outcome(mission, level, seed, state.winner or "draw", state.phase, lost, first,
                   state.winner == "draw" and bool(limit) and state.phase >= limit)


def _attack(state: State, event: Event) -> bool:
    """A shot or a throw rolled by one of the fighting sides at the other (shots at civilians are not contact)."""
    if not isinstance(event, Resolved) or event.action not in ATTACKS or not event.rolls:
        return False
    actor = state.units.get(event.actor)
    target = state.units.get(event.target) if event.target else None
    if actor is None or actor.side == missions.CIVILIANS:
        return False
    return target is None or (target.side != missions.CIVILIANS and missions.hostile(actor.side, target.side))


def median(values: list[float]) -> float:
    """The middle value (the mean of the two middle ones); inf stands for "never" and sorts last."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        return math.inf
    return ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2


def pace(outcomes: list[Outcome], goals: Pace = Pace()) -> dict[str, Any]:
    """The three pace figures with the mission's goals, and whether each is met. A mission with no attack counts
    as never attacked (after every other), so the median says "never" when most had none. The first attack's
    goal is a phase it comes by (a fight), or one it does not come before (a stealth mission's quiet approach),
    or both; None where the mission sets neither."""
    first = median([math.inf if o.first_attack is None else o.first_attack for o in outcomes])
    end = median([o.phases for o in outcomes])
    share = sum(o.timed_out for o in outcomes) / len(outcomes)
    attack = {"median": None if math.isinf(first) else first, "goal": goals.first_attack or None,
              "met": (not goals.first_attack or first <= goals.first_attack) and first >= goals.quiet_until}
    if goals.quiet_until:
        attack["quiet_until"] = goals.quiet_until
    return {"first_attack": attack,
            "end": {"median": end, "goal": goals.end, "met": end <= goals.end},
            "timeouts": {"share": share, "goal": goals.timeouts, "met": share <= goals.timeouts}}


def goals(mission: Mission) -> Pace:
    """A mission's pace goals: its file's `pace` table if it has one, else its objectives' kind's (a mission to
    leave by an exit is a stealth mission), else a fight's."""
    if mission.pace != Pace():
        return mission.pace
    return next((KIND_PACE[o.kind] for o in mission.objectives.values() if o.kind in KIND_PACE), Pace())


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


def tally(outcomes: list[Outcome], sides: Iterable[str], goals: Pace = Pace()) -> dict[str, Any]:
    n = len(outcomes)
    wins = {side: sum(o.winner == side for o in outcomes) for side in (*sides, "draw")}
    low, high = wilson(wins[missions.PLAYER], n)
    return {"mission": outcomes[0].mission, "difficulty": outcomes[0].level, "trials": n, "wins": wins,
            "win_rate": {"value": wins[missions.PLAYER] / n, "low": low, "high": high},
            "phases": mean_interval([o.phases for o in outcomes]),
            "casualties": {side: mean_interval([o.lost.get(side, 0) for o in outcomes]) for side in sides},
            "pace": pace(outcomes, goals)}


_worker: Content | None = None


def _load_worker(directory: str | None) -> None:
    global _worker
    from engine.content import loader

    _worker = loader.load(directory)


def _play_in_worker(ruleset: str, mission: str, level: str, seed: int, max_phases: int | None) -> tuple:
    assert _worker is not None
    o = play(_worker, ruleset, mission, level, seed, max_phases)
    return o.winner, o.phases, sorted(o.lost.items()), o.first_attack, o.timed_out


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
                winner, phases, lost, first, timed_out = future.result()
                done.append(Outcome(m, level, s, winner, phases, dict(lost), first, timed_out))
                report(i + 1, len(work), f"{m}@{level}")
    else:
        for i, (m, level, s) in enumerate(work):
            done.append(play(content, ruleset, m, level, s, max_phases))
            report(i + 1, len(work), f"{m}@{level}")
    rows = []
    for m in mission_ids:
        sides = [missions.PLAYER, missions.ALIENS] + ([missions.CIVILIANS] if content.missions[m].civilians else [])
        for level in levels:
            rows.append(tally([o for o in done if o.mission == m and o.level == level], sides,
                              goals(content.missions[m])))
    return rows
