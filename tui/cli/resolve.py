"""`xenotac resolve`: the referee's calculator for one described situation."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.core.commands import Rejected
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
        if isinstance(result, Rejected):
            return refused(result, sc.ruleset, args.json)
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
    if isinstance(verdict, Rejected):
        return refused(verdict, sc.ruleset, args.json)
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


def refused(no, ruleset: str, as_json: bool) -> int:
    """The game refuses the situation: its code and reason, as play gives them."""
    if as_json:
        print(json.dumps({"ruleset": ruleset, "rejected": {"code": no.code, "reason": no.reason}}, indent=2,
                         ensure_ascii=False))
        return 1
    raise BadInput(f"refused ({no.code}): {no.reason}")
