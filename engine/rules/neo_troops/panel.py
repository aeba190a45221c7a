"""What the client shows of neo-troops: the unit panel (AV, save, HP, skills, systems, criticals taken) and the
targeting panel's exact distribution of hits and unsaved hits for the pool about to be rolled."""

from __future__ import annotations

import textwrap

from engine.core.ruleset import Row, Sheet
from engine.rules.neo_troops import movement, odds, pools
from engine.rules.neo_troops.schema import Settings
from engine.rules.neo_troops.unit import Trooper


def sheet(t: Trooper, s: Settings) -> Sheet:
    move, run = movement.speeds(t, s)
    save = f"{t.save_now}+" if t.save_now is not None else "none"
    rows = [Row("HP", f" {t.hp}/{t.hp_max} ", t.hp, t.hp_max, "" if t.status == "active" else t.status),
            Row("AV", f" {t.av} "), Row("Save", f" {save} "),
            Row("Skills", f" Acc {t.accuracy_now} · Fig {t.fighter} · Per {t.perception_now} "),
            Row("Speed", f" move {move} m · run {run} m ")]
    systems = [name if state == "working" else f"{name} {state}"
               for name, state in (("cloak", t.cloak), ("mapping", t.mapping)) if state]
    if t.varan:
        systems.append("head" if t.head == "working" else f"head {t.head}")
    if systems:
        rows.append(Row("Systems", " " + " · ".join(systems) + " ",
                        alert="damaged" if any(" " in x for x in systems) else ""))
    effects = []
    if t.severe_wounds:
        effects.append(f"severe wound ×{t.severe_wounds}")
    if t.bleeding is not None:
        effects.append(f"bleeding {t.bleeding}/{s.bleed_turns}")
    if t.armour_hits:
        effects.append("armour destroyed" if t.save_now is None else "armour damaged")
    effects += [f"{limb} lost" for limb in t.limbs_lost]
    effects += [f"{p.id} {p.state}" for p in t.parts if p.state != "working"]
    return Sheet(rows=tuple(rows), effects=tuple(effects))


def odds_rows(base: int, mods: pools.Mods, av: int, save: int | None, save_mod: int,
              per_hit: int = 1) -> tuple[tuple[Row, ...], float, float]:
    """(rows, chance of at least one unsaved hit, expected unsaved hits) for one target."""
    n, how = pools.count(mods)
    hit = odds.hits(base, n, av)
    through = odds.unsaved(hit, save, save_mod, per_hit)
    p_any = float(1 - through.get(0, 0))
    rows = (Row("Dice", f" {how}{' (2, the lower)' if n <= 0 else ''} vs AV {av} "),
            Row("Hits", f" {odds.shown(hit)} "), Row("Unsaved", f" {odds.shown(through)} "))
    return rows, p_any, float(odds.mean(through))


DICE_COLUMNS = 25  # a row's text (its leading space too) beside its label ("Dice ") in the panel's 30 columns


def dice_rows(mods: pools.Mods, av: int) -> tuple[Row, ...]:
    """`Dice n=4+1 accuracy=5 vs AV 4` when it fits the panel; else the count and the AV, then how it was reached
    on a row of its own (`From 4+1 accuracy-1 combined`), so neither wraps."""
    n, how = pools.count(mods)
    low = " (2, the lower)" if n <= 0 else ""
    whole = f" {how}{low} vs AV {av} "
    if len(whole.rstrip()) <= DICE_COLUMNS or "=" not in how[2:]:
        return (Row("Dice", whole),)
    spelled = textwrap.wrap(how[2:].rsplit("=", 1)[0], DICE_COLUMNS - 1)  # between the modifiers' words
    return (Row("Dice", f" n={n}{': 2d6, lower' if n <= 0 else ''} vs AV {av} "),
            *(Row("From" if i == 0 else "    ", f" {part} ") for i, part in enumerate(spelled)))
