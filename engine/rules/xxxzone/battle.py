"""One entity in battle as this ruleset keeps it: the typed record a Unit would carry for xxxzone (its numbers,
condition, armour HP, hands, aim, facing), with hands (4), Aim (4, 6.7) and the values the attack needs.

Hands (Interpretation): one weapon, or two pistols with Akimbo; Draw and Stow cost 1 AP each; a grenade whose pin
is pulled and that is still in hand at the end of its holder's turn explodes in the holder's square.
"""

from __future__ import annotations

import attrs

from engine.core.commands import Rejected
from engine.core.geometry import Pos, distance
from engine.core import records
from engine.core.records import added, lean, record
from engine.rules.xxxzone.actions import TurnAp
from engine.rules.xxxzone.attack import CoverPiece, Defence
from engine.rules.xxxzone.book import Book
from engine.rules.xxxzone.character import Burden, Operative, derive, encumbrance, weapons_of
from engine.rules.xxxzone.modifiers import Shooter, shooter_of
from engine.rules.xxxzone.wounds import Condition, Vitals, penalty, vitals_of


@attrs.frozen(kw_only=True)
class Held:
    item: str
    rounds: int = 0  # in a gun
    ammo: str = ""  # the ammo item loaded (incendiary shells set targets on fire)
    primed: bool = False  # a grenade with its pin pulled


@attrs.frozen(kw_only=True)
class Aim:
    target: str
    stacks: int = 1


@attrs.frozen(kw_only=True)
class Watch:
    """Overwatch: the weapon mode a reaction fires (its stored AP are on the turn)."""

    weapon: str
    mode: str


@record("xxxzone.combatant")  # what Unit.record will carry once the ruleset plays
@lean  # fields added since logs were written with it drop out of the dump while at their default
@attrs.frozen(kw_only=True, slots=False)  # a __dict__: records.evolve copies it in one step
class Combatant:
    op: Operative
    side: str
    at: Pos
    facing: Pos = (0, -1)
    armour_hp: int
    hands: tuple[Held, ...] = ()
    belt: tuple[str, ...] = ()  # drawable items carried, one entry each
    magazines: tuple[tuple[str, int], ...] = ()  # ammo item -> how many carried (they take no belt slot)
    condition: Condition = Condition()
    aim: Aim | None = None
    hunkered: bool = False
    chi_breath: bool = False
    disabled: tuple[str, ...] = ()  # weapons a Disabling Shot made unusable (a tuple: records are plain values)
    conspicuous: bool = False
    turn: TurnAp = TurnAp(ap=0, maximum=0)  # this turn's AP, pools, stored overwatch AP, continuing action
    watch: Watch | None = None
    medkit_used: int = added(0)  # uses taken from the med-kit in use (it is spent when they reach its uses)
    panic: str = added("")  # a civilian's: "panicking" (it runs), "calm" (Calming Aura: for good), "" (panic.py)
    inspirable: bool = added(False)  # a unit of its side has Inspire Allies: its failed Will tests are kept
    marking: str = added("")  # Mark Target: the enemy it keeps marked for its allies (+20) until it loses focus
    shed: float = added(0.0)  # kg its kit changed by in battle: items dropped or handed over (-), picked up (+)

    @property
    def id(self) -> str:
        return self.op.id


def deploy(book: Book, op: Operative, side: str, at: Pos) -> Combatant:
    """Start of a battle: full armour, the chosen weapon drawn and loaded, the rest of the kit on the belt."""
    hands: list[Held] = []
    belt: list[str] = []
    mags: dict[str, int] = {}
    for e in op.kit:
        if e.spares:
            ammo = book.weapons[e.item].ammo[0]
            mags[ammo] = mags.get(ammo, 0) + e.spares
        for _ in range(e.count):
            if e.item in book.items and book.items[e.item].kind == "ammo":
                mags[e.item] = mags.get(e.item, 0) + 1
            elif e.item == op.drawn and not hands:
                hands.append(loaded(book, e.item))
            else:
                belt.append(e.item)
    ap = derive(op, book).action_points
    return Combatant(op=op, side=side, at=at, armour_hp=book.armour[op.armour].hp, hands=tuple(hands),
                     belt=tuple(belt), magazines=tuple(mags.items()), turn=TurnAp(ap=0, maximum=ap))


def reload(book: Book, c: Combatant, weapon: str, ammo: str = "") -> Combatant | Rejected:
    """Reload (the weapon's Reload AP, paid by the caller) from one carried magazine of a kind it takes; it also
    clears a Disabling Shot's hold on that weapon."""
    held = next((h for h in c.hands if h.item == weapon), None)
    w = book.weapons.get(weapon)
    if held is None or w is None or not w.ammo:
        return Rejected("not_in_hand", f"{c.op.name} holds no weapon that reloads")
    mags = dict(c.magazines)
    kind = ammo or next((a for a in w.ammo if mags.get(a)), "")
    if kind not in w.ammo or not mags.get(kind):
        return Rejected("no_magazine", f"{c.op.name} carries no magazine for the {w.name}")
    mags[kind] -= 1
    load = book.items[kind].rounds
    rounds = min(w.capacity, held.rounds + 1 if load == 1 else load)  # a loose round adds one; a magazine replaces
    hands = tuple(attrs.evolve(h, rounds=rounds, ammo=kind) if h is held else h for h in c.hands)
    return records.evolve(c, {"hands": hands, "magazines": tuple((k, n) for k, n in mags.items() if n),
                              "disabled": tuple(w for w in c.disabled if w != weapon)})


def can_hold(book: Book, c: Combatant, item: str) -> Rejected | None:
    """One thing in hand, or two pistols with Akimbo."""
    if not c.hands:
        return None
    pistols = [h for h in c.hands if h.item in book.weapons and book.weapons[h.item].pistol]
    if (len(c.hands) == 1 and pistols and item in book.weapons and book.weapons[item].pistol
            and "akimbo" in c.op.abilities):
        return None
    return Rejected("hands_full", f"{c.op.name} has no free hand: stow the {book.gear(c.hands[0].item).name} first")


def draw(book: Book, c: Combatant, item: str) -> Combatant | Rejected:
    if item not in c.belt:
        return Rejected("not_carried", f"{c.op.name} carries no {book.gear(item).name} on the belt")
    refused = can_hold(book, c, item)
    if refused is not None:
        return refused
    belt = list(c.belt)
    belt.remove(item)
    return attrs.evolve(c, hands=c.hands + (loaded(book, item),), belt=tuple(belt))


def loaded(book: Book, item: str) -> Held:
    """An item taken in hand; a weapon comes loaded with its first ammo (11.5: weapons start loaded)."""
    w = book.weapons.get(item)
    if w is None:
        return Held(item=item)
    return Held(item=item, rounds=w.capacity, ammo=w.ammo[0] if w.ammo else "")


def stow(book: Book, c: Combatant, item: str) -> Combatant | Rejected:
    held = next((h for h in c.hands if h.item == item), None)
    if held is None:
        return Rejected("not_in_hand", f"{c.op.name} holds no {book.gear(item).name}")
    if held.primed:
        return Rejected("primed", "a primed grenade cannot go back on the belt")
    hands = list(c.hands)
    hands.remove(held)
    return attrs.evolve(c, hands=tuple(hands), belt=c.belt + (item,))


def burden(book: Book, c: Combatant) -> Burden:
    """Section 2's encumbrance of what it carries now: its kit, less what it put down, plus what it took."""
    return encumbrance(c.op, book, c.shed)


def weight(book: Book, item: str) -> float:
    return book.gear(item).weight if item in book.items or item in book.weapons else 0.0


def give(book: Book, giver: Combatant, taker: Combatant, item: str) -> tuple[Combatant, Combatant] | Rejected:
    """Interact (Interpretation): hand the item in hand to an adjacent ally, who must have a hand free for it."""
    held = next((h for h in giver.hands if h.item == item), None)
    if held is None:
        return Rejected("not_in_hand", f"{giver.op.name} holds no {book.gear(item).name}")
    if giver.side != taker.side or distance(giver.at, taker.at) > 1:
        return Rejected("not_adjacent", "an item is handed only to an adjacent ally")
    refused = can_hold(book, taker, item)
    if refused is not None:
        return refused
    hands = list(giver.hands)
    hands.remove(held)
    kg = weight(book, item)
    return (attrs.evolve(giver, hands=tuple(hands), shed=giver.shed - kg),
            attrs.evolve(taker, hands=taker.hands + (held,), shed=taker.shed + kg))


def prime(book: Book, c: Combatant, item: str) -> Combatant | Rejected:
    """Interact: pull a grenade's pin."""
    held = next((h for h in c.hands if h.item == item and not h.primed), None)
    if held is None or book.items.get(item) is None or book.items[item].kind != "grenade":
        return Rejected("no_grenade", f"{c.op.name} holds no unprimed grenade of that kind")
    hands = tuple(attrs.evolve(h, primed=True) if h is held else h for h in c.hands)
    return attrs.evolve(c, hands=hands)


def primed_left(c: Combatant) -> tuple[str, ...]:
    """End of the holder's turn: the primed grenades still in hand, which now explode in its square."""
    return tuple(h.item for h in c.hands if h.primed)


def aim(book: Book, c: Combatant, target: str) -> Combatant:
    """+20 per stack against one target; Sniper stacks up to 1 + floor(Agi/2); a new target starts over."""
    most = 1 + c.op.effective("agility") // 2 if c.op.has("sniper") else 1
    stacks = min(most, c.aim.stacks + 1) if c.aim is not None and c.aim.target == target else 1
    return records.evolve(c, {"aim": Aim(target=target, stacks=stacks)})


def after_move(c: Combatant, to: Pos, quickly: bool) -> Combatant:
    """Moving Quickly cancels Aim and makes the mover conspicuous; Moving Cautiously keeps Aim."""
    facing = ((to[0] > c.at[0]) - (to[0] < c.at[0]), (to[1] > c.at[1]) - (to[1] < c.at[1]))
    return records.evolve(c, {"at": to, "facing": facing, "aim": None if quickly else c.aim,  # a step: kept cheap
                              "conspicuous": c.conspicuous or quickly})


def after_attack(c: Combatant, target: str) -> Combatant:
    """Shooting at another target ends the Aim; Sniper's stacks serve one shot, later ones count as one Aim."""
    if c.aim is None or c.aim.target != target:
        return records.evolve(c, {"aim": None})
    return records.evolve(c, {"aim": Aim(target=target, stacks=1)})


def unjam(c: Combatant, weapon: str) -> Combatant:
    """A Disabling Shot's hold ends once the weapon's Reload AP are spent on it (the caller pays them)."""
    return attrs.evolve(c, disabled=tuple(w for w in c.disabled if w != weapon))


def shooter(book: Book, c: Combatant) -> Shooter:
    return shooter_of(c.op, book, wound_penalty=penalty(book, c.condition.wounds),
                      disoriented=bool(c.condition.disoriented))


def vitals(book: Book, c: Combatant) -> Vitals:
    v = vitals_of(c.op, book)
    return attrs.evolve(v, notes_fails=True) if c.inspirable else v


def defence(book: Book, c: Combatant, cover: tuple[CoverPiece, ...] = (),
            extra_dr: tuple[tuple[str, int], ...] = ()) -> Defence:
    return Defence(id=c.id, agility=c.op.effective("agility"), endurance=c.op.effective("endurance"),
                   armour_dr=book.armour[c.op.armour].dr, armour_hp=c.armour_hp, extra_dr=extra_dr,
                   hunkered=c.hunkered, cover=cover)


def max_ap(book: Book, c: Combatant) -> int:
    return derive(c.op, book).action_points


def attacks_with(book: Book, c: Combatant) -> tuple[str, ...]:
    """The weapons it may attack with now: those in hand, and what needs no hand (Iron Fist, bare hands)."""
    free = [w for w in weapons_of(c.op, book) if book.weapons[w].unarmed]
    return tuple(dict.fromkeys([h.item for h in c.hands if h.item in book.weapons] + free))
