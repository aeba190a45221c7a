"""A campaign's events in words, one line each, for the command line, the campaign screen and the debrief.

Told `whole`, every note, timer and roll has its own line. Told in brief (the readers' first view), a character
with several timers set by one outcome (one soldier's ten wounds) gets one line: each kind of timer with its count
and days, and when the last is done; the same line told again (the wounds healing on one day) is counted once; and
no rolls. The whole telling stays a key (or `--rolls`) away."""

from __future__ import annotations

import re

from engine.campaign import state as s
from engine.campaign.seam import Outcome, Timer
from engine.core.dice import Roll


def roll_line(r: Roll) -> str:
    return f"{r.actor}: {r.purpose} {r.expr} = {r.formula}"


def lines(event: s.Event, rolls: bool = True, whole: bool = True) -> list[str]:
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
        if not whole and event.cause.startswith("due:"):
            cause = "due"  # the timer's key is for the whole telling: briefly, the same healing reads the same
        notes, timers = (o.notes, o.timers) if whole else _grouped(o)
        notes = notes if whole else _runs(list(notes))
        out = [f"{cause}: {note}" for note in notes] or ([f"{cause}"] if event.cause != "debrief" else [])
        if o.funding:
            out.append(f"funding {o.funding:+d}")
        out += [f"{t.label} (in {t.days} day{'' if t.days == 1 else 's'})" for t in timers]
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
    if rolls and whole:
        out += [f"  {roll_line(r)}" for r in event.rolls]
    return out


def _kind(t: Timer) -> str:
    """"Trevor's Minor Wound heals" → "Minor Wound": the timer without its owner and its verb."""
    return t.label.removeprefix(f"{t.who}'s ").removeprefix(f"{t.who} ").removesuffix(" heals")


def _grouped(o: Outcome) -> tuple[list[str], list[Timer]]:
    """The notes and timers in brief: a character's several timers (and the note each one has, the one that starts
    with their name and the timer's kind) become one note; a single timer its note tells already is not told again."""
    mine: dict[str, list[Timer]] = {}
    for t in o.timers:
        if t.who:
            mine.setdefault(t.who, []).append(t)
    notes: list[str] = []
    told: set[str] = set()
    for note in o.notes:
        who = next((w for w, ts in mine.items() if any(note.startswith(f"{w}: {_kind(t)}") for t in ts)), None)
        if who is None or len(mine[who]) == 1:
            notes.append(note)
        elif who not in told:
            notes.append(_summary(who, mine[who]))
        if who is not None:
            told.add(who)
    notes += [_summary(who, ts) for who, ts in mine.items() if who not in told and len(ts) > 1]
    return notes, [t for t in o.timers if t.who not in told and len(mine.get(t.who, ())) < 2]


# "Salvage: Muton's Laser Rifle: d100 34 ≤ 50: salvaged": a note per rolled thing, its verdict last
ROLLED = re.compile(r"(?P<head>[^:]+): .+?'s (?P<thing>[^:]+): d\d+ \d+ .*: (?P<end>[\w ]+)")


def _runs(notes: list[str]) -> list[str]:
    """A run of rolled notes under one head (xxxzone's salvage, a roll per enemy item) in brief: one line, the
    things counted by verdict ("Salvage: 3 × Laser Rifle, Pistol salvaged; Grenade lost"); the rolls stay whole."""
    out: list[str] = []
    i = 0
    while i < len(notes):
        m = ROLLED.fullmatch(notes[i])
        j = i + 1
        while m and j < len(notes) and (n := ROLLED.fullmatch(notes[j])) and n["head"] == m["head"]:
            j += 1
        if not m or j - i < 2:
            out.append(notes[i])
            i += 1
            continue
        ends: dict[str, list[str]] = {}
        for note in notes[i:j]:
            n = ROLLED.fullmatch(note)
            assert n is not None
            ends.setdefault(n["end"], []).append(n["thing"])
        out.append(f"{m['head']}: " + "; ".join(f"{_counts(things)} {end}" for end, things in ends.items()))
        i = j
    return out


def _counts(things: list[str]) -> str:
    counted = {t: things.count(t) for t in things}
    return ", ".join(f"{n} × {t}" if n > 1 else t for t, n in counted.items())


def _summary(who: str, timers: list[Timer]) -> str:
    """"Trevor: 11 to heal: Minor Wound ×10 (2–6 days), Severe Wound (14 days); all done in 14 days"."""
    days: dict[str, list[int]] = {}
    for t in timers:
        days.setdefault(_kind(t), []).append(t.days)
    parts = []
    for kind, ds in days.items():
        low, high = min(ds), max(ds)
        span = f"{low}–{high}" if low != high else f"{low}"
        parts.append(f"{kind}{f' ×{len(ds)}' if len(ds) > 1 else ''} ({span} day{'' if span == '1' else 's'})")
    last = max(t.days for t in timers)
    return f"{who}: {len(timers)} to heal: {', '.join(parts)}; all done in {last} day{'' if last == 1 else 's'}"


def told(events: list[s.Event], rolls: bool = True, whole: bool = True) -> list[str]:
    out = [line for e in events for line in lines(e, rolls, whole)]
    return out if whole else _counted(out)


def _counted(out: list[str]) -> list[str]:
    """The same line told again and again (ten wounds healed on one day) once, with its count."""
    counted: list[tuple[str, int]] = []
    for line in out:
        if counted and counted[-1][0] == line:
            counted[-1] = (line, counted[-1][1] + 1)
        else:
            counted.append((line, 1))
    return [line if n == 1 else f"{line} (×{n})" for line, n in counted]
