"""The action menu (`a`): what the selected soldier can do beyond moving and shooting, as the ruleset
offers it (psionics, speeches, items, melee, charisma...). The menu only picks; the battle screen submits.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.core.commands import Act
from engine.core.ruleset import Option
from tui import keys

ROWS = 14  # entries shown at once: fits the 24-line terminal with the frame, title and key line


class ActionMenu(ModalScreen[Act | None]):
    """Pick one of the unit's options; an option with an amount (xcom-trpg's overload, annihilation's delay) then
    asks how much."""

    BINDINGS = keys.bindings("menu")

    def __init__(self, title: str, options: list[Option]) -> None:
        super().__init__()
        self.title_text = title
        self.options = options
        self.index = 0
        self.extra: int | None = None  # the overload being chosen, once an option with one is picked

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static(self.title_text, id="menu-title")
            yield Static(self._body(), id="menu-body")
            yield Static(self._keys(), id="menu-keys")

    def _body(self) -> str:
        if self.extra is not None:
            option = self.options[self.index]
            return f"{option.label}\n{option.note}\n\n{option.amount_words.format(n=self.extra)} (0-{option.overload})"
        first = max(0, min(self.index - ROWS // 2, len(self.options) - ROWS))
        lines, group = [], None
        for i, option in enumerate(self.options[first:first + ROWS], start=first):
            if option.group != group:
                group = option.group
                lines.append(f"[b]{group}[/b]")
            mark = "▶ " if i == self.index else "  "
            lines.append(f"{mark}{_escape(option.label)}")
        note = self.options[self.index].note
        return "\n".join(lines) + (f"\n\n{_escape(note)}" if note else "")

    def _keys(self) -> str:
        said = self.app._keymap  # noqa: SLF001 - the keys as remapped, so the hint stays true
        if self.extra is not None:
            word = self.options[self.index].amount_words.split(":")[0].lower()  # "overload", "delay"
            return (f"{keys.said(said, 'less', 1)}/{keys.said(said, 'more', 1)} {word}  "
                    f"{keys.said(said, 'choose', 1)} confirm  {keys.said(said, 'back', 1, 'menu')} back")
        return (f"{keys.said(said, 'menu_up', 1)}/{keys.said(said, 'menu_down', 1)} choose  "
                f"{keys.said(said, 'choose', 1)} do it  {keys.said(said, 'back', 1, 'menu')} close")

    def _refresh(self) -> None:
        self.query_one("#menu-body", Static).update(self._body())
        self.query_one("#menu-keys", Static).update(self._keys())

    def action_move(self, step: int) -> None:
        if self.extra is not None:
            return
        self.index = (self.index + step) % len(self.options)
        self._refresh()

    def action_more(self, step: int) -> None:
        if self.extra is None:
            return
        self.extra = max(0, min(self.options[self.index].overload, self.extra + step))
        self._refresh()

    def action_choose(self) -> None:
        option = self.options[self.index]
        if option.overload and self.extra is None:
            self.extra = 0
            self._refresh()
            return
        command = option.command
        if self.extra:
            command = Act(unit=command.unit, action=command.action, target=command.target, cell=command.cell,
                          option=command.option, amount=self.extra, targets=command.targets)
        self.dismiss(command)

    def action_back(self) -> None:
        if self.extra is not None:
            self.extra = None
            self._refresh()
            return
        self.dismiss(None)


def _escape(text: str) -> str:
    return text.replace("[", r"\[")


class ChoiceMenu(ActionMenu):
    """An interrupt's question (`Turn.choices`): one of its answers must be given; Esc gives the decline, if the
    ruleset names one, and does nothing otherwise."""

    def __init__(self, question: str, options: list[Option], decline: int | None) -> None:
        super().__init__(question, options)
        self.decline = decline

    def _keys(self) -> str:
        said = self.app._keymap  # noqa: SLF001
        back = f"  {keys.said(said, 'back', 1, 'menu')} {self.options[self.decline].label.lower()}" \
            if self.decline is not None else ""
        return (f"{keys.said(said, 'menu_up', 1)}/{keys.said(said, 'menu_down', 1)} choose  "
                f"{keys.said(said, 'choose', 1)} answer{back}")

    def action_back(self) -> None:
        if self.decline is not None:
            self.dismiss(self.options[self.decline].command)
