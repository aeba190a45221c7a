"""`resolve --trials N`: the same situation resolved N times from one seed, reported as odds."""

from __future__ import annotations

from typing import Any

from engine.content.models import Content
from engine.core.dice import Dice
from engine.core.ruleset import make
from engine.content.scenario import Scenario, make_units, seeded


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
        for uid, changed in verdict.changes.items():
            before = units[uid]
            lost = before.hp - changed.get("hp", before.hp)
            status = changed.get("status", before.status)
            hp_lost[uid] += lost
            morale_lost[uid] += before.morale - changed.get("morale", before.morale)
            if status == "dead":
                dead[uid] += 1
            elif status == "unconscious" and before.status == "active":
                out[uid] += 1
            if lost > 0 or status != before.status:
                hit[uid] += 1
    return {"ruleset": sc.ruleset, "trials": n, "seed": seed,
            "units": {uid: {"p_hit": hit[uid] / n, "mean_hp_lost": hp_lost[uid] / n, "p_dead": dead[uid] / n,
                            "p_unconscious": out[uid] / n, "mean_morale_lost": morale_lost[uid] / n}
                      for uid in units}}
