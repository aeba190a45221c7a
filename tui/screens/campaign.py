"""The campaign screen (80×24): the day, funding, the calendar's next events, the missions on offer and the roster
as the ruleset describes it; keys advance time, give orders and deploy (squad pick → the ordinary battle screen →
the debrief screen, every change with its roll). Only the `Ledger` submits: each decision is on disk at once."""

from __future__ import annotations

import textwrap

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from engine.campaign import decide as d
from engine.campaign.ledger import Ledger
from engine.campaign.story import told
from engine.core.commands import Rejected
from tui import keys
from tui.screens.base import Sized
from tui.screens.squadpick import DETAIL, SquadPick, about, busy_with, cut, kits_of, loadout_for
from tui.widgets.keybar import KeyBar
from tui.widgets.panels import StatusLine

STORY = 500  # the last lines of the campaign's story `L` shows
ROSTER_ROWS = 8  # the roster's rows before the screen is laid out (80×24 gives it room for 8 and its heading)


class CampaignScreen(Sized):
    BINDINGS = keys.bindings("campaign")

    def __init__(self, book: Ledger) -> None:
        super().__init__()
        self.book = book
        self.notes: list[str] = list(book.notes)  # what opening it had to do: shown until something happens
        self.cursor = 0  # the highlighted character, an index into the roster
        self.top = 0  # the first roster row shown: a roster longer than the screen scrolls with the cursor

    def compose(self) -> ComposeResult:
        yield Static(id="camp-head")
        with Horizontal(id="camp-top"):
            yield Static(id="camp-calendar")
            yield Static(id="camp-offers")
        yield Static(id="camp-roster")
        yield Static(id="camp-news")
        yield StatusLine(id="status")
        yield KeyBar()
        yield from super().compose()

    def on_mount(self) -> None:
        super().on_mount()
        self.refresh_view()
        self.call_after_refresh(self.refresh_view)  # again once laid out: the roster's rows fit its height
        if self.book.state.flying is not None:
            self.call_later(self._fly)  # a mission under way when the campaign was left: back to it

    # -- drawing --

    def refresh_view(self) -> None:
        book, s = self.book, self.book.state
        flying = f" · mission {s.flying.offer.id} under way" if s.flying else ""
        sites = book.downtime.sites(s.base)
        bases = f" · {len(sites)} bases" if len(sites) > 1 else ""
        funding = f" · funding {s.funding}" if book.downtime.funded else ""
        self.query_one("#camp-head", Static).update(
            f"CAMPAIGN {book.name} · {book.title} · day {s.day}{funding}{bases}{flying}")
        calendar = self.query_one("#camp-calendar", Static)
        width = calendar.content_region.width or 38
        events = [cut(f"day {day:<4} {what}", width) for day, what in d.upcoming(s, 5, book.downtime.funded)]  # a line each
        calendar.update(Text("\n".join(["Calendar", *events])))
        offers = [f"{p.id:<4} {self._mission_name(p.mission):<18} until day {p.deadline}" for p in s.offers]
        self.query_one("#camp-offers", Static).update(Text("\n".join(["Missions on offer", *(offers or ["none"])])))
        self.query_one("#camp-roster", Static).update(self._roster())
        news = self.query_one("#camp-news", Static)
        wide = news.content_region.width or 78  # a line each, cut: `L` shows them whole
        news.update(Text("\n".join(cut(line, wide) for line in (self.notes or self.book.brief)[-3:])))

    def _mission_name(self, mission_id: str) -> str:
        found = self.book.content.missions.get(mission_id)
        return found.name if found is not None else mission_id

    def on_resize(self, event) -> None:
        super().on_resize(event)
        self.call_after_refresh(self.refresh_view)

    def _note(self, r) -> str:
        """What keeps a character home, or the timer of theirs running, or ""."""
        s = self.book.state
        if r.name in s.dead:
            return "† dead"
        why = self.book.downtime.deploy_refusal(r, s.base, s.busy)
        return f"✗ {about(r.name, why)}" if why else about(r.name, busy_with(s).get(r.name, ""))

    def _roster(self) -> Text:
        """The heading, the rows that fit (scrolled to keep the cursor in sight, ▶ on it) and, under them, the
        highlighted character's note whole, wrapped: a row is cut at the screen's edge, its note never lost."""
        s = self.book.state
        box = self.query_one("#camp-roster", Static).content_region if self.is_mounted else None
        width = box.width if box and box.width else 76
        height = box.height if box and box.height else ROSTER_ROWS + 1 + DETAIL
        records = s.records
        self.cursor = min(self.cursor, max(0, len(records) - 1))
        chosen = records[self.cursor] if records else None
        detail = textwrap.wrap(f"{chosen.name}: {self._note(chosen)}", width)[:DETAIL] \
            if chosen is not None and self._note(chosen) else []
        fit = max(1, height - 1 - len(detail))
        self.top = min(max(self.top, self.cursor - fit + 1), self.cursor, max(0, len(records) - fit))
        shown = records[self.top:self.top + fit]
        more = f" · {self.top + 1}-{self.top + len(shown)} of {len(records)}, ↑↓" if len(shown) < len(records) else ""
        rows = [Text(f"Roster: {len(s.living())} of {len(records)} alive{more}", style="bold")]
        for i, r in enumerate(shown, start=self.top):
            mark = "▶" if i == self.cursor else " "
            if r.name in s.dead:
                rows.append(Text(f"{mark}{r.name:<11} † dead", style="bold dim" if i == self.cursor else "dim"))
                continue
            kind, numbers = self.book.creation.describe(r) if self.book.creation else ("", "")
            note = self._note(r)
            line = f"{mark}{r.name:<11} {kind:<10} {numbers}" + (f"  {note}" if note else "")
            rows.append(Text(cut(line, width), style="bold" if i == self.cursor else ""))
        rows += [Text(line, style="italic #a0b0c8") for line in detail]
        return Text("\n").join(rows)

    def action_pick(self, step: int) -> None:
        """Move the roster's cursor (it scrolls a roster longer than the screen)."""
        count = len(self.book.state.records)
        if count:
            self.cursor = (self.cursor + step) % count
            self.refresh_view()

    def say(self, message: str) -> None:
        self.query_one(StatusLine).message = message

    # -- actions --

    def action_advance(self) -> None:
        events = self.book.submit(d.Advance())
        if isinstance(events, Rejected):
            self.say(f"✗ {events.reason}")
            return
        self.notes = []
        self.say(f"Day {self.book.state.day}")
        self.refresh_view()

    def action_orders(self) -> None:
        from tui.screens.picker import Picker

        s = self.book.state
        offers = self.book.downtime.offers(s.records, s.base, s.funding, s.busy)
        if self.book.downtime.plots(s.base):  # placements are chosen on the base screen, not from a long list
            offers = tuple(o for o in offers if o.order.kind != "build")
        if not offers:
            self.say(f"✗ {self.book.title} has no orders to give now")
            return
        entries = [(o.label + (f" ({o.cost} F)" if o.cost and f"{o.cost}F" not in o.label else ""), o.order)
                   for o in offers]
        self.app.push_screen(Picker("Orders", entries), self._give)

    def action_base(self) -> None:
        from tui.screens.basemap import BaseScreen

        s = self.book.state
        if not self.book.downtime.plots(s.base):
            self.say(f"✗ {self.book.title} has no base")
            return
        self.app.push_screen(BaseScreen(self.book.downtime, s.base, s.funding, s.busy), self._give)

    def _give(self, order) -> None:
        if order is None:
            return
        events = self.book.submit(d.Give(order))
        if isinstance(events, Rejected):
            self.say(f"✗ {events.reason}")
            return
        self.notes = []
        self.say("Order given")
        self.refresh_view()

    def action_deploy(self) -> None:
        from tui.screens.picker import Picker

        offers = self.book.state.offers
        if not offers:
            self.say("✗ No mission on offer: advance time until one comes")
            return
        if len(offers) == 1:
            self._pick_squad(offers[0].id)
            return
        entries = [(f"{p.id} {self._mission_name(p.mission)} (until day {p.deadline})", p.id) for p in offers]
        self.app.push_screen(Picker("Deploy to", entries), self._pick_squad)

    def _pick_squad(self, offer: str | None) -> None:
        if offer is None:
            return
        self.app.push_screen(SquadPick(self.book, offer), lambda names: self._outfit(offer, names))

    def _outfit(self, offer: str, names: tuple[str, ...] | None) -> None:
        """After the squad pick, the loadout of a ruleset with one; Esc there deploys nobody."""
        if names is None:
            return
        screen = loadout_for(self.book, offer, names)
        if screen is None:
            self._deploy(offer, names)
        else:
            self.app.push_screen(screen, lambda squad: squad is not None and self._deploy(offer, names, kits_of(
                self.book, squad)))

    def _deploy(self, offer: str, names: tuple[str, ...], kits: tuple = ()) -> None:
        events = self.book.submit(d.Deploy(offer, names, kits))
        if isinstance(events, Rejected):
            self.say(f"✗ {events.reason}")
            return
        self.notes = []
        self.refresh_view()
        self._fly()

    def _fly(self) -> None:
        """The mission in flight on the ordinary battle screen; back here for its debrief when it ends."""
        from engine.log import writer as log
        from tui.screens.battle import ALIEN_DELAY, BattleScreen
        from tui.session import Session

        try:
            game = self.book.mission()
        except (log.LogError, OSError, ValueError) as exc:
            self.say(f"✗ {exc}")
            return
        if game is None:  # it ended before its debrief was written
            self._debrief(self.book.finish())
            return
        session = Session(game)
        self.app.sessions.append(session)
        delay = ALIEN_DELAY if self.app.alien_delay is None else self.app.alien_delay
        self.app.push_screen(BattleScreen(session, alien_delay=delay), self._landed)

    def _landed(self, session) -> None:
        if session is None or not session.over:
            return
        events = self.book.land(session.game)
        session.close()
        self._debrief(events)

    def _debrief(self, events) -> None:
        if events is None or isinstance(events, Rejected):
            self.say(f"✗ the debrief failed: {events}")
            return
        self.notes = []
        self.refresh_view()
        self.say(f"Day {self.book.state.day}: back from the mission · L shows its debrief again")
        self.app.push_screen(DebriefScreen(told(events, whole=False), whole=told(events)))

    def action_news(self) -> None:
        empty = ["nothing has happened yet"]
        self.app.push_screen(DebriefScreen(self.book.brief[-STORY:] or empty, "CAMPAIGN LOG", last=True,
                                           whole=self.book.story[-STORY:] or empty))

    def action_help(self) -> None:
        from tui.screens.help import Help

        self.app.push_screen(Help("campaign", self))

    def action_back(self) -> None:
        from tui.screens.title import Title

        self.book.close()
        if len(self.app.screen_stack) > 1 and isinstance(self.app.screen_stack[-2], Title):
            self.app.pop_screen()
        else:
            self.app.exit(f"Campaign saved: {self.book.folder}\n"
                          f"Continue with: xenotac campaign resume {self.book.name}")


class DebriefScreen(Sized):
    """What a mission (or the campaign so far) changed, in brief (a soldier's wounds on one line); `r` tells it
    whole, every note and roll on its own line, and back."""

    BINDINGS = keys.bindings("debrief")

    def __init__(self, lines: list[str], title: str = "DEBRIEF", last: bool = False,
                 whole: list[str] | None = None) -> None:
        super().__init__()
        self.lines = lines
        self.whole = whole if whole is not None else lines
        self.showing_whole = False
        self.title_text = title
        self.last = last  # opened at the end: the story so far, the latest last

    def on_mount(self) -> None:
        super().on_mount()
        if self.last:
            self.query_one(VerticalScroll).scroll_end(animate=False)

    def compose(self) -> ComposeResult:
        yield Static(self._title(), id="camp-head")
        with VerticalScroll(id="summary-box"):
            yield Static(Text("\n".join(self.lines)), id="debrief-text")
        yield KeyBar(words=self._key_words)
        yield from super().compose()

    def _title(self) -> str:
        return f"{self.title_text} · " + ("every note and roll (r: in brief)" if self.showing_whole
                                          else "in brief (r: every roll)")

    def _key_words(self, key_id: str, words: str) -> str:
        """`r` says what it shows next: every roll while in brief, the brief while every roll is shown."""
        return "brief" if key_id == "debrief_whole" and self.showing_whole else words

    def action_whole(self) -> None:
        self.showing_whole = not self.showing_whole
        self.refresh_bindings()  # the key bar rewords `r`
        self.query_one("#camp-head", Static).update(self._title())
        self.query_one("#debrief-text", Static).update(
            Text("\n".join(self.whole if self.showing_whole else self.lines)))
        if self.last:
            self.query_one(VerticalScroll).scroll_end(animate=False)

    def action_back(self) -> None:
        self.dismiss(None)
