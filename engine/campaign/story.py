"""A campaign's events in words, one line each, for the command line, the campaign screen and the debrief."""

from __future__ import annotations

from engine.campaign import state as s
from engine.core.dice import Roll


def roll_line(r: Roll) -> str:
    return f"{r.actor}: {r.purpose} {r.expr} = {r.formula}"


def lines(event: s.Event, rolls: bool = True) -> list[str]:
    """What the event did; its rolls after it, indented, unless an outcome's notes already tell them."""
    out: list[str]
    if isinstance(event, s.Recruited):
        out = [f"{r.name} joins the squad" for r in event.records]
    elif isinstance(event, s.Dawn):
        out = [f"— day {event.day} —"]
    elif isinstance(event, s.Applied):
        o = event.outcome
        cause = {"begin": "the campaign begins", "month": "the first of the month", "order": "order",
                 "debrief": "debrief"}.get(event.cause, event.cause.replace("due:", "due: "))
        out = [f"{cause}: {note}" for note in o.notes] or ([f"{cause}"] if event.cause != "debrief" else [])
        if o.funding:
            out.append(f"funding {o.funding:+d}")
        out += [f"{t.label} (in {t.days} day{'' if t.days == 1 else 's'})" for t in o.timers]
        out += [f"{name} is dead" for name in o.dead if not any(name in n for n in o.notes)]
        if o.notes:
            rolls = False  # the notes give each roll with its numbers
    elif isinstance(event, s.Offered):
        p = event.posting
        out = [f"mission {p.id} offered: {p.mission}, until day {p.deadline}"]
    elif isinstance(event, s.Scheduled):
        out = [f"the next mission will be offered on day {event.day}"]
    elif isinstance(event, s.Missed):
        out = [f"mission {event.offer} missed: its deadline passed"]
    elif isinstance(event, s.Launched):
        f = event.flight
        out = [f"mission {f.offer.id} ({f.offer.mission}) launched: {', '.join(f.squad) or 'its own soldiers'}"]
    elif isinstance(event, s.Landed):
        out = [f"mission {'won' if event.won else 'lost'}: {event.result}"]
    else:
        out = [repr(event)]
    if rolls:
        out += [f"  {roll_line(r)}" for r in event.rolls]
    return out


def told(events: list[s.Event], rolls: bool = True) -> list[str]:
    return [line for e in events for line in lines(e, rolls)]
