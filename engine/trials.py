"""`resolve --trials N`: the same situation resolved N times from one seed, reported as odds."""

from __future__ import annotations

from typing import Any

from engine.content import Content
from engine.dice import Dice
from engine.ruleset import make
from engine.scenario import Scenario, make_units, seeded


def run(content: Content, sc: Scenario, n: int, seed: int) -> dict[str, Any]:
    faces = seeded(seed)
    units, _rolls = make_units(content, sc, Dice(faces))
    dice = Dice(faces)
    rules = make(sc.ruleset, content, None)
    hit = {uid: 0 for uid in units}
    hp_lost = dict.fromkeys(units, 0)
    dead = dict.fromkeys(units, 0)
    out = dict.fromkeys(units, 0)
    morale_lost = dict.fromkeys(units, 0)
    for _ in range(n):
        verdict = rules.referee(units, sc.action, dice)
        for uid, after in verdict.after.items():
            if after is units[uid]:
                continue
            before = units[uid]
            lost = before.hp - after.hp
            hp_lost[uid] += lost
            morale_lost[uid] += before.morale - after.morale
            if after.status == "dead":
                dead[uid] += 1
            elif after.status == "unconscious" and before.status == "active":
                out[uid] += 1
            if lost > 0 or after.status != before.status:
                hit[uid] += 1
    return {"ruleset": sc.ruleset, "trials": n, "seed": seed,
            "units": {uid: {"p_hit": hit[uid] / n, "mean_hp_lost": hp_lost[uid] / n, "p_dead": dead[uid] / n,
                            "p_unconscious": out[uid] / n, "mean_morale_lost": morale_lost[uid] / n}
                      for uid in units}}
