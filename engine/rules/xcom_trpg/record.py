"""xcom-trpg's record of a unit (`Unit.record`, logged as `xcom-trpg.soldier`): its stats, armour, weapon, rounds,
magazines and actions, stamina, morale and concussion,
the turn's markers, and what a rule keeps past a turn, each a typed field (a dict keyed by unit id where the rule
keeps one number per other unit). 0, "" and an empty dict mean "none": the rules read a missing number as 0.

`from_fields` reads the kernel fields, flags and string-keyed counters an older log wrote (`cha_pair:julia`,
`psi_cd_panic`, `trait:xenophobe`...); `counters` and `flags` give them back in those words, for the sheet's
effects list and a scenario file's `trait:`/`sex:` entries.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.core.records import record


def _d() -> Any:
    return attrs.field(factory=dict)


@record("xcom-trpg.soldier")
@attrs.frozen(kw_only=True, slots=False)  # a __dict__: records.evolve copies it in one step
class Soldier:
    # its sheet: stats by id, what it wears and wields, rounds in the weapon, spare magazines, actions left
    stats: dict[str, int] = _d()
    armor: str = ""
    weapon: str = ""
    ammo: int = 0
    magazines: int = 0
    actions: int = 0
    stamina: int = 0
    stamina_max: int = 0
    infinite_stamina: bool = False
    morale: int = 0
    morale_max: int = 0
    concussion: int = 0
    # this turn's markers, cleared when the unit's turn begins
    moved: bool = False
    combo: bool = False
    concussed: bool = False  # one action next turn
    compelled_hold: bool = False  # psi compulsion: no moving or shooting
    bound: tuple[str, ...] = ()  # persuasion demands it keeps this turn (charisma.DEMANDS)
    # critical tokens and the episode buff (3.4-3.5)
    crit_plus: int = 0
    crit_minus: int = 0
    buff_plus: int = 0
    buff_minus: int = 0
    # psionics (7.3-7.7); sides and casters by their place (1-based) in psi_effects.SIDES / the state's units
    psi_active: int = 0
    psi_ss: int = 0
    psi_ss_max: int = 0
    psi_cd: dict[str, int] = _d()  # ability id -> turns left + 1
    psi_boost: dict[str, int] = _d()  # stat -> how much
    psi_boost_turns: dict[str, int] = _d()  # stat -> turns left + 1
    psi_gather: int = 0
    psi_meditate: int = 0
    psi_sleep: int = 0
    psi_skip: int = 0
    psi_phantom: int = 0
    psi_order: int = 0
    psi_order_x: int = 0  # the retreat cell, x + 1
    psi_order_y: int = 0
    psi_mc_home: int = 0
    psi_mc_by: int = 0
    psi_mc_turns: int = 0
    psi_revenant: int = 0  # a revenant's speed
    # the tranquilizer (8.12.4): on the shooter, then on a sedated target, then on a drugged sectoid
    tranq_loaded: int = 0
    tranq_found: int = 0
    tranq_thio: int = 0
    tranq_pheno: int = 0
    tranq_age: int | None = None  # phases since the dose; 0 in the phase it was given
    tranq_wake: int = 0
    tranq_asleep: int = 0
    tranq_psi_bonus: int = 0
    tranq_psi_left: int = 0
    tranq_addicted: int = 0
    # charisma (5.5): per other unit
    cha_pair: dict[str, int] = _d()
    cha_immune: dict[str, int] = _d()
    cha_hostile: dict[str, int] = _d()  # the phase it last attacked that unit
    cha_demand: str = ""  # a won demand, kept from the target's next turn start
    cha_from: str = ""  # who won it
    cha_away: str = ""  # a retreat: away from whom, this turn
    # melee grips (8.11): held by / holding, per other unit
    melee_held_by: dict[str, int] = _d()
    melee_holding: dict[str, int] = _d()
    bravery_seen: dict[str, int] = _d()  # monsters it has met (4.4): the bravery check is made once
    speech_free_phase: int | None = None  # the commander's free speech: the phase it was given
    sniper_prone: int = 0
    rest: int = 0
    after: dict[str, int] = _d()  # item id -> turns until its after-effect
    found: dict[str, int] = _d()  # "<zone>_<row>": search table rows it found
    special: dict[str, int] = _d()  # special formulas (scenery.toml) it carried out, by id
    traits: tuple[str, ...] = ()  # a scenario's traits and sex (the game reads its unit templates)
    sex: str = ""

    @classmethod
    def from_fields(cls, old: dict[str, Any]) -> dict[str, Any]:
        """The record's fields from an older log's kernel fields (`stamina`...), `flags` and `counters`: all the
        ones a flags or counters value decides (a key left out was a counter at 0), none for a field not given."""
        out = {k: old[k] for k in POOLS if k in old}
        if "flags" in old:
            out.update(_from_flags(old["flags"]))
        if "counters" in old:
            out.update(_from_counters(old["counters"]))
        return out

    def counters(self) -> dict[str, int]:
        """The record in an older log's counter words (the sheet's effects list reads them)."""
        out: dict[str, int] = {}
        for name in SIMPLE:
            v = getattr(self, name)
            if v is not None and v != 0:
                out[name] = v
        for name, prefix in PREFIXED.items():
            out.update({prefix + k: v for k, v in getattr(self, name).items()})
        out.update({f"psi_boost_{k}_turns": v for k, v in self.psi_boost_turns.items()})
        for name, prefix in ONE_OF.items():
            if getattr(self, name):
                out[prefix + getattr(self, name)] = 1
        out.update({f"trait:{t}": 1 for t in self.traits})
        if self.sex:
            out[f"sex:{self.sex}"] = 1
        return out

    def flags(self) -> tuple[str, ...]:
        named = [f for f in FLAGS if getattr(self, f)] + [f"cha_{d}" for d in self.bound]
        return tuple(sorted(named))


POOLS = ("stats", "armor", "weapon", "ammo", "magazines", "actions",  # kernel fields until format 4
         "stamina", "stamina_max", "infinite_stamina", "morale", "morale_max", "concussion")  # until format 3
FLAGS = ("moved", "combo", "concussed", "compelled_hold")
SIMPLE = ("crit_plus", "crit_minus", "buff_plus", "buff_minus", "psi_active", "psi_ss", "psi_ss_max", "psi_gather",
          "psi_meditate", "psi_sleep", "psi_skip", "psi_phantom", "psi_order", "psi_order_x", "psi_order_y",
          "psi_mc_home", "psi_mc_by", "psi_mc_turns", "psi_revenant", "tranq_loaded", "tranq_found", "tranq_thio",
          "tranq_pheno", "tranq_age", "tranq_wake", "tranq_asleep", "tranq_psi_bonus", "tranq_psi_left",
          "tranq_addicted", "speech_free_phase", "sniper_prone", "rest")
PREFIXED = {"psi_cd": "psi_cd_", "psi_boost": "psi_boost_", "cha_pair": "cha_pair:", "cha_immune": "cha_immune:",
            "cha_hostile": "cha_hostile:", "melee_held_by": "melee_held_by:", "melee_holding": "melee_holding:",
            "bravery_seen": "bravery_", "after": "after_", "found": "found_",
            "special": "special_"}
ONE_OF = {"cha_demand": "cha_demand_", "cha_from": "cha_from:", "cha_away": "cha_away:"}


COUNTED = frozenset(a.name for a in attrs.fields(Soldier)) - set(POOLS) - set(FLAGS) - {"bound"}  # once counters


def counted(changes: dict[str, Any]) -> bool:
    """Whether a unit change touched what were its counters (the crit tokens' check runs then, 3.5)."""
    rec = changes.get("record")
    return rec is not None and not COUNTED.isdisjoint(getattr(rec, "fields", COUNTED))


def _from_flags(flags: Any) -> dict[str, Any]:
    out: dict[str, Any] = {f: False for f in FLAGS}
    bound = []
    for flag in flags:
        if flag in FLAGS:
            out[flag] = True
        elif isinstance(flag, str) and flag.startswith("cha_"):
            bound.append(flag[4:])
        else:
            raise ValueError(f"no xcom-trpg turn flag {flag!r}")
    out["bound"] = tuple(bound)
    return out


def _from_counters(counters: Any) -> dict[str, Any]:
    out: dict[str, Any] = {name: None if name in ("tranq_age", "speech_free_phase") else 0 for name in SIMPLE}
    out.update({name: {} for name in (*PREFIXED, "psi_boost_turns")})
    out.update({name: "" for name in ONE_OF}, traits=(), sex="")
    traits = []
    for key, v in counters.items():
        if key in SIMPLE:
            out[key] = v
        elif key.startswith("psi_boost_") and key.endswith("_turns"):
            out["psi_boost_turns"][key[len("psi_boost_"):-len("_turns")]] = v
        elif key.startswith("trait:"):
            traits.append(key[6:]) if v else None
        elif key.startswith("sex:"):
            out["sex"] = out["sex"] or (key[4:] if v else "")
        elif (name := next((n for n, p in ONE_OF.items() if key.startswith(p)), None)) is not None:
            out[name] = key[len(ONE_OF[name]):]
        elif (name := next((n for n, p in PREFIXED.items() if key.startswith(p)), None)) is not None:
            out[name][key[len(PREFIXED[name]):]] = v
        else:
            raise ValueError(f"no xcom-trpg counter {key!r}")
    out["traits"] = tuple(traits)
    return out


def soldier(unit: Any) -> Soldier:
    """The unit's record (a unit built without one, as a test may, reads as a fresh record)."""
    return unit.record if unit.record is not None else EMPTY


EMPTY = Soldier()
