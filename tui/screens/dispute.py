"""The disputed-roll panel: one roll's whole derivation, from the seed commitment to the die face and
every modifier with where it came from. The text is Timeline.explain's, as `xenotac audit --explain`
prints it, so the panel and the command line can never disagree.
"""

from __future__ import annotations

import textwrap

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.log.writer import LogError, seed_path
from engine.log.story import describe
from tui import keys
from tui.replay import Replay, names_in
from tui.screens.summary import shown_path
from tui.widgets.keybar import KeyBar

HOW_TO_READ = (
    "How to read it: the header committed to sha256(seed) before any die was rolled, and the seed is "
    "revealed when the mission ends. Die k of a stream is 32-bit word k mod 8 of HMAC-SHA256(seed, "
    "\"stream:k div 8\"); a word in the top sliver that would favour low faces is drawn again, and the "
    "face is word mod sides + 1. The formula then multiplies or adds the die with the stats and "
    "modifiers listed under from:, each with the content file and key, the cover or the status it came from."
)


class Dispute(ModalScreen[int]):
    """Dismissed with the roll it ends on, so the viewer can select the same one."""

    BINDINGS = keys.bindings("dispute")

    def __init__(self, replay: Replay, n: int, roll: int) -> None:
        super().__init__()
        self.replay = replay
        self.n = n
        self.roll = roll
        self.count = len(replay.rolls(n))  # the rolls the squad saw, until the mission has ended

    def compose(self) -> ComposeResult:
        with Vertical(id="dispute-box"):
            yield Static(id="dispute-head")
            with VerticalScroll(id="dispute-scroll"):
                yield Static(id="dispute-text")
            yield KeyBar()

    def on_mount(self) -> None:
        self._show()
        self.query_one("#dispute-scroll").focus()

    def lines(self) -> list[str]:
        replay, n = self.replay, self.n
        index, event, _roll = replay.rolls(n)[self.roll]
        try:
            derivation = replay.explanation(n, index)
        except LogError as exc:  # a record the engine cannot re-decide: say so, do not crash
            derivation = [f"The derivation cannot be shown: {exc}"]
        if replay.unseen_actor(n):  # the command would name who acted out of the squad's sight
            derivation = [f"Record {n}: out of sight", *derivation[1:]]
        outcome = event.get("text") or describe(event, names_in(replay.timeline.state_at(n))) or event["kind"]
        timeline = replay.timeline
        check = f"xenotac audit {shown_path(timeline.path)} --record {n} --explain"
        if timeline.seed_file is not None and not timeline.ended and timeline.seed_file != seed_path(timeline.path):
            check += f" --seed-file {timeline.seed_source}"
        return [*derivation[:1], f"Outcome: {outcome}", *derivation[1:], "", f"Check it yourself: {check}"]

    def on_resize(self) -> None:
        self._show()

    def _text(self) -> Text:
        """Long lines wrap under their own indent, so a die's lines stay together when read."""
        width = max(20, self.app.size.width - 6)  # the box's border and padding, and room for the scrollbar
        rows = []
        for line in self.lines():
            indent = " " * (len(line) - len(line.lstrip(" ")))
            rows += textwrap.wrap(line, width, subsequent_indent=indent + "    ", break_on_hyphens=False) or [""]
        rows += ["", *textwrap.wrap(HOW_TO_READ, width)]
        return Text("\n".join(rows))

    def _show(self) -> None:
        undone = " (undone)" if self.replay.undone(self.n) else ""
        self.query_one("#dispute-head", Static).update(Text(
            f"Why this roll? Record {self.n}{undone}, roll {self.roll + 1} of {self.count} · ↑↓ pgup pgdn scroll"))
        self.query_one("#dispute-text", Static).update(self._text())
        self.query_one("#dispute-scroll", VerticalScroll).scroll_home(animate=False)

    def action_roll(self, by: int) -> None:
        self.roll = (self.roll + by) % self.count
        self._show()

    def action_back(self) -> None:
        self.dismiss(self.roll)
