"""The campaign's squad pick: who flies a mission on offer. Refused characters are marked with the reason; one
whose going would break something off (`Downtime.deploy_caveat`: a course) is marked with it, left out at first and
asked about; one with another timer running is marked with it; a long note is shown whole under the rows."""

from __future__ import annotations

import textwrap

import attrs
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.campaign import decide as d
from engine.campaign.ledger import Ledger
from tui import keys

PICK_ROWS = 14  # the squad pick's rows at once (its box is at most 22 high: the title, keys, a note, its border)
PICK_WIDTH = 60  # the squad pick box's inner width (#menu-box: 64, its border and padding)
DETAIL = 2  # lines under the rows for the highlighted character's whole note (a long refusal wraps there)


class SquadPick(ModalScreen[tuple[str, ...] | None]):
    """Who flies: the living characters, each in or out, the refused ones marked with the reason; returns the names
    in roster order, or None. The first free ones are in at first; one the ruleset says going would break something
    off for (xxxzone's course) is marked with it and left out: ticked, the pick says so, and deploying them asks
    again. Another timer of their own (a wound healing that does not keep them home) is shown, never asked about."""

    BINDINGS = keys.bindings("squad_pick")

    def __init__(self, book: Ledger, offer: str) -> None:
        super().__init__()
        self.book = book
        self.offer = offer
        s = book.state
        posting = s.offer(offer)
        self.places = book.rules.places(posting.mission) if posting else 0
        self.people = list(s.living())
        self.refused = {r.name: book.downtime.deploy_refusal(r, s.base, s.busy) for r in self.people}
        self.busy = busy_with(s)
        self.caveats = {r.name: why for r in self.people
                        if (why := book.downtime.deploy_caveat(r, s.base, s.busy)) is not None}
        ready = [r.name for r in self.people if not self.refused[r.name] and r.name not in self.caveats]
        self.chosen = set(ready[:self.places])
        self.index = 0
        self.warned: tuple[str, ...] = ()  # the ones the last Enter warned about: Enter again deploys them
        self.then = "loadout" if book.outfitter is not None else "deploy"  # what Enter leads to

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static(f"Squad for {self.offer}: up to {self.places}", id="menu-title")
            yield Static(self._body(), id="menu-body")
            yield Static(id="menu-keys")

    def _note(self, name: str) -> str:
        why = self.refused[name]
        if why:
            return f"✗ {about(name, why)}"
        if name in self.caveats:
            return f"⚠ {about(name, self.caveats[name])}"
        return f"· {about(name, self.busy[name])}" if name in self.busy else ""

    def _body(self) -> Text:
        """The rows that fit (PICK_ROWS, scrolled with the cursor), each cut at the box's edge, then the highlighted
        one's note whole, wrapped."""
        top = min(max(0, self.index - PICK_ROWS + 1), max(0, len(self.people) - PICK_ROWS))
        rows = []
        for i, r in enumerate(self.people[top:top + PICK_ROWS], start=top):
            mark = "[x]" if r.name in self.chosen else "[ ]"
            note = self._note(r.name)
            line = f"{'▶' if i == self.index else ' '} {mark} {r.name}" + (f"  {note}" if note else "")
            rows.append(Text(cut(line, PICK_WIDTH), style="bold" if i == self.index else ("dim" if self.refused[r.name] else "")))
        if not rows:
            return Text("nobody is alive to deploy")
        if len(self.people) > PICK_ROWS:
            rows.insert(0, Text(f"{top + 1}-{top + len(rows)} of {len(self.people)}, ↑↓", style="dim"))
        note = self._note(self.people[self.index].name)
        rows += [Text(line, style="italic") for line in
                 textwrap.wrap(f"{self.people[self.index].name}: {note}", PICK_WIDTH)[:DETAIL]] if note else []
        return Text("\n").join(rows)

    def _update(self, message: str = "") -> None:
        self.query_one("#menu-body", Static).update(self._body())
        self.query_one("#menu-keys", Static).update(message or f"{len(self.chosen)} picked · space in/out · "
                                                               f"enter {self.then} · esc cancel")

    def on_mount(self) -> None:
        self._update()

    def action_move(self, step: int) -> None:
        if self.people:
            self.index = (self.index + step) % len(self.people)
            self._update()

    def action_toggle(self) -> None:
        if not self.people:
            return
        name = self.people[self.index].name
        if name in self.chosen:
            self.chosen.discard(name)
        elif self.refused[name]:
            self._update(f"✗ {self.refused[name]}")
            return
        elif len(self.chosen) >= self.places:
            self._update(f"✗ at most {self.places}")
            return
        else:
            self.chosen.add(name)
            if name in self.caveats:
                self._update(f"⚠ {self.caveats[name]}")
                return
        self._update()

    def action_choose(self) -> None:
        names = tuple(r.name for r in self.people if r.name in self.chosen)
        why = d.deploy_refusal(self.book.state, d.Deploy(self.offer, names), self.book.rules)
        if why:
            self._update(f"✗ {why}")
            return
        busy = tuple(n for n in names if n in self.caveats)
        if busy and busy != self.warned:
            self.warned = busy
            said = (self.caveats[busy[0]] if len(busy) == 1
                    else f"going breaks off what {', '.join(busy)} are doing (each ⚠ above)")
            self._update(f"⚠ {said}: enter again "
                         + ("for the loadout" if self.then == "loadout" else "to deploy"))
            return
        self.dismiss(names)

    def action_back(self) -> None:
        self.dismiss(None)


def cut(line: str, width: int) -> str:
    return line if len(line) <= width else line[:width - 1] + "…"


def about(name: str, note: str) -> str:
    """A note on a character without the name its row already shows ("Anna is convalescing: …" → "convalescing:
    …", "Anna's Minor Wound heals" → "Minor Wound heals")."""
    for lead in (f"{name}'s ", f"{name} is ", f"{name}: ", f"{name} "):
        if note.startswith(lead):
            return note.removeprefix(lead)
    return note


def busy_with(s) -> dict[str, str]:
    """Each living character with a timer of their own running: its label and due day ("Sable: Per 5→6 done, day
    40"), the soonest first."""
    out: dict[str, str] = {}
    for r in sorted(s.timers, key=lambda r: (r.due, r.timer.key)):
        if r.timer.who and r.timer.who not in out and r.timer.who not in s.dead:
            out[r.timer.who] = f"{r.timer.label} (day {r.due})"
    return out


def loadout_for(book: Ledger, offer: str, names: tuple[str, ...]):
    """The loadout screen for the squad picked, each one in their last kit cut down to what the stores hold
    (decide.stocked); None for a ruleset without a loadout (the squad deploys as it stands)."""
    from tui.screens.loadout import Loadout

    o, s = book.outfitter, book.state
    posting = s.offer(offer)
    if o is None or posting is None or not names:
        return None
    kits = d.stocked(s, offer, names, book.rules)
    squad = []
    for place, ch in enumerate(book.characters(names)):
        worn = o.wearing(posting.mission, place, ch.record, kits[place]) if kits else ch.record
        squad.append(attrs.evolve(ch, record=ch.record if isinstance(worn, str) else worn))
    return Loadout(o, posting.mission, squad, o.stores(s.base))


def kits_of(book: Ledger, squad) -> tuple:
    """Each outfitted character's kit, in squad order: what the `Deploy` records."""
    return tuple(book.outfitter.kit_of(c.record) for c in squad)
