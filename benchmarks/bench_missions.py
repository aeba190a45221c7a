"""Missions, maps and the AI (issue: missions, maps and an AI worth fighting), each figure with a
reference measured in the same run.

- Map generation per biome at 100x100, against one tcod Dijkstra over the same map.
- One alien's decision on a 100x100 map, 12 aliens against 8 soldiers, against the raw tcod FOV,
  Dijkstra and path-finding calls that decision made (counted while it ran, then timed bare).
- Undo after resume on the 100x100 map at 10,000 records, against its cost at 100.
"""

from __future__ import annotations

import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import attrs
import numpy as np
import tcod.constants
import tcod.map
import tcod.path

from benchmarks.bench_engine import long_log, undo_pair
from benchmarks.common import Figure, best_of, interleaved
from engine.content import loader
from engine.ai.planner import Ai
from engine.core.commands import EndTurn, Rejected
from engine.content.models import Mission, Missions
from engine.core.dice import seed_from_int
from engine.play.game import Game
from engine.map.gen import GENERATORS
from engine.rules.xcom_trpg import tables
from engine.rules.xcom_trpg.tables import xcom

SIZE = 100
EXTRA = {"anna": "7", "boris": "8"}  # two more soldiers for a squad of 8
TURNS = 12  # alien turns timed
SAMPLE = 400  # recorded FOV calls replayed bare, at most


def big_content(generator: str = "urban"):
    """The built-in content plus a 100x100 mission: 8 soldiers against 12 aliens."""
    content = loader.load()
    units = dict(xcom(content).units)
    for uid, glyph in EXTRA.items():
        units[uid] = attrs.evolve(xcom(content).units["viktor"], name=uid.title(), glyph=glyph)
    squad = ["anton", "julia", "stephen", "laura", "nadia", "viktor", *EXTRA]
    bench = Mission(name="Benchmark", description="100x100", ruleset="xcom-trpg", generator=generator,
                    width=SIZE, height=SIZE, squad=squad, enemies={"sectoid": 6, "muton": 3, "floater": 3},
                    max_phases=10**6)
    missions = Missions({**dict(content.missions), "bench": bench}, content.difficulty)
    return attrs.evolve(tables.evolve(content, units=units), missions=missions)


def map_figures(content) -> list[Figure]:
    out = []
    for name, generate in GENERATORS.items():
        field = generate(SIZE, SIZE, 77, content.terrain, {"xcom": 8, "aliens": 12})
        t = interleaved({"gen": lambda: generate(SIZE, SIZE, 77, content.terrain, {"xcom": 8, "aliens": 12}),
                         "ref": lambda: field.grid.distances(field.spawns["xcom"][0])}, rounds=5)
        took, ref = t["gen"], t["ref"]
        out.append(Figure(f"map generation {name} {SIZE}x{SIZE}", took * 1000, "ms", "< 200 ms", took < 0.2,
                          f"× one tcod Dijkstra over the same map ({ref * 1000:.2f} ms)", took / ref))
    return out


@contextmanager
def counting():
    """Count the tcod FOV, Dijkstra and path-finding calls made inside the block, keeping each FOV's and
    path's arguments, so the reference replays the very calls made."""
    calls: dict[str, list] = {"fov": [], "dijkstra": [], "path": [], "hillclimb": []}
    roots: dict[int, tuple] = {}
    fov, dijkstra, add_root, resolve, hillclimb = (tcod.map.compute_fov, tcod.path.dijkstra2d,
                                                   tcod.path.Pathfinder.add_root, tcod.path.Pathfinder.resolve,
                                                   tcod.path.hillclimb2d)

    def counted_fov(transparency, pov, radius=0, *a, **kw):
        calls["fov"].append((tuple(pov), radius))
        return fov(transparency, pov, radius, *a, **kw)

    def counted_dijkstra(*a, **kw):
        calls["dijkstra"].append(None)
        return dijkstra(*a, **kw)

    def counted_root(self, index, *a, **kw):
        roots[id(self)] = (len(roots), tuple(index))  # which pathfinder, and its root
        return add_root(self, index, *a, **kw)

    def counted_resolve(self, goal=None, *a, **kw):  # a search towards one cell: `path_to` runs one, and the
        if goal is not None:  # reach search (Grid.paths_within) runs them without reading each path
            calls["path"].append((*roots.get(id(self), (-1, None)), tuple(goal)))
        return resolve(self, goal, *a, **kw)

    def counted_hillclimb(*a, **kw):
        calls["hillclimb"].append(None)
        return hillclimb(*a, **kw)

    tcod.map.compute_fov, tcod.path.dijkstra2d = counted_fov, counted_dijkstra
    tcod.path.Pathfinder.add_root, tcod.path.Pathfinder.resolve = counted_root, counted_resolve
    tcod.path.hillclimb2d = counted_hillclimb
    try:
        yield calls
    finally:
        tcod.map.compute_fov, tcod.path.dijkstra2d = fov, dijkstra
        tcod.path.Pathfinder.add_root, tcod.path.Pathfinder.resolve = add_root, resolve
        tcod.path.hillclimb2d = hillclimb


def ai_figures(content) -> list[Figure]:
    """Play the big mission AI against AI and time each alien's decision — every command the AI
    gives that alien in its turn — over the first alien turns: the approach and first contact."""
    game = Game.new(content, "xcom-trpg", "bench", seed_from_int(3), None)
    ais = {side: Ai(game.ruleset, side) for side in game.state.sides}
    per_alien: list[float] = []
    calls: dict[str, list] = {"fov": [], "dijkstra": [], "path": [], "hillclimb": []}
    turns = 0
    while game.state.winner is None and turns < TURNS:
        side = game.state.side
        ai = ais[side]
        spent: dict[str, float] = {}
        seen = side == "aliens"
        for _ in range(400):
            with counting() as made:
                t = time.perf_counter()
                command = ai.next_command(game.state)
                took = time.perf_counter() - t
            if seen:
                who = getattr(command, "unit", None) or "end"
                spent[who] = spent.get(who, 0.0) + took
                for k in calls:
                    calls[k] += made[k]
            result = game.submit(command)
            if isinstance(result, Rejected):
                ai.rejected(command, result)
            if isinstance(command, EndTurn) or game.state.side != side or game.state.winner:
                break
        if seen:
            turns += 1
            end = spent.pop("end", 0.0)
            per_alien += [v + end / max(1, len(spent)) for v in spent.values()]
    worst, mean = max(per_alien), sum(per_alien) / len(per_alien)
    grid = game.state.grid
    decisions = len(per_alien)
    per = {k: len(v) / decisions for k, v in calls.items()}
    raw = _raw_cost(grid, calls) / decisions
    made = ", ".join(f"{v:.1f} {k}" for k, v in per.items())
    return [Figure(f"AI decision per alien {SIZE}x{SIZE}, 12 vs 8 (worst)", worst * 1000, "ms", "<= 100 ms",
                   worst <= 0.1, f"× the tcod calls one decision makes on average ({made}), bare "
                   f"({raw * 1000:.2f} ms)", worst / raw if raw else None),
            Figure(f"AI decision per alien (mean of {decisions})", mean * 1000, "ms", "<= 100 ms", mean <= 0.1,
                   " × the same bare tcod calls", mean / raw if raw else None)]


def _raw_cost(grid, calls: dict[str, list]) -> float:
    """The bare cost of the recorded calls on this map: every path with its own pathfinder, root and goal,
    each FOV with its own origin and radius (a spread sample of at most SAMPLE, scaled to their number),
    Dijkstra and hill-climb at their typical size."""
    def sample(made: list) -> list:
        step = max(1, len(made) // SAMPLE)
        return made[::step]

    def fovs(made: list) -> None:
        for pov, radius in made:
            tcod.map.compute_fov(grid.transparent, pov, radius=radius, light_walls=True,
                                 algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST)

    graph_cost = np.array(grid.cost, dtype=np.int16)

    def paths(made: list) -> None:  # as Grid.path does it; a pathfinder asked again answers from its search
        finders: dict[int, object] = {}
        for which, root, goal in made:
            pf = finders.get(which)
            if pf is None:
                pf = finders[which] = tcod.path.Pathfinder(tcod.path.SimpleGraph(cost=graph_cost, cardinal=1,
                                                                                  diagonal=1))
                pf.add_root(root)
            pf.path_to(goal)

    cost = (grid.cost > 0).astype(np.int8)

    def dijkstra() -> None:
        dist = tcod.path.maxarray(cost.shape, dtype=np.int32)
        dist[50, 50] = 0
        tcod.path.dijkstra2d(dist, cost, 1, 1, out=dist)

    dist = tcod.path.maxarray(cost.shape, dtype=np.int32)
    dist[50, 50] = 0
    tcod.path.dijkstra2d(dist, cost, 1, 1, out=dist)

    def climb() -> None:
        tcod.path.hillclimb2d(dist, (10, 10), True, True)

    some = sample(calls["fov"])
    total = best_of(lambda: fovs(some), repeat=3) * len(calls["fov"]) / len(some) if some else 0.0
    total += best_of(lambda: paths(calls["path"]), repeat=3)  # all of them: a pathfinder's later answers are cheap
    return (total + len(calls["dijkstra"]) * best_of(dijkstra, repeat=20)
            + len(calls["hillclimb"]) * best_of(climb, repeat=20))


def undo_figure(content) -> Figure:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        small, big = tmp / "small.jsonl", tmp / "big.jsonl"
        long_log(content, small, 100, mission="bench")
        long_log(content, big, 10_000, mission="bench")
        at_small, at_big = undo_pair(content, small, big)
    ratio = at_big / at_small
    return Figure(f"undo after resume {SIZE}x{SIZE} at 10,000 ÷ at 100 records", ratio, "×", "<= 2×", ratio <= 2,
                  f": {at_small * 1000:.2f} ms at 100, {at_big * 1000:.2f} ms at 10,000", ratio)


def figures() -> list[Figure]:
    content = big_content()
    return [*map_figures(content), *ai_figures(content), undo_figure(content)]
