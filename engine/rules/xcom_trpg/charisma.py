"""xcom-trpg 5.5: persuasion. `Act(action="persuade", target=, option=<demand>)`.

Both sides roll Charisma*1d100, luck-checked. The winner's demand binds the target on its next turn and
the engine enforces it (so the AI "answers honestly" without knowing it). Record fields (record.py):
- `cha_pair[other]` on both units: charisma interactions this pair had (diminishing ±100 each);
- `cha_immune[actor]` on a target the actor failed critically against: immune to the actor to the end;
- `cha_hostile[uid]` on a unit that attacked uid: the phase it last did (immune to uid's charisma this
  phase and the next, unless uid rolls a critical success);
- `cha_demand` and `cha_from` on the target until its next turn begins; then the demand is in `bound` for
  that turn (and `cha_away` names whom a retreat is from).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.commands import Act, Combo, Command, EndTurn, Face, Move, Rejected, Shoot, StartMission, Throw, Wait
from engine.content.models import Content
from engine.rules.xcom_trpg.models import RulesetDef
from engine.core.dice import Dice, Roll
from engine.core.events import Event, PhaseStarted, Resolved, UnitChanged, UnitSpawned
from engine.map.grid import distance
from engine.core.model import State, Unit
from engine.core.records import Patch
from engine.core.ruleset import Option
from engine.core.reducer import fold
from engine.rules.xcom_trpg import buffs
from engine.rules.xcom_trpg.checks import stat_roll
from engine.rules.xcom_trpg.combat import effective_stat
from engine.rules.xcom_trpg.contest import Side, opposed
from engine.rules.xcom_trpg.damage import Ledger, apply_crits
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg

DEMANDS = {"retreat": "fall back, away from {actor}", "hold_fire": "hold fire",
           "surrender": "lay down its weapon and do nothing", "drop_item": "drop {item}"}
DEFENCE_ONLY = ("chryssalid",)  # 5.5: its Charisma only resists
ATTACKS = ("shoot", "throw", "grab", "shove", "snipe")  # what a unit that attacked "in earnest" did
HOLD_FIRE = ("grab", "shove", "snipe")
UNARMED = "unarmed"


def traits(content: Content, unit: Unit) -> set[str]:
    """From the unit template (game) and the record's traits (scenarios, `xenotac resolve`)."""
    out = set(soldier(unit).traits)
    template = xcom(content).units.get(unit.template)
    if template is not None and template.race == unit.race:
        out |= set(template.traits)
    return out


def sex(content: Content, unit: Unit) -> str | None:
    found = soldier(unit).sex or None
    template = xcom(content).units.get(unit.template)
    return found or (template.sex if template is not None and template.race == unit.race else None)


def xenophobe(content: Content, unit: Unit, other: Unit) -> bool:
    return "xenophobe" in traits(content, unit) and other.race != unit.race and xcom(content).races[other.race].biological


def no_diminishing(content: Content, target: Unit, actor: Unit) -> bool:
    """A xenophile is influenced afresh by another species of the sex it prefers: `xenophile:<sex>`, or
    plain `xenophile` (the other sex than its own, or any if its own is unknown)."""
    kinds = [t for t in traits(content, target) if t == "xenophile" or t.startswith("xenophile:")]
    if not kinds or actor.race == target.race:
        return False
    wanted = {t.split(":", 1)[1] for t in kinds if ":" in t}
    if not wanted:
        own = sex(content, target)
        wanted = {"male", "female"} - {own} if own else {"male", "female"}
    return sex(content, actor) in wanted


def refusal(content: Content, actor: Unit, target: Unit, demand: str | None) -> Rejected | None:
    """Whatever makes the attempt impossible before any die is rolled."""
    if demand is not None and demand not in DEMANDS:
        return Rejected("bad_demand", f"Demand one of {', '.join(DEMANDS)}")
    if actor.race in DEFENCE_ONLY:
        return Rejected("defends_only", f"A {xcom(content).races[actor.race].name.lower()}'s charisma only resists (5.5)")
    if not xcom(content).races[target.race].biological:
        return Rejected("not_persuadable", f"{target.name} is a machine: there is no one to persuade")
    if xenophobe(content, target, actor):
        return Rejected("xenophobe", f"{target.name} is a xenophobe: immune to {actor.name}'s charisma (5.5)")
    if xenophobe(content, actor, target):
        return Rejected("xenophobe", f"{actor.name} is a xenophobe and never negotiates with {target.name} (5.5)")
    if soldier(target).cha_immune.get(actor.id):
        return Rejected("immune", f"{target.name} saw {actor.name} look pathetic: immune to the episode's end")
    if buffs.immune_to_minds(target):
        return Rejected("immune", f"{target.name}'s heroic inspiration makes it immune to compulsion (3.5)")
    if demand == "surrender" and xcom(content).weapons[soldier(target).weapon].max_between == 0:
        return Rejected("against_nature", f"{target.name} cannot lay down its "
                                          f"{xcom(content).weapons[soldier(target).weapon].name.lower()}")
    if demand == "drop_item" and not any(target.items.values()):
        return Rejected("nothing_to_drop", f"{target.name} carries nothing to drop")
    return None


def persuasion(content: Content, rules: RulesetDef, dice: Dice, actor: Unit, target: Unit, *, earlier: int,
               hostile: bool) -> tuple[bool, list[Roll], dict[str, list[str]], str]:
    """(won, rolls, crits, why). A crit success wins outright, with no luck check or counter-roll."""
    n = 0 if no_diminishing(content, target, actor) else earlier
    cha = effective_stat(actor, "charisma")
    if hostile:  # immune unless the actor rolls a critical success
        roll = stat_roll(dice, rules, actor.id, "persuade", "charisma", cha)
        crits = {actor.id: [roll.crit]} if roll.crit else {}
        why = {"success": "critical success: even a foe out for blood listens",
               "failure": "critical failure"}.get(roll.crit or "", f"{target.name} is out to kill {actor.name}: "
                                                                  "immune but to a critical success")
        return roll.crit == "success", [roll], crits, why
    a = Side(actor.id, "charisma", cha, effective_stat(actor, "luck"))
    d = Side(target.id, "charisma", effective_stat(target, "charisma"), effective_stat(target, "luck"))
    c = opposed(dice, rules, a, d, a_bonus=-100 * n, d_bonus=100 * n, purposes=("persuade", "resists persuasion"))
    return c.attacker_wins, c.rolls, c.crits, c.text


def record(ledger: Ledger, actor: Unit, target: Unit, crits: dict[str, list[str]]) -> None:
    """The pair's count rises after every interaction, crits included; a crit failure makes it immune."""
    ledger.count(actor.id, "cha_pair", target.id, f"charisma with {target.name}")
    ledger.count(target.id, "cha_pair", actor.id, f"charisma with {actor.name}")
    if "failure" in crits.get(actor.id, []):
        ledger.count(target.id, "cha_immune", actor.id, f"{actor.name} looked pathetic")


def _wording(demand: str | None, actor: Unit, target: Unit) -> str:
    if demand is None:
        return ""
    item = next((k for k, v in sorted(target.items.items()) if v), "an item")
    return ": " + DEMANDS[demand].format(actor=actor.name, item=item.replace("_", " "))


# -- the game ---------------------------------------------------------------------------------------


def _hostile(state: State, target: Unit, actor: Unit) -> bool:
    last = soldier(target).cha_hostile.get(actor.id)
    return last is not None and last >= state.phase - 1


def act(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    unit = rs._actor(state, cmd.unit, 1)  # noqa: SLF001
    if isinstance(unit, Rejected):
        return unit
    target = state.units.get(cmd.target or "")
    if target is None or target.side == unit.side or not target.conscious:
        return Rejected("no_target", "Persuade a conscious hostile you can see")
    if not state.grid.sees(unit.pos, target.pos, rs.rules.vision_radius):
        return Rejected("no_line_of_sight", f"{unit.name} cannot see {target.name}")
    if cmd.option is None:
        return Rejected("bad_demand", f"Demand one of {', '.join(DEMANDS)}")
    no = refusal(rs.content, unit, target, cmd.option)
    if no is not None:
        return no
    won, rolls, crits, why = persuasion(rs.content, rs.rules, dice, unit, target,
                                        earlier=soldier(unit).cha_pair.get(target.id, 0),
                                        hostile=_hostile(state, target, unit))
    ledger = Ledger(state.units)
    ledger.set(unit.id, "persuades", actions=0)
    apply_crits(ledger, rs.rules, crits)
    record(ledger, unit, target, crits)
    if won:
        ledger.set(target.id, f"persuaded by {unit.name}", cha_demand=cmd.option, cha_from=unit.id)
    verdict = "persuades" if won else "fails to persuade"
    text = f"{unit.name} {verdict} {target.name}{_wording(cmd.option, unit, target)} ({why})"
    return [Resolved(actor=unit.id, action="persuade", target=target.id, rolls=tuple(rolls),
                     outcome="success" if won else "failure", text=text), *ledger.events]


def keep_word(rs: "XcomTrpg", ledger: Ledger, uid: str, dice: Dice) -> list[Event]:
    """The won demand binds this turn (`bound`); surrender and drop_item act at once."""
    demand, source = ledger.get(uid, "cha_demand"), ledger.get(uid, "cha_from")
    if not (demand or source or ledger.get(uid, "cha_away")):
        return []
    name = ledger.get(uid, "name")
    if not demand:
        ledger.set(uid, "the persuasion wears off", cha_demand="", cha_from="", cha_away="")
        return []
    away = source if demand == "retreat" and source else ""
    ledger.set(uid, f"keeps its word: {demand.replace('_', ' ')}", cha_demand="", cha_from="", cha_away=away)
    held = ledger.get(uid, "bound")
    if demand not in held:
        ledger.set(uid, f"{name} was persuaded to {demand.replace('_', ' ')}", bound=tuple(sorted(held + (demand,))))
    if demand == "surrender":
        ledger.set(uid, "surrenders: lays down its weapon", weapon=UNARMED, ammo=0, actions=0)
    elif demand == "drop_item":
        items = dict(ledger.get(uid, "items"))
        item = next((k for k, v in sorted(items.items()) if v), None)
        if item is not None:
            items[item] -= 1
            ledger.set(uid, f"drops a {item.replace('_', ' ')}", items={k: v for k, v in items.items() if v})
    return []


def bound(rs: "XcomTrpg", state: State, cmd: Command) -> Rejected | None:
    if isinstance(cmd, (StartMission, EndTurn)):
        return None
    unit = state.units.get(getattr(cmd, "unit", ""))
    if unit is None:
        return None
    if "hold_fire" in soldier(unit).bound and (isinstance(cmd, (Shoot, Throw))
                                      or isinstance(cmd, Act) and cmd.action in HOLD_FIRE):
        return Rejected("persuaded", f"{unit.name} was persuaded to hold fire this turn (5.5)")
    if "retreat" in soldier(unit).bound:
        away = soldier(unit).cha_away
        other = state.units.get(away or "")
        if other is None or isinstance(cmd, (Wait, Face)):
            return None
        if isinstance(cmd, (Move, Combo)):
            here, ok = distance(unit.pos, other.pos), True
            for cell in cmd.path:
                ok = ok and distance(cell, other.pos) >= here
                here = distance(cell, other.pos)
            if ok and cmd.path and here > distance(unit.pos, other.pos):
                return None
        return Rejected("persuaded", f"{unit.name} was persuaded to retreat: it may only move away from "
                                     f"{other.name} or wait (5.5)")
    if "surrender" in soldier(unit).bound and not isinstance(cmd, (Wait, Face)):
        return Rejected("persuaded", f"{unit.name} has surrendered this turn (5.5)")
    return None


def in_earnest(rs: "XcomTrpg", before: State, events: list[Event], dice: Dice) -> list[Event]:
    """Who attacked whom, and in which phase (immunity to the victim's charisma, 5.5)."""
    hits = [e for e in events if isinstance(e, Resolved) and e.action in ATTACKS and e.target]
    if not hits:
        return []
    now = before if _keeps_earnest(events) else fold(before, events)  # the fold only when it could change the answer
    ledger = Ledger(now.units)
    for e in hits:
        a, t = now.units.get(e.actor), now.units.get(e.target or "")
        if a is not None and t is not None and a.side != t.side and soldier(a).cha_hostile.get(t.id) != now.phase:
            ledger.keyed(a.id, f"attacks {t.name} in earnest", "cha_hostile", {t.id: now.phase})
    return ledger.take()


def _keeps_earnest(events: list[Event]) -> bool:
    """Whether the events leave what `in_earnest` reads as it was: the phase, every unit's side and `cha_hostile`
    (a shot changes HP, rounds and morale; only a spawn, a new phase or a side or record swap could matter)."""
    for e in events:
        kind = type(e)
        if kind is UnitSpawned or kind is PhaseStarted:
            return False
        if kind is UnitChanged:
            rec = e.changes.get("record")
            if "side" in e.changes or rec is not None and (type(rec) is not Patch or "cha_hostile" in rec.fields):
                return False
    return True


def menu(rs: "XcomTrpg", state: State, unit: Unit) -> list[Option]:
    if soldier(unit).actions < 1 or unit.race in DEFENCE_ONLY:
        return []
    out = []
    for t in state.units.values():
        if t.side == unit.side or not t.conscious or not state.grid.sees(unit.pos, t.pos, rs.rules.vision_radius):
            continue
        n = soldier(unit).cha_pair.get(t.id, 0)
        note = f"charisma {effective_stat(unit, 'charisma')} vs {effective_stat(t, 'charisma')}"
        if n and not no_diminishing(rs.content, t, unit):
            note += f", diminishing -{100 * n}/+{100 * n}"
        if _hostile(state, t, unit):
            note += ", it is out to kill you: only a critical success"
        for demand in DEMANDS:
            if refusal(rs.content, unit, t, demand) is None:
                label = f"{demand.replace('_', ' ').capitalize()} → {t.name}"
                out.append(Option("Charisma", label, Act(unit=unit.id, action="persuade", target=t.id,
                                                               option=demand), note))
    return out


# -- xenotac resolve --------------------------------------------------------------------------------
