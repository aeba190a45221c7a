"""Text panels of the battle screen: the unit sheet, the info box, the logs and the status line."""

from __future__ import annotations

import textwrap

from typing import TYPE_CHECKING

import attrs
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from tui.widgets.lines import Lines

if TYPE_CHECKING:  # the title menu draws these panels before the engine is imported
    from engine.content.models import Content
    from engine.core.model import Unit
    from engine.core.ruleset import Budget, Row, Sheet


def bar(value: int, most: int, width: int = 8) -> str:
    filled = 0 if most <= 0 else round(width * max(0, min(value, most)) / most)
    return "█" * filled + "·" * (width - filled)


LABEL = 7  # the sheet's labels line up in a column this wide (longer ones push their text on)


def row_text(row: Row) -> Text:
    """A sheet row: its label in the column, its text, a bar when it has a value, its alert standing out."""
    text = Text(f"{row.label:<{LABEL}} {row.text}")
    if row.value is not None and row.maximum is not None:
        text.append(f" {bar(row.value, row.maximum)}")
    if row.alert:
        text.append(f"  {row.alert}", style="bold reverse")
    return text


@attrs.frozen
class Card:
    """What the unit panel shows: the unit, and its sheet and budget as the ruleset gives them."""

    unit: Unit
    sheet: Sheet
    budget: Budget
    compact: bool = False  # only who it is and what is left of its turn: a mode's info box needs the rows


def card_lines(content: Content, card: Card | None) -> list[Text]:
    """The unit panel: who it is, the ruleset's rows, what is left of its turn, its kit and its effects."""
    if card is None:
        return [Text("No soldier selected")]
    unit, budget = card.unit, card.budget
    level = f" · L{unit.z}" if budget.walk.layers else ""  # the storey it stands on, on a map with storeys
    rows = [Text.assemble((f"[{unit.glyph}] {unit.name}", "bold"), f" {card.sheet.kind}" if card.sheet.kind else "",
                          level)]
    rows += [] if card.compact else [row_text(r) for r in card.sheet.rows]
    unit_word = "" if budget.walk.currency == "cells" else f" {budget.walk.currency}"  # "move 20 m", "move 37 TU"
    dash = f" {budget.dash_label} {budget.dash_moves}" if budget.dash_moves and budget.dash_label else ""
    moves = f"move {budget.moves_left}{unit_word}{dash}"  # "move 10 combo 10", "move 6 AP cautious 3"
    label = budget.label if card.compact else _unsaid(budget.label, card.sheet.rows)
    style = "bold" if budget.can_act else "dim"
    if label == budget.label and label:  # "TU 43/60  move 43 TU"
        rows.append(Text.assemble((label[0].upper() + label[1:], style), f"  {moves}"))
    else:  # a row above says the label: "Move 43 TU", "Move 43 TU · done"
        rows.append(Text.assemble((moves[0].upper() + moves[1:], style), label))
    if card.compact:
        return rows
    rows += [Text(line) for line in card.sheet.kit]
    if card.sheet.effects:  # an empty line would only push the panels below off a 24-row screen
        rows.append(Text(f"Effects: {', '.join(card.sheet.effects)}"))
    return rows


def _unsaid(label: str, rows) -> str:
    """The budget's label less what a sheet row above already says ("TU 43/60" under the TU bar): the rest
    (" · done"), or the whole label when no row says it."""
    for r in rows:
        said = f"{r.label} {r.text.strip()}"
        if r.text.strip() and label.startswith(said):
            return label[len(said):]
    return label


MARK = {"done": "✓", "failed": "✗", "open": "·"}


def objective_lines(statuses, lost: dict[str, str], width: int = 0) -> list[Text]:
    """One line per objective: its mark, its words up to any bracket, how far along it is, and how it is lost
    (`lost`: by objective id). One that does not fit `width` columns (0: no limit) goes on between words, never
    inside one, indented under its mark, and how far along it is stays together on one line."""
    out = []
    for s in statuses:
        words = s.objective.text.split(" (")[0]
        how = f" ({lost[s.id]})" if lost.get(s.id) and s.state == "open" else ""
        line = f"{MARK[s.state]} {words}: {s.detail}{how}"
        if not width or len(line) <= width:
            out.append(Text.assemble((MARK[s.state], "bold"), line[1:]))
            continue
        fixed = f"{words}: {s.detail.replace(' ', NBSP)}{how}"  # the counter is not broken
        rows = textwrap.wrap(f"{MARK[s.state]} {fixed}", width, subsequent_indent="  ", break_long_words=False)
        rows = [r.replace(NBSP, " ") for r in rows]
        out.append(Text.assemble((MARK[s.state], "bold"), rows[0][1:]))
        out += [Text(r) for r in rows[1:]]
    return out


NBSP = "\u00a0"


class UnitPanel(Lines):
    """The selected soldier's sheet."""

    card: reactive[Card | None] = reactive(None, repaint=False)
    """The unit on show; None shows an empty sheet."""

    def __init__(self, content: Content, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rules_content = content

    def watch_card(self, card: Card | None) -> None:
        self.set_lines(card_lines(self.rules_content, card))


class InfoPanel(Lines):
    """What the cursor points at, or the shot preview while targeting."""


class Objectives(Lines):
    """The mission's objectives and how far along each is, always whole at the foot of the side panel."""


class InSight(Lines):
    """The hostiles the squad sees, one glyph each (OpenXcom's red buttons); the one under the cursor stands out."""

    def show(self, hostiles: list[Unit], cursor: tuple[int, int], key: str) -> None:
        if not hostiles:
            self.set_lines([Text("In sight: nobody", style="dim")])
            return
        line = Text.assemble(("In sight", "bold"), f" ({key}): ")
        for unit in hostiles:
            line.append(unit.glyph, style="bold reverse" if unit.pos == cursor else "bold")
            line.append(" ")
        self.set_lines([line])


class TopBar(Lines):
    """Mission, phase and whose turn it is."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(wrap=False, id=id)


class LogTail(Lines):
    """The newest lines of a log that fit, wrapped; the full log is one key away."""

    def __init__(self, title: str, *, id: str | None = None) -> None:
        super().__init__(tail=True, id=id)
        self.border_title = title
        self._seen: tuple[int, str] = (0, "")

    def show(self, lines: list[str], keep: int = 40) -> None:
        """Take the log's lines; only the newest `keep` are wrapped (more never fit). A merged repeat changes
        the last line without adding one."""
        seen = (len(lines), lines[-1] if lines else "")
        if seen != self._seen:
            self._seen = seen
            self.set_lines(lines[-keep:])


class StatusLine(Lines):
    """The last rejection or prompt, wrapped: a long one takes a second row from the map rather than being cut."""

    message: reactive[str] = reactive("", repaint=False)
    """The text; errors start with "✗"."""

    def watch_message(self, message: str) -> None:
        self.set_lines([Text(message, style="bold" if message.startswith("✗") else "")])


class TooSmall(Static):
    """Shown instead of a screen's content when the terminal is under the minimum size."""

    def __init__(self) -> None:
        super().__init__("", id="too-small")

    def show_size(self, width: int, height: int, need: tuple[int, int]) -> None:
        self.update(f"Terminal too small: {width}×{height}.\nxenotac needs at least {need[0]}×{need[1]}.\n"
                    "Enlarge the window; nothing is lost.")
