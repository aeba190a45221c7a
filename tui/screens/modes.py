"""The battle modes pushed over the battle screen: targeting and throwing return the command to give
(None when cancelled), looking returns nothing. The battle screen submits; a refused command opens the
mode again as it was (`again`), with the reason on its status line.
"""

from __future__ import annotations

from engine.core.commands import Rejected, Shoot, Throw
from engine.core.model import Unit
from engine.core.ruleset import Throwable
from engine.map.grid import Pos
from tui import keys, scene
from tui.screens import readout
from tui.screens.board import Board
from tui.session import Session


class Hostiles:
    """Tab and Shift+Tab through the hostiles in sight, the cursor on the one picked (look, throw)."""

    index = -1

    def action_cycle_target(self, step: int) -> None:
        hostiles = self.visible_hostiles()
        if not hostiles:
            return
        self.index = (self.index + step) % len(hostiles) if self.index >= 0 or step > 0 else len(hostiles) - 1
        self.cursor = hostiles[self.index].pos
        self.update_view()

    def hostile_availability(self, action: str) -> str | None:
        return "No hostile in sight" if action == "cycle_target" and not self.visible_hostiles() else None


class FireModes:
    """m steps through the fire modes of what the unit holds (targeting, firing at a cell)."""

    fire_mode = ""

    def _modes(self) -> list[str]:
        return [m.id for m in self.session.ruleset.shot_modes(self.session.state, self.unit)]

    def mode_availability(self, action: str) -> str | None:
        if action == "fire_mode" and len(self._modes()) < 2:
            modes = self.session.ruleset.shot_modes(self.session.state, self.unit)
            if not modes:
                return f"{self.unit.name} has no fire mode"
            return f"{self.unit.name} has one fire mode ({modes[0].name})"
        return None

    def _mode_names(self) -> dict[str, str]:
        return {m.id: m.name for m in self.session.ruleset.shot_modes(self.session.state, self.unit)}

    def action_fire_mode(self) -> None:
        modes, names = self._modes(), self._mode_names()
        self.fire_mode = modes[(modes.index(self.fire_mode) + 1) % len(modes)] if self.fire_mode in modes else modes[0]
        self.say(f"Fire mode: {names.get(self.fire_mode, self.fire_mode)}"
                 + (f" {self._why_not()}" if self._why_not() else ""))
        self.update_view()


class TargetScreen(FireModes, Board):
    """Tab cycles the hostiles in sight (the ones that can be hit first), m the fire mode; ⏎ or f fires."""

    BINDINGS = keys.bindings("battle", keys.BATTLE_MODES["target"])
    keyset = mode = "target"
    card_gives_way = True
    HINT = "{next_target}: next target · {fire_mode}: fire mode · {confirm_fire}: fire · {cancel}: cancel"

    def __init__(self, session: Session, shooter: str, targets: list[str], fire_mode: str, index: int = 0,
                 origin: Pos = (0, 0), palette: scene.Palette | None = None, message: str = "") -> None:
        super().__init__(session, shooter, session.state.units[targets[index]].pos, origin, palette)
        self.targets = targets
        self.index = index
        self.fire_mode = fire_mode
        self.message = message

    def again(self, message: str) -> TargetScreen:
        return TargetScreen(self.session, self.selected or "", self.targets, self.fire_mode, self.index, self.origin,
                            self.palette, message)

    def on_mount(self) -> None:
        self.say(self.message or self._why_not() or self.keys_said(self.HINT))
        self.update_view()

    def _why_not(self) -> str:
        """A shot the unit cannot take says why at once, not only when fired (sniper mode with one action)."""
        preview = self._preview()
        return f"✗ {preview.reason}" if isinstance(preview, Rejected) else ""

    @property
    def target(self) -> Unit:
        return self.session.state.units[self.targets[self.index]]

    def _preview(self):
        return self.session.ruleset.preview_shot(self.session.state, self.selected or "", self.target.id,
                                                 self.fire_mode)

    def overlay(self) -> scene.Overlay:
        marked = tuple(self.session.state.units[t].pos for t in self.targets)
        return scene.Overlay(cursor=self.cursor, selected=self.selected, marked=marked, target=self.target.pos)

    def info(self) -> list:
        return readout.shot_info(self.session, self.unit, self.target, self.index, len(self.targets), self.fire_mode)

    def availability(self, action: str) -> str | None:
        general = super().availability(action) or self.mode_availability(action)
        if general:
            return general
        if action == "shoot":
            preview = self._preview()
            return preview.reason if isinstance(preview, Rejected) else None
        return None

    def action_cycle_target(self, step: int) -> None:
        self.index = (self.index + step) % len(self.targets)
        self.cursor = self.target.pos
        self.say(self._why_not() or f"{self.target.name}: {self.keys_said(self.HINT)}")
        self.update_view()

    def action_shoot(self) -> None:
        self.dismiss(Shoot(unit=self.selected or "", target=self.target.id, mode=self.fire_mode))

    def action_cancel(self) -> None:
        self.dismiss(None)


class CellScreen(FireModes, Board):
    """The cursor picks a cell where the squad sees nobody (Tab: the cells it knows an unseen enemy stands in), m
    the fire mode; ⏎ or f fires there at the ruleset's odds for a shot in the dark (neo-troops: AV 6)."""

    BINDINGS = keys.bindings("battle", keys.BATTLE_MODES["cell"])
    keyset = mode = "cell"
    card_gives_way = True
    HINT = "Cursor to the cell · {next_target}: next suspected · {fire_mode}: mode · {confirm_fire}: fire"

    def __init__(self, session: Session, shooter: str, cursor: Pos, fire_mode: str, origin: Pos = (0, 0),
                 palette: scene.Palette | None = None, message: str = "") -> None:
        super().__init__(session, shooter, cursor, origin, palette)
        self.fire_mode = fire_mode
        self.message = message

    def again(self, message: str) -> CellScreen:
        return CellScreen(self.session, self.selected or "", self.cursor, self.fire_mode, self.origin, self.palette,
                          message)

    def on_mount(self) -> None:
        self.say(self.message or self.keys_said(self.HINT))
        self.update_view()

    def _modes(self) -> list[str]:
        """The modes a shot at a cell may take (the ruleset's, with its preview), else the held weapon's."""
        found = self._preview()
        if isinstance(found, Rejected) or not found.modes:
            return super()._modes()
        return [m.id for m in found.modes]

    def _mode_names(self) -> dict[str, str]:
        found = self._preview()
        named = {m.id: m.name for m in self.session.ruleset.shot_modes(self.session.state, self.unit)}
        return named | ({m.id: m.name for m in found.modes} if not isinstance(found, Rejected) else {})

    def suspected(self) -> list[Pos]:
        return sorted({tuple(c) for _, c in self.session.ruleset.suspects(self.session.state, self.session.side)})

    def _preview(self):
        return self.session.ruleset.preview_cell_shot(self.session.state, self.selected or "", self.cursor,
                                                      self.fire_mode)

    def _why_not(self) -> str:
        found = self._preview()
        return f"✗ {found.reason}" if isinstance(found, Rejected) else ""

    def overlay(self) -> scene.Overlay:
        return scene.Overlay(cursor=self.cursor, selected=self.selected, marked=tuple(self.suspected()),
                             target=self.cursor)

    def info(self) -> list:
        return readout.cell_shot_info(self.session, self.unit, self.cursor, self.fire_mode)

    def availability(self, action: str) -> str | None:
        general = super().availability(action) or self.mode_availability(action)
        if general:
            return general
        if action == "cycle_target" and not self.suspected():
            return "No cell where an unseen enemy is known: move the cursor"
        if action == "shoot":
            found = self._preview()
            return found.reason if isinstance(found, Rejected) else None
        return None

    def action_cycle_target(self, step: int) -> None:
        cells = self.suspected()
        at = cells.index(self.cursor) if self.cursor in cells else (-1 if step > 0 else 0)
        self.cursor = cells[(at + step) % len(cells)]
        self.say(self._why_not() or f"Suspected cell {self.cursor[0]},{self.cursor[1]}")
        self.update_view()

    def action_shoot(self) -> None:
        found = self._preview()
        self.dismiss(None if isinstance(found, Rejected) else found.command)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ThrowScreen(Hostiles, Board):
    """The cursor picks the blast cell inside the shaded range (Tab jumps to a hostile, i picks another item);
    ⏎ or t throws, after asking when the squad's own people would be hit."""

    BINDINGS = keys.bindings("battle", keys.BATTLE_MODES["throw"])
    keyset = mode = "throw"
    HINT = "Move the cursor to the blast cell · {confirm_throw}: throw · {cancel}: cancel"

    def __init__(self, session: Session, thrower: str, item: str, cursor: Pos, origin: Pos = (0, 0),
                 palette: scene.Palette | None = None, message: str = "") -> None:
        super().__init__(session, thrower, cursor, origin, palette)
        self.item = item
        self.message = message

    def again(self, message: str) -> ThrowScreen:
        return ThrowScreen(self.session, self.selected or "", self.item, self.cursor, self.origin, self.palette,
                           message)

    def on_mount(self) -> None:
        self.say(self.message or self._hint())
        self.update_view()

    def _hint(self) -> str:
        return self.keys_said(self.HINT + (" · {throw_item}: another item" if len(self._items()) > 1 else ""))

    def _reach(self) -> int:
        return self.session.ruleset.throw_range(self.session.state, self.unit, self.item)

    def overlay(self) -> scene.Overlay:
        state = self.session.state
        area = scene.cells_within((state.grid.height, state.grid.width), self.unit.pos, self._reach(),
                                  state.grid.hexes)
        return scene.Overlay(cursor=self.cursor, selected=self.selected, area=area, target=self.cursor)

    def info(self) -> list:
        return readout.throw_info(self.session, self.unit, self.item, self.cursor)

    def availability(self, action: str) -> str | None:
        general = super().availability(action) or self.hostile_availability(action)
        if general:
            return general
        if action == "pick_item" and len(self._items()) < 2:
            return f"{self.unit.name} has nothing else to throw"
        if action == "lob":
            preview = self.session.ruleset.preview_throw(self.session.state, self.unit.id, self.item, self.cursor)
            return preview.reason if isinstance(preview, Rejected) else None
        return None

    def _items(self) -> list[Throwable]:
        return self.session.ruleset.throwables(self.session.state, self.unit)

    def action_pick_item(self) -> None:
        from tui.screens.picker import Picker

        items = self._items()
        entries = [(f"{t.label} ×{t.count}", t.item) for t in items]
        at = next((n for n, t in enumerate(items) if t.item == self.item), 0)
        self.app.push_screen(Picker("Throw what?", entries, at), self._picked)

    def _picked(self, item: str | None) -> None:
        if item is not None:
            self.item = item
            self.say(f"{self.session.ruleset.name(item)}: {self._hint()}")
        self.update_view()

    def action_lob(self) -> None:
        own = readout.own_in_blast(self.session, self.unit, self.item, self.cursor)
        if not own:
            self._throw(True)
            return
        from tui.screens.dialogs import Confirm

        mine = self.unit in own
        who = ", ".join(u.name for u in own if u != self.unit)
        question = "Really throw at your own feet?" if mine else f"Really throw at {who}?"
        if mine and who:
            question += f"\n{who} would be hit too."
        self.app.push_screen(Confirm(question), self._throw)

    def _throw(self, yes: bool | None) -> None:
        if not yes:
            self.say("Not thrown: pick another cell")
            return
        seen = self.session.chronicle.spotted
        declared = next((u.id for u in self.session.state.units_at(self.cursor)
                         if u.side != self.session.side and u.id in seen), None)
        self.dismiss(Throw(unit=self.selected or "", item=self.item, cell=self.cursor, target=declared))

    def action_cancel(self) -> None:
        self.dismiss(None)


class LookScreen(Hostiles, Board):
    """The cursor tells what is on any cell the squad has seen; Tab jumps to a hostile."""

    BINDINGS = keys.bindings("battle", keys.BATTLE_MODES["look"])
    keyset = mode = "look"

    def on_mount(self) -> None:
        self.say(self.keys_said("Look: move the cursor · {next_target}: next hostile · {spotted}: in sight · "
                                "{cancel}: done"))
        self.update_view()

    def overlay(self) -> scene.Overlay:
        return scene.Overlay(cursor=self.cursor, selected=self.selected)

    def availability(self, action: str) -> str | None:
        return super().availability(action) or self.hostile_availability(action)

    def action_cancel(self) -> None:
        self.dismiss(None)
