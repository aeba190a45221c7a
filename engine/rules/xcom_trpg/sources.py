"""Where each number of a roll came from: content file and key, cover, status (`audit --explain`).

Only called while a record is being explained, so the hot paths never build these strings.
"""

from __future__ import annotations

from engine.content.models import Content
from engine.rules.xcom_trpg.models import Mode, RulesetDef, Weapon
from engine.core.model import Unit
from engine.rules.xcom_trpg.record import soldier
from engine.rules.xcom_trpg.tables import xcom

RULES = "rulesets.toml [xcom-trpg]"


def _id(table: dict, item: object) -> str:
    return next((k for k, v in table.items() if v is item), "?")


def stat(content: Content, unit: Unit, name: str, value: int) -> str:
    """`agility 4: units.toml [anton].stats.agility 4` (+ race modifier, − stamina 0)."""
    template = xcom(content).units.get(unit.template)
    base = f"units.toml [{unit.template}].stats.{name}" if template else f"scenario [units.{unit.id}].stats.{name}"
    text = f"{name} {value}: {unit.name}'s frame ({base}"
    bonus = xcom(content).races[unit.race].modifiers.get(name, 0) if template else 0
    if bonus:
        text += f" {bonus:+d} from races.toml [{unit.race}].modifiers.{name}"
    text += ")"
    if name == "strength" and value != soldier(unit).stats[name]:
        text += f"; stamina 0: Strength {soldier(unit).stats[name]} counts as {value} (6.4)"
    return text


def attack(content: Content, rules: RulesetDef, unit: Unit, weapon: Weapon, mode: Mode, name: str, value: int,
           low: int, pen: int, cover_from: str, target: Unit | None) -> list[str]:
    wid = _id(xcom(content).weapons, weapon)
    out = [stat(content, unit, name, value - mode.stat_modifier)]
    if weapon.fallback_stat and name == weapon.fallback_stat:
        out.append(f"{name} instead of {weapon.stat}: Strength below weapons.toml [{wid}].fallback_below "
                   f"{weapon.fallback_below}")
    if mode.stat_modifier:
        out.append(f"{mode.stat_modifier:+d} {name}: weapons.toml [{wid}].modes.{_id(weapon.modes, mode)}"
                   ".stat_modifier")
    if pen:
        out.append(f"-{pen}: weapons.toml [{wid}].penalty = \"{weapon.penalty.text if weapon.penalty else ''}\"")
    if cover_from:
        out.append(f"÷2: partial cover ({cover_from}), 8.8")
    if target is not None and xcom(content).races[target.race].crit_range_min is not None:
        out.append(f"critical success {low}-100 against {target.name}: races.toml [{target.race}].crit_range_min")
    else:
        out.append(f"critical success {low}-100, failure 1-{rules.crit_failure_max}: "
                   f"{RULES}.crit_success_min / crit_failure_max")
    return out


def luck(content: Content, rules: RulesetDef, unit: Unit) -> list[str]:
    return [stat(content, unit, "luck", soldier(unit).stats["luck"]),
            f"passes at {rules.luck_threshold}: {RULES}.luck_threshold (3.2)"]


def dodge(content: Content, unit: Unit, value: int, between: int) -> list[str]:
    return [stat(content, unit, "agility", value),
            f"may dodge: {between} free sectors between and the shooter within its facing ±45° (8.7 case B)"]
