"""Text panels of the battle screen: the unit sheet, the info box, the logs and the status line."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from engine.content.models import Content
from engine.core.model import Unit
from engine.core.ruleset import Budget
from tui.widgets.lines import Lines


def bar(value: int, most: int, width: int = 8) -> str:
    filled = 0 if most <= 0 else round(width * max(0, min(value, most)) / most)
    return "█" * filled + "·" * (width - filled)


def sheet(content: Content, unit: Unit | None, budget: Budget | None) -> list[Text]:
    if unit is None:
        return [Text("No soldier selected")]
    weapon = content.weapons[unit.weapon]
    head = Text.assemble((f"[{unit.glyph}] {unit.name}", "bold"), f" {content.races[unit.race].name}")
    stamina = "∞" if unit.infinite_stamina else f"{unit.stamina:>3}/{unit.stamina_max:<3}"
    status = Text(f"Concussion {unit.concussion}")
    if unit.counters.get("psi_active"):
        status.append(f"  Psi {unit.counters.get('psi_ss', 0)}/{unit.counters.get('psi_ss_max', 0)} SS")
    if unit.status != "active":
        status.append(f"  {unit.status.upper()}", style="bold reverse")
    rows = [head, Text(f"HP      {unit.hp:>3}/{unit.hp_max:<3} {bar(unit.hp, unit.hp_max)}"),
            Text(f"Stamina {stamina} Morale {unit.morale}"), status]
    if budget is not None:
        moves = f"  move {budget.moves_left}" + (f" combo {budget.combo_moves}" if budget.combo_moves else "")
        rows.append(Text.assemble((budget.label[0].upper() + budget.label[1:], "bold" if budget.can_act else "dim"),
                                  moves))
    rows.append(Text(f"{weapon.name} {unit.ammo}/{weapon.ammo} +{unit.magazines} mag"))
    items = ", ".join(f"{(content.weapons.get(i) or content.items[i]).name.lower()}×{n}"  # grenades or consumables
                      for i, n in unit.items.items() if n)
    rows.append(Text(f"Items: {items or '—'}"))
    effects = [f for f in unit.flags if f != "moved"]
    rows.append(Text(f"Effects: {', '.join(effects + effect_words(unit.counters)) or '—'}"))
    return rows


BOOKKEEPING = ("psi_active", "psi_ss", "psi_ss_max", "psi_mc_home", "psi_mc_by", "psi_order_x", "psi_order_y",
               "speech_free_phase", "bravery_", "cha_", "found_", "special_", "trait:", "sex:", "tranq_thio",
               "tranq_pheno", "tranq_loaded", "tranq_found", "tranq_age", "tranq_wake", "melee_holding:")
WORDS = {"crit_plus": "+ tokens {v}", "crit_minus": "− tokens {v}", "buff_plus": "heroic inspiration {v}",
         "buff_minus": "depression {v}", "psi_sleep": "asleep {v}", "psi_mc_turns": "mind-controlled",
         "psi_skip": "skips a turn", "psi_phantom": "sees a phantom", "psi_order": "compelled",
         "psi_gather": "gathering thoughts", "psi_meditate": "meditating", "psi_revenant": "revenant",
         "tranq_asleep": "sedated", "tranq_psi_left": "drugged ({v} psi)", "tranq_addicted": "addicted",
         "sniper_prone": "prone", "rest": "resting"}


def effect_words(counters: dict[str, int]) -> list[str]:
    """What a player reads on the sheet: states and cooldowns, not the rules' bookkeeping."""
    out = []
    for key, v in sorted(counters.items()):
        if not v or key.startswith(BOOKKEEPING) and key not in WORDS:
            continue
        if key.startswith("psi_cd_"):
            out.append(f"{key[7:].replace('_', ' ')} cooldown {v - 1}")
        elif key.startswith("melee_held_by:"):
            out.append("held")
        elif key.startswith("after_"):
            out.append(f"after-effect in {v}")
        else:
            out.append(WORDS.get(key, key.replace("_", " ") + " {v}").format(v=v))
    return out


MARK = {"done": "✓", "failed": "✗", "open": "·"}


def objective_lines(statuses) -> list[Text]:
    """One line per objective: its mark, its words up to any bracket, and how far along it is."""
    out = []
    for s in statuses:
        words = s.objective.text.split(" (")[0]
        out.append(Text.assemble((MARK[s.state], "bold"), f" {words}: {s.detail}"))
    return out


class UnitPanel(Lines):
    """The selected soldier's sheet."""

    unit: reactive[Unit | None] = reactive(None, repaint=False)
    """The unit on show; None shows an empty sheet."""

    budget: reactive[Budget | None] = reactive(None, repaint=False)
    """What the unit can still do this turn, from the ruleset."""

    def __init__(self, content: Content, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rules_content = content

    def watch_unit(self) -> None:
        self.set_lines(sheet(self.rules_content, self.unit, self.budget))

    def watch_budget(self) -> None:
        self.set_lines(sheet(self.rules_content, self.unit, self.budget))


class InfoPanel(Lines):
    """What the cursor points at, or the shot preview while targeting."""


class TopBar(Lines):
    """Mission, phase and whose turn it is."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(wrap=False, id=id)


class LogTail(Lines):
    """The newest lines of a log that fit, wrapped; the full log is one key away."""

    def __init__(self, title: str, *, id: str | None = None) -> None:
        super().__init__(tail=True, id=id)
        self.border_title = title
        self._count = 0

    def show(self, lines: list[str], keep: int = 40) -> None:
        """Take the log's lines; only the newest `keep` are wrapped (more never fit)."""
        if len(lines) != self._count:
            self._count = len(lines)
            self.set_lines(lines[-keep:])


class StatusLine(Lines):
    """The last rejection or prompt: one line that never wraps into the map."""

    message: reactive[str] = reactive("", repaint=False)
    """The text; errors start with "✗"."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(wrap=False, id=id)

    def watch_message(self, message: str) -> None:
        self.set_lines([Text(message, style="bold" if message.startswith("✗") else "")])


class TooSmall(Static):
    """Shown instead of a screen's content when the terminal is under the minimum size."""

    def __init__(self) -> None:
        super().__init__("", id="too-small")

    def show_size(self, width: int, height: int, need: tuple[int, int]) -> None:
        self.update(f"Terminal too small: {width}×{height}.\nxenotac needs at least {need[0]}×{need[1]}.\n"
                    "Enlarge the window; nothing is lost.")
