"""xcom-trpg 2 and 6: a unit's frame from its template, with its HP rolled once."""

from __future__ import annotations

from engine.content.models import Content
from engine.rules.xcom_trpg.models import RulesetDef
from engine.core.dice import Dice, Roll
from engine.map.grid import Pos
from engine.core.model import Unit
from engine.rules.xcom_trpg import psionics
from engine.rules.xcom_trpg.record import Soldier
from engine.rules.xcom_trpg.tables import xcom


def final_stats(content: Content, template_id: str) -> dict[str, int]:
    """Allocated points plus race modifiers (muton +5 Strength, 2.2)."""
    t = xcom(content).units[template_id]
    race = xcom(content).races[t.race]
    return {k: v + race.modifiers.get(k, 0) for k, v in t.stats.items()}


def spawn(content: Content, rules: RulesetDef, template_id: str, uid: str, name: str, side: str, pos: Pos,
          facing: int, dice: Dice, stats: dict[str, int] | None = None, hp: int | None = None,
          psi: bool = False) -> tuple[Unit, list[Roll]]:
    """`psi`: roll the sigurdsen pool of an awake mind (7.3) on the "psi" dice stream, when the content
    has psi abilities; the main stream stays as it was without psionics."""
    t = xcom(content).units[template_id]
    race = xcom(content).races[t.race]
    stats = dict(stats) if stats is not None else final_stats(content, template_id)
    rolls: list[Roll] = []
    hp_max = hp if hp is not None else t.hp
    if hp_max is None:
        indices: list[int] = []

        def die(sides: int) -> int:
            face, index = dice.d(sides, uid, "hp")
            indices.append(index)
            return face

        hp_max, shown, faces = rules.hp.evaluate(stats, die)
        rolls.append(Roll(actor=uid, purpose="hp", expr=rules.hp.text, faces=tuple(faces), formula=f"hp {shown}",
                          total=hp_max, index=indices[0] if indices else -1))
        dice.note(rolls[-1], f"rulesets.toml [xcom-trpg].hp = \"{rules.hp.text}\" (6.1), rolled once",
                  f"strength {stats['strength']}: units.toml [{template_id}].stats.strength"
                  + (f" {race.modifiers['strength']:+d} from races.toml [{t.race}].modifiers.strength"
                     if race.modifiers.get("strength") else ""))
    tier = xcom(content).armor[t.armor].tier
    stamina_max = max(0, rules.stamina.evaluate(stats)[0] - tier)
    weapon = xcom(content).weapons[t.weapon]
    unit = Unit(id=uid, name=name, template=template_id, race=t.race, side=side, glyph=t.glyph, pos=pos,
                facing=facing, hp=hp_max, hp_max=hp_max, items=dict(t.items),
                record=Soldier(stats=stats, armor=t.armor, weapon=t.weapon, ammo=weapon.ammo, magazines=t.magazines,
                               stamina=stamina_max, stamina_max=stamina_max, infinite_stamina=race.infinite_stamina,
                               morale=rules.morale_max, morale_max=rules.morale_max,
                               **(_psi_pool(content, template_id, uid, stats, dice, rolls) if psi else {})))
    return unit, rolls


def psi_awake(content: Content, template_id: str) -> bool:
    """7.1: alien minds are awake; humans (psi_locked races) after initiation; robots have none."""
    t = xcom(content).units[template_id]
    race = xcom(content).races[t.race]
    return not race.robot and (not race.psi_locked or t.psi_awakened)


def _psi_pool(content: Content, template_id: str, uid: str, stats: dict[str, int], dice: Dice,
              rolls: list[Roll]) -> dict[str, int]:
    if not xcom(content).psionics or not psi_awake(content, template_id):
        return {}
    roll = psionics.pool(dice, uid, stats.get("psionics", 0), stream="psi")
    dice.note(roll, "7.3: max pool Psi*10+1d50, rolled once at deployment",
              f"psionics {stats.get('psionics', 0)}: units.toml [{template_id}].stats.psionics")
    rolls.append(roll)
    return {"psi_active": 1, "psi_ss": roll.total, "psi_ss_max": roll.total}
