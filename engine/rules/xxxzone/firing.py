"""What may be fired, and a firing mode expanded into its attack rolls (6.4, 6.5, 6.7, 11.1).

A refusal names the rule: out of range, no such mode, not drawn, disabled, burdened, not enough rounds.
"""

from __future__ import annotations

import attrs

from engine.core.commands import Rejected
from engine.rules.xxxzone.attack import Attack
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.modifiers import Shooter, Situation, adj_acc


@attrs.frozen(kw_only=True)
class Readiness:
    """The attacker's hands and load as a firing check needs them."""

    drawn: tuple[str, ...]  # weapons in hand (two pistols with Akimbo)
    loaded: dict[str, int] = attrs.field(factory=dict)  # weapon in hand -> rounds in it
    burdened: bool = False  # above Carry: may move cautiously, cannot use weapons
    disabled: tuple[str, ...] = ()  # weapons a Disabling Shot made unusable


def check(book: Book, s: Shooter, weapon_id: str, mode_id: str, d: int, ready: Readiness) -> Rejected | None:
    w = book.weapons[weapon_id]
    mode = w.modes.get(mode_id)
    if mode is None:
        return Rejected("no_mode", f"the {w.name} has no {mode_id.replace('_', ' ')} ({', '.join(w.modes)})")
    if ready.burdened:
        return Rejected("burdened", "carrying more than Carry: no weapon can be used until something is dropped")
    if weapon_id not in ready.drawn and not w.unarmed:
        return Rejected("not_drawn", f"the {w.name} is not in hand (Draw Item, 1 AP)")
    if weapon_id in ready.disabled:
        return Rejected("disabled", f"the {w.name} is disabled until {w.reload} AP are spent on it")
    if w.kind == "melee":
        return None if d == 0 else Rejected("not_adjacent", f"the target is {d} squares away; melee needs it adjacent")
    if d > w.range:
        return Rejected("out_of_range", f"the target is {d} squares away; the {w.name} reaches {w.range}")
    if mode.akimbo:
        pair = [x for x in ready.drawn if x == weapon_id]
        if "akimbo" not in s.abilities or len(pair) < 2:
            return Rejected("no_pair", "Akimbo Spray needs Akimbo and a pistol in each hand")
    if ready.loaded.get(weapon_id, 0) < mode.rounds:
        return Rejected("no_ammo", f"the {w.name} holds {ready.loaded.get(weapon_id, 0)} rounds; "
                                   f"{mode_id} fires {mode.rounds}")
    return None


def rolls(book: Book, s: Shooter, weapon_id: str, mode_id: str, sit: Situation, dt: int,
          **attack: object) -> tuple[tuple[Attack, str], ...]:
    """One Attack per roll of the mode with its own AdjAcc (recoil by roll), and the AdjAcc line for the log."""
    w = book.weapons[weapon_id]
    mode = w.modes[mode_id]
    out = []
    for i in range(mode.rolls):
        value, shown = adj_acc(book, s, w, attrs.evolve(sit, roll_index=i, multi=mode.rolls > 1))
        out.append((Attack(attacker=s.id, adj_acc=value, dt=dt, purpose=f"{w.name} {mode_id.replace('_', ' ')}",
                           revised=book.settings.revised_wounds, **attack), shown))  # type: ignore[arg-type]
    return tuple(out)


def rounds_after(book: Book, weapon_id: str, mode_id: str, loaded: int) -> int:
    return loaded - book.weapons[weapon_id].modes[mode_id].rounds


def check_square(book: Book, weapon_id: str, d: int) -> Rejected | None:
    """The Flare Gun fired at a square: no attack roll, up to its untargeted range (100)."""
    w = book.weapons[weapon_id]
    if not w.untargeted_range:
        return Rejected("needs_target", f"the {w.name} fires only at a target")
    if d > w.untargeted_range:
        return Rejected("out_of_range", f"the square is {d} away; the {w.name} reaches {w.untargeted_range}")
    return None
