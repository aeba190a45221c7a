"""Sections 16–17: one hit, in the order the spec's vectors roll it: the armour save, the external-equipment
roll, then for an unsaved hit −1 HP and one critical roll (§18, criticals.py)."""

from __future__ import annotations

from typing import Literal

import attrs

from engine.core.dice import Dice, Roll
from engine.rules.neo_troops import criticals
from engine.rules.neo_troops.unit import Trooper

SaveKind = Literal["roll", "none", "harmless"]


def save_needed(save: int | None, save_mod: int) -> tuple[SaveKind, int | None]:
    """N-16.3: required = save − weapon save modifier; 7 or more cannot save, 1 or less cannot be harmed."""
    if save is None:
        return "none", None
    required = save - save_mod
    if required >= 7:
        return "none", required
    if required <= 1:
        return "harmless", required
    return "roll", required


@attrs.frozen
class Hit:
    target: Trooper  # after the hit
    rolls: tuple[Roll, ...]
    saved: bool
    harmless: bool  # the weapon cannot harm this target: nothing rolled, nothing changed
    effects: tuple[str, ...]


def save_roll(dice: Dice, t: Trooper, required: int) -> Roll:
    face, index = dice.d(6, t.id, "save")
    mark = "✓ saved" if face >= required else "✗"
    return Roll(actor=t.id, purpose="save", expr="1d6", faces=(face,),
                formula=f"save {t.save_now}+ needs {required}: 1d6={face} {mark}", total=face, index=index)


def hit(dice: Dice, t: Trooper, save_mod: int, tables: dict) -> Hit:
    """One hit on `t` by a weapon with `save_mod`; the dead take no more rolls."""
    if t.status == "dead":
        return Hit(t, (), False, False, ())
    kind, required = save_needed(t.save_now, save_mod)
    if kind == "harmless":
        return Hit(t, (), True, True, (f"save {t.save_now}+ needs {required}: the weapon cannot harm it",))
    rolls: list[Roll] = []
    saved = False
    effects: list[str] = []
    if kind == "roll":
        assert required is not None
        rolls.append(save_roll(dice, t, required))
        saved = rolls[-1].total >= required
    elif required is not None:
        effects.append(f"save {t.save_now}+ needs {required}: no save possible")
    t, more, said = criticals.external(dice, t, tables["settings"]["default"])
    rolls += more
    effects += [said] if said else []
    if saved:
        return Hit(t, tuple(rolls), True, False, tuple(effects))
    t, said = criticals.lose_hp(t)
    effects.append(said)
    if t.status != "dead":  # nothing is left to roll for on the dead
        crit = criticals.critical(dice, t, tables)
        t, rolls, effects = crit.target, rolls + list(crit.rolls), effects + list(crit.effects)
    return Hit(t, tuple(rolls), False, False, tuple(effects))


def hits(dice: Dice, t: Trooper, count: int, save_mod: int, tables: dict) -> list[Hit]:
    """N-16.1: several hits, each saved separately, in turn."""
    out = []
    for _ in range(count):
        one = hit(dice, t, save_mod, tables)
        out.append(one)
        t = one.target
    return out


def apply(dice: Dice, hits_on: dict[str, int], troopers: dict[str, Trooper], save_mod: int,
          tables: dict) -> tuple[dict[str, Trooper], list[Hit]]:
    """§21 step 5 for a whole attack: each target's hits in the attack's target order, one after another."""
    after = dict(troopers)
    done: list[Hit] = []
    for target_id, count in hits_on.items():
        got = hits(dice, after[target_id], count, save_mod, tables)
        done += got
        if got:
            after[target_id] = got[-1].target
    return after, done
