"""xcom-trpg 7.3-7.6 in play: `Act(unit, "psi", option=<ability id>, target= | targets=, amount=<overload>)`,
gather thoughts, meditation, and the psi entries of the action menu.

`option` may carry a detail after a colon: `compulsion:retreat` (hold | retreat | drop), `buff:strength`;
`compulsion+oblivion` is the combination (7.6). For psi-location `amount` is the radius R, not an overload.
With no option the attack is psi-communication (7.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.core.commands import Act, Combo, Move, Rejected, Shoot, Throw
from engine.rules.xcom_trpg.models import PsiAbility
from engine.core.dice import Dice, Roll
from engine.core.events import Event, Resolved
from engine.map.grid import distance
from engine.core.model import State, Unit
from engine.rules.xcom_trpg import buffs, psi_effects, psionics
from engine.rules.xcom_trpg.contest import god_roll
from engine.rules.xcom_trpg.damage import Ledger
from engine.rules.xcom_trpg.psi_effects import ORDERS, apply, attack_bonus, revive, set_counter
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg

RANGE = 15  # 7.4 interpretation: psi-communication's range for every targeted ability
DEFAULT = "psi_communication"
LOCATION_RADIUS = 3  # the menu's psi-location radius


@attrs.frozen
class Plan:
    ability_id: str
    ability: PsiAbility
    caster: Unit
    targets: tuple[Unit, ...]
    overload: int
    cost: int
    detail: str  # the compulsion order, the buffed stat
    also: str = ""  # the combined ability (compulsion+oblivion)

    @property
    def spent(self) -> int:
        return self.cost + self.overload


def parse(option: str | None) -> tuple[str, str, str]:
    """`compulsion:retreat` -> (compulsion, retreat, ""); `compulsion+oblivion` -> (compulsion, hold, oblivion)."""
    ability, _, detail = (option or DEFAULT).partition(":")
    first, _, also = ability.partition("+")
    return first, detail, also


def plan(rs: "XcomTrpg", state: State, cmd: Act, check_turn: bool = True) -> Plan | Rejected:
    caster = rs._actor(state, cmd.unit, 1) if check_turn else state.units.get(cmd.unit)  # noqa: SLF001
    if isinstance(caster, Rejected):
        return caster
    if caster is None:
        return Rejected("unknown_unit", f"There is no unit {cmd.unit!r}")
    aid, detail, also = parse(cmd.option)
    abilities = xcom(rs.content).psionics
    a = abilities.get(aid)
    if a is None:
        return Rejected("unknown_ability", f"No psi ability {aid!r}; known: {', '.join(abilities) or 'none'}")
    if not a.implemented:
        return Rejected("not_implemented", f"{a.name} is a placeholder in the rules (N/A in table 7.5)")
    if also and (a.combines_with != also):
        return Rejected("no_combination", f"{a.name} does not combine with {also!r} (7.6)")
    if not psionics.is_active(caster):
        return Rejected("psi_inactive", f"{caster.name}'s psionics are not awakened (7.1)")
    problem = _caster_problem(rs, caster, aid, a) or (_caster_problem(rs, caster, also, abilities[also]) if also else None)
    if problem:
        return problem
    overload = 0 if a.effect == "location" else cmd.amount
    if overload < 0:
        return Rejected("bad_overload", "Overload is a number of SS, 0 or more")
    if overload and a.overload in ("none", "combo"):
        return Rejected("no_overload", f"{a.name} takes no overload (7.5)")
    cost = a.cost + (a.overload_ss if also else 0)
    if a.effect == "location":
        if cmd.amount < 1:
            return Rejected("no_radius", "Psi-location needs a radius of 1 cell or more (amount)")
        cost += a.cost_per_radius * cmd.amount
        detail = str(cmd.amount)
    ss = soldier(caster).psi_ss
    if ss < cost + overload:
        return Rejected("no_ss", f"{a.name} needs {cost}" + (f"+{overload}" if overload else "")
                        + f" SS; {caster.name} has {ss}")
    if "compulsion" in (a.effect, abilities[also].effect if also else ""):
        detail = detail or "hold"
        if detail not in ORDERS:
            return Rejected("bad_order", f"A compulsion orders {', '.join(ORDERS)}, not {detail!r}")
    if a.effect == "buff":
        detail = detail or "agility"
        if detail not in psi_effects.BUFFABLE:
            return Rejected("bad_stat", f"Buff raises agility or strength, not {detail!r}")
    targets = _targets(rs, state, caster, a, cmd)
    if isinstance(targets, Rejected):
        return targets
    return Plan(aid, a, caster, targets, overload, cost, detail, also)


def _caster_problem(rs: "XcomTrpg", caster: Unit, aid: str, a: PsiAbility) -> Rejected | None:
    race = caster.race
    if (a.casters and race not in a.casters) or race in a.barred:
        who = f"only {', '.join(a.casters)}" if a.casters else f"not {', '.join(a.barred)}"
        return Rejected("wrong_race", f"{a.name}: {who} may cast it, and {caster.name} is a {race} (7.6)")
    psi = soldier(caster).stats.get("psionics", 0)
    if psi < a.min_psi:
        return Rejected("min_psi", f"{a.name} needs Psionics {a.min_psi}; {caster.name} has {psi}")
    left = soldier(caster).psi_cd.get(aid, 0)
    if left:
        return Rejected("cooldown", f"{a.name} is cooling down: {caster.name} can use it again in {left} turn(s)")
    return None


def _targets(rs: "XcomTrpg", state: State, caster: Unit, a: PsiAbility, cmd: Act) -> tuple[Unit, ...] | Rejected:
    if a.target in ("area", "self"):
        return ()
    ids = tuple(cmd.targets) or ((cmd.target,) if cmd.target else ())
    if not ids:
        return Rejected("no_target", f"{a.name} needs a target")
    if len(ids) > a.most_targets:
        return Rejected("too_many_targets", f"{a.name} takes at most {a.most_targets} target(s), not {len(ids)}")
    if len(set(ids)) != len(ids):
        return Rejected("same_target", "A target is named twice")
    seen = rs.visible(state, caster.side)
    out = []
    for uid in ids:
        t = state.units.get(uid)
        if t is None:
            return Rejected("unknown_unit", f"There is no unit {uid!r}")
        if t.id == caster.id:
            return Rejected("self_target", f"{a.name} cannot target its caster")
        if a.target == "corpse":
            if t.status != "dead":
                return Rejected("not_a_corpse", f"{a.name} raises the dead; {t.name} is {t.status}")
            if soldier(t).psi_revenant:
                return Rejected("twice_dead", f"{t.name} has already risen once")
        elif t.status != "active":
            return Rejected(t.status, f"{t.name} is {t.status}")
        if a.target == "friendly" and t.side != caster.side:
            return Rejected("not_friendly", f"{a.name} works on friends; {t.name} is not one")
        if a.target == "hostile" and t.side == caster.side:
            return Rejected("not_hostile", f"{a.name} is cast on an enemy; {t.name} is on your side")
        if xcom(rs.content).races[t.race].robot and a.effect != "communication":
            return Rejected("no_mind", f"{t.name} is a machine: there is no mind to reach")
        if a.effect == "mind_control" and soldier(t).psi_mc_by:
            return Rejected("already_controlled", f"{t.name} is already mind-controlled")
        if a.effect == "mind_control" and t.side not in psi_effects.SIDES:
            return Rejected("no_control", f"{t.name}'s side cannot be taken over")
        d = distance(caster.pos, t.pos)
        if d > RANGE:
            return Rejected("out_of_range", f"{t.name} is {d} cells away; psi reaches {RANGE} (7.4)")
        if not seen[t.pos[1], t.pos[0]]:
            return Rejected("unseen", f"{caster.name}'s side neither sees {t.name} nor knows where it is")
        out.append(t)
    return tuple(out)


def act_psi(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    p = plan(rs, state, cmd)
    if isinstance(p, Rejected):
        return p
    return cast(rs, state, p, dice)


def cast(rs: "XcomTrpg", state: State, p: Plan, dice: Dice) -> list[Event]:
    a, caster = p.ability, p.caster
    ledger = Ledger(state.units)
    ss = soldier(caster).psi_ss
    label = a.name + (f" + {xcom(rs.content).psionics[p.also].name}" if p.also else "")
    spent = f"{p.cost} SS" + (f" + {p.overload} overload" if p.overload else "")
    cooling = {i: xcom(rs.content).psionics[i].cooldown + 1 for i in (p.ability_id, p.also)
               if i and xcom(rs.content).psionics[i].cooldown}
    cds: dict[str, object] = {"psi_cd": {**soldier(caster).psi_cd, **cooling}} if cooling else {}
    drug = soldier(caster).tranq_psi_bonus if soldier(caster).tranq_psi_left > 0 else 0
    if drug:  # 8.12.4: a drugged sectoid's next psi actions, whatever they are
        left = soldier(caster).tranq_psi_left - 1
        cds.update(tranq_psi_left=left, tranq_psi_bonus=soldier(caster).tranq_psi_bonus if left else 0)
    set_counter(ledger, caster.id, f"{label}: {spent} → {ss - p.spent} SS", psi_ss=ss - p.spent, **cds)
    ledger.set(caster.id, f"casts {label}", actions=soldier(caster).actions - 1)
    head = f"{caster.name}: {label} ({spent})"
    if a.effect == "location":
        return _locate(rs, state, ledger, p, dice, head)
    if a.effect == "revenant":
        text = revive(rs, ledger, caster, p.targets[0], a, p.overload)
        return [Resolved(actor=caster.id, action="psi", target=p.targets[0].id, rolls=(), outcome="risen",
                         text=f"{head}: {text}"), *ledger.events]
    friendly = [t for t in p.targets if t.side == caster.side]
    rolls: list[Roll] = []
    parts: list[str] = []
    won: list[Unit] = list(friendly)
    hostile = [t for t in p.targets if t.side != caster.side]
    if friendly:
        parts.append(", ".join(t.name for t in friendly) + " willing: no roll (7.6)")
    if hostile:
        me = psionics.mind(caster)
        bonus = attack_bonus(a, p.overload)
        atk = psionics.attack(dice, me, bonus + drug)
        dice.note(atk, "7.2: (Psi+Luck)*Int+1d100, no crits, no luck check",
                  f"{a.name}: psionics.toml [{p.ability_id}]" + (f"; +{bonus} for {p.overload} SS overload" if bonus else "")
                  + (f"; {drug:+d} from a tranquilizer dart (8.12.4)" if drug else ""))
        rolls.append(atk)
        for t in hostile:
            if buffs.immune_to_minds(t):
                parts.append(f"{t.name} is immune (heroic inspiration, 3.5)")
                continue
            ok, more = psionics.defend(dice, rs.rules, atk, me, psionics.mind(t))
            rolls += more
            parts.append(f"{atk.total} {'>' if ok else 'vs'} {t.name} {more[0].total}"
                         + ("" if ok else ": resists"))
            if ok:
                won.append(t)
    steps = [(a, p.overload)] + ([(xcom(rs.content).psionics[p.also], 0)] if p.also else [])
    steps.sort(key=lambda step: step[0].effect != "oblivion")  # the combination: forget, then obey (7.6)
    for t in won:
        texts = []
        for ability, overload in steps:
            text, more = apply(rs, state, ledger, caster, ledger.unit(t.id), ability, overload, p.detail, dice)
            rolls += more
            texts.append(text)
        parts.append("; ".join(texts))
    outcome = "success" if won else "failure"
    first = p.targets[0].id if p.targets else None
    return [Resolved(actor=caster.id, action="psi", target=first, rolls=tuple(rolls), outcome=outcome,
                     text=f"{head} → " + "; ".join(parts)), *ledger.events]


def _locate(rs: "XcomTrpg", state: State, ledger: Ledger, p: Plan, dice: Dice, head: str) -> list[Event]:
    """7.6: the psi attack against the god of random; success names every unit in the square."""
    me = psionics.mind(p.caster)
    atk = psionics.attack(dice, me)
    rolls = [atk]
    while True:
        rolls.append(god_roll(dice, rs.rules))
        if rolls[-1].total != atk.total:
            break
    r = int(p.detail)
    if atk.total <= rolls[-1].total:
        text = f"{head}, radius {r}: {atk.total} < god {rolls[-1].total}: nothing sensed"
        outcome = "failure"
    else:
        found = [u for u in state.units.values() if u.id != p.caster.id and u.status != "dead"
                 and distance(u.pos, p.caster.pos) <= r]
        names = [f"{u.name} at {u.pos[0]},{u.pos[1]} ({'friend' if u.side == p.caster.side else 'foe'})" for u in found]
        text = f"{head}, radius {r}: {atk.total} > god {rolls[-1].total}: " + ("; ".join(names) or "nobody there")
        outcome = "success"
    return [Resolved(actor=p.caster.id, action="psi", rolls=tuple(rolls), outcome=outcome, text=text), *ledger.events]


def compelled_and_risen(rs: "XcomTrpg", state: State, cmd: object) -> Rejected | None:
    """A compulsion to hold forbids moving and shooting this turn (7.6); a revenant of speed 2 makes
    no combo (7.6: speed = sectors a turn; the combo's 3 sectors need speed 3)."""
    if not isinstance(cmd, (Move, Combo, Shoot, Throw)):
        return None
    unit = state.units.get(cmd.unit)
    if unit is None:
        return None
    if soldier(unit).compelled_hold and isinstance(cmd, (Move, Combo, Shoot, Throw)):
        return Rejected("compelled", f"{unit.name} is compelled to hold: no moving or shooting this turn")
    speed = soldier(unit).psi_revenant
    if speed and isinstance(cmd, Combo) and speed < 3:
        return Rejected("revenant_speed", f"{unit.name} is a revenant of speed {speed}: no combo")
    return None
