"""§15 in play: a melee attack on an adjacent enemy, `Act(unit, "melee", target=id)`, as the attack of a Move or
Run action (N-8.1: a run may end in one); and the blow itself, which hastening and running past (N-7.4, N-7.5,
`engine/rules/neo_troops/interrupt.py`) strike too. The attacker fights with its held weapon when that is a melee
weapon, else with its own attacks and reach."""

from __future__ import annotations

import attrs

from engine.content import missions
from engine.core import records
from engine.core.commands import Rejected
from engine.core.dice import Dice
from engine.core.events import Event, Resolved, UnitChanged
from engine.core.model import State, Unit
from engine.rules.neo_troops import actions, battle, damage, melee, odds, pools, shooting
from engine.rules.neo_troops.schema import Weapon
from engine.rules.neo_troops.unit import Trooper


def adjacent(a: Unit, b: Unit) -> bool:
    """N-9.3, N-15.4: melee range is an adjacent cell."""
    return max(abs(a.pos[0] - b.pos[0]), abs(a.pos[1] - b.pos[1])) == 1


def held_melee(rs, t: Trooper) -> str:
    """The id of the melee weapon in hand, or "" (it fights with its own attacks)."""
    return t.held[0] if t.held and rs.weapons[t.held[0]].melee else ""


def weapon_of(rs, t: Trooper) -> Weapon | None:
    wid = held_melee(rs, t)
    return rs.weapons[wid] if wid else None


VERBS = {"melee": "strikes {}", "hasten": "hastens to strike {}", "free attack": "strikes {} running past"}


@attrs.frozen
class Blow:
    """A melee attack that may be made now: everything its dice read."""

    attacker: Unit
    defender: Unit
    weapon_id: str  # "": the attacker's own attacks
    weapon: Weapon | None
    base: int
    mods: pools.Mods

    @property
    def av(self) -> int:
        return self.defender.record.av  # no cover in melee (N-15.4)

    def odds(self) -> tuple[odds.Dist, odds.Dist]:
        """The exact distribution of hits and of unsaved hits."""
        hit = odds.hits(self.base, pools.count(self.mods)[0], self.av)
        w = self.weapon
        return hit, odds.unsaved(hit, self.defender.record.save_now, w.save_mod if w else 0, w.hits if w else 1)

    def note(self) -> str:
        """`n=1+1 fighter=2 vs AV 4: hit 75% · unsaved 75%` for the action menu (the targeting panel's words)."""
        hit, through = self.odds()
        n, how = pools.count(self.mods)
        return (f"{how}{' (2, the lower)' if n <= 0 else ''} vs AV {self.av}: "
                f"hit {float(1 - hit.get(0, 0)) * 100:.0f}% · unsaved {float(1 - through.get(0, 0)) * 100:.0f}%")


def blow(rs, state: State, a: Unit, d: Unit, share: tuple[int, int] | None = None) -> Blow | Rejected:
    """Whether `a` may strike `d` where they stand now, and the pool (N-15.4): surprise when `d`'s side has not
    spotted `a` (a cloaked varan unnoticed), and then `d` cannot defend. `share`: (attacks, Fighter dice) of a
    multi-target melee dealt to `d` (N-15.3, brawl.py)."""
    if d.side == a.side or not missions.hostile(a.side, d.side):
        return Rejected("own_side", f"{d.name} is on {a.name}'s side")
    if d.status == "dead":
        return Rejected("no_target", f"{d.name} is dead")
    if not a.conscious:
        return Rejected(a.status, f"{a.name} is {a.status}")
    if not adjacent(a, d):
        return Rejected("out_of_reach", f"{d.name} is not next to {a.name}: melee is at an adjacent cell")
    if not battle.spots(state, a.side, d.id):  # an unnoticed cloaked varan is not there to strike at
        return Rejected("not_seen", f"{a.name} has not noticed {d.name}")
    w = weapon_of(rs, a.record)
    surprise = not battle.spots(state, d.side, a.id)
    wid = held_melee(rs, a.record)
    extra = shooting.weapon_mods(a.record, wid, rs.weapons, rs.settings) if wid else (
        (("switch", a.record.switch_dice),) if a.record.switch_dice else ())
    t = a.record
    if share is not None:
        w = attrs.evolve(w, attacks=share[0]) if w is not None else None
        t = attrs.evolve(t, attacks=share[0], fighter=share[1])
    base, mods = melee.attack_mods(t, w, d.record, rs.weapons, rs.settings, surprise=surprise,
                                   defender_weapon=weapon_of(rs, d.record), extra=extra)
    return Blow(a, d, held_melee(rs, a.record), w, base, mods)


def strike(rs, b: Blow, dice: Dice, action: str = "melee", cell=None) -> tuple[list[Event], int]:
    """Roll the blow: its Resolved and the defender's damage; and the hits it scored (saved or not)."""
    attack = pools.attack(dice, b.attacker.id, action, b.base, b.mods, b.av)
    w = b.weapon
    before: Trooper = b.defender.record
    per = w.hits if w else 1
    after, hits = damage.apply(dice, {before.id: attack.hits * per}, {before.id: before}, w.save_mod if w else 0,
                               rs.tables)
    struck = after[before.id]
    unsaved = sum(not h.saved and not h.harmless for h in hits)
    said = "; ".join(e for h in hits for e in h.effects)
    outcome = "miss" if not attack.hits else ("saved" if not unsaved else struck.status if struck.status != "active"
                                                else "wounded")
    with_what = w.name if w else "bare-handed"
    blow = VERBS[action].format(b.defender.name)
    text = (f"{b.attacker.name} {blow} ({with_what}): {pools.hits_word(attack.hits * per)}, {unsaved} unsaved"
            + (f" ({said})" if said else ""))
    rolls = (attack.roll, *(r for h in hits for r in h.rolls))
    events: list[Event] = [Resolved(actor=b.attacker.id, action=action, target=b.defender.id, cell=cell,
                                    weapon=b.weapon_id or None, rolls=rolls, outcome=outcome, text=text)]
    if struck != before:
        events.append(UnitChanged(unit=struck.id, changes=actions.frame_changes(b.defender, struck), cause="hit"))
    return events, attack.hits


def may_strike(rs, unit: Unit) -> Rejected | None:
    """Whether the unit's action still allows a melee attack."""
    if unit.record.attacked:
        return Rejected("acted", f"{unit.name} has attacked: the action is over")
    if unit.record.ran and not rs.settings.run_melee:
        return Rejected("ran", "A Run allows no melee at its end here (run_melee = false)")
    return None


def attack(rs, state: State, unit: Unit, target: str | None, dice: Dice) -> Rejected | list[Event]:
    """The melee attack of the unit's action; it ends the slot."""
    t: Trooper = unit.record
    why = may_strike(rs, unit)
    if why is not None:
        return why
    d = state.units.get(target or "")
    if d is None:
        return Rejected("no_target", "Say whom to strike")
    found = blow(rs, state, unit, d)
    if isinstance(found, Rejected):
        return found
    events, _ = strike(rs, found, dice)
    events.append(UnitChanged(unit=unit.id, changes={"record": records.evolve(t, {"attacked": True})}, cause="strikes"))
    return events + battle.end_slot(rs, state, events, dice)


def targets(rs, state: State, unit: Unit) -> list[Blow]:
    """The blows the unit may strike now, nearest id first."""
    if unit.record.attacked or unit.record.actions < 1:
        return []
    near = [d for d in state.units.values()
            if d.conscious and adjacent(unit, d) and missions.hostile(unit.side, d.side)]
    out = []
    for d in sorted(near, key=lambda u: u.id):
        found = blow(rs, state, unit, d)
        if not isinstance(found, Rejected):
            out.append(found)
    return out


def p_hit(b: Blow) -> float:
    return float(1 - b.odds()[0].get(0, 0))
