"""The campaign AI's base policy for xxxzone (`campaign simulate`): which of the downtime's offers it may give
(`Offer.ai`) and in what order. The shared policy gives the first of these the funding covers, again and again.

In order, best first:
  1. a recruit, while fewer than SQUAD + SPARE operatives are alive (SQUAD: the most places of an xxxzone mission);
  2. a hire of the staff a facility of the base needs to train anyone (the Gym's Bio-chemist), none on the staff;
  3. a facility that trains (14.2) the campaign has none of, built or being built, at its first fitting spot, the
     one training the course first in COURSES first (the Firing Range: Per);
  4. a second base, when the funding covers it (15: 10F) and the campaign has one;
  5. a course for each operative beyond the SQUAD who stay ready to fly (the others are not sent to train: a
     mission would break their course off), Per, Agi, End, Str, then the rest; abilities after;
  6. a gambling binge, once the second base is paid for (before, the F are saved for it).
Everything else (more facilities, more staff, more recruits) is a player's choice only. The policy is no rule:
nothing of it is in a log, so it may change without touching any campaign that verifies.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from engine.campaign.seam import Offer
from engine.rules.xxxzone.book import Book

SPARE = 2  # operatives beyond a full squad the AI keeps on the roster, recruiting when fewer are alive
COURSES = ("perception", "agility", "endurance", "strength", "intelligence", "charisma", "luck")


def advise(book: Book, squad: int, records: tuple, base, offers: list[Offer],
           unfit: Callable[[object], str | None]) -> tuple[Offer, ...]:
    """`offers` marked and ordered by the policy: those the AI may give first, in the order above, then the rest
    (marked `ai=False`) in their own order. `unfit(record)`: why an operative can take no course now."""
    ranked: list[tuple[tuple, Offer]] = []
    living = [r for r in records if not r.dead]
    ready = [r.name for r in living if unfit(r) is None]
    trainees = set(ready[squad:])  # the first `squad` who could go stay ready; the rest may train
    trains = {f for f, fac in book.facilities.items() if fac.trains}
    trains |= {a.facility for a in book.abilities.values() if a.facility in book.facilities}
    wanted = sorted((f for f in book.facilities if f in trains and base is not None
                     and not any(p.facility == f for p in base.placed)),
                    key=lambda f: min((_course(book, a) for a in book.facilities[f].trains), default=len(COURSES)))
    needed = {book.facilities[f].needs for f in trains if base is not None and base.built(f)} - {""}
    first_spot: set[str] = set()
    for o in offers:
        kind, what = o.order.kind, o.order.what
        rank: tuple | None = None
        if kind == "recruit" and len(living) < squad + SPARE:
            rank = (1,)
        elif kind == "hire" and what in needed and base.staff_of(what) < 1:
            rank = (2,)
        elif kind == "build" and what in wanted and what not in first_spot:
            first_spot.add(what)
            rank = (3, wanted.index(what))
        elif kind == "found" and base is not None and base.sites == 1:
            rank = (4,)
        elif kind == "train" and o.order.who in trainees:
            rank = (5, ready.index(o.order.who), _course(book, what))
        elif kind == "gamble" and base is not None and base.sites > 1:
            rank = (6, ready.index(o.order.who) if o.order.who in ready else len(ready))
        ranked.append((rank or (9,), o if rank else attrs.evolve(o, ai=False)))
    return tuple(o for _, o in sorted(ranked, key=lambda t: t[0]))  # stable: equal ranks keep their order


def _course(book: Book, what: str) -> int:
    return COURSES.index(what) if what in COURSES else len(COURSES) + list(book.abilities).index(what)
