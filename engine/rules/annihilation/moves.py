"""Time units and energy in play: paying for things (A-8.3), movement costs (section 9), stances (section 10).

Every cost is looked up in costs.toml and terrain.toml; nothing here repeats a number.
"""

from __future__ import annotations

from typing import Literal

import attrs

from engine.core import records
from engine.core.commands import Rejected
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.fighter import Fighter, Stance
from engine.rules.annihilation.space import turn_steps

StepKind = Literal["walk", "stairs_up", "stairs_down", "climb_up", "climb_down", "jump", "fly", "hover_up",
                   "hover_down"]
_FIXED = {"stairs_up": "stairs_up", "stairs_down": "stairs_down", "climb_up": "climb_up",
          "climb_down": "climb_down", "jump": "jump", "hover_up": "hover", "hover_down": "hover"}
_DOING = {"walk": "walk", "stairs_up": "go up stairs", "stairs_down": "go down stairs", "climb_up": "climb up",
          "climb_down": "climb down", "jump": "jump", "fly": "fly", "hover_up": "hover up", "hover_down": "hover down"}
STANCES: tuple[Stance, ...] = ("standing", "kneeling", "prone")
_STANCE_COST = {("standing", "kneeling"): "stand_to_kneel", ("kneeling", "standing"): "kneel_to_stand",
                ("kneeling", "prone"): "kneel_to_prone", ("prone", "kneeling"): "prone_to_kneel"}


@attrs.frozen
class Step:
    """One square entered: how (a walk, a stair, a climb, a jump, a flight), diagonally or not, onto what."""

    kind: StepKind = "walk"
    diagonal: bool = False
    terrain: str = "level"  # terrain.toml id of the square entered


@attrs.frozen
class Price:
    tu: int
    energy: int
    text: str = ""


def flies(book: Book, f: Fighter) -> bool:
    """9.2: flying and hovering need flying armour (armour.toml `flying`) or a natively flying unit (none is defined:
    A-21.2)."""
    return book.armour[f.character.armour].flying


def pay(f: Fighter, price: Price, what: str) -> Rejected | Fighter:
    """A-8.3, A-8.4: no action whose cost exceeds the TUs left, no energy-draining move without the Energy."""
    if price.tu > f.tu_left:
        return Rejected("no_tu", f"{what} costs {price.tu} TU; {f.tu_left} left")
    if price.energy > f.energy:
        return Rejected("no_energy", f"{what} needs {price.energy} Energy; {f.energy} left")
    return records.evolve(f, {"tu_left": f.tu_left - price.tu, "energy": f.energy - price.energy})  # each step


def step_price(book: Book, step: Step, *, crawling: bool = False, fly_costs: dict[str, int] | None = None) -> Price:
    """Section 9 for one step. Terrain modifiers only on walking steps (A-9.1); flying and hovering drain no Energy
    and ignore terrain (9.2); `fly_costs` are a faster unit type's own fly costs (9.2 footnote); a legless
    character crawls at `crawl_multiplier` × the walking cost (A-10.2); the hex variant has one step cost (A-9.3)."""
    hexes = book.settings.grid == "hex"
    if step.kind == "walk":
        key = "hex_walk" if hexes else ("walk_diagonal" if step.diagonal else "walk")
        tu = book.costs[key].tu + book.terrain[step.terrain].modifier
        if crawling:
            tu *= book.settings.crawl_multiplier
        return Price(tu, tu if book.costs[key].energy else 0, f"{key} {book.costs[key].tu} + {step.terrain} "
                     f"{book.terrain[step.terrain].modifier}" + (" ×2 crawling" if crawling else ""))
    if step.kind == "fly":
        key = "hex_fly" if hexes else ("fly_diagonal" if step.diagonal else "fly")
        tu = (fly_costs or {}).get(key, book.costs[key].tu)
        return Price(tu, 0, key)
    c = book.costs[_FIXED[step.kind]]
    return Price(c.tu, c.tu if c.energy else 0, step.kind)


def walk(book: Book, f: Fighter, steps: list[Step], *, flyer: bool = False,
         fly_costs: dict[str, int] | None = None) -> Rejected | tuple[Fighter, list[Price]]:
    """Pay a path step by step; a step that cannot be paid rejects the path there (A-8.3: no partial action).
    Walking, climbing, jumping and flying need the Standing stance; a character without a leg crawls prone
    (A-10.2); flying and hovering need flying armour or a flying unit (9.2)."""
    if f.status != "awake":
        return Rejected("not_now", f"The character is {f.status}: it cannot move")
    legless = any(book.body[p].part == "leg" for p in f.lost)
    crawling = legless and f.stance == "prone"
    prices: list[Price] = []
    for i, step in enumerate(steps):
        if step.kind in ("fly", "hover_up", "hover_down") and not flyer:
            return Rejected("cannot_fly", "Flying needs flying armour or a flying unit")
        if f.stance != "standing" and not (crawling and step.kind == "walk"):
            return Rejected("not_standing", f"A {f.stance} character cannot {_DOING[step.kind]}")
        price = step_price(book, step, crawling=crawling, fly_costs=fly_costs)
        paid = pay(f, price, f"step {i + 1} ({step.kind})")
        if isinstance(paid, Rejected):
            return paid
        f = paid
        prices.append(price)
    return f, prices


def stance_price(book: Book, f: Fighter, to: Stance) -> Rejected | Price:
    """A-10.1: Standing ↔ Prone passes through Kneeling; no Energy. A legless character cannot stand (A-10.2)."""
    if to == "standing" and any(book.body[p].part == "leg" for p in f.lost):
        return Rejected("no_leg", "Without a leg the character cannot stand")
    here, there = STANCES.index(f.stance), STANCES.index(to)
    way = 1 if there > here else -1
    keys = [_STANCE_COST[(STANCES[i], STANCES[i + way])] for i in range(here, there, way)]
    return Price(sum(book.costs[k].tu for k in keys), 0, " + ".join(keys))


def turn_price(book: Book, facing: int, towards: int) -> Price:
    """A-9.3, A-9.4: 1 TU per facing step turned in place (a move step turns for free)."""
    directions = 6 if book.settings.grid == "hex" else 8
    n = turn_steps(facing, towards, directions)
    return Price(n * book.costs["turn"].tu, 0, f"{n} facing steps")


def action_price(book: Book, f: Fighter, key: str) -> Price:
    """Section 11 and A-12.5 actions: fixed TU or a share of this turn's allowance; never Energy."""
    return Price(book.cost(key, f.tu_turn), 0, key)
