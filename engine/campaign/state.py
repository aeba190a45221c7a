"""A campaign's state and its events: the state is a pure fold of the events, as a mission's is.

The campaign keeps the ruleset's records, its base, funding, the day and the running timers; it never looks
inside a record or a base (the ruleset's `Downtime` does, engine.campaign.seam). Days count from 0, the day the
campaign begins; a month is 30 days (day 30, 60, ... is the first of a month).
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.campaign.seam import UNCHANGED, Outcome, Timer
from engine.core.dice import Roll

MONTH = 30  # days: a 30-day month keeps the calendar plain


@attrs.frozen
class Running:
    """A timer set by the ruleset and the day it comes due."""

    timer: Timer
    due: int


@attrs.frozen
class Posting:
    """A mission on offer: `id` names it in the campaign ("m3"); gone on its `deadline` day if nobody flew it."""

    id: str
    mission: str  # a content mission id
    day: int  # the day it was offered
    deadline: int


@attrs.frozen
class Flight:
    """A mission launched from the campaign: its log (a file in the campaign folder) and, once debriefed, its end."""

    offer: Posting
    squad: tuple[str, ...]  # the names deployed, in squad order
    log: str  # the mission log's file name
    record: int  # the campaign record that launched it
    won: bool = False
    result: str = ""  # the mission's own words for its end ("all aliens dead")
    hash: str = ""  # sha256 of the mission log's last line ("" for a mission played in memory)


@attrs.frozen
class Campaign:
    ruleset: str
    day: int = 0
    funding: int = 0
    records: tuple[Any, ...] = ()
    base: Any = None
    timers: tuple[Running, ...] = ()
    offers: tuple[Posting, ...] = ()
    next_offer: int = 0  # the day the next mission is offered (0: not scheduled yet)
    serial: int = 0  # missions offered so far
    flying: Flight | None = None  # launched, not debriefed yet
    flown: tuple[Flight, ...] = ()
    dead: tuple[str, ...] = ()
    missed: tuple[Posting, ...] = ()
    begun: bool = False

    @property
    def busy(self) -> dict[str, int]:
        """The running timers' keys, each with the days left until it comes due (a refusal can say how long)."""
        return {r.timer.key: r.due - self.day for r in self.timers}

    def living(self) -> tuple[Any, ...]:
        return tuple(r for r in self.records if r.name not in self.dead)

    def offer(self, offer_id: str) -> Posting | None:
        return next((p for p in self.offers if p.id == offer_id), None)


# -- events: each carries the rolls that made it ---------------------------------------------------------


@attrs.frozen
class Recruited:
    """Characters made for the campaign by their ruleset's creation rules."""

    records: tuple[Any, ...]
    rolls: tuple[Roll, ...] = ()


@attrs.frozen
class Dawn:
    """Days went by: it is now `day`."""

    day: int
    rolls: tuple[Roll, ...] = ()


@attrs.frozen
class Applied:
    """A between-mission rule's Outcome. `cause`: "begin", "month", "due:<timer key>", "order", "debrief"."""

    cause: str
    outcome: Outcome

    @property
    def rolls(self) -> tuple[Roll, ...]:
        return self.outcome.rolls


@attrs.frozen
class Offered:
    posting: Posting
    rolls: tuple[Roll, ...] = ()


@attrs.frozen
class Scheduled:
    """The day the next mission will be offered."""

    day: int
    rolls: tuple[Roll, ...] = ()


@attrs.frozen
class Missed:
    offer: str
    rolls: tuple[Roll, ...] = ()


@attrs.frozen
class Launched:
    flight: Flight
    rolls: tuple[Roll, ...] = ()


@attrs.frozen
class Landed:
    """The mission launched last ended: its result and its log's final hash."""

    won: bool
    result: str
    hash: str
    rolls: tuple[Roll, ...] = ()


Event = Recruited | Dawn | Applied | Offered | Scheduled | Missed | Launched | Landed


def apply(c: Campaign, e: Event) -> Campaign:
    """One event folded into the state: pure, no dice, no files."""
    if isinstance(e, Recruited):
        return attrs.evolve(c, records=c.records + tuple(e.records))
    if isinstance(e, Dawn):
        return attrs.evolve(c, day=e.day)
    if isinstance(e, Applied):
        o = e.outcome
        gone = set(o.cancel)
        timers = tuple(r for r in c.timers if r.timer.key not in gone)
        timers += tuple(Running(t, c.day + t.days) for t in o.timers)
        dead = c.dead + tuple(n for n in o.dead if n not in c.dead)
        base = c.base if o.base is UNCHANGED else o.base
        return attrs.evolve(c, records=tuple(o.records), base=base, funding=c.funding + o.funding, timers=timers,
                            dead=dead, begun=c.begun or e.cause == "begin")
    if isinstance(e, Offered):
        return attrs.evolve(c, offers=c.offers + (e.posting,), serial=c.serial + 1)
    if isinstance(e, Scheduled):
        return attrs.evolve(c, next_offer=e.day)
    if isinstance(e, Missed):
        gone = c.offer(e.offer)
        return attrs.evolve(c, offers=tuple(p for p in c.offers if p.id != e.offer),
                            missed=c.missed + ((gone,) if gone else ()))
    if isinstance(e, Launched):
        return attrs.evolve(c, flying=e.flight, offers=tuple(p for p in c.offers if p.id != e.flight.offer.id))
    if isinstance(e, Landed):
        assert c.flying is not None
        done = attrs.evolve(c.flying, won=e.won, result=e.result, hash=e.hash)
        return attrs.evolve(c, flying=None, flown=c.flown + (done,))
    raise TypeError(f"not a campaign event: {e!r}")


def fold(c: Campaign, events: list[Event] | tuple[Event, ...]) -> Campaign:
    for e in events:
        c = apply(c, e)
    return c
