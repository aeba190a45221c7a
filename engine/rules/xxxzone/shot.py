"""A whole attack action between two battle records: the checks, the seven steps of every roll, each wound's
tests, the step-7 riders (fire, Disabling Shot, Chi Strike Palm) and the records after it.

All attack rolls of the action come first, then each wound's tests in the order of the rolls: a target killed
by the first roll of a burst still takes the rest (they change nothing). The caller pays the AP (actions.spend)
and refunds a kill's AP with Grim Reaper's Sprint (actions.killed). This is what `decide` will call.
"""

from __future__ import annotations
from typing import Sequence

import attrs

from engine.core import records
from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.core.geometry import Pos, distance
from engine.rules.xxxzone import abilities as ab
from engine.rules.xxxzone import battle, firing, status
from engine.rules.xxxzone.attack import Attack, CoverPiece, Defence, Hit, volley
from engine.rules.xxxzone.battle import Combatant
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.lines import between, in_cone
from engine.rules.xxxzone.modifiers import Shooter, Situation, weapon_dt
from engine.rules.xxxzone.wounds import wound


POISONS = {"poison": "poisoned", "lethal_poison": "lethal_poison", "toxified": "toxified",
           "lethal_toxic": "lethal_toxic"}  # a weapon's rider -> the status of section 9 its wound gives


@attrs.frozen(kw_only=True)
class Shot:
    """What the attacker declares, and what the state says about this attack."""

    weapon: str
    mode: str
    reaction: bool = False  # overwatch fire triggered by the target's move
    unaware: bool = False  # the target has not spotted the attacker
    marked: bool = False
    teamwork: bool = False
    concealed: bool = False
    earlier_actions: int = 0  # attack actions with this weapon earlier this turn
    disabling: bool = False  # Disabling Shot declared
    use_scope: bool = True
    vs_human: bool = False
    mechanical: bool = False  # the target is a machine (Engineering)
    suppressed: bool = False
    full_charge: bool = False  # Improved Charge
    hand: int = 0  # which of two pistols in hand fires a single shot or a burst


@attrs.frozen(kw_only=True)
class Outcome:
    shooter: Combatant
    target: Combatant
    hits: tuple[Hit, ...]
    rolls: tuple[Roll, ...]  # every die, in the order rolled
    lines: tuple[str, ...]  # the AdjAcc of each roll and what the wounds did, for the log
    cover: tuple[CoverPiece, ...]  # the cover after the action (a destroyed piece is gone)

    @property
    def killed(self) -> bool:
        return self.target.condition.dead


@attrs.frozen(kw_only=True)
class Prepared:
    """An attack action set up, before any die: each roll's Attack with its words, the target's Defence (cover,
    armour, the abilities' DR such as Chi Breath's), the shooter's numbers and the Disabling Shot cap. Both the
    attack (`fire`) and its exact odds (shooting.plan, the targeting panel) start from this one set-up."""

    planned: tuple[tuple[Attack, str], ...]
    defence: Defence
    shooter: Shooter
    cap: str | None


def prepare(book: Book, shooter: Combatant, target: Combatant, shot: Shot,
            cover: tuple[CoverPiece, ...] = ()) -> Prepared | Rejected:
    if not shooter.condition.can_act:
        return Rejected("cannot_act", f"{shooter.op.name} cannot act")
    w = book.weapons[shot.weapon]
    d = between(shooter.at, target.at)
    loaded = {h.item: h.rounds for h in shooter.hands}
    ready = firing.Readiness(drawn=tuple(h.item for h in shooter.hands), loaded=loaded,
                             burdened=battle.burden(book, shooter) != "free", disabled=shooter.disabled)
    s = battle.shooter(book, shooter)
    refused = firing.check(book, s, shot.weapon, shot.mode, d, ready)
    if refused is not None:
        return refused
    melee = w.kind == "melee"
    aims = shooter.aim.stacks if shooter.aim is not None and shooter.aim.target == target.id else 0
    sit = Situation(distance=d, aims=aims, use_scope=shot.use_scope, reaction=shot.reaction,
                    target_moving_target=shot.reaction and target.op.has("moving_target"), marked=shot.marked,
                    target_wounded=target.condition.wounds.any, unaware=shot.unaware, teamwork=shot.teamwork,
                    concealed=shot.concealed, lion_ignores=True, chi_breath_melee=target.chi_breath and melee,
                    earlier_actions=shot.earlier_actions, aimed_before=aims > 0)
    dt, _ = weapon_dt(book, s.abilities, w, vs_human=shot.vs_human, suppressed=shot.suppressed,
                      full_charge=shot.full_charge)
    extra = ab.defence_dr(book, frozenset(target.op.abilities), chi_breath=target.chi_breath,
                          reaction_to_move=shot.reaction, mechanical=shot.mechanical, attacker=s.abilities)
    cap = "minor" if shot.disabling and "disabling_shot" in s.abilities else None
    planned = firing.rolls(book, s, shot.weapon, shot.mode, sit, dt,
                           shift=ab.sneak_shift(s.abilities, melee, shot.unaware), cap=cap)
    return Prepared(planned=tuple(planned), defence=battle.defence(book, target, cover, extra), shooter=s, cap=cap)


def fire(dice: Dice, book: Book, shooter: Combatant, target: Combatant, shot: Shot,
         cover: tuple[CoverPiece, ...] = ()) -> Outcome | Rejected:
    ready = prepare(book, shooter, target, shot, cover)
    if isinstance(ready, Rejected):
        return ready
    w, planned, s, cap = book.weapons[shot.weapon], ready.planned, ready.shooter, ready.cap
    melee = w.kind == "melee"
    hits, after = volley(dice, [a for a, _ in planned], ready.defence)
    rolls = [h.roll for h in hits]
    lines = [shown for _, shown in planned]
    cond, disabled = target.condition, target.disabled
    held = next((h for h in shooter.hands if h.item == shot.weapon), None)
    rider = w.rider or (book.items[held.ammo].rider if held is not None and held.ammo else "")
    for hit in hits:
        if hit.wound is None:
            continue
        got = wound(dice, book, battle.vitals(book, target), cond, hit.wound)  # type: ignore[arg-type]
        cond = got.condition
        rolls += got.rolls
        lines += got.notes
        if rider == "on_fire" and not cond.dead:  # the Flare Gun, incendiary shells: Minor or worse
            cond, burn = status.set_on_fire(dice, book, target.id, cond)
            rolls += [burn] if burn else []
            lines.append("On Fire")
        if rider in POISONS and not cond.dead and not cond.poison:  # a poisoned entity is not poisoned again
            cond = attrs.evolve(cond, poison=POISONS[rider])
            lines.append(POISONS[rider].replace("_", " ").capitalize())
        if cap is not None:
            disabled = tuple(dict.fromkeys([*disabled, *(h.item for h in target.hands if h.item in book.weapons)]))
            lines.append("weapon disabled until its Reload AP are spent")
        if w.unarmed and "chi_strike_palm" in s.abilities and not cond.dead:
            struck = ab.chi_strike(dice, book, battle.vitals(book, target), cond, 0)
            cond = struck.condition
            rolls += struck.rolls
    mode = w.modes[shot.mode]
    firing_hands = [i for i, h in enumerate(shooter.hands) if h.item == shot.weapon and not melee]
    if not mode.akimbo:  # an Akimbo Spray empties both pistols' share, anything else only the one fired
        firing_hands = [i for i in firing_hands if i == shot.hand] or firing_hands[:1]
    hands = tuple(attrs.evolve(h, rounds=h.rounds - mode.rounds) if i in firing_hands else h
                  for i, h in enumerate(shooter.hands))
    shooter = records.evolve(battle.after_attack(shooter, target.id),  # in one copy: a shot is a common record
                             {"hands": hands, "conspicuous": shooter.conspicuous or not (melee or shot.suppressed)})
    target = records.evolve(target, {"armour_hp": after.armour_hp, "condition": cond, "disabled": disabled})
    return Outcome(shooter=shooter, target=target, hits=hits, rolls=tuple(rolls), lines=tuple(lines),
                   cover=after.cover)


def spray(dice: Dice, book: Book, shooter: Combatant, others: Sequence[tuple[Combatant, tuple[CoverPiece, ...]]],
          aimed: Pos, shot: Shot) -> list[Outcome] | Rejected:
    """6.4: a Spray makes its rolls at every entity in the cone, friend or foe, nearest first, each with its own
    distance, cover and defences; the rounds are spent once (every Outcome's shooter is the same record after).
    Pay it with `actions.spend(..., hand="")`: an Akimbo Spray generates no Akimbo pool."""
    w = book.weapons[shot.weapon]
    mode = w.modes.get(shot.mode)
    if mode is None or not mode.cone:
        return Rejected("no_cone", f"the {w.name}'s {shot.mode} is not a spray")
    inside = sorted(((c, cover) for c, cover in others
                     if c.id != shooter.id and in_cone(shooter.at, aimed, c.at, mode.cone, w.range)),
                    key=lambda o: (distance(shooter.at, o[0].at), o[0].id))
    out: list[Outcome] = []
    for target, cover in inside:
        got = fire(dice, book, shooter, target, shot, cover)
        if isinstance(got, Rejected):
            return got
        out.append(got)
    if not out:
        return Rejected("empty_cone", "nobody stands in the cone")
    return out
