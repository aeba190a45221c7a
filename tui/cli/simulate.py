"""`xenotac simulate`: AI against AI to the end of a mission, or `--trials N` of them in memory."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tui.cli.common import (BadInput, at_most, check_choice, check_playable, load_content, log_ruleset, mission_at,
                            readable, secret, seed)
from tui.saves import new_log_path, saves_dir


def _phases(text: str) -> int:
    """At most the content's longest phase limit. The engine is imported only when the option is given: every
    start of `xenotac` builds this parser, and the title menu is drawn before the engine is imported."""
    from engine.content.bounds import MAX_PHASES

    return at_most(MAX_PHASES, "phases")(text)


def add_parser(sub) -> None:
    sim = sub.add_parser("simulate", help="AI against AI to the end of a mission, logged")
    sim.add_argument("--ruleset", default="xcom-trpg")
    sim.add_argument("--mission", help="mission id (default: eliminate; with --trials, every mission)")
    sim.add_argument("--difficulty", metavar="D", help="difficulty level (with --trials, default: every level)")
    sim.add_argument("--seed", type=seed)
    sim.add_argument("--out", metavar="PATH", help="log file (default: a new file in the save folder)")
    sim.add_argument("--max-turns", type=_phases, metavar="N", help="end in a draw after N phases")
    sim.add_argument("--resume", metavar="LOG", help="carry an interrupted simulation on to the end")
    sim.add_argument("--trials", type=at_most(10_000, "trials"), metavar="N",
                     help="N missions per mission and difficulty, in memory: win rate, phases, casualties, pace")
    sim.add_argument("--jobs", type=at_most(256, "jobs"), default=1, metavar="N", help="with --trials: worker processes")
    sim.add_argument("--json", action="store_true", help="with --trials: the report as JSON")



def run(args: argparse.Namespace) -> int:
    return cmd_simulate_trials(args) if args.trials else cmd_simulate(args)


def cmd_simulate(args: argparse.Namespace) -> int:
    from engine.play import catalog
    from engine.log.reading import seed_note
    from engine.play import simulate

    if args.resume:
        from engine.play.game import Game

        path = Path(args.resume)
        readable(path)
        content = load_content(args.content, log_ruleset(path))
        game = Game.resume(content, path)
        for note in game.notes:
            print(f"note: {note}", file=sys.stderr)
        simulate.play_out(game)
    else:
        content = load_content(args.content, [args.ruleset])
        check_playable(content, args.ruleset)
        mission = mission_at(content, args.mission or catalog.missions_for(content, args.ruleset)[0], args.difficulty)
        check_playable(content, args.ruleset, mission)
        seed, public = secret(args.seed)
        tag = "random" if public is None else str(public)
        path = Path(args.out) if args.out else new_log_path(saves_dir(args.saves), f"{mission}-sim-{tag}")
        if path.exists() and path.is_dir():
            raise BadInput(f"{path}: is a directory; give a file name")
        game = simulate.run(content, args.ruleset, mission, seed, path, max_phases=args.max_turns, public=public)
    state = game.state
    rolls = sum(state.dice.values())  # every die on the final branch
    print(f"log:        {path}")
    print(f"winner:     {state.winner} ({state.ended})")
    print(f"phases:     {state.phase}")
    for side in state.sides:
        units = state.side_units(side)
        dead = sum(u.status == "dead" for u in units)
        out = sum(u.status == "unconscious" for u in units)
        print(f"{side + ':':<11} {len(units) - dead - out} standing, {out} unconscious, {dead} dead")
    print(f"dice rolled: {rolls}")
    print(f"seed:       {seed_note(game.header)}")
    game.close()
    return 0


def cmd_simulate_trials(args: argparse.Namespace) -> int:
    """N seeded missions per mission and difficulty; a progress bar on stderr, the report on stdout."""
    import time

    from engine.play import balance
    from engine.play import catalog

    if args.resume or args.out:
        raise BadInput("--trials plays in memory: it takes no --out or --resume")
    content = load_content(args.content, [args.ruleset])
    check_playable(content, args.ruleset)
    if args.mission is not None:
        check_choice("mission", args.mission, [m for m in content.missions])
        check_playable(content, args.ruleset, args.mission)
    if args.difficulty is not None:
        check_choice("difficulty", args.difficulty, content.difficulty)
    if not content.difficulty:
        raise BadInput("this content has no difficulty.toml: there are no levels to compare")
    ids = [args.mission] if args.mission else catalog.missions_for(content, args.ruleset)
    levels = [args.difficulty] if args.difficulty else list(content.difficulty)
    start = time.perf_counter()
    bar = _Progress(sys.stderr)
    rows = balance.run_trials(content, args.ruleset, ids, levels, args.trials, 1 if args.seed is None else args.seed,
                              max_phases=args.max_turns, jobs=args.jobs, content_dir=args.content, progress=bar)
    bar.done(time.perf_counter() - start)
    if args.json:
        print(json.dumps({"ruleset": args.ruleset, "trials": args.trials, "seed": 1 if args.seed is None else args.seed,
                          "confidence": 0.95, "results": rows}, indent=2))
        return 0
    from engine.log.story import sides_of

    for line in _trials_table(rows, sides_of(content, args.ruleset)):
        print(line)
    return 0


class _Progress:
    """`[#########·········] 9/20 terror@normal` on one line of a terminal; silent when piped."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self.total = 0

    def __call__(self, done: int, total: int, label: str) -> None:
        self.total = total
        if self.live:
            filled = 30 * done // total
            self.stream.write(f"\r[{'#' * filled}{'·' * (30 - filled)}] {done}/{total} {label:<24}")
            self.stream.flush()

    def done(self, seconds: float) -> None:
        end = "\n" if self.live else ""
        self.stream.write(f"{end}{self.total} missions in {seconds:.1f} s\n")


def _trials_table(rows: list[dict], names) -> list[str]:
    """One row per mission and level; each figure with its 95% interval in brackets."""
    sides = []
    for r in rows:
        sides += [s for s in r["casualties"] if s not in sides]

    def mean(v: dict) -> str:
        return f"{v['mean']:.1f} [{v['low']:.1f}–{v['high']:.1f}]"

    head = f"{'mission':<10} {'difficulty':<11} {'trials':>6}  {names.name('xcom') + ' wins':<17} {'draws':>5}  "
    head += f"{'phases':<18}" + "".join(f" {names.label(s) + ' lost':<16}" for s in sides)  # the ruleset's names
    out = [head]
    for r in rows:
        w = r["win_rate"]
        rate = f"{100 * w['value']:.0f}% [{100 * w['low']:.0f}–{100 * w['high']:.0f}%]"
        line = (f"{r['mission']:<10} {r['difficulty']:<11} {r['trials']:>6}  {rate:<17} "
                f"{r['wins']['draw']:>5}  {mean(r['phases']):<18}")
        line += "".join(f" {mean(r['casualties'][s]) if s in r['casualties'] else '—':<16}" for s in sides)
        out.append(line)
    out.append("95% intervals: Wilson for the win rate, ±1.96 standard errors for the means.")
    return out + _pace_table(rows)


def _pace_table(rows: list[dict]) -> list[str]:
    """The pace of each mission and level, each figure against its mission's goal (✓ met, ✗ missed): a fight's
    goals in the heading, a mission of another kind's (a stealth mission's quiet approach) under the table."""
    from engine.content.models import Pace  # here: the engine is imported only when trials have run

    if not rows:
        return []
    fight = Pace()

    def mark(figure: dict) -> str:
        return "✓" if figure["met"] else "✗"

    out = ["", f"pace — goals: first attack by phase {fight.first_attack} and the end by phase {fight.end} "
               f"(medians), at most {100 * fight.timeouts:.0f}% phase-limit draws",
           f"{'mission':<10} {'difficulty':<11} {'first attack':<13} {'end':<8} phase-limit draws"]
    own: dict[str, str] = {}
    for r in rows:
        pace = r["pace"]
        attack = pace["first_attack"]["median"]
        attack_text = ("never" if attack is None else f"{attack:g}") + " " + mark(pace["first_attack"])
        end_text = f"{pace['end']['median']:g} " + mark(pace["end"])
        draws_text = f"{100 * pace['timeouts']['share']:.0f}% " + mark(pace["timeouts"])
        out.append(f"{r['mission']:<10} {r['difficulty']:<11} {attack_text:<13} {end_text:<8} {draws_text}")
        goals = _goals(pace)
        if goals != _goals_of(fight):
            own[r["mission"]] = goals
    return out + [f"{mission}'s goals: {goals}" for mission, goals in own.items()]


def _goals(pace: dict) -> str:
    first = pace["first_attack"]
    when = ([f"first attack by phase {first['goal']}"] if first["goal"] else []) + (
        [f"no attack before phase {first['quiet_until']} (none at all is best)"] if first.get("quiet_until") else [])
    return ", ".join(when + [f"the end by phase {pace['end']['goal']}",
                             f"at most {100 * pace['timeouts']['goal']:.0f}% phase-limit draws"])


def _goals_of(goals) -> str:
    return _goals({"first_attack": {"goal": goals.first_attack or None, "quiet_until": goals.quiet_until},
                   "end": {"goal": goals.end}, "timeouts": {"goal": goals.timeouts}})
