"""A campaign's commands (one per player decision) and their verdicts: events with their rolls, or a Rejected.

Time: `Advance` moves the calendar to the day of the next event and plays every event of that day, then stops:
a deadline passed (the offer is missed), a timer due, the first of a month, a mission offered. Missions come from
the ruleset's mission types (the shared `content/missions/`), rolled on the campaign's dice:
  - the first offer comes on day 1d6, each next one 4+1d6 days after the last;
  - the mission is one of the ruleset's missions, 1dN in catalogue order;
  - an offer stays open 3+1d6 days (its deadline is that day: gone if nobody flew it by then).
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from engine.campaign.seam import Downtime, Order, Outcome, Timer
from engine.campaign.state import (MONTH, Applied, Campaign, Dawn, Event, Flight, Landed, Launched, Missed, Offered,
                                   Posting, Recruited, Scheduled, fold)
from engine.core.commands import Rejected
from engine.core.dice import Dice, Roll
from engine.core.loadout import left_for, shortfall
from engine.core.records import added

ACTOR = "campaign"


@attrs.frozen
class Begin:
    """The first command: `recruit` characters made by the ruleset's creation rules, then the ruleset's start."""

    recruit: int = 0


@attrs.frozen
class Advance:
    pass


@attrs.frozen
class Give:
    order: Order


@attrs.frozen
class Deploy:
    """Who flies, and each one's kit in squad order (the ruleset's Outfitter's `kit`; None: as they stand). A
    campaign with stores, or a deployment with kits, writes the kits out onto the records before the launch, so
    the mission deploys them and the next one starts from them; without either it is what it always was."""

    offer: str
    names: tuple[str, ...]
    kits: tuple[Any, ...] = added(())


@attrs.frozen
class Debrief:
    """Closes the mission in flight: its log's final hash and its result, as the mission log says them."""

    won: bool
    result: str
    hash: str


Command = Begin | Advance | Give | Deploy | Debrief


@attrs.frozen
class Rules:
    """What a verdict needs besides the state: the ruleset's downtime, its missions, its squad size and recruits."""

    downtime: Downtime
    missions: tuple[str, ...]
    places: Callable[[str], int]  # squad places of a mission (0: it deploys its own soldiers)
    recruit: Callable[[int, Dice], tuple[tuple[Any, ...], tuple[Roll, ...]]] | None = None
    outfitter: Any = None  # the ruleset's loadout (engine.core.loadout.Outfitter), None without one


def roll(dice: Dice, sides: int, purpose: str, plus: int = 0) -> tuple[int, Roll]:
    face, index = dice.d(sides, ACTOR, purpose, "calendar")
    total = face + plus
    formula = f"{plus}+{face}={total}" if plus else f"{face}"
    expr = f"{plus}+1d{sides}" if plus else f"1d{sides}"
    return total, Roll(ACTOR, purpose, expr, (face,), formula, total, stream="calendar", index=index)


def next_day(c: Campaign) -> int:
    """The day of the next event: a deadline, a timer, a month's first day, an offer."""
    days = [(c.day // MONTH + 1) * MONTH]
    days += [p.deadline for p in c.offers]
    days += [r.due for r in c.timers]
    if c.next_offer > c.day:
        days.append(c.next_offer)
    return max(c.day + 1, min(days))


def upcoming(c: Campaign, most: int = 6, funded: bool = True) -> list[tuple[int, str]]:
    """(day, what) of the next events, soonest first, for the calendar; the same event due the same day several
    times (one soldier's ten Minor Wounds healing) is one line with its count, so it does not fill the calendar.
    The offers' deadlines and the next offer are always among them: many timers due sooner never hide them.
    `funded`: the ruleset's campaign keeps funding (`Downtime.funded`), so the first of the month is an event."""
    out = [((c.day // MONTH + 1) * MONTH, "first of the month: funding")] if funded else []
    out += [(r.due, r.timer.label) for r in c.timers]
    pinned = [(p.deadline, f"offer {p.id} ({p.mission}) expires") for p in c.offers]
    if c.next_offer > c.day:
        pinned.append((c.next_offer, "a mission will be offered"))
    counts: dict[tuple[int, str], int] = {}
    for event in sorted(out):
        counts[event] = counts.get(event, 0) + 1
    rest = [(day, what if n == 1 else f"{n}× {what}") for (day, what), n in counts.items()]
    pinned = sorted(pinned)[:most]
    return sorted(pinned + rest[:most - len(pinned)], key=lambda e: e[0])  # stable: a day's own order kept


def decide(c: Campaign, command: Command, rules: Rules, dice: Dice, n: int = 0,
           final: Any = None) -> list[Event] | Rejected:
    """`n`: the record number this command will be written as (a launched mission names it); `final`: for a
    `Debrief`, the mission's final kernel State."""
    if isinstance(command, Begin):
        return _begin(c, command, rules, dice)
    if not c.begun:
        return Rejected("not_begun", "The campaign has not begun")
    if isinstance(command, Debrief):
        return _debrief(c, command, rules, dice, final)
    if c.flying is not None:
        return Rejected("in_mission", f"Mission {c.flying.offer.id} is under way: finish it first")
    if isinstance(command, Advance):
        return _advance(c, rules, dice)
    if isinstance(command, Give):
        done = rules.downtime.order(c.records, c.base, c.funding, c.busy, command.order, dice)
        return done if isinstance(done, Rejected) else [Applied("order", done)]
    if isinstance(command, Deploy):
        return _deploy(c, command, rules, n)
    return Rejected("unknown_command", f"Not a campaign command: {type(command).__name__}")


def _begin(c: Campaign, command: Begin, rules: Rules, dice: Dice) -> list[Event] | Rejected:
    if c.begun:
        return Rejected("begun", "The campaign has already begun")
    events: list[Event] = []
    if command.recruit and rules.recruit is not None:
        records, rolls = rules.recruit(command.recruit, dice)
        events.append(Recruited(records, rolls))
    after = fold(c, events)
    events.append(Applied("begin", rules.downtime.begin(after.records, dice)))
    day, r = roll(dice, 6, "first mission offered on day")
    return events + [Scheduled(day, (r,))]


def _advance(c: Campaign, rules: Rules, dice: Dice) -> list[Event]:
    day = next_day(c)
    events: list[Event] = [Dawn(day)]
    now = fold(c, events)
    for p in sorted(now.offers, key=lambda p: (p.deadline, p.id)):
        if p.deadline <= day:
            events.append(Missed(p.id))
    now = fold(c, events)
    for r in sorted(now.timers, key=lambda r: (r.due, r.timer.key)):
        if r.due <= day and r.timer.key in now.busy:  # not cancelled by one due before it
            out = rules.downtime.due(now.records, now.base, r.timer, dice)
            events.append(Applied(f"due:{r.timer.key}", _ends(out, r.timer)))
            now = fold(now, events[-1:])
    if day % MONTH == 0:
        events.append(Applied("month", rules.downtime.month(now.records, now.base, dice)))
        now = fold(now, events[-1:])
    if now.next_offer and now.next_offer <= day and rules.missions:
        pick, r1 = roll(dice, len(rules.missions), "mission offered")
        stay, r2 = roll(dice, 6, "days the offer stays open", 3)
        posting = Posting(f"m{now.serial + 1}", rules.missions[pick - 1], day, day + stay)
        after, r3 = roll(dice, 6, "days to the next offer", 4)
        events += [Offered(posting, (r1, r2)), Scheduled(day + after, (r3,))]
    return events


def _ends(out: Outcome, timer: Timer) -> Outcome:
    """A due timer's outcome also takes that timer off the calendar."""
    return out if timer.key in out.cancel else attrs.evolve(out, cancel=out.cancel + (timer.key,))


def deploy_refusal(c: Campaign, command: Deploy, rules: Rules) -> str | None:
    """Why this squad may not fly this offer, or None; the squad pick previews with it."""
    posting = c.offer(command.offer)
    if posting is None:
        return f"there is no mission {command.offer!r} on offer"
    places = rules.places(posting.mission)
    if not command.names and places and c.records:
        return "pick at least one soldier"
    if len(command.names) > places:
        return f"{posting.mission} takes at most {places} of the roster"
    by_name = {r.name: r for r in c.records}
    for name in command.names:
        if name not in by_name:
            return f"{name!r} is not on the roster"
        if name in c.dead:
            return f"{name} is dead"
        if command.names.count(name) > 1:
            return f"{name} is picked twice"
        why = rules.downtime.deploy_refusal(by_name[name], c.base, c.busy)
        if why:
            return why
    return None


def kitted(c: Campaign, command: Deploy, rules: Rules) -> tuple[Any, ...] | str | None:
    """The deployed records wearing their kits, or why not; None when the deployment keeps the records as they
    are (no kits, no stores: a campaign log from before kits decides as it did)."""
    o = rules.outfitter
    posting = c.offer(command.offer)
    assert posting is not None
    if o is None:
        return f"{posting.mission} has no loadout to choose" if command.kits else None
    held = o.stores(c.base)
    if not command.kits and held is None:
        return None
    if command.kits and len(command.kits) != len(command.names):
        return f"{len(command.kits)} kits for {len(command.names)} soldiers"
    by_name = {r.name: r for r in c.records}
    out = []
    for place, name in enumerate(command.names):
        got = o.wearing(posting.mission, place, by_name[name], command.kits[place] if command.kits else None)
        if isinstance(got, str):
            return got
        out.append(got)
    if held is not None:
        return shortfall(held, [o.needs(posting.mission, i, r) for i, r in enumerate(out)], o.name) or tuple(out)
    return tuple(out)


def stocked(c: Campaign, offer: str, names: tuple[str, ...], rules: Rules) -> tuple[Any, ...]:
    """Each one's kit as they stand, cut down in squad order to what the stores have left (the campaign AI's
    kits, and where the loadout starts); () without a loadout or stores."""
    o = rules.outfitter
    posting = c.offer(offer)
    held = o.stores(c.base) if o is not None else None
    if held is None or posting is None:
        return ()
    by_name = {r.name: r for r in c.records}
    kits, taken = [], []
    for place, name in enumerate(names):
        r = o.within(posting.mission, place, by_name[name], left_for(held, taken))
        kits.append(o.kit_of(r))
        taken.append(o.needs(posting.mission, place, r))
    return tuple(kits)


def _deploy(c: Campaign, command: Deploy, rules: Rules, n: int) -> list[Event] | Rejected:
    why = deploy_refusal(c, command, rules)
    kits = None if why else kitted(c, command, rules)
    if isinstance(kits, str):
        why = kits
    if why:
        return Rejected("cannot_deploy", why[0].upper() + why[1:])
    posting = c.offer(command.offer)
    assert posting is not None
    events: list[Event] = []
    if kits is not None:
        worn = {r.name: r for r in kits}
        events.append(Applied("deploy", Outcome(records=tuple(worn.get(r.name, r) for r in c.records))))
    return events + [Launched(Flight(posting, tuple(command.names), f"{posting.id}-{posting.mission}.jsonl", n))]


def _debrief(c: Campaign, command: Debrief, rules: Rules, dice: Dice, final: Any) -> list[Event] | Rejected:
    if c.flying is None:
        return Rejected("no_mission", "No mission is under way")
    if final is None:
        return Rejected("no_state", "The mission's final state is needed for its debrief")
    events: list[Event] = [Landed(command.won, command.result, command.hash)]
    out = rules.downtime.debrief(c.records, c.base, final, c.flying.squad, command.won, dice)
    return events + [Applied("debrief", out)]
