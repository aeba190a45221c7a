"""The xcom-trpg verdict on a described situation (`xenotac resolve`), with no map."""

from __future__ import annotations

from engine.content.models import COVER_LEVEL, Content
from engine.core.dice import Dice
from engine.core.model import Unit
from engine.rules.xcom_trpg import combat, sniper, tranquilizer
from engine.rules.xcom_trpg.checks import plain_roll
from engine.rules.xcom_trpg.damage import Ledger, apply_crits, apply_hits
from engine.content.scenario import Action, Verdict


def referee(content: Content, ruleset_id: str, units: dict[str, Unit], action: Action, dice: Dice) -> Verdict:
    from engine.rules.xcom_trpg.hooks import REFEREES  # the table imports the rule modules this one uses

    rules = content.rulesets[ruleset_id]
    if action.type in REFEREES:
        return REFEREES[action.type](content, rules, units, action, dice)
    if action.type not in ("shoot", "throw"):
        raise ValueError(f"no referee for {action.type!r}")
    actor, target = units[action.actor], units[action.target or ""]
    ledger = Ledger(units)
    if action.type == "shoot":
        weapon = content.weapons[actor.weapon]
        mode = weapon.modes[action.mode]
        if action.cover == "full":
            return Verdict([], units, {}, f"{actor.name} → {target.name}: no hit possible (full cover, 8.8)")
        if weapon.max_between is not None and action.sectors_between > weapon.max_between:
            return Verdict([], units, {}, f"{actor.name} → {target.name}: out of range "
                                             f"({weapon.name.lower()} is useless beyond {weapon.max_between} "
                                             f"sectors between)")
        if mode.sniper:
            return sniper.referee(content, rules, units, action, dice)
        if weapon.darts:
            return tranquilizer.referee(content, rules, units, action, dice)
        outcome = combat.resolve_shot(content, rules, dice, actor, target, weapon, mode,
                                      between=action.sectors_between, target_sees=action.target_sees_actor,
                                      cover=COVER_LEVEL[action.cover])
        return Verdict(outcome.rolls, units, shot_changes(rules, units, actor, weapon, mode, outcome),
                       outcome.summary)
    item = action.item or next(i for i in actor.items if i in content.weapons and content.weapons[i].thrown)
    weapon = content.weapons[item]
    throw = combat.throw_roll(content, rules, dice, actor, weapon, target)
    rolls = list(throw.rolls)
    if not throw.landed:
        rolls.append(plain_roll(dice, actor.id, "scatter", 8, "scatter"))
        apply_crits(ledger, rules, throw.crits)
        return Verdict(rolls, units, ledger.changes, f"{actor.name}: the {weapon.name.lower()} goes astray "
                                                   f"(scatter {rolls[-1].total}) and hits nobody listed")
    victims = [(units[uid], action.sectors_between, action.target_sees_actor if uid == target.id else True)
               for uid in [target.id, *action.bystanders]]
    head = target if throw.attack.crit == "success" else None
    hits, more, crits = combat.blast(content, rules, dice, actor, weapon, throw, head, victims)
    rolls += more
    for uid, kinds in throw.crits.items():
        crits.setdefault(uid, []).extend(kinds)
    apply_crits(ledger, rules, crits)
    apply_hits(ledger, rules, actor.id, combat.Outcome(rolls, hits, "hit", "", crits), pellets=False)
    parts = [f"{units[h.target].name} {'killed by a head-strike' if h.kind == 'kill' else f'{h.damage} dmg'}"
             + (f" +{h.concussion} concussion" if h.concussion else "") for h in hits]
    return Verdict(rolls, units, ledger.changes, f"{actor.name}: {weapon.name.lower()} explodes: "
                                               + (", ".join(parts) if parts else "nobody hurt"))


def shot_changes(rules, units: dict[str, Unit], actor: Unit, weapon, mode, outcome: combat.Outcome) -> dict:
    """What a shot's outcome does to the units: the referee's verdict and the trials fast path share it."""
    ledger = Ledger(units)
    stamina = actor.stamina - (0 if actor.infinite_stamina else mode.stamina)
    ledger.set(actor.id, "fires", stamina=stamina, ammo=max(0, actor.ammo - mode.shots))
    apply_crits(ledger, rules, outcome.crits)
    apply_hits(ledger, rules, actor.id, outcome, pellets=weapon.pellets > 1)
    return ledger.changes
