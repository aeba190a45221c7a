"""Inventory (section 12): where items are carried, what each place holds, the TU of moving them (A-12.5),
reloading (A-12.5, A-16.2), priming (A-12.6) and encumbrance (A-12.7)."""

from __future__ import annotations

from typing import Literal

import attrs

from engine.core.commands import Rejected
from engine.core.records import added, lean
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.moves import Price
from engine.rules.annihilation.schema import SIZES, boxes

Place = Literal["right_hand", "left_hand", "both_hands", "strap_1", "strap_2", "both_straps", "shoulder_left",
                "shoulder_right", "leg_left", "leg_right", "belt", "backpack", "bag", "floor"]
HANDS = ("right_hand", "left_hand")
ARM_OF = {"right_hand": "right_arm", "left_hand": "left_arm"}
STRAPS = ("strap_1", "strap_2", "both_straps")
_COST_NAME = {"shoulder_left": "shoulder", "shoulder_right": "shoulder", "leg_left": "leg", "leg_right": "leg",
              "belt": "belt", "backpack": "backpack", "bag": "backpack", "floor": "floor"}
MANY = ("belt", "backpack", "bag", "floor")  # places that hold any number of things


@lean
@attrs.frozen
class Carried:
    """One thing carried: a weapon (with what is loaded), a clip, an explosive, an item."""

    id: str  # weapons, ammo, explosives or items id; a clip is "clip:<weapon id>"
    size: str
    place: Place
    loaded: str | None = None  # a weapon's round: "clip:<weapon>", an ammo.toml id, an explosives.toml id
    rounds: int = 0
    gripped: tuple[str, ...] = ()  # the hands holding a strapped item; () while it hangs
    doses: tuple[tuple[str, int], ...] = added(())  # a medical kit's doses left, by kind (section 13)
    primed: int | None = added(None)  # a primed grenade held ready: the turn it goes off at its side's phase end
    sights: tuple[str, ...] = added(())  # items.toml sights fitted to a weapon: no boxes of their own


def hands_holding(item: Carried) -> tuple[str, ...]:
    """The hands an item is held in: its own hand place, both, or the hands gripping it on its strap."""
    if item.place in HANDS:
        return (item.place,)
    if item.place == "both_hands":
        return HANDS
    return item.gripped


def _taken(carried: list[Carried], but: Carried | None = None) -> set[str]:
    """Every place in use, with both hands (straps) for an item held in both, and the hands gripping straps."""
    taken: set[str] = set()
    for c in carried:
        if c is but:
            continue
        taken.add(c.place)
        taken.update(hands_holding(c))
        if c.place == "both_straps":
            taken.update(("strap_1", "strap_2"))
    return taken


def size_of(book: Book, thing: str) -> str:
    """A-12.1, A-15.4: the size letter of a weapon, clip, round, explosive or item."""
    if thing.startswith("clip:"):
        return book.weapons[thing[5:]].clip_size
    for table in (book.weapons, book.explosives, book.items):
        if thing in table:
            return table[thing].size
    return book.weapons[book.ammo[thing].weapon].clip_size  # a cannon shell clip or a rocket


def encumbrance(book: Book, carried: list[Carried], armour: str, strength: int) -> tuple[int, int, int]:
    """A-12.7: boxes (every item not on the floor, plus the armour's weight), relief `floor(0.20 × (Str +
    armour bonus))`, and ENC = max(0, boxes − relief)."""
    a = book.armour[armour]
    total = sum(boxes(c.size) for c in carried if c.place != "floor") + a.weight
    relief = book.value("relief", strength=strength, armour_strength=a.strength)
    return total, relief, max(0, total - relief)


def _larger(size: str, than: str) -> bool:
    return SIZES.index(size) > SIZES.index(than)


def fits(book: Book, carried: list[Carried], item: Carried, lost: tuple[str, ...] = (),
         harness: bool = False) -> Rejected | None:
    """A-12.3: one hand holds up to H, bigger needs both; the belt only up to C; two straps up to F each or one
    item up to H on both; other places have no limit but encumbrance. A place holds one thing, but the belt,
    backpack, a strapped bag (A-12.4: up to its boxes) and the floor hold any number. The hand of a `lost` arm
    holds nothing (A-19.5). A worn `harness` takes the place of both straps, for one item of any size."""
    st = book.settings
    taken = _taken(carried, item)
    place = item.place
    if any(ARM_OF[h] in lost for h in hands_holding(item)):
        return Rejected("arm_lost", "That hand is gone")
    if place == "bag":
        bags = [c for c in carried if book.items.get(c.id) and book.items[c.id].holds and c.place in STRAPS]
        room = sum(book.items[b.id].holds for b in bags)
        inside = sum(boxes(c.size) for c in carried if c.place == "bag" and c is not item)
        if inside + boxes(item.size) > room:
            return Rejected("bag_full", f"Strapped bags: {inside} of {room} boxes taken")
    if place in HANDS and _larger(item.size, st.hand_size_max):
        return Rejected("too_big", f"Size {item.size} needs both hands")
    if place == "belt" and _larger(item.size, st.belt_size_max):
        return Rejected("too_big", f"The belt takes nothing above size {st.belt_size_max}")
    if place in ("strap_1", "strap_2") and harness:
        return Rejected("harness", "The strap, gyro and pad system takes both straps (A-12.3)")
    if place in ("strap_1", "strap_2") and _larger(item.size, st.strap_size_max):
        return Rejected("too_big", f"One strap takes up to size {st.strap_size_max}; use both straps")
    if place == "both_straps" and _larger(item.size, st.strap_pair_size_max) and not harness:
        return Rejected("too_big", "Larger items hang from the strap, gyro and pad system")
    needs = {"both_hands": set(HANDS), "both_straps": {"strap_1", "strap_2"}}.get(place, {place})
    if place not in MANY and needs & taken:
        return Rejected("occupied", f"{place.replace('_', ' ')} already holds something")
    return None


def move_price(book: Book, carried: list[Carried], item: Carried, to: Place,
               lost: tuple[str, ...] = (), harness: bool = False) -> Rejected | Price:
    """A-12.5: a move into or out of a hand at its cost; between two other places through a free hand, at the
    sum of both moves (belt → backpack = 4 + 18); a strap is put on or taken off at its cost; a strapped bag is
    reached at backpack costs (A-12.4)."""
    src = item.place
    if src == to:
        return Price(0, 0, "")
    moved = attrs.evolve(item, place=to)
    bad = fits(book, carried, moved, lost, harness)
    if bad:
        return bad
    held = HANDS + ("both_hands",)
    if src in held and to in held:  # to the other hand, or between one hand and both: "hand → other hand"
        return Price(book.costs["hand_to_hand"].tu, 0, "hand_to_hand")
    if ("strap" in src or "strap" in to) and (src in held or to in held):
        return Price(book.costs["strap_on_off"].tu, 0, "strap_on_off")
    if src in HANDS + ("both_hands",):
        key = f"hand_to_{_COST_NAME[to]}"
        return Price(book.costs[key].tu, 0, key)
    if to in HANDS + ("both_hands",):
        key = f"{_COST_NAME[src]}_to_hand"
        return Price(book.costs[key].tu, 0, key)
    if not free_hand(carried, lost):
        return Rejected("hands_full", "Moving it needs a free hand")
    first = "strap_on_off" if "strap" in src else f"{_COST_NAME[src]}_to_hand"
    second = "strap_on_off" if "strap" in to else f"hand_to_{_COST_NAME[to]}"
    return Price(book.costs[first].tu + book.costs[second].tu, 0, f"{first} + {second}")


def harnessed(item: Carried, harness: bool) -> bool:
    """A-12.3: a size I/J weapon fires only from a worn harness: on both straps, gripped in both hands."""
    return harness and item.place == "both_straps" and len(item.gripped) == 2


def free_hand(carried: list[Carried], lost: tuple[str, ...] = ()) -> str | None:
    taken = _taken(carried) | {h for h in HANDS if ARM_OF[h] in lost}
    return next((h for h in HANDS if h not in taken), None)


def grip(book: Book, carried: list[Carried], item: Carried, hands: tuple[str, ...]) -> Rejected | Price:
    """A-12.4: grab a hanging strapped item with free hands (one, or both for two-handed use), 1 TU; it stays on
    its strap. Releasing it (`hands` empty) costs the same and frees the hands."""
    if item.place not in STRAPS:
        return Rejected("not_strapped", "Only a strapped item is gripped or released")
    if hands and (item.gripped or _taken(carried, item) & set(hands)):
        return Rejected("hands_full", "Gripping it needs those hands free")
    if not hands and not item.gripped:
        return Rejected("not_gripped", "It already hangs free")
    return Price(book.costs["grab_release_strap"].tu, 0, "grab_release_strap")


def drop_held(carried: list[Carried], hands: tuple[str, ...] = HANDS) -> list[Carried]:
    """A-19.5, A-19.10: a lost arm's hand, or an unconscious character's hands, let go: what they held falls to the
    floor (an item in both hands falls if either lets go)."""
    return [attrs.evolve(c, place="floor") if c.place in hands or (c.place == "both_hands" and hands) else c
            for c in carried]


def reload_price(book: Book, carried: list[Carried], weapon: Carried, clip: Carried) -> Rejected | Price:
    """A-12.5, A-12.6, A-16.2: the weapon in one hand, the clip brought to the other (which must be free of
    anything else), then load; a weapon holding another ammunition type is unloaded first; lasers never reload
    (A-15.3)."""
    w = book.weapons[weapon.id]
    if w.feed == "charges":
        return Rejected("no_reload", f"The {w.name} is not clip-fed; it recharges between missions")
    if weapon.place not in HANDS:
        return Rejected("not_in_hand", "The weapon must be in a hand to load it")
    other = HANDS[1 - HANDS.index(weapon.place)]
    if other in _taken([c for c in carried if c is not clip]):
        return Rejected("hands_full", "Loading needs the other hand free for the clip")
    tu, steps = 0, []
    if clip.place != other:
        got = move_price(book, [c for c in carried if c is not clip], clip, other)
        if isinstance(got, Rejected):
            return got
        tu, steps = got.tu, [got.text]
    if weapon.loaded is not None and weapon.loaded != clip.id:
        tu += book.costs["unload"].tu
        steps.append("unload")
    tu += book.costs["load"].tu
    return Price(tu, 0, " + ".join(steps + ["load"]))


def prime_price(book: Book, carried: list[Carried], grenade: Carried, tu_turn: int) -> Rejected | Price:
    """A-12.6, A-17.7: priming needs the explosive in one hand and the other hand free; 50% of the allowance."""
    if grenade.place not in HANDS:
        return Rejected("not_in_hand", "Priming needs the explosive in a hand")
    other = HANDS[1 - HANDS.index(grenade.place)]
    if other in _taken(carried, grenade):
        return Rejected("hands_full", "Priming needs both hands")
    return Price(book.cost("prime", tu_turn), 0, "prime")
