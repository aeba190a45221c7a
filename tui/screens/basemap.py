"""The base screen: a ruleset's bases drawn a layer at a time (`Downtime.plots`), the grid labelled by column
letter and row number (the squares the refusals name), a facility picked to build (its build offers) or, in move
mode, one that stands (`Downtime.moves`), its footprint (`Downtime.footprint`) moved with the arrow keys and
turned with r, previewed with `Downtime.placement` (+ fits, x refused: the glyph tells them apart without colour)
and its cost with the order itself (`Downtime.order` is pure), and the chosen build or move `Order` returned with
`dismiss`. b goes to the next base when the campaign has more than one.

The screen submits nothing: the campaign screen pushes it and submits the Order it returns (None: back).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from engine.campaign.seam import Downtime, Offer, Order, Outcome, square
from engine.core.dice import Dice
from tui import keys
from tui.screens.base import Sized
from tui.widgets.keybar import KeyBar
from tui.widgets.panels import StatusLine

FITS, REFUSED = "+", "x"
FIT_STYLE, REFUSED_STYLE = "bold black on green", "bold white on red"
LIST_ROWS = 5  # facilities shown around the chosen one


class BaseScreen(Sized):
    BINDINGS = keys.bindings("basemap")

    def __init__(self, downtime: Downtime, base: Any, funding: int, busy: Mapping[str, int]) -> None:
        super().__init__()
        self.downtime, self.base, self.funding, self.busy = downtime, base, funding, busy
        self.offers = [o for o in downtime.offers((), base, funding, busy) if o.order.kind == "build"]
        self.names = downtime.sites(base) or ("Base",)
        self.site = 0
        self.moving = False  # move mode: the list is the facilities that stand, not those to build
        self.chosen = 0
        self.depth, self.x, self.y, self.rotation = 0, 0, 0, 0
        self._load()

    def _load(self) -> None:
        """This base's layers and list; the footprint where the chosen item starts."""
        self.plots = self.downtime.plots(self.base, self.site)
        if self.moving:
            self.items = list(self.downtime.moves(self.base, self.site))
        else:
            first: dict[str, Offer] = {}
            for o in self.offers:
                if o.order.site == self.site:
                    first.setdefault(o.order.what, o)  # each facility's first fitting spot
            self.items = list(first.values())
        self.chosen = min(self.chosen, max(0, len(self.items) - 1))
        self._start()

    def _start(self) -> None:
        if self.items:
            self.depth, self.x, self.y, self.rotation = self.items[self.chosen].order.where[:4]

    def compose(self) -> ComposeResult:
        yield Static(id="base-head")
        with Horizontal(id="base-body"):
            yield Static(id="base-grid")
            yield Static(id="base-side")
        yield StatusLine(id="status")
        yield KeyBar()
        yield from super().compose()

    def on_mount(self) -> None:
        super().on_mount()
        self._show()

    # -- what is shown ---------------------------------------------------------------------------------

    def where(self) -> tuple[int, int, int, int]:
        return (self.depth, self.x, self.y, self.rotation)

    def order(self) -> Order | None:
        """The order the footprint stands for now, or None with nothing to pick."""
        if not self.items:
            return None
        return attrs.evolve(self.items[self.chosen].order, where=self.where(), site=self.site)

    def verdict(self, order: Order) -> tuple[str | None, Outcome | None]:
        """Why the order is refused (its placement first, by the one rule), or its Outcome: the order is pure, so
        it says what the build or move would cost without giving it."""
        moving = order.what if order.kind == "move" else ""
        why = self.downtime.placement(self.base, "" if moving else order.what, order.where, moving=moving,
                                      site=self.site)
        if why is not None:
            return why, None
        done = self.downtime.order((), self.base, self.funding, self.busy, order, Dice.scripted([]))
        return (None, done) if isinstance(done, Outcome) else (done.reason, None)

    def _title_of(self, offer: Offer) -> str:
        if self.moving:
            return offer.label  # "Aircraft Hangar (at F6 on the Surface)": the three Hangars told apart
        return offer.label.split(" in ")[0].split(" at ")[0].removeprefix("Build an ").removeprefix("Build a ")

    def _show(self) -> None:
        status = self.query_one(StatusLine)
        plot = self.plots[self.depth] if self.depth < len(self.plots) else None
        size = len(self.plots[0].rows) if self.plots else 0
        name = plot.name if plot else f"Layer {self.depth} (not dug)"
        of = f" ({self.site + 1} of {len(self.names)}, b: next)" if len(self.names) > 1 else ""
        mode = "Move" if self.moving else "Build"
        self.query_one("#base-head", Static).update(Text(
            f"{mode} · {self.names[self.site]}{of} · {name} (layer {self.depth} of 0-{len(self.plots)}) · "
            f"funding {self.funding}F", style="bold"))
        self.query_one("#base-side", Static).update(self._side(plot))
        order = self.order()
        if order is None:
            self.query_one("#base-grid", Static).update(self._grid(plot, size, set(), True))
            status.message = ("✗ nothing here can be moved now" if self.moving else
                              "✗ nothing can be built now (no funding, no free engineers or no room)")
            return
        why, done = self.verdict(order)
        feet = {(x, y) for layer, x, y in self.downtime.footprint(self.base, order) if layer == self.depth}
        self.query_one("#base-grid", Static).update(self._grid(plot, size, feet, why is None))
        if done is not None:
            status.message = f"{FITS} {done.notes[0] if done.notes else 'fits here'}"
        else:
            status.message = f"✗ {why}"

    def _grid(self, plot, size: int, feet: set[tuple[int, int]], fits: bool) -> Text:
        text = Text("   " + " ".join(square(x, 0)[:-1] for x in range(size)) + "\n", style="dim")
        rows = plot.rows if plot else tuple(" " * size for _ in range(size))
        for y, row in enumerate(rows):
            text.append(f"{y + 1:>2} ", style="dim")
            for x, ch in enumerate(row):
                if (x, y) in feet:
                    text.append(FITS if fits else REFUSED, style=FIT_STYLE if fits else REFUSED_STYLE)
                else:
                    text.append(ch, style="dim" if ch in ".," else ("italic" if ch.islower() else ""))
                text.append(" ")
            text.append("\n")
        return text

    def _side(self, plot) -> Text:
        text = Text()
        low = max(0, min(self.chosen - LIST_ROWS // 2, len(self.items) - LIST_ROWS))
        for i, offer in enumerate(self.items[low:low + LIST_ROWS], start=low):
            cost = "" if self.moving else f" {offer.cost}F"
            line = f"{'▸' if i == self.chosen else ' '} {self._title_of(offer)}{cost}"
            text.append(line + "\n", style="bold reverse" if i == self.chosen else "")
        text.append(f"{self.chosen + 1 if self.items else 0}/{len(self.items)} · turned {self.rotation} · "
                    f"at {square(self.x, self.y)}\n\n")
        for letter, what in (plot.legend if plot else ()):
            text.append(f"{letter} {what}\n")
        return text

    # -- keys -----------------------------------------------------------------------------------------

    def action_shift(self, dx: int, dy: int) -> None:
        size = len(self.plots[0].rows) if self.plots else 1
        self.x = max(-3, min(size - 1, self.x + dx))
        self.y = max(-3, min(size - 1, self.y + dy))
        self._show()

    def action_rotate(self) -> None:
        self.rotation = (self.rotation + 1) % 4
        self._show()

    def action_layer(self, step: int) -> None:
        self.depth = max(0, min(len(self.plots), self.depth + step))
        self._show()

    def action_facility(self, step: int) -> None:
        if not self.items:
            return
        self.chosen = (self.chosen + step) % len(self.items)
        self._start()  # where it fits (a build), where it stands (a move)
        self._show()

    def action_mode(self) -> None:
        self.moving = not self.moving
        self.chosen = 0
        self._load()
        self._show()

    def action_site(self) -> None:
        if len(self.names) < 2:
            self.app.bell()
            return
        self.site = (self.site + 1) % len(self.names)
        self.chosen = 0
        self._load()
        self._show()

    def action_place(self) -> None:
        order = self.order()
        if order is not None and self.verdict(order)[0] is None:
            self.dismiss(order)
        else:
            self.app.bell()
            self._show()

    def action_back(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        from tui.screens.help import Help

        self.app.push_screen(Help("basemap", self))
