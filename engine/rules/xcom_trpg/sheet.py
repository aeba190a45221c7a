"""What the client reads of an xcom-trpg unit, in the rules' words: its sheet (HP, stamina and morale,
concussion and the sigurdsen pool, the states and cooldowns), the odds of a shot as lines, and what it may
throw. The client prints these as they come and knows none of the names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.model import State, Unit
from engine.core.ruleset import Row, Sheet, Throwable
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier

if TYPE_CHECKING:
    from engine.rules.xcom_trpg import XcomTrpg

# Counters the rules keep for themselves: a player reads nothing from them (WORDS overrides a prefix).
BOOKKEEPING = ("psi_active", "psi_ss", "psi_ss_max", "psi_mc_home", "psi_mc_by", "psi_order_x", "psi_order_y",
               "speech_free_phase", "bravery_", "cha_", "found_", "special_", "trait:", "sex:", "tranq_thio",
               "tranq_pheno", "tranq_loaded", "tranq_found", "tranq_age", "tranq_wake", "melee_holding:")
WORDS = {"crit_plus": "+ tokens {v}", "crit_minus": "− tokens {v}", "buff_plus": "heroic inspiration {v}",
         "buff_minus": "depression {v}", "psi_sleep": "asleep {v}", "psi_mc_turns": "mind-controlled",
         "psi_skip": "skips a turn", "psi_phantom": "sees a phantom", "psi_order": "compelled",
         "psi_gather": "gathering thoughts", "psi_meditate": "meditating", "psi_revenant": "revenant",
         "tranq_asleep": "sedated", "tranq_psi_left": "drugged ({v} psi)", "tranq_addicted": "addicted",
         "sniper_prone": "prone", "rest": "resting"}
QUIET_FLAGS = ("moved",)  # a turn flag the path preview already tells


def sheet(unit: Unit, content) -> Sheet:
    stamina = "∞" if soldier(unit).infinite_stamina else f"{soldier(unit).stamina:>3}/{soldier(unit).stamina_max:<3}"
    status = str(soldier(unit).concussion)
    if soldier(unit).psi_active:
        status += f"  Psi {soldier(unit).psi_ss}/{soldier(unit).psi_ss_max} SS"
    rows = (Row("HP", f"{unit.hp:>3}/{unit.hp_max:<3}", unit.hp, unit.hp_max),
            Row("Stamina", f"{stamina} Morale {soldier(unit).morale}"),
            Row("Concussion", status, alert="" if unit.status == "active" else unit.status.upper()))
    effects = [f for f in soldier(unit).flags() if f not in QUIET_FLAGS] + effect_words(soldier(unit).counters())
    weapon = xcom(content).weapons[soldier(unit).weapon]
    items = ", ".join(f"{(xcom(content).weapons.get(i) or xcom(content).items[i]).name.lower()}×{n}"  # grenades or consumables
                      for i, n in unit.items.items() if n)
    rec = soldier(unit)
    kit = (f"{weapon.name} {rec.ammo}/{weapon.ammo} +{rec.magazines} mag", f"Items: {items or '—'}")
    return Sheet(rows=rows, effects=tuple(effects), kind=xcom(content).races[unit.race].name, kit=kit)


def effect_words(counters: dict[str, int]) -> list[str]:
    """What a player reads on the sheet: states and cooldowns, not the rules' bookkeeping (the record's fields in
    their counter words, `Soldier.counters`)."""
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


def shot_lines(p_hit: float, damage: float, p_headshot: float, can_dodge: bool, cover: str, distance: int,
               reach: int | None, per_hit: int, dart: bool = False) -> tuple[Row, ...]:
    """The targeting panel's odds: hit, expected damage after armour with what one hit does through it (so a shot
    that cannot hurt looks so), headshot, dodge, cover and range."""
    out_of = f"/{reach}" if reach else ""
    if dart:
        hurt = "none: a sedative dart"
    elif per_hit == 0:
        hurt = "none: armour stops it" if damage == 0 else f"{damage:.1f}: only a headshot hurts"
    else:
        hurt = f"{damage:.1f} after armour ({per_hit}/hit)"
    return (Row("Hit", f"{100 * p_hit:.1f}% · dodge {'yes' if can_dodge else 'no'}"),
            Row("Damage", hurt),
            Row("Headshot", f"{100 * p_headshot:.1f}%"),
            Row("Cover", f"{cover} · range {distance}{out_of}"))


def throwables(rs: XcomTrpg, state: State, unit: Unit) -> list[Throwable]:
    """Grenades the unit carries (xcom-trpg's inventory is `Unit.items`); an alien one only in alien hands (the
    biometric lock, 8.4)."""
    alien = xcom(rs.content).races[unit.race].alien
    weapons = xcom(rs.content).weapons
    return [Throwable(i, weapons[i].name, n) for i, n in unit.items.items()
            if n > 0 and i in weapons and weapons[i].thrown and (alien or not weapons[i].alien)]
