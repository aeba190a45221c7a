"""Sections 4-5: an entity's AP in one turn, the action table's costs, recycled pools and continuing actions.

Restricted (recycled) AP is spent before normal AP wherever it may be used, lasts to the end of the turn, and
only normal AP spent generates it (recycled AP never generates more). Variable costs are rolled when the action
starts; what the entity cannot pay now carries into its next turns as a continuing action.
"""

from __future__ import annotations

from typing import Literal

import attrs

from engine.core import records
from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.core.records import added, lean
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.checks import exploding, roll_formula, value

Kind = Literal["move", "gun", "melee", "throw", "draw", "reload", "other"]
Hand = Literal["", "left", "right"]
OTHER = {"left": "right", "right": "left"}


@lean  # `option` came later: left out of the dump while empty
@attrs.frozen(kw_only=True)
class Continuing:
    """A variable-cost action still being paid for (a med-kit, a hack, a lock)."""

    action: str
    remaining: int
    target: str = ""
    option: str = added("")  # what it does when it completes: the med-kit's treatment, the hacked or picked square


@lean  # charged, teamwork_at and fired came later: left out of the dump at their default
@attrs.frozen(kw_only=True, slots=False)  # a __dict__: records.evolve copies it in one step (every action pays)
class TurnAp:
    ap: int  # normal AP left
    maximum: int
    move: int = 0  # restricted pools (5): movement only
    gun: int = 0  # gun firing modes only (Run and Gun)
    draw: int = 0  # Draw Item only (Quick Draw)
    reload: int = 0  # reloading only (Action Reload)
    left: int = 0  # attacks with the left hand's weapon only (Akimbo)
    right: int = 0
    moved: int = 0  # normal AP spent moving this turn
    shot: int = 0  # normal AP spent shooting guns this turn
    run_and_gun: int = 0  # pool already granted from `moved`
    walking: int = 0  # pool already granted from `shot`
    overwatch: int = 0  # AP stored for reaction fire
    ended: bool = False  # Hunker Down and Overwatch end the entity's actions
    rooted: bool = False  # Chi Breath: no movement for the rest of the turn
    walked: bool = False  # moved at all this turn, from any pool
    continuing: Continuing | None = None
    charged: bool = added(False)  # Melee Charge's free attack made this turn
    teamwork_at: str = added("")  # Teamwork!: the target it attacked this turn (its allies with it get +10 there)
    fired: tuple[tuple[str, int], ...] = added(())  # weapon -> attack actions made with it this turn (6.4 recoil)

    @property
    def restricted(self) -> int:
        return self.move + self.gun + self.draw + self.reload + self.left + self.right

    def attacks_with(self, weapon: str) -> int:
        """Attack actions made with `weapon` this turn (6.4: each adds its recoil to the next)."""
        return dict(self.fired).get(weapon, 0)

    def attacked_with(self, weapon: str) -> "TurnAp":
        counts = dict(self.fired)
        counts[weapon] = counts.get(weapon, 0) + 1
        return attrs.evolve(self, fired=tuple(sorted(counts.items())))


def start(maximum: int, ap: int, cont: Continuing | None = None) -> tuple[TurnAp, Continuing | None]:
    """A fresh turn with the AP the wounds allow; a continuing action takes what it still needs first.
    Returns the turn and the action that completed now, if any. Stored overwatch AP vanish here."""
    turn = TurnAp(ap=ap, maximum=maximum)
    if cont is None:
        return turn, None
    if ap >= cont.remaining:
        return attrs.evolve(turn, ap=ap - cont.remaining), cont
    return attrs.evolve(turn, ap=0, continuing=attrs.evolve(cont, remaining=cont.remaining - ap)), None


def end(turn: TurnAp) -> TurnAp:
    """End of the turn: every restricted pool lapses; stored overwatch AP stay until the next own turn."""
    return records.evolve(turn, {"ap": 0, "move": 0, "gun": 0, "draw": 0, "reload": 0, "left": 0, "right": 0})


def _pools(kind: Kind, hand: Hand) -> tuple[str, ...]:
    if kind == "move":
        return ("move",)
    if kind == "gun":
        return ((hand,) if hand else ()) + ("gun",)
    if kind == "melee":
        return (hand,) if hand else ()
    if kind in ("draw", "reload"):
        return (kind,)
    return ()


def available(turn: TurnAp, kind: Kind, hand: Hand = "") -> int:
    return turn.ap + sum(getattr(turn, p) for p in _pools(kind, hand))


def spend(turn: TurnAp, cost: int, kind: Kind, abilities: frozenset[str], hand: Hand = "",
          what: str = "that") -> TurnAp | Rejected:
    """Pay `cost`: restricted pools first, then normal AP; the normal AP paid recycle per the abilities held.
    Any action other than the continuing one breaks it."""
    if turn.ended:
        return Rejected("turn_over", "this entity has ended its actions for the turn")
    if kind == "move" and turn.rooted:
        return Rejected("rooted", "Chi Breath Iron Body holds it in place until its next turn")
    if available(turn, kind, hand) < cost:
        return Rejected("no_ap", f"{what} costs {cost} AP; {available(turn, kind, hand)} left")
    left, changes = cost, {}
    for pool in _pools(kind, hand):
        take = min(left, getattr(turn, pool))
        changes[pool] = getattr(turn, pool) - take
        left -= take
    changes.update(ap=turn.ap - left, continuing=None, walked=turn.walked or kind == "move")
    if kind == "move":  # a step, paid at every square: its pools in the same copy of the record
        return records.evolve(turn, _moved(turn, changes, left, abilities))
    return recycle(records.evolve(turn, changes), left, kind, abilities, hand)


def _moved(turn: TurnAp, changes: dict, normal: int, abilities: frozenset[str]) -> dict:
    """`changes` plus what `recycle` makes of `normal` AP spent moving (the same numbers, one evolve)."""
    moved = turn.moved + normal
    changes["moved"] = moved
    if "run_and_gun" in abilities:
        grant = moved // 2 - turn.run_and_gun
        changes["gun"] = changes.get("gun", turn.gun) + grant
        changes["run_and_gun"] = turn.run_and_gun + grant
    if "quick_draw" in abilities:
        changes["draw"] = changes.get("draw", turn.draw) + normal
    if "action_reload" in abilities:
        changes["reload"] = changes.get("reload", turn.reload) + normal
    return changes


def recycle(turn: TurnAp, normal: int, kind: Kind, abilities: frozenset[str], hand: Hand) -> TurnAp:
    """Section 5: the pools that `normal` AP spent on `kind` generate."""
    if kind == "move":
        moved = turn.moved + normal
        turn = records.evolve(turn, {"moved": moved})
        if "run_and_gun" in abilities:
            grant = moved // 2 - turn.run_and_gun
            turn = attrs.evolve(turn, gun=turn.gun + grant, run_and_gun=turn.run_and_gun + grant)
        if "quick_draw" in abilities:
            turn = attrs.evolve(turn, draw=turn.draw + normal)
        if "action_reload" in abilities:
            turn = attrs.evolve(turn, reload=turn.reload + normal)
    if kind == "gun":
        shot = turn.shot + normal
        turn = records.evolve(turn, {"shot": shot})
        if "walking_shooting" in abilities:
            grant = shot // 2 - turn.walking
            turn = attrs.evolve(turn, move=turn.move + grant, walking=turn.walking + grant)
    if kind in ("gun", "melee") and hand and "akimbo" in abilities:
        other = OTHER[hand]
        turn = attrs.evolve(turn, **{other: getattr(turn, other) + normal})
    return turn


def killed(turn: TurnAp, attack_ap: int, abilities: frozenset[str]) -> TurnAp:
    """Grim Reaper's Sprint: an attack that killed refunds its full AP as movement AP."""
    return attrs.evolve(turn, move=turn.move + attack_ap) if "grim_reapers_sprint" in abilities else turn


def move_cost(book: Book, mode: Literal["quickly", "cautiously", "swim"], abilities: frozenset[str], *,
              disoriented: bool = False, burden: str = "free", atlas_overload: bool = False) -> int | Rejected:
    """AP for one square: 1 quick, 2 cautious, 2 swimming (1 Aqualad); doubled while Disoriented; above Carry
    only cautiously; above Max not at all (Atlas Strong: up to twice Max at three times the cost)."""
    aid = "swim" if mode == "swim" else f"move_{mode}"
    if burden == "overloaded" and not (atlas_overload and "atlas_strong" in abilities):
        return Rejected("overloaded", "carrying more than Max capacity: cannot move")
    if burden == "burdened" and mode == "quickly":
        return Rejected("burdened", "carrying more than Carry: only Move Cautiously")
    cost = fixed_cost(book, action_cost(book, aid, abilities))
    if disoriented:
        cost *= 2
    if burden == "overloaded":
        cost *= 3
    return cost


def action_cost(book: Book, action: str, abilities: frozenset[str]):
    a = book.actions[action]
    return next((f for ability, f in a.cost_with.items() if ability in abilities), a.cost)


def fixed_cost(book: Book, formula) -> int:
    return value(formula)


def allowed(book: Book, action: str, abilities: frozenset[str], disoriented: bool = False) -> Rejected | None:
    a = book.actions[action]
    if a.needs and a.needs not in abilities:
        return Rejected("needs_ability", f"{a.name} needs {book.abilities[a.needs].name}")
    if disoriented and action in ("aim", "interact"):
        return Rejected("disoriented", f"a Disoriented entity cannot {a.name.lower()}")
    return None


def do(book: Book, turn: TurnAp, action: str, abilities: frozenset[str], disoriented: bool = False,
       kind: Kind = "other") -> TurnAp | Rejected:
    """A fixed-cost action of the table (Aim, Hunker Down, Interact, Draw, Overwatch, the 4-AP abilities...)."""
    refused = allowed(book, action, abilities, disoriented)
    if refused is not None:
        return refused
    a = book.actions[action]
    if action == "chi_breath" and turn.walked:
        return Rejected("moved", "Chi Breath needs a turn without movement")
    formula = action_cost(book, action, abilities)
    if formula.has_dice:
        return Rejected("variable_cost", f"{a.name} has a rolled cost: start it with begin()")
    pools = {"draw": "draw"}.get(action, kind)
    paid = spend(turn, fixed_cost(book, formula), pools, abilities, what=a.name)  # type: ignore[arg-type]
    if isinstance(paid, Rejected) or not a.ends_turn:
        return attrs.evolve(paid, rooted=True) if action == "chi_breath" and not isinstance(paid, Rejected) else paid
    stored = paid.ap if action == "overwatch" else 0
    return attrs.evolve(end(paid), overwatch=stored, ended=True)


def begin(dice: Dice, book: Book, turn: TurnAp, actor: str, action: str, abilities: frozenset[str],
          target: str = "", disoriented: bool = False, option: str = "") -> tuple[TurnAp, Roll, bool] | Rejected:
    """Start a variable-cost action: roll its cost now; True if it completes this turn, else it continues."""
    refused = allowed(book, action, abilities, disoriented)
    if refused is not None:
        return refused
    if turn.ended:
        return Rejected("turn_over", "this entity has ended its actions for the turn")
    a = book.actions[action]
    formula = action_cost(book, action, abilities)
    if a.explode:
        count, sides = _dice_of(formula.text)
        roll = exploding(dice, actor, f"{a.name} AP", count, sides)
    else:
        roll = roll_formula(dice, actor, f"{a.name} AP", formula)
    if turn.ap >= roll.total:
        return attrs.evolve(turn, ap=turn.ap - roll.total, continuing=None), roll, True
    cont = Continuing(action=action, remaining=roll.total - turn.ap, target=target, option=option)
    return attrs.evolve(turn, ap=0, continuing=cont), roll, False


def _dice_of(text: str) -> tuple[int, int]:
    count, sides = text.strip().split("d")
    return int(count), int(sides)


def reaction(turn: TurnAp, cost: int) -> TurnAp | Rejected:
    """Overwatch fire during the enemy's turn, paid from the stored AP only."""
    if turn.overwatch < cost:
        return Rejected("no_ap", f"the reaction costs {cost} AP; {turn.overwatch} stored")
    return attrs.evolve(turn, overwatch=turn.overwatch - cost)


def broken(turn: TurnAp) -> TurnAp:
    """Being moved, Stunned, Unconscious or Disoriented breaks a continuing action."""
    return attrs.evolve(turn, continuing=None)
