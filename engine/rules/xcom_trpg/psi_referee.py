"""`xenotac resolve` for psi (7.2-7.6) and the human initiation (7.1): the same contest and effects as
in play, with no map (no range, no sight; a compulsion to retreat names no cell)."""

from __future__ import annotations

import attrs

from engine.content.models import Content, RulesetDef
from engine.core.dice import Dice
from engine.core.model import State, Unit
from engine.rules.xcom_trpg import buffs, psionics
from engine.rules.xcom_trpg.damage import Ledger
from engine.rules.xcom_trpg.psi_abilities import DEFAULT, parse
from engine.rules.xcom_trpg.psi_effects import apply, attack_bonus, revive, set_counter
from engine.content.scenario import Action, Verdict


@attrs.frozen
class _Table:
    """What the effects need of the ruleset, for a scene with no map."""

    content: Content
    rules: RulesetDef

    def _enterable(self, state: State, unit: Unit, cell: tuple[int, int]) -> bool:
        return False


def psi(content: Content, rules: RulesetDef, units: dict[str, Unit], action: Action, dice: Dice) -> Verdict:
    aid, detail, also = parse(action.ability or DEFAULT)
    a = content.psionics.get(aid)
    caster = units[action.actor]
    if a is None or not a.implemented:
        return Verdict([], units, {}, f"{caster.name}: no playable psi ability {aid!r}")
    if not psionics.is_active(caster):
        return Verdict([], units, {}, f"{caster.name}'s psionics are not awakened: no psi attack (7.1)")
    psi_now = caster.stats.get("psionics", 0)
    if psi_now < a.min_psi:
        return Verdict([], units, {}, f"{caster.name}: {a.name} needs Psionics {a.min_psi}, has {psi_now}")
    cost = a.cost + (a.overload_ss if also else 0) + action.overload
    ss = caster.counters.get("psi_ss")
    if ss is not None and ss < cost:
        return Verdict([], units, {}, f"{caster.name}: {a.name} needs {cost} SS, has {ss}")
    ledger = Ledger(units)
    if ss is not None:
        set_counter(ledger, caster.id, f"{a.name}: {cost} SS", psi_ss=ss - cost)
    table = _Table(content, rules)
    state = State(ruleset="xcom-trpg", mission="", grid=None, units=units)  # type: ignore[arg-type]
    ids = [t for t in [action.target, *action.targets] if t][:a.most_targets]
    targets = [units[t] for t in ids]
    head = f"{caster.name}: {a.name} ({cost} SS)"
    if a.effect == "revenant":
        return Verdict([], units, ledger.changes, f"{head} → {revive(table, ledger, caster, targets[0], a, action.overload)}")
    rolls, parts, won = [], [], [t for t in targets if t.side == caster.side]
    hostile = [t for t in targets if t.side != caster.side]
    if hostile:
        me = psionics.mind(caster)
        atk = psionics.attack(dice, me, attack_bonus(a, action.overload))
        rolls.append(atk)
        for t in hostile:
            if buffs.immune_to_minds(t):
                parts.append(f"{t.name} is immune (3.5)")
                continue
            ok, more = psionics.defend(dice, rules, atk, me, psionics.mind(t))
            rolls += more
            parts.append(f"{atk.total} {'>' if ok else 'vs'} {t.name} {more[0].total}" + ("" if ok else ": resists"))
            if ok:
                won.append(t)
    for t in won:
        text, more = apply(table, state, ledger, caster, ledger.unit(t.id), a, action.overload, detail, dice)
        rolls += more
        parts.append(text)
    return Verdict(rolls, units, ledger.changes, f"{head} → " + "; ".join(parts))


def initiation(content: Content, rules: RulesetDef, units: dict[str, Unit], action: Action, dice: Dice) -> Verdict:
    unit = units[action.actor]
    if not content.races[unit.race].psi_locked:
        return Verdict([], units, {}, f"{unit.name}: a {unit.race}'s psionics need no initiation (7.1)")
    if unit.stats.get("psionics", 0) < 1:
        return Verdict([], units, {}, f"{unit.name}: initiation needs at least 1 point in Psionics (7.1)")
    result = psionics.initiation(dice, rules, unit.id, unit.stats)
    ledger = Ledger(units)
    ledger.set(unit.id, result.text, stats=result.stats)
    if result.awakened:
        set_counter(ledger, unit.id, "psionics awakened", psi_active=1)
    return Verdict([result.roll], units, ledger.changes, f"{unit.name}: {result.text}")
