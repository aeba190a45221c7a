"""A new character (xcom-trpg 2.3): a name, a race, and the creation points, keyboard only.

Rows: the name, the race, then the seven stats. ↑↓/jk pick a row, ←→/hl/+- change it, ⏎ saves to
the roster. Each stat shows its range for the race; a refused change says why in one line. HP is
rolled once, when the character is saved, with the final Strength (6.1).
"""

from __future__ import annotations

import secrets

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Input, Static

from engine.play import roster
from tui import keys
from tui.screens.base import Sized
from tui.widgets.keybar import KeyBar
from tui.widgets.panels import StatusLine

NAME_ROW, RACE_ROW = 0, 1


class Sheet(Static, can_focus=True):
    """The race and stat rows; the screen's bindings act on it."""


class Creation(Sized):
    BINDINGS = keys.bindings("creation")

    def __init__(self, seed: bytes | None = None) -> None:
        super().__init__()
        self.seed = seed  # tests fix the HP die; a player gets a fresh secret
        self.row = NAME_ROW

    # -- building ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        content = self.app.content
        self.races = roster.playable_races(content)
        self.race = self.races[0]
        self.stat_names = roster.stat_names(content)
        self.stats = self._minimums(self.race)
        yield Static(id="creation-head")
        yield Input(placeholder="Name (letters, digits, spaces)", id="character-name", max_length=24)
        yield Sheet(id="creation-sheet")
        yield Static(id="creation-notes")
        yield StatusLine(id="status")
        yield KeyBar()
        yield from super().compose()

    def on_mount(self) -> None:
        self.query_one("#character-name", Input).focus()
        self.query_one(StatusLine).message = "Type a name, then ↓ to the race and the stats"
        self._draw()

    def _minimums(self, race: str) -> dict[str, int]:
        content = self.app.content
        return {s: roster.limits(content, race, s)[0] for s in self.stat_names}

    # -- reading the state ---------------------------------------------------------------------

    @property
    def budget(self) -> int:
        return roster.budget(self.app.content, self.race)

    @property
    def left(self) -> int:
        return self.budget - sum(self.stats.values())

    def _draw(self) -> None:
        content = self.app.content
        race = roster.races(content)[self.race]
        kind = "epic, " if race.epic else ""
        self.query_one("#creation-head", Static).update(Text(
            f" New character — {race.name} ({kind}{self.budget} points) · {self.left} left to spend"))
        mods = race.modifiers
        rows = [self._row(RACE_ROW, "Race", f"◂ {race.name} ▸", f"{self.races.index(self.race) + 1} of "
                                                                  f"{len(self.races)}")]
        for i, stat in enumerate(self.stat_names):
            low, high = roster.limits(content, self.race, stat)
            value = self.stats[stat]
            note = f"[{low}–{high}]"
            if mods.get(stat):
                note += f"  final {value + mods[stat]} ({mods[stat]:+d} {race.name.lower()})"
            if stat in race.fixed:
                note += "  placed automatically"
            if stat == "psionics" and race.psi_locked and value:
                note += "  locked until initiation"
            rows.append(self._row(i + 2, stat.capitalize(), str(value), note))
        self.query_one(Sheet).update(Text("\n").join(rows))
        low, high = roster.hp_range(content, self.race, self.stats["strength"])
        notes = [f"HP {low}–{high}, rolled once on save with final strength "
                 f"{self.stats['strength'] + mods.get('strength', 0)}"]
        notes += [f"⚠ {a.split(' (')[0]} (a guideline)" for a in roster.advice(content, self.race, self.stats)]
        self.query_one("#creation-notes", Static).update(Text("\n".join(notes)))
        self.refresh_bindings()

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
        self.row = (self.row + step) % (len(self.stat_names) + 2)
        if self.row == NAME_ROW:
            self.query_one("#character-name", Input).focus()
        else:
            self.query_one(Sheet).focus()
        self._draw()

    def action_change(self, step: int) -> None:
        status = self.query_one(StatusLine)
        if self.row == RACE_ROW:
            self._set_race(self.races[(self.races.index(self.race) + step) % len(self.races)])
            return
        if self.row == NAME_ROW:
            return
        stat = self.stat_names[self.row - 2]
        value = self.stats[stat] + step
        why = roster.refusal(self.app.content, self.race, stat, value)
        if why is None and step > 0 and self.left <= 0:
            why = f"no points left: {roster.article(roster.races(self.app.content)[self.race])} has {self.budget}"
        if why:
            status.message = f"✗ {why[0].upper()}{why[1:]}"
            return
        self.stats[stat] = value
        status.message = ""
        self._draw()

    def _set_race(self, race: str) -> None:
        """Keeps the points that still fit the new race; the rest fall to its caps. Points a race
        placed automatically (the berserker's Bravery) go back to the minimum."""
        content = self.app.content
        automatic, lowered = roster.races(content)[self.race].fixed, []
        for stat in self.stat_names:
            low, high = roster.limits(content, race, stat)
            value = low if stat in automatic else min(max(self.stats[stat], low), high)
            if value < self.stats[stat] and stat not in automatic:
                lowered.append(f"{stat} {value}")
            self.stats[stat] = value
        self.race = race
        notes = [f"lowered to its caps: {', '.join(lowered)}"] if lowered else []
        if self.left < 0:
            notes.append(f"{-self.left} points over its {self.budget}: lower some stats")
        self.query_one(StatusLine).message = f"{roster.races(content)[race].name}: {'; '.join(notes)}" if notes else ""
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
            ch, _roll = roster.create(content, name, self.race, dict(self.stats),
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
