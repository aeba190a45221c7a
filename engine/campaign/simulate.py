"""`xenotac campaign simulate`: a whole campaign played headless, the AI on both sides of every battle.

The base policy, at each stop of the calendar, is plain on purpose (for balance and for tests):
  1. spend: of the ruleset's offers (`Downtime.offers`), in their order, give the first one whose cost the funding
     covers; again, up to ORDERS a day, skipping an order the ruleset refuses;
  2. fly every mission on offer, in the order offered, with the first living characters nobody refuses (roster
     order, up to the mission's places) once every place can be filled; while some cannot (the wounded heal, the
     gamblers come home), wait, as the offer's deadline allows: at the last stop before the deadline fly it if at
     least two thirds of its places can go (QUORUM), else let it lapse (a thin squad dies, and nobody comes back to
     heal);
  3. advance time to the next event.
It stops at the first event on or after the last day of the months asked for.
"""

from __future__ import annotations

from typing import Callable

import attrs

from engine.campaign import decide as d
from engine.campaign.ledger import Ledger
from engine.campaign.state import MONTH, Posting
from engine.core.commands import Rejected

ORDERS = 5  # orders a day at most: a ruleset that keeps offering something affordable cannot stall the calendar
QUORUM = (2, 3)  # at its last chance a mission is flown with at least this share of its places filled


@attrs.frozen
class Summary:
    days: int
    flown: int
    won: int
    missed: int
    recruits: int  # every character the campaign had: the first squad and any recruited since
    alive: int
    funding: tuple[int, ...]  # at the end of each month (before the next month's income)


def squad(book: Ledger, posting: Posting) -> tuple[str, ...] | None:
    """The first living characters the ruleset does not refuse, up to the mission's places; None: wait (too few
    can go today, and the offer stays open past the next stop) or let it lapse (too few at its last chance)."""
    places = book.rules.places(posting.mission)
    if not places or not book.state.records:
        return ()
    names = [r.name for r in book.state.living()
             if book.downtime.deploy_refusal(r, book.state.base, book.state.busy) is None]
    if len(names) >= places:
        return tuple(names[:places])
    last = d.next_day(book.state) >= posting.deadline  # advancing would miss it
    share, whole = QUORUM
    return tuple(names) if last and whole * len(names) >= share * places else None


def spend(book: Ledger) -> int:
    given = 0
    skipped: set = set()
    while given < ORDERS:
        s = book.state
        offers = [o for o in book.downtime.offers(s.records, s.base, s.funding, s.busy)
                  if o.cost <= s.funding and o.order not in skipped]
        if not offers:
            break
        if isinstance(book.submit(d.Give(offers[0].order)), Rejected):
            skipped.add(offers[0].order)
            continue
        given += 1
    return given


def fly(book: Ledger, on_mission: Callable[[Ledger], None] | None = None) -> None:
    """The mission in flight played to its end by the AI, then debriefed."""
    from engine.play.simulate import play_out

    game = book.mission()
    if game is None:
        book.finish()
    else:
        try:
            play_out(game)
            book.land(game)
        finally:
            game.close()
    if on_mission is not None:
        on_mission(book)


def play(book: Ledger, months: int, on_mission: Callable[[Ledger], None] | None = None) -> Summary:
    end = months * MONTH
    funding: list[int] = []
    if book.state.flying is not None:
        fly(book, on_mission)
    while book.state.day < end:
        spend(book)
        for posting in book.state.offers:
            names = squad(book, posting)
            if names is None or isinstance(book.submit(d.Deploy(posting.id, names)), Rejected):
                continue
            fly(book, on_mission)
        before = book.state
        book.submit(d.Advance())
        if book.state.day // MONTH > before.day // MONTH:
            funding.append(before.funding)
    s = book.state
    return Summary(s.day, len(s.flown), sum(f.won for f in s.flown), len(s.missed), len(s.records), len(s.living()),
                   tuple(funding))
