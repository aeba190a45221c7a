"""The base screen: a ruleset's base drawn a layer at a time (`Downtime.plots`), a facility picked from its build
offers, its footprint moved with the arrow keys and turned with r, previewed with `Downtime.placement` (+ fits,
x refused: the glyph tells them apart without colour), and the chosen build `Order` returned with `dismiss`.

The screen submits nothing: the campaign screen pushes it and submits the Order it returns (None: back).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from engine.campaign.seam import Downtime, Offer, Order, Outcome
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
        self.plots = downtime.plots(base)
        self.offers = [o for o in downtime.offers((), base, funding, busy) if o.order.kind == "build"]
        self.kinds: list[str] = list(dict.fromkeys(o.order.what for o in self.offers))  # facilities, in offer order
        self.labels = {(o.order.what, o.order.where): o.label for o in self.offers}
        self.shapes: dict[tuple[str, int], frozenset[tuple[int, int, int]]] = {}
        self.chosen = 0
        first = self.offers[0].order.where if self.offers else (0, 0, 0, 0)
        self.depth, self.x, self.y, self.rotation = first

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

    @property
    def facility(self) -> str:
        return self.kinds[self.chosen] if self.kinds else ""

    def where(self) -> tuple[int, int, int, int]:
        return (self.depth, self.x, self.y, self.rotation)

    def _title_of(self, fid: str) -> str:
        offer = next(o for o in self.offers if o.order.what == fid)
        return offer.label.split(" at (")[0].removeprefix("Build an ").removeprefix("Build a ")

    def _shape(self, fid: str, rotation: int) -> frozenset[tuple[int, int, int]]:
        """The footprint as (layer, dx, dy) from its origin: what building it at an offered spot adds to the
        plots. A rotation never offered looks like the one half a turn away (or any offered one)."""
        if (fid, rotation) not in self.shapes:
            mine = [o for o in self.offers if o.order.what == fid]
            offer = next((o for r in (rotation, (rotation + 2) % 4) for o in mine if o.order.where[3] == r), mine[0])
            self.shapes[(fid, rotation)] = self._diff(offer)
        return self.shapes[(fid, rotation)]

    def _diff(self, offer: Offer) -> frozenset[tuple[int, int, int]]:
        done = self.downtime.order((), self.base, self.funding, self.busy, offer.order, Dice.scripted([]))
        if not isinstance(done, Outcome):
            return frozenset({(0, 0, 0)})
        layer, x, y = offer.order.where[:3]
        after = self.downtime.plots(done.base)
        out = set()
        for i, plot in enumerate(after):
            before = self.plots[i].rows if i < len(self.plots) else ()
            for yy, row in enumerate(plot.rows):
                for xx, ch in enumerate(row):
                    old = before[yy][xx] if yy < len(before) and xx < len(before[yy]) else " "
                    if ch != old:
                        out.add((i - layer, xx - x, yy - y))
        return frozenset(out) or frozenset({(0, 0, 0)})

    def _show(self) -> None:
        status = self.query_one(StatusLine)
        plot = self.plots[self.depth] if self.depth < len(self.plots) else None
        size = len(self.plots[0].rows) if self.plots else 0
        name = plot.name if plot else f"Layer {self.depth} (not dug)"
        self.query_one("#base-head", Static).update(Text(
            f"Base · {name} (layer {self.depth} of 0-{len(self.plots)}) · funding {self.funding}F", style="bold"))
        if not self.kinds:
            self.query_one("#base-grid", Static).update(self._grid(plot, size, set(), True))
            status.message = "✗ nothing can be built now (no funding, no free engineers or no room)"
            return
        why = self.downtime.placement(self.base, self.facility, self.where())
        feet = {(self.x + dx, self.y + dy) for dl, dx, dy in self._shape(self.facility, self.rotation) if dl == 0}
        self.query_one("#base-grid", Static).update(self._grid(plot, size, feet, why is None))
        self.query_one("#base-side", Static).update(self._side(plot))
        if why is None:
            label = self.labels.get((self.facility, self.where()), f"{self._title_of(self.facility)} fits here")
            status.message = f"{FITS} {label}"
        else:
            status.message = f"✗ {why}"

    def _grid(self, plot, size: int, feet: set[tuple[int, int]], fits: bool) -> Text:
        text = Text()
        rows = plot.rows if plot else tuple(" " * size for _ in range(size))
        for y, row in enumerate(rows):
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
        low = max(0, min(self.chosen - LIST_ROWS // 2, len(self.kinds) - LIST_ROWS))
        for i, fid in enumerate(self.kinds[low:low + LIST_ROWS], start=low):
            cost = next(o.cost for o in self.offers if o.order.what == fid)
            line = f"{'▸' if i == self.chosen else ' '} {self._title_of(fid)} {cost}F"
            text.append(line + "\n", style="bold reverse" if i == self.chosen else "")
        text.append(f"{self.chosen + 1}/{len(self.kinds)} · turned {self.rotation} · at ({self.x},{self.y})\n\n")
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
        if not self.kinds:
            return
        self.chosen = (self.chosen + step) % len(self.kinds)
        where = next(o.order.where for o in self.offers if o.order.what == self.facility)
        self.depth, self.x, self.y, self.rotation = where  # start where it fits
        self._show()

    def action_place(self) -> None:
        if self.kinds and self.downtime.placement(self.base, self.facility, self.where()) is None:
            self.dismiss(Order("build", what=self.facility, where=self.where()))
        else:
            self.app.bell()
            self._show()

    def action_back(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        from tui.screens.help import Help

        self.app.push_screen(Help("basemap", self))
