"""`resolve --trials N`: the same situation resolved N times from one seed, reported as odds.

The situation is first put to the ruleset's referee once, so a situation the game refuses is refused here with
the game's code and reason. A ruleset may offer a fast plan for an action (`trial_plan(units, action)`,
xcom-trpg: a plain shot): the same outcomes from the same dice without the rolls' texts and ledgers no one reads
here. Either way the trials come back as (changes, count) pairs and are tallied alike; tests/test_trials.py holds
the two paths equal.
"""

from __future__ import annotations

from typing import Any

from engine.content.models import Content
from engine.content.scenario import Scenario, make_units, seeded
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.ruleset import make


def run(content: Content, sc: Scenario, n: int, seed: int, fast: bool = True) -> dict[str, Any] | Rejected:
    faces = seeded(seed)
    units, _rolls = make_units(content, sc, Dice(faces))
    rules = make(sc.ruleset, content, None)
    first = rules.referee(units, sc.action, Dice(faces))
    if isinstance(first, Rejected):
        return first
    planned = rules.trial_plan(units, sc.action) if fast else None
    if planned is not None:
        outcomes = planned.run(faces, n)
    else:
        dice = Dice(faces)
        outcomes = [(rules.referee(units, sc.action, dice).changes, 1) for _ in range(n)]
    return tally(sc, units, outcomes, n, seed)


def tally(sc: Scenario, units, outcomes, n: int, seed: int) -> dict[str, Any]:
    hit = dict.fromkeys(units, 0)
    hp_lost = dict.fromkeys(units, 0)
    dead = dict.fromkeys(units, 0)
    out = dict.fromkeys(units, 0)
    morale_lost = dict.fromkeys(units, 0)
    for changes, times in outcomes:
        for uid, changed in changes.items():
            before = units[uid]
            lost = before.hp - changed.get("hp", before.hp)
            status = changed.get("status", before.status)
            hp_lost[uid] += lost * times
            morale_lost[uid] += (before.morale - changed.get("morale", before.morale)) * times
            if status == "dead":
                dead[uid] += times
            elif status == "unconscious" and before.status == "active":
                out[uid] += times
            if lost > 0 or status != before.status:
                hit[uid] += times
    return {"ruleset": sc.ruleset, "trials": n, "seed": seed,
            "units": {uid: {"p_hit": hit[uid] / n, "mean_hp_lost": hp_lost[uid] / n, "p_dead": dead[uid] / n,
                            "p_unconscious": out[uid] / n, "mean_morale_lost": morale_lost[uid] / n}
                      for uid in units}}
