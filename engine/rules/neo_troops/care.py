"""Section 19: bleeding, first aid, repairs of damaged systems, regeneration, and the rest between missions."""

from __future__ import annotations

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.rules.neo_troops.schema import Settings
from engine.rules.neo_troops.unit import Trooper


def own_turn_ends(t: Trooper, s: Settings) -> Trooper:
    """N-19.3: counted at the unit's slot, incapacitated or not; it dies at the end of its 10th own turn."""
    if t.bleeding is None or t.status == "dead":
        return t
    turns = t.bleeding + 1
    if turns >= s.bleed_turns:
        return attrs.evolve(t, bleeding=turns, hp=0, status="dead")
    return attrs.evolve(t, bleeding=turns)


@attrs.frozen(kw_only=True)
class Aid:
    """First aid under way: consecutive Stationary actions by one helper."""

    patient: str
    helper: str
    done: int = 0


def first_aid(aid: Aid | None, helper: Trooper, patient: Trooper, adjacent: bool,
              s: Settings) -> tuple[Aid | None, Trooper] | Rejected:
    """One Stationary first-aid action; the third in a row by the same helper stops the bleeding."""
    if patient.bleeding is None:
        return Rejected("not_bleeding", f"{patient.id} is not bleeding")
    if not helper.can_act:
        return Rejected("cannot_help", f"{helper.id} cannot give first aid now")
    if helper.id != patient.id and (not adjacent or helper.side != patient.side):
        return Rejected("not_adjacent", "First aid is given by the patient or an adjacent ally")
    same = aid is not None and aid.helper == helper.id and aid.patient == patient.id
    done = (aid.done if same and aid is not None else 0) + 1
    if done >= s.first_aid_actions:
        return None, attrs.evolve(patient, bleeding=None)
    return Aid(patient=patient.id, helper=helper.id, done=done), patient


def other_action(aid: Aid | None, actor: str) -> Aid | None:
    """The helper did anything else: the count starts again."""
    return None if aid is not None and aid.helper == actor else aid


@attrs.frozen(kw_only=True)
class Repair:
    unit: str
    system: str  # cloak, mapping, head, armour, or a part id
    needed: int  # Stationary actions
    done: int = 0
    helper: str = ""  # who works on it: the unit itself or an adjacent ally ("": the unit itself)


def is_damaged(t: Trooper, system: str) -> bool:
    if system in ("cloak", "mapping"):
        return getattr(t, system) == "damaged"
    if system == "head":
        return t.head == "damaged"
    if system == "armour":
        return t.save is not None and t.armour_hits == 1
    part = t.part(system)
    return part is not None and part.state == "damaged"


def start_repair(dice: Dice, t: Trooper, system: str, s: Settings) -> tuple[Repair, Roll] | Rejected:
    """N-19.2: a damaged system takes `repair_actions` (d6 × 10) consecutive Stationary actions; a destroyed
    one waits for the end of the mission."""
    if not is_damaged(t, system):
        return Rejected("not_damaged", f"{t.id}'s {system} is not damaged (destroyed systems are replaced later)")
    index: list[int] = []

    def roll(sides: int) -> int:
        face, at = dice.d(sides, t.id, "repair time")
        index.append(at)
        return face

    needed, shown, faces = s.repair_actions.evaluate({}, roll)
    r = Roll(actor=t.id, purpose="repair time", expr=s.repair_actions.text, faces=tuple(faces),
             formula=f"repair {system}: {shown} actions", total=needed, index=index[0] if index else -1)
    return Repair(unit=t.id, system=system, needed=needed), r


def repair_action(repair: Repair, t: Trooper) -> tuple[Repair | None, Trooper]:
    """One Stationary repair action (by the unit or an adjacent ally); the last one makes the system work."""
    done = repair.done + 1
    if done < repair.needed:
        return attrs.evolve(repair, done=done), t
    if repair.system in ("cloak", "mapping"):
        return None, attrs.evolve(t, **{repair.system: "working"})
    if repair.system == "head":
        return None, attrs.evolve(t, head_hits=0)
    if repair.system == "armour":
        return None, attrs.evolve(t, armour_hits=0)
    parts = tuple(attrs.evolve(p, state="working") if p.id == repair.system else p for p in t.parts)
    return None, attrs.evolve(t, parts=parts)


def rest(t: Trooper, rested: int, s: Settings) -> tuple[Trooper, int]:
    """N-19.4: one own turn of rest; every `regen_turns` uninterrupted turns with no bleeding give +1 HP, and an
    incapacitated varan with HP again returns to action. Returns the unit and the turns rested so far."""
    if t.bleeding is not None or t.status == "dead" or t.hp >= t.hp_max:
        return t, 0
    rested += 1
    if rested < s.regen_turns:
        return t, rested
    return attrs.evolve(t, hp=t.hp + 1, status="active"), 0


def after_mission(t: Trooper) -> Trooper:
    """N-19.2, N-19.4: full HP, systems repaired or replaced, severe wounds and lost limbs regenerated."""
    if t.status == "dead":
        return t
    return attrs.evolve(
        t, hp=t.hp_max, status="active", bleeding=None, severe_wounds=0, tables_rolled=(), limbs_lost=(),
        head_hits=0, armour_hits=0, cloak="working" if t.cloak else None,
        mapping="working" if t.mapping else None, parts=tuple(attrs.evolve(p, state="working") for p in t.parts))
