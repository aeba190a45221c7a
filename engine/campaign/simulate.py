"""`xenotac campaign simulate`: a whole campaign played headless, the AI on both sides of every battle.

The base policy, at each stop of the calendar, is plain on purpose (for balance and for tests):
  1. spend: of the ruleset's offers (`Downtime.offers`) the AI may give (`Offer.ai`: the ruleset's own policy,
     its best first), in their order, give the first one whose cost the funding covers; again, up to ORDERS a day,
     skipping an order the ruleset refuses;
  2. fly every mission on offer, in the order offered, with the first living characters nobody refuses, those
     whose going breaks nothing off (`Downtime.deploy_caveat`: a course) before the others, each in roster order,
     up to the mission's places, once every place can be filled, each in their last kit cut down to what the
     stores hold (`decide.stocked`: as the loadout starts); while some cannot (the wounded heal, the
     gamblers come home), wait, as the offer's deadline allows: at the last stop before the deadline fly it if at
     least two thirds of its places can go (QUORUM), else let it lapse (a thin squad dies, and nobody comes back to
     heal);
  3. advance time to the next event.
It stops at the first event on or after the last day of the months asked for.
"""

from __future__ import annotations

import math
from typing import Callable

import attrs

from engine.campaign import decide as d
from engine.campaign.ledger import Ledger
from engine.campaign.state import MONTH, Posting
from engine.core.commands import Rejected

ORDERS = 5  # orders a day at most: a ruleset that keeps offering something affordable cannot stall the calendar
# Student's t at 97.5% for 1-30 degrees of freedom (a 95% two-sided interval); past 30, Cornish-Fisher's expansion
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
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
    """The first living characters the ruleset does not refuse, those whose going breaks nothing off first, up to
    the mission's places; None: wait (too few can go today, and the offer stays open past the next stop) or let it
    lapse (too few at its last chance). The squad is named in roster order."""
    places = book.rules.places(posting.mission)
    s = book.state
    if not places or not s.records:
        return ()
    free = [r for r in s.living() if book.downtime.deploy_refusal(r, s.base, s.busy) is None]
    free.sort(key=lambda r: book.downtime.deploy_caveat(r, s.base, s.busy) is not None)  # stable: roster order
    going = {r.name for r in free[:places]}
    names = [r.name for r in s.living() if r.name in going]
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
                  if o.ai and o.cost <= s.funding and o.order not in skipped]
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
            if names is None:
                continue
            kits = d.stocked(book.state, posting.id, names, book.rules)  # each one's last kit, within the stores
            if isinstance(book.submit(d.Deploy(posting.id, names, kits)), Rejected):
                continue
            fly(book, on_mission)
        before = book.state
        book.submit(d.Advance())
        if book.state.day // MONTH > before.day // MONTH:
            funding.append(before.funding)
    s = book.state
    return Summary(s.day, len(s.flown), sum(f.won for f in s.flown), len(s.missed), len(s.records), len(s.living()),
                   tuple(funding))


def t975(df: int) -> float:
    """Student's t quantile at 97.5% for `df` >= 1 degrees of freedom."""
    if df <= len(T975):
        return T975[df - 1]
    z = 1.959964
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def survival(summaries: list[Summary]) -> dict[str, float]:
    """Squad survival over trials, each campaign one observation: the share of its characters alive at the end,
    averaged, with a 95% Student-t interval over the trials (clipped to 0-1). The characters of one campaign share
    its missions, so they are not counted as independent. One trial gives no interval (0-1). No dice are drawn."""
    shares = [s.alive / s.recruits for s in summaries if s.recruits]
    n = len(shares)
    mean = sum(shares) / n if n else 0.0
    if n < 2:
        return {"mean": mean, "low": 0.0, "high": 1.0, "trials": n}
    sd = math.sqrt(sum((x - mean) ** 2 for x in shares) / (n - 1))
    half = t975(n - 1) * sd / math.sqrt(n)
    return {"mean": mean, "low": max(0.0, mean - half), "high": min(1.0, mean + half), "trials": n}
