"""A new character, in the creation rules of a ruleset (`Ruleset.creation()`), keyboard only.

Rows: the name, the ruleset (when more than one can make characters), then what the ruleset's `Form` offers: its
choices (◂ option ▸), the numbers a player sets with their limits, and the choices drawn after them (kit).
↑↓/jk pick a row, ←→/hl/+- change it, ⏎ saves to the roster. A refused change says why in one line; the
ruleset's preview (derived numbers, the HP range, guidelines) is shown as you go. Dice are rolled once, on save.
"""

from __future__ import annotations

import secrets

import attrs
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Input, Static

from engine.core.creation import repick
from engine.play import catalog, roster
from tui import keys
from tui.screens.base import Sized
from tui.widgets.keybar import KeyBar
from tui.widgets.panels import StatusLine

NAME_ROW = 0
CHROME = 12  # the screen's lines besides the rows: head, name box, notes, status line, key bar


class Sheet(Static, can_focus=True):
    """The choice and number rows; the screen's bindings act on it."""


class Creation(Sized):
    BINDINGS = keys.bindings("creation")

    def __init__(self, seed: bytes | None = None, ruleset: str | None = None) -> None:
        super().__init__()
        self.seed = seed  # tests fix the dice; a player gets a fresh secret
        self.ruleset = ruleset
        self.row = NAME_ROW

    # -- building ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        self.rulesets = roster.creators(self.app.content)
        self._use(self.ruleset if self.ruleset in self.rulesets else self.rulesets[0])
        yield Static(id="creation-head")
        yield Input(placeholder="Name (letters, digits, spaces)", id="character-name", max_length=24)
        yield Sheet(id="creation-sheet")
        yield Static(id="creation-notes")
        yield StatusLine(id="status")
        yield KeyBar()
        yield from super().compose()

    def _use(self, ruleset: str) -> None:
        self.ruleset = ruleset
        self.rules = roster.creation(self.app.content, ruleset)
        self.draft = self.rules.draft()

    def on_mount(self) -> None:
        self.query_one("#character-name", Input).focus()
        self.query_one(StatusLine).message = "Type a name, then ↓ to what the rules let you choose"
        self._draw()

    # -- reading the state ---------------------------------------------------------------------

    def _rows(self) -> list[tuple[str, str]]:
        """(kind, id) of each row below the name: "ruleset", "choice" or "number"."""
        form = self.rules.form(self.draft)
        rows = [("ruleset", "")] if len(self.rulesets) > 1 else []
        rows += [("choice", c.id) for c in form.choices if not c.after]
        rows += [("number", n.id) for n in form.numbers]
        return rows + [("choice", c.id) for c in form.choices if c.after]

    def _at(self) -> tuple[str, str]:
        return ("name", "") if self.row == NAME_ROW else self._rows()[self.row - 1]

    def _draw(self) -> None:
        form = self.rules.form(self.draft)
        head = f" New character — {form.title}"
        if form.points is not None:
            head += f" · {form.points.left} left to spend"
        self.query_one("#creation-head", Static).update(Text(head))
        choices = {c.id: c for c in form.choices}
        numbers = {n.id: n for n in form.numbers}
        lines = []
        for i, (kind, rid) in enumerate(self._rows(), start=1):
            if kind == "ruleset":
                title = catalog.title(self.app.content, self.ruleset)
                lines.append(self._row(i, "Ruleset", f"◂ {title} ▸",
                                       f"{self.rulesets.index(self.ruleset) + 1} of {len(self.rulesets)}"))
            elif kind == "choice":
                c = choices[rid]
                at = [o for o, _ in c.options].index(c.value) if c.value in dict(c.options) else 0
                lines.append(self._row(i, c.label, f"◂ {c.shown()} ▸", f"{at + 1} of {len(c.options)}"))
            else:
                n = numbers[rid]
                lines.append(self._row(i, n.label, str(n.value), f"[{n.low}–{n.high}]"
                                       + (f"  {n.note}" if n.note else "")))
        if not lines:
            lines.append(Text("  Nothing to choose: the rules make the rest"))
        lines = self._window(lines)
        self.query_one(Sheet).update(Text("\n").join(lines))
        notes = [row.text for row in self.rules.preview(self.draft)]
        self.query_one("#creation-notes", Static).update(Text("\n".join(notes)))
        self.refresh_bindings()

    def _window(self, lines: list[Text]) -> list[Text]:
        """As many rows as the screen has room for (annihilation offers 17 skills), around the selected one."""
        room = max(3, self.size.height - CHROME) if self.size.height else len(lines)
        if len(lines) <= room:
            return lines
        room -= 2  # the lines saying how many rows are out of sight
        top = min(max(0, self.row - 1 - room // 2), len(lines) - room)
        return ([Text(f"  ↑ {top} more" if top else "")] + lines[top:top + room]
                + [Text(f"  ↓ {len(lines) - top - room} more" if top + room < len(lines) else "")])

    def _row(self, row: int, label: str, value: str, note: str) -> Text:
        mark = "▶" if row == self.row else " "
        return Text(f"{mark} {label:<13} {value:>14}   {note}", style="reverse" if row == self.row else "")

    # -- keys ----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.too_small and action not in ("back", "help"):
            return False
        if action == "change":
            return self.row != NAME_ROW
        return True

    def action_select(self, step: int) -> None:
        self.row = (self.row + step) % (len(self._rows()) + 1)
        if self.row == NAME_ROW:
            self.query_one("#character-name", Input).focus()
        else:
            self.query_one(Sheet).focus()
        self._draw()

    def action_change(self, step: int) -> None:
        status = self.query_one(StatusLine)
        kind, rid = self._at()
        if kind == "name":
            return
        if kind == "ruleset":
            self._use(self.rulesets[(self.rulesets.index(self.ruleset) + step) % len(self.rulesets)])
            status.message = f"{catalog.title(self.app.content, self.ruleset)}'s creation rules"
            self._draw()
            return
        if kind == "choice":
            self._choose(rid, step)
            return
        value = self.draft.numbers.get(rid, 0) + step
        why = self.rules.refusal(self.draft, rid, value)
        if why:
            status.message = f"✗ {why[0].upper()}{why[1:]}"
            return
        self.draft = self.draft.set(rid, value)
        status.message = ""
        self._draw()

    def _choose(self, choice_id: str, step: int) -> None:
        """Keeps the numbers that still fit the new option; the rest fall to its limits."""
        choice = next(c for c in self.rules.form(self.draft).choices if c.id == choice_id)
        ids = [o for o, _ in choice.options]
        option = ids[((ids.index(choice.value) if choice.value in ids else 0) + step) % len(ids)]
        was = self.draft.picks
        self.draft, lowered = repick(self.rules, self.draft, choice_id, option)
        form = self.rules.form(self.draft)
        notes = [f"lowered to its caps: {', '.join(lowered)}"] if lowered else []
        notes += [f"{c.label.lower()} back to {c.shown()}" for c in form.choices
                  if c.id in was and was[c.id] != self.draft.picks.get(c.id)]
        if form.points is not None and form.points.left < 0:
            notes.append(f"{-form.points.left} points over its {form.points.total}: lower some stats")
        shown = dict(choice.options)[option]
        self.query_one(StatusLine).message = f"{shown}: {'; '.join(notes)}" if notes else ""
        self._draw()

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self.action_save()

    def action_save(self) -> None:
        content = self.app.content
        status = self.query_one(StatusLine)
        name = self.query_one("#character-name", Input).value.strip()
        path = self.app.saves / roster.FILE
        try:
            characters = roster.load(path, content)
        except roster.RosterError as exc:
            status.message = f"✗ {exc} (fix or move it; it is never overwritten)"
            return
        if not name:
            status.message = "✗ Give the character a name first"
            self.row = NAME_ROW
            self.action_select(0)
            return
        if roster.find(characters, name) is not None:
            status.message = f"✗ {name}: a character of that name is on the roster already"
            return
        try:
            ch, _rolls = roster.create(content, self.ruleset, attrs.evolve(self.draft, name=name),
                                       roster.dice_for(self.seed or secrets.token_bytes(32)))
            roster.save(path, characters + [ch])
        except roster.RosterError as exc:
            why = str(exc)
            status.message = f"✗ {why[0].upper()}{why[1:]}"
            return
        self.dismiss(ch)

    def action_back(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        from tui.screens.help import Help

        self.app.push_screen(Help("creation", self))
