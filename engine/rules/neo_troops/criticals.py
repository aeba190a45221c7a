"""Section 18: the generic and varan critical damage tables (as data, criticals.toml) and their stacking."""

from __future__ import annotations

import attrs

from engine.core import records
from engine.core.dice import Dice, Roll
from engine.rules.neo_troops import pools
from engine.rules.neo_troops.schema import EFFECTS, Settings
from engine.rules.neo_troops.unit import Trooper, worse


@attrs.frozen
class Crit:
    target: Trooper  # after the effect
    rolls: tuple[Roll, ...]
    effects: tuple[str, ...]  # in words, for the log: "head damaged", "severe wound", "bio_scanner destroyed"


def _mark(face: int, need: int) -> str:
    return f">={need} {'✓' if face >= need else '✗'}"


def pick(dice: Dice, actor: str, what: str, choices: list[str]) -> tuple[str | None, tuple[Roll, ...]]:
    """A random choice among `choices`, logged as 1dk (no roll for a single choice)."""
    if len(choices) <= 1:
        return (choices[0] if choices else None), ()
    roll = pools.die(dice, len(choices), actor, f"random {what}",
                lambda f: f"random {what} 1d{len(choices)}={f} → {choices[f - 1]}")
    return choices[roll.total - 1], (roll,)


def lose_hp(t: Trooper, amount: int = 1) -> tuple[Trooper, str]:
    """N-17.1–N-17.2: non-varans die at 0 HP; a varan is incapacitated at 0, and more damage then kills it."""
    if t.status == "dead":
        return t, ""
    if t.varan and t.status == "incapacitated":
        return records.evolve(t, {"hp": 0, "status": "dead"}), "killed"
    hp = max(0, t.hp - amount)
    if hp > 0:
        return records.evolve(t, {"hp": hp}), f"HP {t.hp}→{hp}"
    if t.varan:
        return records.evolve(t, {"hp": 0, "status": "incapacitated"}), f"HP {t.hp}→0, incapacitated"
    return records.evolve(t, {"hp": 0, "status": "dead"}), f"HP {t.hp}→0, dead"


def _worse_part(t: Trooper, part: str) -> Trooper:
    parts = tuple(attrs.evolve(p, state=worse(p.state)) if p.id == part else p for p in t.parts)
    return attrs.evolve(t, parts=parts)


def _state(t: Trooper, part: str) -> str:
    found = t.part(part)
    return found.state if found is not None else ""


def _destroy(t: Trooper, part: str) -> Trooper:
    parts = tuple(attrs.evolve(p, state="destroyed") if p.id == part else p for p in t.parts)
    return attrs.evolve(t, parts=parts, held=tuple(h for h in t.held if h != part))


def _lose_limb(t: Trooper, limb: str) -> tuple[Trooper, str]:
    """An arm drops what its hand holds (the right hand holds the first held weapon, the left the second)."""
    t = attrs.evolve(t, limbs_lost=t.limbs_lost + (limb,))
    hand = {"right_arm": 0, "left_arm": 1}.get(limb)
    if hand is not None and hand < len(t.held):
        dropped = t.held[hand]
        held = tuple(h for i, h in enumerate(t.held) if i != hand)
        return attrs.evolve(t, held=held), f"{limb} lost, {dropped} dropped"
    return t, f"{limb} lost"


def _bleed(t: Trooper) -> Trooper:
    """N-19.3: a second bleeding wound does not reset the timer."""
    return t if t.bleeding is not None else attrs.evolve(t, bleeding=0)


def _apply(dice: Dice, t: Trooper, effect: str, tables: dict) -> tuple[Trooper, tuple[Roll, ...], str]:
    s: Settings = tables["settings"]["default"]
    if effect == "extra_damage":
        t, said = lose_hp(t)
        return t, (), f"+1 damage: {said}"
    if effect == "out":
        if t.varan:
            return attrs.evolve(t, hp=0, status="incapacitated"), (), "out of the fight: incapacitated"
        return attrs.evolve(t, hp=0, status="dead"), (), "out of the fight: dead"
    if effect == "killed":
        return attrs.evolve(t, hp=0, status="dead"), (), "killed"
    if effect == "incapacitated":
        return _bleed(attrs.evolve(t, hp=0, status="incapacitated")), (), "incapacitated, bleeding"
    if effect in ("cloak", "mapping"):
        now = worse(getattr(t, effect))
        return attrs.evolve(t, **{effect: now}), (), f"{effect} {now}" if now else f"{effect}: none fitted"
    if effect == "head":
        t = attrs.evolve(t, head_hits=t.head_hits + 1)
        return t, (), f"head {t.head}"
    if effect == "save":
        if t.save is None:
            return t, (), "no armour to damage"
        t = attrs.evolve(t, armour_hits=t.armour_hits + 1)
        return t, (), f"armour save {t.save_now}+" if t.save_now is not None else "armour destroyed"
    if effect == "component":  # generic 1–3: a held weapon, an accessory or a limb
        parts = [h for h in t.held] + [p.id for p in t.parts if p.kind in ("accessory", "external")
                                       and p.state != "destroyed"]
        choices = parts + [limb for limb in s.limbs if limb not in t.limbs_lost]
        chosen, rolls = pick(dice, t.id, "component", choices)
        if chosen is None:
            return t, rolls, "nothing left to damage"
        if chosen in s.limbs:
            t, said = _lose_limb(t, chosen)
            return t, rolls, said
        return _destroy(t, chosen), rolls, f"{chosen} unusable"
    if effect in ("accessory", "weapon"):
        kinds = ("accessory",) if effect == "accessory" else ("weapon", "ammo")
        choices = [p.id for p in t.parts if p.kind in kinds and p.state != "destroyed"]
        chosen, rolls = pick(dice, t.id, effect, choices)
        if chosen is None:
            return t, rolls, f"no {effect} to damage"
        t = _worse_part(t, chosen) if effect == "accessory" else _destroy(t, chosen)
        return t, rolls, f"{chosen} {_state(t, chosen)}"
    assert effect == "severe", effect
    t = _bleed(attrs.evolve(t, severe_wounds=t.severe_wounds + 1))
    sever = pools.die(dice, 6, t.id, "limb severed?", lambda f: f"limb severed? 1d6={f}{_mark(f, s.sever_on)}")
    if sever.total < s.sever_on:
        return t, (sever,), "severe wound, bleeding"
    limbs = list(s.limbs)
    which = pools.die(dice, len(limbs), t.id, "which limb",
                      lambda f: f"which limb 1d{len(limbs)}={f} → {limbs[f - 1]}")
    if limbs[which.total - 1] in t.limbs_lost:
        return t, (sever, which), "severe wound, bleeding"
    t, said = _lose_limb(t, limbs[which.total - 1])
    return t, (sever, which), f"severe wound, bleeding, {said}"


def critical(dice: Dice, t: Trooper, tables: dict) -> Crit:
    """N-17.3: one d6 on the target's table; a face naming a table rolls again there, unless that table's
    `repeat` applies (a second massive wound kills, N-18.2). The content check refuses tables that loop."""
    crits = tables["criticals"]
    table, rolls, effects = t.crit_table, [], []
    while True:
        entry = crits[table]
        if entry.repeat and table in t.tables_rolled:
            t, more, said = _apply(dice, t, entry.repeat, tables)
            return Crit(t, tuple(rolls) + more, tuple(effects) + (f"{table} again: {said}",))
        if entry.repeat:
            t = attrs.evolve(t, tables_rolled=t.tables_rolled + (table,))
        roll = pools.die(dice, 6, t.id, f"critical ({table})",
                         lambda f: f"critical {table} 1d6={f} → {entry.faces[f - 1]}")
        rolls.append(roll)
        face = entry.faces[roll.total - 1]
        if face not in EFFECTS:
            table = face
            continue
        t, more, said = _apply(dice, t, face, tables)
        return Crit(t, tuple(rolls) + more, tuple(effects) + (said,))


def external(dice: Dice, t: Trooper, s: Settings) -> tuple[Trooper, tuple[Roll, ...], str]:
    """N-16.4: once per hit, saved or not, for a target with external equipment: on a 6 a random external item
    is damaged, or destroyed if it already was."""
    carried = [p.id for p in t.parts if p.kind == "external" and p.state != "destroyed"]
    if not carried:
        return t, (), ""
    roll = pools.die(dice, 6, t.id, "external", lambda f: f"external 1d6={f}{_mark(f, s.external_on)}")
    if roll.total < s.external_on:
        return t, (roll,), ""
    chosen, more = pick(dice, t.id, "external item", carried)
    assert chosen is not None
    t = _worse_part(t, chosen)
    return t, (roll,) + more, f"{chosen} {_state(t, chosen)}"

