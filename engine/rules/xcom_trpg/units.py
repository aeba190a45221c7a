"""xcom-trpg 2 and 6: a unit's frame from its template, with its HP rolled once."""

from __future__ import annotations

from engine.content import Content, RulesetDef
from engine.dice import Dice, Roll
from engine.map.grid import Pos
from engine.model import Unit


def final_stats(content: Content, template_id: str) -> dict[str, int]:
    """Allocated points plus race modifiers (muton +5 Strength, 2.2)."""
    t = content.units[template_id]
    race = content.races[t.race]
    return {k: v + race.modifiers.get(k, 0) for k, v in t.stats.items()}


def spawn(content: Content, rules: RulesetDef, template_id: str, uid: str, name: str, side: str, pos: Pos,
          facing: int, dice: Dice, stats: dict[str, int] | None = None, hp: int | None = None) -> tuple[Unit, list[Roll]]:
    t = content.units[template_id]
    race = content.races[t.race]
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
    tier = content.armor[t.armor].tier
    stamina_max = max(0, rules.stamina.evaluate(stats)[0] - tier)
    weapon = content.weapons[t.weapon]
    unit = Unit(id=uid, name=name, template=template_id, race=t.race, side=side, glyph=t.glyph, pos=pos,
                facing=facing, stats=stats, hp=hp_max, hp_max=hp_max, stamina=stamina_max, stamina_max=stamina_max,
                infinite_stamina=race.infinite_stamina, morale=rules.morale_max, morale_max=rules.morale_max,
                armor=t.armor, weapon=t.weapon, ammo=weapon.ammo, magazines=t.magazines, items=dict(t.items))
    return unit, rolls
