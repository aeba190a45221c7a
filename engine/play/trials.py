"""`resolve --trials N`: the same situation resolved N times from one seed, reported as odds.

The situation is first put to the ruleset's referee once, so a situation the game refuses is refused here with
the game's code and reason. A ruleset may offer a fast plan for an action (`trial_plan(units, action)`,
every ruleset: its plain shot): the same outcomes from the same dice without the rolls' texts and ledgers no one
reads here. Either way the trials come back as (verdict, count) pairs and are tallied alike: the kernel's numbers
(hurt, dead, the means of every `*_lost`) and the ruleset's own categories (`trial_tally`: xxxzone's outcome,
annihilation's hits, damage and wounds by body part, neo-troops' hits, unsaved hits and criticals), each as the
share of trials per value. tests/test_trials*.py hold the two paths equal.
"""

from __future__ import annotations

from typing import Any

from engine.content.models import Content
from engine.content.scenario import seeded
from engine.core.model import Unit, replace
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.ruleset import make


def run(content: Content, sc: Any, n: int, seed: int, fast: bool = True) -> dict[str, Any] | Rejected:
    """`sc`: a scenario of its ruleset's own model (engine.content.loader.load_scenario)."""
    faces = seeded(seed)
    rules = make(sc.ruleset, content, None)
    units, _rolls = rules.scenario_units(sc, Dice(faces))
    first = rules.referee(units, sc.action, Dice(faces))
    if isinstance(first, Rejected):
        return first
    planned = rules.trial_plan(units, sc.action) if fast else None
    if planned is not None:
        outcomes = planned.run(faces, n)
    else:
        dice = Dice(faces)
        outcomes = ((rules.referee(units, sc.action, dice), 1) for _ in range(n))
    return tally(rules, sc, units, outcomes, n, seed)


def tally(rules, sc: Any, units: dict[str, Unit], outcomes, n: int, seed: int) -> dict[str, Any]:
    """Per unit: how often it was hurt (HP lost or a new status), killed, knocked out, the mean of every number
    the ruleset's report counts as lost (`hp_lost`, `morale_lost`, ...), how often each thing the report says it
    took happened (`took_minor` 0 or 1 gives `p_minor`; a unit that took anything was hit), and under `outcomes`
    the share of trials per value of each category the ruleset tallies (left out when it tallies none)."""
    lost_keys = {uid: [k for k, v in rules.unit_report(u, u).numbers.items() if k.endswith("_lost") and isinstance(v, int)]
                 for uid, u in units.items()}
    took_keys = {uid: [k for k in rules.unit_report(u, u).numbers if k.startswith("took_")] for uid, u in units.items()}
    counts = {uid: {"p_hit": 0, "p_dead": 0, "p_unconscious": 0, **{f"mean_{k}": 0 for k in lost_keys[uid]},
                    **{f"p_{k[5:]}": 0 for k in took_keys[uid]}}
              for uid in units}
    shares: dict[str, dict[str, dict[str, int]]] = {}
    for verdict, times in outcomes:
        for uid, cats in rules.trial_tally(sc.action, verdict).items():
            for cat, value in cats.items():
                per = shares.setdefault(uid, {}).setdefault(cat, {})
                per[str(value)] = per.get(str(value), 0) + times
        for uid, changed in verdict.changes.items():
            before = units[uid]
            after = replace(before, changed)
            numbers = rules.unit_report(before, after).numbers
            c = counts[uid]
            for k in lost_keys[uid]:
                c[f"mean_{k}"] += numbers[k] * times
            for k in took_keys[uid]:
                c[f"p_{k[5:]}"] += (1 if numbers[k] else 0) * times
            if after.status == "dead":
                c["p_dead"] += times
            elif after.status == "unconscious" and before.status == "active":
                c["p_unconscious"] += times
            if after.hp < before.hp or after.status != before.status or any(numbers[k] for k in took_keys[uid]):
                c["p_hit"] += times
    out = {uid: {k: v / n for k, v in c.items()} for uid, c in counts.items()}
    for uid, cats in shares.items():
        out[uid]["outcomes"] = {cat: {v: k / n for v, k in sorted(per.items(), key=_order)} for cat, per in cats.items()}
    return {"ruleset": sc.ruleset, "trials": n, "seed": seed, "units": out}


def _order(item: tuple[str, int]) -> tuple:
    """Numbers in numeric order, words as the ruleset's tally gave them first."""
    value = item[0]
    return (0, int(value), "") if value.lstrip("-").isdigit() else (1, 0, "")
