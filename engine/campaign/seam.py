"""What a ruleset tells the campaign: its between-mission rules, as pure functions of records and dice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import attrs

from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.core.records import added

# Names for recruits, in the order they are given (the campaign's first squad, a ruleset's recruit order).
NAMES = ("Ash", "Bishop", "Cole", "Dana", "Ezra", "Flint", "Gale", "Hale", "Iris", "Jett", "Kane", "Lark",
         "Mace", "Nell", "Orin", "Pike")


@attrs.frozen
class Timer:
    """Something that finishes some days from now: a wound healed, a course done, a facility built."""

    days: int        # from the day it is set, >= 1
    key: str         # the ruleset's own id for it, unique in the campaign: "heal:sable:2", "train:sable:per"
    label: str       # for the calendar: "Sable's Severe wound heals"
    who: str = ""    # the character's name, or "" for the base


@attrs.frozen
class Order:
    """A player's between-mission decision for the ruleset: train, gamble, build, move, buy, assign..."""

    kind: str                    # "train", "gamble", "build", "move", "buy", "assign", "repair"...
    who: str = ""                # a character's name, or ""
    what: str = ""               # an attribute, ability, facility, item id...
    where: tuple[int, ...] = ()  # e.g. (layer, x, y, rotation) for a placement
    site: int = added(0)         # which of the ruleset's bases (0: the first); left out of the log while 0


@attrs.frozen
class Offer:
    """One thing the player may order now, for menus and the campaign AI."""

    order: Order
    label: str            # "Train Sable's Per 5→6 at the Firing Range (18 days)"
    cost: int = 0         # funding it takes now
    ai: bool = True       # the campaign AI's policy may give it (False: a player's choice only, e.g. a tenth
                          # Storage Room); a ruleset puts the offers it would give first first


class Unchanged:
    """The type of `UNCHANGED`: an Outcome that leaves the campaign's base as it is."""

    _one: "Unchanged | None" = None

    def __new__(cls) -> "Unchanged":
        if cls._one is None:
            cls._one = super().__new__(cls)
        return cls._one

    def __repr__(self) -> str:
        return "UNCHANGED"


UNCHANGED = Unchanged()


def _kept(base: Any) -> Any:
    """None is no base to set: a base is never taken away (an Outcome once erased it with its default None)."""
    return UNCHANGED if base is None else base


@attrs.frozen
class Outcome:
    """What a between-mission rule did. The campaign writes it to its log as one event."""

    records: tuple[Any, ...]          # the whole roster after, ruleset records in roster order
    base: Any = attrs.field(default=UNCHANGED, converter=_kept)  # the base after (a frozen attrs value), or
                                      # UNCHANGED (None reads as UNCHANGED): the campaign keeps the one it has
    funding: int = 0                  # change in funding (F): + income/refund, - cost
    timers: tuple[Timer, ...] = ()    # new timers
    cancel: tuple[str, ...] = ()      # keys of timers this cancels (a course broken off by a deployment)
    rolls: tuple[Roll, ...] = ()
    notes: tuple[str, ...] = ()       # one line per change, for the debrief/campaign screen, with its numbers:
                                      # "Sable: Severe wound heals in 4d8 = 3+5+1+7 = 16 days"
    dead: tuple[str, ...] = ()        # names who died (they stay dead: the campaign keeps them, never deploys them)


COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def square(x: int, y: int) -> str:
    """A square of a base's grid as the base screen labels it and refusals name it: its column letter and row
    number from 1 ("E5" is x 4, y 4)."""
    return f"{COLUMNS[x] if 0 <= x < len(COLUMNS) else '?'}{y + 1}"


@attrs.frozen
class Plot:
    """One layer of a base drawn as a grid, for the base screen (ruleset-neutral)."""

    name: str                                   # "Surface", "Excavation 1"
    rows: tuple[str, ...]                       # a char per square: "." open floor, " " not buildable, a letter per facility
    legend: tuple[tuple[str, str], ...] = ()    # (letter, "Runway" / "Firing Range (building: 3 days left)")


class Downtime(Protocol):
    """A ruleset's between-mission rules. Every method is pure: same arguments and dice, same Outcome."""

    funded: bool  # whether its campaign keeps funding (xcom-trpg's bonuses, xxxzone's F): shown only then

    def begin(self, records: tuple[Any, ...], dice: Dice) -> Outcome:
        """A new campaign: the starting base (or None), starting funding, any first timers."""

    def deploy_refusal(self, record: Any, base: Any, busy: Mapping[str, int]) -> str | None:
        """Why this character may not deploy now ("Sable is convalescing, 12 days left: 1 Severe Wound to heal"),
        or None. `busy` = keys of the timers still running, each with its days left (a character in a course
        may deploy; that breaks the course)."""

    def deploy_caveat(self, record: Any, base: Any, busy: Mapping[str, int]) -> str | None:
        """What deploying this character now would break off ("going breaks off Sable's course in Per 5→6, 6 days
        left"), or None: the squad pick shows it and asks to confirm; the campaign AI sends those without one
        first."""

    def debrief(self, records: tuple[Any, ...], base: Any, state: Any, deployed: tuple[str, ...],
                won: bool, dice: Dice) -> Outcome:
        """After a mission: `state` is the mission's final kernel State, `deployed` the names who went.
        Wounds kept, healing timers, experience, promotion, repairs, deaths, loot and funding."""

    def due(self, records: tuple[Any, ...], base: Any, timer: Timer, dice: Dice) -> Outcome:
        """A timer came due: a wound healed, a course ended (+1 Per), a facility finished, a binge ended."""

    def month(self, records: tuple[Any, ...], base: Any, dice: Dice) -> Outcome:
        """The first of each month: income, salaries, upkeep."""

    def offers(self, records: tuple[Any, ...], base: Any, funding: int,
               busy: Mapping[str, int]) -> tuple[Offer, ...]:
        """What the player may order now (possibly long for placements: the campaign AI picks from it)."""

    def order(self, records: tuple[Any, ...], base: Any, funding: int, busy: Mapping[str, int],
              order: Order, dice: Dice) -> Outcome | Rejected:
        """Carry out one order, or say why not (Rejected(code, one-line reason))."""

    def plots(self, base: Any, site: int = 0) -> tuple[Plot, ...]:
        """Base `site`'s layers as grids; () for a ruleset without a base."""

    def sites(self, base: Any) -> tuple[str, ...]:
        """The names of the campaign's bases, the first first ("Base 1", "Base 2"); () without a base."""

    def mission_params(self) -> dict[str, Any]:
        """What the campaign adds to each mission it launches, as `Game.new` keywords (xcom-trpg's
        `extra_turns`, 4.8); {} for none. It goes into the mission's header, never its content hash."""

    def placement(self, base: Any, facility: str, where: tuple[int, ...], moving: str = "",
                  site: int = 0) -> str | None:
        """Why placing `facility` at `where` (layer, x, y, rotation 0-3) in base `site` is refused, or None if it
        fits; `moving`: the key of a facility moved there (then `facility` is the one it is, or ""). The same pure function `order` uses for "build"/"move":
        the base screen previews with it."""

    def footprint(self, base: Any, order: Order) -> frozenset[tuple[int, int, int]]:
        """The squares (layer, x, y) a build or move order's facility takes at its `where`, for the base screen's
        preview (frozenset() for anything else)."""

    def moves(self, base: Any, site: int = 0) -> tuple[Offer, ...]:
        """A move order for each facility of base `site` that may be moved, at the spot where it stands, labelled
        with its name: where the base screen starts moving it from (never among `offers`: moving a facility to where
        it stands is no plan the campaign AI should take)."""


def died(state: Any, deployed: tuple[str, ...]) -> tuple[str, ...]:
    """The deployed characters the mission's final kernel State holds dead, in `deployed` order: a squad unit
    carries its character's name, on the side that moves first (engine.content.missions.SIDES)."""
    squad = state.sides[0]
    dead = {u.name for u in state.units.values() if u.side == squad and u.status == "dead"}
    return tuple(name for name in deployed if name in dead)


class Baseless:
    """The answers of a downtime with no base, no monthly funding and no orders: a ruleset's downtime inherits
    what its rules lack, with its `title` and, for a refused order, its `refuse_order` words."""

    title: str
    funded = False

    def refuse_order(self, order: Order) -> str:
        return f"{self.title} has no orders between missions yet"

    def deploy_caveat(self, record: Any, base: Any, busy: Mapping[str, int]) -> str | None:
        return None  # nothing runs that a mission would break off

    def month(self, records: tuple[Any, ...], base: Any, dice: Dice) -> Outcome:
        return Outcome(records=tuple(records), base=base)

    def offers(self, records: tuple[Any, ...], base: Any, funding: int,
               busy: Mapping[str, int]) -> tuple[Offer, ...]:
        return ()

    def order(self, records: tuple[Any, ...], base: Any, funding: int, busy: Mapping[str, int],
              order: Order, dice: Dice) -> Outcome | Rejected:
        return Rejected("no_orders", self.refuse_order(order))

    def plots(self, base: Any, site: int = 0) -> tuple[Plot, ...]:
        return ()

    def sites(self, base: Any) -> tuple[str, ...]:
        return ()

    def mission_params(self) -> dict[str, Any]:
        return {}

    def placement(self, base: Any, facility: str, where: tuple[int, ...], moving: str = "",
                  site: int = 0) -> str | None:
        return f"{self.title} has no base"

    def footprint(self, base: Any, order: Order) -> frozenset[tuple[int, int, int]]:
        return frozenset()

    def moves(self, base: Any, site: int = 0) -> tuple[Offer, ...]:
        return ()


class Standard(Baseless):
    """The downtime of a ruleset that has none of its own yet: no base, no funding, no orders; nobody is refused;
    after a mission its `Creation.debrief` (annihilation's experience and promotion) and the dead kept dead."""

    def __init__(self, ruleset: Any) -> None:
        self.ruleset = ruleset
        self.title = ruleset.title

    def begin(self, records: tuple[Any, ...], dice: Dice) -> Outcome:
        return Outcome(records=tuple(records))

    def deploy_refusal(self, record: Any, base: Any, busy: Mapping[str, int]) -> str | None:
        return None

    def debrief(self, records: tuple[Any, ...], base: Any, state: Any, deployed: tuple[str, ...],
                won: bool, dice: Dice) -> Outcome:
        creation = self.ruleset.creation()
        kept, rolls = (list(records), ()) if creation is None else creation.debrief(list(records), state, dice)
        after = {r.name: r for r in kept}
        fallen = died(state, deployed)
        out = tuple(after.get(r.name, r) for r in records)  # the dead keep their last record, marked dead
        notes = tuple(f"{name}: killed in action" for name in fallen)
        notes += tuple(f"{r.actor}: {r.purpose}, {r.formula}" for r in rolls)
        return Outcome(records=out, base=base, rolls=tuple(rolls), notes=notes, dead=fallen)

    def due(self, records: tuple[Any, ...], base: Any, timer: Timer, dice: Dice) -> Outcome:
        return Outcome(records=tuple(records), base=base)
