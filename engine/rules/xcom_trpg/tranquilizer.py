"""xcom-trpg 8.12.4: the tranquilizer pistol. One dart loaded; a dart box (the unit's `magazines`) holds
5 thioridazine + 5 phenobarbital and is opened when the loose darts run out.

Record fields (record.py) on the shooter: `tranq_loaded` (1 thioridazine, 2 phenobarbital; none with a dart in = the
mission's first dart, thioridazine), `tranq_thio` / `tranq_pheno` (loose darts), `tranq_found` (a careful
reload's dart found, waiting to be loaded).
On a sedated target: `tranq_age` (phases since the dose), `tranq_wake` (5, or 7 after a crit),
`tranq_asleep` (it does not come round by itself).
On a sectoid, which gets the drug table instead of sedation: `tranq_psi_bonus` (-80 or +40 to its psi
rolls) for `tranq_psi_left` psi actions (5, or 7 after a crit) — the psionics rules read and count them
down — and `tranq_addicted` after phenobarbital, which also restores 15 SS to `psi_ss` (capped at
`psi_ss_max` when known).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.commands import Act, Rejected
from engine.content.models import Content
from engine.core.dice import Dice
from engine.core.events import Event, Resolved
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.rules.xcom_trpg import combat
from engine.rules.xcom_trpg.checks import plain_roll
from engine.rules.xcom_trpg.damage import Ledger, apply_crits
from engine.rules.xcom_trpg.record import soldier
from engine.rules.xcom_trpg.tables import xcom

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import ShotContext, XcomTrpg

THIO, PHENO = 1, 2
NAMES = {THIO: "thioridazine", PHENO: "phenobarbital"}
KINDS = {v: k for k, v in NAMES.items()}
LOADED, FOUND = "tranq_loaded", "tranq_found"
LOOSE = {THIO: "tranq_thio", PHENO: "tranq_pheno"}
AGE, WAKE, ASLEEP = "tranq_age", "tranq_wake", "tranq_asleep"
PSI_BONUS, PSI_LEFT, ADDICTED = "tranq_psi_bonus", "tranq_psi_left", "tranq_addicted"
PER_BOX = 5  # of each kind (9)
ARMOUR_OK = ("none", "light")  # it needs an unarmoured part
ONE_ACTION, FALLS_ASLEEP, WAKES, CRIT_EXTRA = 1, 2, 5, 2  # phases after the dose (table 8.12.4)
PSI_TABLE = {"sectoid": {THIO: -80, PHENO: 40}}
PSI_ACTIONS, PHENO_SS = 5, 15


def loaded(unit: Unit) -> int:
    return soldier(unit).tranq_loaded or THIO


def _darts(unit: Unit, kind: int) -> int:
    return soldier(unit).tranq_thio if kind == THIO else soldier(unit).tranq_pheno


def refusal(content: Content, target: Unit) -> str | None:
    if not xcom(content).races[target.race].biological:
        return f"{target.name} is no living thing: darts do nothing to it"
    if soldier(target).armor not in ARMOUR_OK:
        armour = xcom(content).armor[soldier(target).armor].name
        return f"{armour} leaves {target.name} no bare spot for a dart (8.12.4)"
    return None


def dose(ledger: Ledger, content: Content, uid: str, kind: int, crit: bool) -> str:
    """The drug takes effect: the race's table entry (sectoids), or sedation on its phase timeline."""
    unit = ledger.unit(uid)
    extra = CRIT_EXTRA if crit else 0
    table = PSI_TABLE.get(unit.race)
    if table is not None:
        values: dict[str, int | None] = {PSI_BONUS: table[kind], PSI_LEFT: PSI_ACTIONS + extra}
        text = f"{table[kind]:+d} to its next {PSI_ACTIONS + extra} psi rolls"
        if kind == PHENO:
            values[ADDICTED] = 1
            if soldier(unit).psi_ss:
                ss = soldier(unit).psi_ss + PHENO_SS
                values["psi_ss"] = min(ss, soldier(unit).psi_ss_max or ss)
            text += f", +{PHENO_SS} SS, addictive"
        ledger.set_fields(uid, f"{NAMES[kind]} dart", values)
        return text
    if soldier(unit).tranq_age is not None:
        return "already sedated"
    ledger.set_fields(uid, f"{NAMES[kind]} dart: sedated", {AGE: 0, WAKE: WAKES + extra})
    return f"sedated: one action next phase, asleep the phase after, awake {WAKES + extra} phases on"


def fire(rs: "XcomTrpg", state: State, shooter: Unit, target: Unit, ctx: "ShotContext",
         dice: Dice) -> Rejected | list[Event]:
    no = refusal(rs.content, target)
    if no is not None:
        return Rejected("no_effect", no)
    outcome = combat.resolve_shot(rs.content, rs.rules, dice, shooter, target, ctx.weapon, ctx.mode,
                                  between=ctx.between, target_sees=ctx.target_sees, cover=ctx.cover,
                                  cover_from=ctx.cover_from)
    kind = loaded(shooter)
    ledger = Ledger(state.units)
    ledger.set_fields(shooter.id, "fires a dart", {LOADED: None})
    ledger.set(shooter.id, f"fires the {ctx.weapon.name.lower()}", ammo=soldier(shooter).ammo - 1, actions=0)
    apply_crits(ledger, rs.rules, outcome.crits)
    text, verdict = _result(rs.content, ledger, shooter, target, outcome, kind)
    return [Resolved(actor=shooter.id, action="shoot", target=target.id, weapon=soldier(shooter).weapon, mode="single",
                     rolls=tuple(outcome.rolls), outcome=verdict, text=text), *ledger.events]


def _result(content: Content, ledger: Ledger, shooter: Unit, target: Unit, outcome: combat.Outcome,
            kind: int) -> tuple[str, str]:
    """A dart that lands (a glancing one too) delivers its whole dose; a crit adds 2 (8.12.4)."""
    who = f"{shooter.name} → {target.name}"
    if not outcome.hits:
        return outcome.summary, outcome.verdict
    crit = any(h.kind == "headshot" for h in outcome.hits)
    effect = dose(ledger, content, target.id, kind, crit)
    return f"{who}: {NAMES[kind]} dart{' (critical: +2)' if crit else ''}: {effect}", "dosed"


# -- reloading --------------------------------------------------------------------------------------


def _loose(ledger: Ledger, unit: Unit, kind: int) -> tuple[int, bool]:
    """Loose darts of a kind, opening a box if both kinds ran out (its 5 + 5 become loose)."""
    have = _darts(unit, kind)
    if have or any(_darts(unit, k) for k in LOOSE) or soldier(unit).magazines <= 0:
        return have, False
    ledger.set_fields(unit.id, "opens a dart box", {v: PER_BOX for v in LOOSE.values()})
    ledger.set(unit.id, "opens a dart box", magazines=soldier(unit).magazines - 1)
    return PER_BOX, True


def _load(ledger: Ledger, unit: Unit, kind: int, cause: str) -> None:
    left = ledger.get(unit.id, LOOSE[kind]) - 1
    ledger.set_fields(unit.id, cause, {LOOSE[kind]: left, LOADED: kind, FOUND: None})
    ledger.set(unit.id, cause, ammo=1, actions=soldier(unit).actions - 1)


def quick_reload(rs: "XcomTrpg", state: State, unit: Unit, dice: Dice) -> Rejected | list[Event]:
    """1 action: a dart of a random kind, the god of random's roll mod 2 (0 thioridazine, 1 phenobarbital)."""
    ledger = Ledger(state.units)
    have = {k: _loose(ledger, ledger.unit(unit.id), k)[0] for k in NAMES}
    if not any(have.values()):
        return Rejected("no_darts", f"{unit.name} has no darts left")
    rolls = []
    if all(have.values()):
        roll = plain_roll(dice, unit.id, "dart kind", 100, "dart")
        dice.note(roll, "quick reload: 1d100 mod 2, 0 thioridazine, 1 phenobarbital (8.12.4, 1.1)")
        rolls.append(roll)
        kind = THIO if roll.total % 2 == 0 else PHENO
    else:
        kind = next(k for k, n in have.items() if n)
    _load(ledger, ledger.unit(unit.id), kind, f"quick reload: a {NAMES[kind]} dart")
    return [Resolved(actor=unit.id, action="reload", rolls=tuple(rolls), outcome=NAMES[kind],
                     text=f"{unit.name} loads a {NAMES[kind]} dart"), *ledger.events]


def reload(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    unit = rs._actor(state, cmd.unit, 1)  # noqa: SLF001
    if isinstance(unit, Rejected):
        return unit
    weapon = xcom(rs.content).weapons[soldier(unit).weapon]
    if not weapon.darts:
        return Rejected("no_darts", f"The {weapon.name.lower()} takes no darts")
    if soldier(unit).ammo >= weapon.ammo:
        return Rejected("full", f"A {NAMES[loaded(unit)]} dart is already loaded")
    if cmd.action == "reload_quick":
        return quick_reload(rs, state, unit, dice)
    kind = KINDS.get(cmd.option or "")
    if kind is None:
        return Rejected("bad_option", f"Say which dart: {', '.join(KINDS)}")
    ledger = Ledger(state.units)
    if soldier(unit).tranq_found == kind:
        _load(ledger, unit, kind, f"loads the {NAMES[kind]} dart")
        return list(ledger.events)
    have, _opened = _loose(ledger, unit, kind)
    if not have:
        return Rejected("no_darts", f"{unit.name} has no {NAMES[kind]} darts left")
    ledger.set_fields(unit.id, f"finds a {NAMES[kind]} dart", {FOUND: kind})
    ledger.set(unit.id, f"finds a {NAMES[kind]} dart", actions=soldier(unit).actions - 1)
    return list(ledger.events)


# -- the phase timeline ------------------------------------------------------------------------------


def sedation(rs: "XcomTrpg", ledger: Ledger, dice: Dice) -> list[Event]:
    """Dosed in phase N: asleep at the start of N+2, awake at the start of N+5 (N+7 after a crit)."""
    for uid in ledger.ids():
        wake = ledger.get(uid, WAKE)
        if not wake:
            continue
        age = (ledger.get(uid, AGE) or 0) + 1
        status = ledger.get(uid, "status")
        if status == "dead" or age >= wake:
            ledger.set_fields(uid, "the sedative wears off", {AGE: None, WAKE: None, ASLEEP: None})
            hp, conc = ledger.get(uid, "hp"), ledger.get(uid, "concussion")
            if status == "unconscious" and combat.status_for(hp, conc) == "active":
                ledger.set(uid, "wakes from the sedative", status="active")
            continue
        ledger.set_fields(uid, "sedative", {AGE: age})
        if age == FALLS_ASLEEP and status == "active":
            ledger.set_fields(uid, "falls asleep", {ASLEEP: 1})
            ledger.set(uid, "falls asleep (sedative)", status="unconscious")
    return []


def clouded(rs: "XcomTrpg", ledger: Ledger, uid: str, dice: Dice) -> list[Event]:
    if ledger.get(uid, AGE) == ONE_ACTION and ledger.get(uid, "actions") > 1:
        ledger.set(uid, "clouded mind (sedative): one action", actions=1)
    return []


def menu(rs: "XcomTrpg", state: State, unit: Unit) -> list[Option]:
    weapon = xcom(rs.content).weapons[soldier(unit).weapon]
    if not weapon.darts or soldier(unit).actions < 1 or soldier(unit).ammo >= weapon.ammo:
        return []
    out = [Option("Reload", "Quick reload (a random dart)", Act(unit=unit.id, action="reload_quick"),
                        "1 action")]
    for name, kind in KINDS.items():
        verb = "Load the" if soldier(unit).tranq_found == kind else "Find a"
        out.append(Option("Reload", f"{verb} {name} dart",
                                Act(unit=unit.id, action="reload_careful", option=name), "1 action"))
    return out


# -- xenotac resolve (through the shoot referee) ----------------------------------------------------
