"""`xenotac resolve`: the referee's calculator for one described situation."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tui.cli.common import BadInput, at_most, dice_list, load_content, seed


def add_parser(sub) -> None:
    res = sub.add_parser("resolve", help="the referee's calculator for one situation")
    res.add_argument("scenario", metavar="SCENARIO.toml")
    res.add_argument("--dice", type=dice_list, metavar="88,93,10,...", help="the dice actually rolled, in order")
    res.add_argument("--seed", type=seed, default=1)
    res.add_argument("--trials", type=at_most(100_000, "trials"), metavar="N", help="resolve N times and report the odds")
    res.add_argument("--json", action="store_true")



def run(args: argparse.Namespace) -> int:
    from engine.content import loader
    from engine.content import scenario
    from engine.play import trials
    from engine.core.dice import DiceExhausted, Dice
    from engine.core.ruleset import make
    from engine.core.commands import Rejected

    content = load_content(args.content)
    try:
        sc = loader.load_scenario(args.scenario)
    except loader.ContentError as exc:
        raise BadInput("; ".join(exc.messages)) from None
    rules = make(sc.ruleset, content, None)
    problems = rules.check_scenario(sc)
    if problems:
        raise BadInput(f"{Path(args.scenario).name}: " + "; ".join(problems))
    if args.trials:
        if args.dice:
            raise BadInput("--dice and --trials do not mix: trials roll their own dice")
        result = trials.run(content, sc, args.trials, args.seed)
        if isinstance(result, Rejected):
            return refused(result, sc.ruleset, args.json)
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            print(f"{args.trials} trials, seed {args.seed}")
            for uid, odds in result["units"].items():
                means = [f"mean {_words(k)} {v:.2f}" for k, v in odds.items() if k.startswith("mean_")]
                print(f"  {uid}: hit {100 * odds['p_hit']:.1f}%, dead {100 * odds['p_dead']:.1f}%, "
                      f"unconscious {100 * odds['p_unconscious']:.1f}%, " + ", ".join(means))
                for category, shares in odds.get("outcomes", {}).items():  # the ruleset's own (trial_tally)
                    print(f"    {category}: " + ", ".join(f"{v} {100 * p:.1f}%" for v, p in shares.items()))
        return 0
    faces = scenario.seeded(args.seed)
    units, setup_rolls = rules.scenario_units(sc, Dice(faces))
    dice = Dice.scripted(args.dice) if args.dice else Dice(faces)
    try:
        verdict = rules.referee(units, sc.action, dice)
    except DiceExhausted as exc:
        raise BadInput(str(exc)) from None
    if isinstance(verdict, Rejected):
        return refused(verdict, sc.ruleset, args.json)
    if args.dice and dice.scripted_left:
        print(f"note: {dice.scripted_left} die/dice left unused", file=sys.stderr)
    rolls = setup_rolls + verdict.rolls
    reports = {uid: rules.unit_report(verdict.before[uid], after) for uid, after in verdict.after.items()}
    if args.json:
        print(json.dumps({"ruleset": sc.ruleset, "rolls": [_roll(r) for r in rolls],
                          "units": {uid: rep.numbers for uid, rep in reports.items()}, "summary": verdict.summary},
                         indent=2, ensure_ascii=False))
        return 0
    for r in rolls:
        who = verdict.before[r.actor].name if r.actor in verdict.before else r.actor
        print(f"  {who:<10} {r.purpose:<22} {r.formula}")
    print(verdict.summary)
    for rep in reports.values():
        print(f"  {rep.line}")
    return 0


def _words(key: str) -> str:
    """`mean_hp_lost` -> "HP lost", `mean_morale_lost` -> "morale lost"."""
    words = key.removeprefix("mean_").replace("_", " ")
    return "HP" + words[2:] if words.startswith("hp ") else words


def _roll(r) -> dict:
    return {"actor": r.actor, "purpose": r.purpose, "expr": r.expr, "faces": list(r.faces), "formula": r.formula,
            "total": r.total, "crit": r.crit}


def refused(no, ruleset: str, as_json: bool) -> int:
    """The game refuses the situation: its code and reason, as play gives them."""
    if as_json:
        print(json.dumps({"ruleset": ruleset, "rejected": {"code": no.code, "reason": no.reason}}, indent=2,
                         ensure_ascii=False))
        return 1
    raise BadInput(f"refused ({no.code}): {no.reason}")
