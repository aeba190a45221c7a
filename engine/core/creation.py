"""Character creation as data: what a ruleset offers a player making a character, and what it makes.

A ruleset that lets players make characters returns a `Creation` from `Ruleset.creation()`. The client and the
roster (`engine/play/roster.py`) draw its `Form` (choices, numbers with their limits, a points budget), put each
change to `refusal`, show `preview`, and call `create` with dice; they never know a stat's name. What `create`
makes is the ruleset's own typed record (a frozen attrs class with a `name`), kept in `roster.toml` and in a log's
header, and deployed into a mission by `deploy`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import attrs

from engine.core.dice import Dice, Roll

if TYPE_CHECKING:  # annotations only
    from engine.content.models import Content
    from engine.core.model import State
    from engine.core.ruleset import Row


@attrs.frozen
class Choice:
    """One pick among named options: a race, a class, a varan type. `after`: drawn below the numbers (kit)."""

    id: str
    label: str
    options: tuple[tuple[str, str], ...]  # (id, what the player reads)
    value: str
    after: bool = False

    def shown(self) -> str:
        return dict(self.options).get(self.value, self.value)


@attrs.frozen
class Number:
    """A number the player sets, with its limits under the current choices; `low == high` is placed for them."""

    id: str
    label: str
    value: int
    low: int
    high: int
    note: str = ""  # after the range: "final 15 (+5 muton)"
    short: str = ""  # how a command line may write it ("Str")


@attrs.frozen
class Points:
    spent: int
    total: int

    @property
    def left(self) -> int:
        return self.total - self.spent


@attrs.frozen(kw_only=True)
class Form:
    """What the creation screen draws for a draft."""

    title: str  # after "New character — ": "Human (36 points)"
    choices: tuple[Choice, ...] = ()
    numbers: tuple[Number, ...] = ()
    points: Points | None = None  # None: nothing to spend (the numbers are rolled)


@attrs.frozen(kw_only=True)
class Draft:
    """A character being made: its name, the picks and the numbers set so far."""

    name: str = ""
    picks: dict[str, str] = attrs.field(factory=dict)
    numbers: dict[str, int] = attrs.field(factory=dict)

    def pick(self, choice: str, option: str) -> "Draft":
        return attrs.evolve(self, picks={**self.picks, choice: option})

    def set(self, number: str, value: int) -> "Draft":
        return attrs.evolve(self, numbers={**self.numbers, number: value})


@attrs.frozen
class Character:
    """A roster character: the ruleset it was made in and that ruleset's own record of it."""

    ruleset: str
    record: Any  # the ruleset's Creation.record class

    @property
    def name(self) -> str:
        return self.record.name


class Creation(Protocol):
    record: type  # the frozen attrs class `create` makes; it has a `name` field

    def draft(self, picks: dict[str, str] | None = None) -> Draft:
        """A fresh draft: these picks (the first option of the rest) and every number at its minimum."""

    def form(self, draft: Draft) -> Form:
        """The choices, the numbers with their limits and the points for this draft."""

    def refusal(self, draft: Draft, number: str, value: int) -> str | None:
        """Why setting `number` to `value` is refused, in one line ("strength 6: a sectoid has at most 5")."""

    def check(self, draft: Draft) -> list[str]:
        """Why the draft cannot be made yet (unknown picks, points unspent); empty when it can."""

    def preview(self, draft: Draft) -> tuple[Row, ...]:
        """What follows from the draft before any die: derived numbers, the HP range, guidelines."""

    def create(self, draft: Draft, dice: Dice) -> tuple[Any, tuple[Roll, ...]]:
        """The record, its dice drawn from `dice` and kept as rolls; call only when `check` is empty."""

    def validate(self, record: Any) -> list[str]:
        """What a loaded record asks that content does not hold, as messages after its location (`.race: ...`)."""

    def describe(self, record: Any, wide: bool = False) -> tuple[str, str]:
        """(kind, numbers) for one line of the roster screen: ("Human", "S7 A4 I6 B6 C4 L6 P3  HP 64  psi locked");
        `wide` for the command line's longer line ("Str 7 Agi 4 ...")."""

    def made(self, record: Any) -> str:
        """The roll that made it, as a player writes it ("hp (7-1)*10+4=64")."""

    def starters(self) -> tuple[Any, ...]:
        """The records of the ruleset's default squad pool, which a new campaign with no roster characters of the
        ruleset begins with (xxxzone: section 12's operatives); () when it begins with recruits `create` makes."""

    def places(self, mission_id: str) -> int:
        """How many roster characters a mission of this ruleset deploys (0: none)."""

    def deploy(self, mission_id: str, records: list[Any], alone: bool = False) -> Content:
        """The content of one mission with these records in its first squad places, in order. `alone`: the
        squad places they do not take are left empty (a campaign's squad is the one it sent), not kept for the
        mission's own characters; places an objective names (the VIP) stay."""

    def improve(self, record: Any, dice: Dice) -> tuple[Any, Roll] | str:
        """A between-missions roll (xcom-trpg 7.1: psi initiation), or why it cannot be made."""

    def train(self, record: Any, numbers: dict[str, int]) -> Any | str:
        """The record with numbers of its form set once it is made (annihilation: skill levels bought with the slots
        its rolled Education gives), or why not; a ruleset with nothing to set later says so."""

    def debrief(self, records: list[Any], state: State, dice: Dice) -> tuple[list[Any], tuple[Roll, ...]]:
        """The ruleset's roster records after a mission that ended in `state`, with the dice it rolls then
        (annihilation: stats and skills improved by use, ranks and promotion, the dead gone); a ruleset that
        keeps nothing of a mission returns them unchanged (`unchanged`)."""


def unchanged(records: list[Any]) -> tuple[list[Any], tuple[Roll, ...]]:
    """`Creation.debrief` of a ruleset whose characters a mission leaves as they were."""
    return list(records), ()


def repick(creation: Creation, draft: Draft, choice: str, option: str) -> tuple[Draft, list[str]]:
    """The draft under another option: each number kept where it still fits, else moved to the nearest limit; a
    number the old choice placed for the player goes back to the new minimum, and a pick the new option does not
    offer (a plasma rifle for a human) to the first option. Also the numbers lowered, in words."""
    old = {n.id: n for n in creation.form(draft).numbers}
    new = creation.draft({**draft.picks, choice: option})
    values, lowered = {}, []
    for n in creation.form(new).numbers:
        was = old.get(n.id)
        if was is None or was.low == was.high:
            values[n.id] = n.low
            continue
        values[n.id] = min(max(was.value, n.low), n.high)
        if values[n.id] < was.value:
            lowered.append(f"{n.id} {values[n.id]}")
    picks = dict(new.picks)
    for ch in creation.form(new).choices:  # a pick the new choice no longer offers falls back to the default
        if ch.id != choice and ch.id in picks and picks[ch.id] not in {k for k, _ in ch.options}:
            picks[ch.id] = ch.options[0][0]
    return attrs.evolve(new, name=draft.name, picks=picks, numbers=values), lowered
