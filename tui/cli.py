"""The `xenotac` command. Headless subcommands never import Textual; `play` and the menu do.

Bad input gets one line on stderr and exit 2; a failed verification exits 1; success exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import sys
from pathlib import Path
from typing import NoReturn, Sequence

EXIT_BAD_INPUT = 2


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see {self.prog} --help)\n")


class BadInput(Exception):
    """Reported as one line, exit 2."""


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("a seed cannot be negative")
    return value


def _dice(text: str) -> list[int]:
    try:
        faces = [int(f) for f in text.replace(" ", "").split(",") if f]
    except ValueError:
        raise argparse.ArgumentTypeError(f"dice are comma-separated whole numbers, got {text!r}") from None
    if not faces:
        raise argparse.ArgumentTypeError("give at least one die")
    return faces


def saves_dir(arg: str | None) -> Path:
    """--saves, then XENOTAC_SAVES, then the project's saves/ folder, then ./saves."""
    if arg:
        return Path(arg)
    env = os.environ.get("XENOTAC_SAVES")
    if env:
        return Path(env)
    project = Path(__file__).resolve().parent.parent / "saves"
    return project if project.is_dir() else Path("saves")


def new_log_path(folder: Path, stem: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", stem).strip("-.") or "mission"
    path = folder / f"{safe}.jsonl"
    i = 2
    while path.exists():
        path = folder / f"{safe}-{i}.jsonl"
        i += 1
    return path


def load_content(directory: str | None = None):
    from engine import loader

    try:
        return loader.load(directory)
    except loader.ContentError as exc:
        raise BadInput(f"content does not load ({len(exc.messages)} problems; run `xenotac content check`): "
                       f"{exc.messages[0]}") from None


def build_parser() -> Parser:
    p = Parser(prog="xenotac", description="Keyboard-only squad tactics with auditable dice.")
    p.add_argument("--saves", metavar="DIR", help="save folder (default: $XENOTAC_SAVES or saves/)")
    p.add_argument("--content", metavar="DIR", help="content folder (default: the built-in content/)")
    p.add_argument("--keys", metavar="FILE", help="key map TOML for the client (default: $XENOTAC_KEYS or "
                                                  "~/.config/xenotac/keys.toml)")
    sub = p.add_subparsers(dest="cmd", parser_class=Parser)

    play = sub.add_parser("play", help="start a new mission in the terminal client")
    play.add_argument("--ruleset", default="xcom-trpg")
    play.add_argument("--mission", default="eliminate", help="mission id, or ID@LEVEL (e.g. terror@veteran)")
    play.add_argument("--difficulty", metavar="D", help="difficulty level (default: the content's default)")
    play.add_argument("--seed", type=_seed)
    play.add_argument("--casual", action="store_true", help="allow undo across dice rolls")
    play.add_argument("--no-roster", action="store_true", help="deploy the mission's own soldiers, not the roster's")
    play.add_argument("--keys", metavar="FILE", default=argparse.SUPPRESS, help="key map TOML")

    resume = sub.add_parser("resume", help="continue the most recent unfinished mission, or LOG")
    resume.add_argument("log", nargs="?")
    resume.add_argument("--recover", action="store_true",
                        help="a damaged log: carry its good part on in a new file (the log is kept)")
    resume.add_argument("--keys", metavar="FILE", default=argparse.SUPPRESS, help="key map TOML")

    sim = sub.add_parser("simulate", help="AI against AI to the end of a mission, logged")
    sim.add_argument("--ruleset", default="xcom-trpg")
    sim.add_argument("--mission", help="mission id (default: eliminate; with --trials, every mission)")
    sim.add_argument("--difficulty", metavar="D", help="difficulty level (with --trials, default: every level)")
    sim.add_argument("--seed", type=_seed)
    sim.add_argument("--out", metavar="PATH", help="log file (default: a new file in the save folder)")
    sim.add_argument("--max-turns", type=_positive, metavar="N", help="end in a draw after N phases")
    sim.add_argument("--resume", metavar="LOG", help="carry an interrupted simulation on to the end")
    sim.add_argument("--trials", type=_positive, metavar="N",
                     help="N missions per mission and difficulty, in memory: win rate, phases, casualties")
    sim.add_argument("--jobs", type=_positive, default=1, metavar="N", help="with --trials: worker processes")
    sim.add_argument("--json", action="store_true", help="with --trials: the report as JSON")

    mp = sub.add_parser("map", help="an ASCII preview of a mission's map for a seed")
    mp.add_argument("--ruleset", default="xcom-trpg")
    mp.add_argument("--mission", default="eliminate")
    mp.add_argument("--seed", type=_seed, default=1, help="the seed `play --seed` takes (default 1)")
    mp.add_argument("--count", type=_positive, default=1, metavar="N", help="N seeds from --seed on")
    mp.add_argument("--json", action="store_true", help="the grid, units and zones as JSON")

    rep = sub.add_parser("replay", help="open a mission log in the replay viewer, verify it, or print its story")
    rep.add_argument("log")
    how = rep.add_mutually_exclusive_group()
    how.add_argument("--verify", action="store_true", help="recompute every event and compare")
    how.add_argument("--story", action="store_true", help="print the story as text instead of opening the viewer")
    rep.add_argument("--seed-file", metavar="F", help="the seed, if the log has not revealed it yet")
    rep.add_argument("--keys", metavar="FILE", default=argparse.SUPPRESS, help="key map TOML")

    aud = sub.add_parser("audit", help="every roll of a log, as a player would write it")
    aud.add_argument("log")
    aud.add_argument("--record", type=_positive, metavar="N", help="only line N of the log")
    aud.add_argument("--unit", metavar="ID", help="only this unit's rolls")
    aud.add_argument("--explain", action="store_true", help="with --record N: each roll's whole derivation")
    aud.add_argument("--stats", action="store_true", help="dice distribution, χ² test and luck-check rates")
    aud.add_argument("--seed-file", metavar="F", help="the seed, if the log has not revealed it yet")

    res = sub.add_parser("resolve", help="the referee's calculator for one situation")
    res.add_argument("scenario", metavar="SCENARIO.toml")
    res.add_argument("--dice", type=_dice, metavar="88,93,10,...", help="the dice actually rolled, in order")
    res.add_argument("--seed", type=_seed, default=1)
    res.add_argument("--trials", type=_positive, metavar="N", help="resolve N times and report the odds")
    res.add_argument("--json", action="store_true")

    con = sub.add_parser("content", help="content tools")
    con_sub = con.add_subparsers(dest="content_cmd", parser_class=Parser, required=True)
    chk = con_sub.add_parser("check", help="list every problem in a content folder")
    chk.add_argument("dir", nargs="?")
    from tui import rostercmd

    rostercmd.add_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _dispatch(parser, args)
    except BadInput as exc:
        print(f"xenotac: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


def _dispatch(parser: Parser, args: argparse.Namespace) -> int:
    from engine import log

    try:
        if args.cmd == "simulate":
            return cmd_simulate_trials(args) if args.trials else cmd_simulate(args)
        if args.cmd == "map":
            return cmd_map(args)
        if args.cmd == "replay":
            return cmd_replay(args)
        if args.cmd == "audit":
            return cmd_audit(args)
        if args.cmd == "resolve":
            return cmd_resolve(args)
        if args.cmd == "content":
            return cmd_content_check(args)
        if args.cmd == "roster":
            from tui import rostercmd

            return rostercmd.run(args, load_content(args.content), saves_dir(args.saves), BadInput, _secret)
        from tui import launch

        return launch.run(args)
    except log.LogError as exc:
        raise BadInput(str(exc)) from None
    except OSError as exc:
        raise BadInput(f"{exc.filename or ''}: {exc.strerror}".lstrip(": ")) from None


def _secret(seed: int | None) -> tuple[bytes, str]:
    from engine.dice import seed_from_int

    if seed is None:
        return secrets.token_bytes(32), "random"
    return seed_from_int(seed), str(seed)


def cmd_simulate(args: argparse.Namespace) -> int:
    from engine import ruleset as rs
    from engine import simulate

    content = load_content(args.content)
    if args.resume:
        from engine.kernel import Game

        path = Path(args.resume)
        _readable(path)
        game = Game.resume(content, path)
        for note in game.notes:
            print(f"note: {note}", file=sys.stderr)
        simulate.play_out(game)
    else:
        _check_choice("ruleset", args.ruleset, rs.available())
        mission = _mission_at(content, args.mission or "eliminate", args.difficulty)
        seed, tag = _secret(args.seed)
        path = Path(args.out) if args.out else new_log_path(saves_dir(args.saves), f"{mission}-sim-{tag}")
        if path.exists() and path.is_dir():
            raise BadInput(f"{path}: is a directory; give a file name")
        game = simulate.run(content, args.ruleset, mission, seed, path, max_phases=args.max_turns)
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
    game.close()
    return 0


def _mission_at(content, mission: str, difficulty: str | None) -> str:
    """The mission id to play: `ID`, or `ID@LEVEL` when a difficulty level is named."""
    _check_choice("mission", mission.partition("@")[0], content.missions)
    if difficulty is not None:
        if "@" in mission:
            raise BadInput(f"--mission {mission} already names a difficulty; leave out --difficulty")
        _check_choice("difficulty", difficulty, content.difficulty)
        return f"{mission}@{difficulty}"
    if "@" in mission:
        _check_choice("difficulty", mission.partition("@")[2], content.difficulty)
    return mission


def cmd_simulate_trials(args: argparse.Namespace) -> int:
    """N seeded missions per mission and difficulty; a progress bar on stderr, the report on stdout."""
    import time

    from engine import balance
    from engine import ruleset as rs

    if args.resume or args.out:
        raise BadInput("--trials plays in memory: it takes no --out or --resume")
    content = load_content(args.content)
    _check_choice("ruleset", args.ruleset, rs.available())
    if args.mission is not None:
        _check_choice("mission", args.mission, [m for m in content.missions])
    if args.difficulty is not None:
        _check_choice("difficulty", args.difficulty, content.difficulty)
    if not content.difficulty:
        raise BadInput("this content has no difficulty.toml: there are no levels to compare")
    ids = [args.mission] if args.mission else sorted(content.missions, key=lambda m: (m != "eliminate", m))
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
    for line in _trials_table(rows):
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


def _trials_table(rows: list[dict]) -> list[str]:
    """One row per mission and level; each figure with its 95% interval in brackets."""
    sides = []
    for r in rows:
        sides += [s for s in r["casualties"] if s not in sides]

    def mean(v: dict) -> str:
        return f"{v['mean']:.1f} [{v['low']:.1f}–{v['high']:.1f}]"

    head = f"{'mission':<10} {'difficulty':<11} {'trials':>6}  {'X-COM wins':<17} {'draws':>5}  {'phases':<18}"
    head += "".join(f" {s + ' lost':<16}" for s in sides)
    out = [head]
    for r in rows:
        w = r["win_rate"]
        rate = f"{100 * w['value']:.0f}% [{100 * w['low']:.0f}–{100 * w['high']:.0f}%]"
        line = (f"{r['mission']:<10} {r['difficulty']:<11} {r['trials']:>6}  {rate:<17} "
                f"{r['wins']['draw']:>5}  {mean(r['phases']):<18}")
        line += "".join(f" {mean(r['casualties'][s]) if s in r['casualties'] else '—':<16}" for s in sides)
        out.append(line)
    out.append("95% intervals: Wilson for the win rate, ±1.96 standard errors for the means.")
    return out


def cmd_map(args: argparse.Namespace) -> int:
    """The map of a mission for each seed asked, exactly as `play --seed` makes it; exit 1 if a
    map breaks a guarantee."""
    from engine import preview
    from engine import ruleset as rs

    content = load_content(args.content)
    _check_choice("ruleset", args.ruleset, rs.available())
    _check_choice("mission", args.mission.partition("@")[0], content.missions)
    _check_choice("mission", args.mission, content.missions)
    maps = [preview.describe(content, args.ruleset, args.mission, seed)
            for seed in range(args.seed, args.seed + args.count)]
    if args.json:
        print(json.dumps(maps[0] if args.count == 1 else maps))
    else:
        for i, d in enumerate(maps):
            if i:
                print()
            for line in preview.text(content, d):
                print(line)
    return 1 if any(d["problems"] for d in maps) else 0


def _check_choice(what: str, value: str, choices) -> None:
    from engine.loader import did_you_mean

    if value not in choices:
        raise BadInput(f"unknown {what} {value!r}{did_you_mean(value, choices)}; one of {', '.join(choices)}")


def cmd_replay(args: argparse.Namespace) -> int:
    from engine import verify

    path = Path(args.log)
    _readable(path)
    content = load_content(args.content)
    if args.story:
        from engine.story import story

        for line in story(path):
            print(line)
        return 0
    if not args.verify:
        from tui import launch

        return launch.view(args, content, path)
    report = verify.verify(content, path, Path(args.seed_file) if args.seed_file else None)
    if report.failure is not None:
        print(f"FAILED at {report.failure}", file=sys.stderr)
        return 1
    print(f"verified {report.records} records")
    return 0


def _readable(path: Path) -> None:
    if path.is_dir():
        raise BadInput(f"{path}: is a directory, not a log")
    if not path.exists():
        raise BadInput(f"{path}: no such file")


def cmd_audit(args: argparse.Namespace) -> int:
    from engine import audit

    path = Path(args.log)
    _readable(path)
    if args.explain:
        from engine.timeline import Timeline

        if args.record is None:
            raise BadInput("--explain needs --record N: the line whose rolls to explain")
        lines = Timeline(load_content(args.content), path, Path(args.seed_file) if args.seed_file else None
                         ).explain(args.record)
    elif args.stats:
        lines = audit.stats(path)
    else:
        lines = audit.render(path, args.record, args.unit)
    for line in lines:
        print(line)
    return 0


def cmd_resolve(args: argparse.Namespace) -> int:
    from engine import loader, scenario, trials
    from engine.dice import DiceExhausted, Dice
    from engine.ruleset import make

    content = load_content(args.content)
    try:
        sc = loader.load_scenario(args.scenario)
    except loader.ContentError as exc:
        raise BadInput("; ".join(exc.messages)) from None
    problems = scenario.check(content, sc)
    if problems:
        raise BadInput(f"{Path(args.scenario).name}: " + "; ".join(problems))
    if args.trials:
        if args.dice:
            raise BadInput("--dice and --trials do not mix: trials roll their own dice")
        result = trials.run(content, sc, args.trials, args.seed)
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            print(f"{args.trials} trials, seed {args.seed}")
            for uid, odds in result["units"].items():
                print(f"  {uid}: hit {100 * odds['p_hit']:.1f}%, mean HP lost {odds['mean_hp_lost']:.2f}, "
                      f"dead {100 * odds['p_dead']:.1f}%, unconscious {100 * odds['p_unconscious']:.1f}%, "
                      f"mean morale lost {odds['mean_morale_lost']:.2f}")
        return 0
    faces = scenario.seeded(args.seed)
    units, hp_rolls = scenario.make_units(content, sc, Dice(faces))
    dice = Dice.scripted(args.dice) if args.dice else Dice(faces)
    try:
        verdict = make(sc.ruleset, content, None).referee(units, sc.action, dice)
    except DiceExhausted as exc:
        raise BadInput(str(exc)) from None
    if args.dice and dice.scripted_left:
        print(f"note: {dice.scripted_left} die/dice left unused", file=sys.stderr)
    verdict = scenario.Verdict(hp_rolls + verdict.rolls, verdict.before, verdict.changes, verdict.summary)
    if args.json:
        print(json.dumps(scenario.summary_json(sc.ruleset, verdict), indent=2, ensure_ascii=False))
        return 0
    for r in verdict.rolls:
        who = verdict.before[r.actor].name if r.actor in verdict.before else r.actor
        print(f"  {who:<10} {r.purpose:<22} {r.formula}")
    print(verdict.summary)
    for uid, after in verdict.after.items():
        before = verdict.before[uid]
        print(f"  {after.name}: HP {before.hp} → {after.hp}, morale {before.morale} → {after.morale}, "
              f"stamina {after.stamina}, concussion {after.concussion}, {after.status}")
    return 0


def cmd_content_check(args: argparse.Namespace) -> int:
    from engine import loader

    directory = args.dir or args.content
    try:
        content = loader.load(directory)
    except loader.ContentError as exc:
        for message in exc.messages:
            print(message)
        print(f"{len(exc.messages)} problem(s)", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"content OK: {len(content.weapons)} weapons, {len(content.units)} units, {len(content.terrain)} tiles, "
          f"{len(content.missions)} missions (sha256 {content.sha256[:12]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
