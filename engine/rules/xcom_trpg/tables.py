"""xcom-trpg's own content: `content/xcom-trpg/` (its stat system, races, armour, weapons, units, psionics, items),
declared as a `Schema` and cross-checked here, against itself and the shared tables (missions name its units,
factions convert into them, difficulty levels raise its stats).

The rules read the tables back through `xcom(content)`: `xcom(rs.content).weapons["rifle"]`.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from engine.content import bounds, strict
from engine.content.models import Difficulty, Mission
from engine.content.formula import Formula, names_in
from engine.content import tables
from engine.content.tables import Schema
from engine.rules.xcom_trpg import models as xm

ID = "xcom-trpg"


KINDS = ("rulesets", "races", "armor", "weapons", "units", "psionics", "items")

# (model, field) -> (least, most) of its own models, on top of the shared `bounds.LIMITS`.
LIMITS: dict[tuple[type, str], tuple[int, int]] = {
    (xm.RulesetDef, "stat_min"): bounds.STAT, (xm.RulesetDef, "stat_max"): (1, 100),
    (xm.RulesetDef, "stat_minimums"): bounds.STAT, (xm.RulesetDef, "creation_points"): (0, 1000),
    (xm.RulesetDef, "epic_creation_points"): (0, 1000), (xm.RulesetDef, "morale_max"): (1, 10_000),
    (xm.RulesetDef, "actions_per_turn"): (1, 20), (xm.RulesetDef, "combo_move"): (0, 20),
    (xm.RulesetDef, "crit_success_min"): (1, 101), (xm.RulesetDef, "crit_failure_max"): (0, 100),
    (xm.RulesetDef, "vision_radius"): (1, 200), (xm.RulesetDef, "cell_capacity"): (0, 100),
    (xm.Race, "caps"): bounds.STAT, (xm.Race, "modifiers"): (-50, 50), (xm.Race, "fixed"): bounds.STAT,
    (xm.Race, "crit_range_min"): (1, 101), (xm.Race, "morale_per_phase"): bounds.SIGNED,
    (xm.Armor, "tier"): (0, 100), (xm.Armor, "concussion_reduction_percent"): (0, 100),
    (xm.Mode, "shots"): (1, 100), (xm.Mode, "actions"): (1, 20), (xm.Mode, "stamina"): (0, 100),
    (xm.Mode, "stat_modifier"): (-100, 100), (xm.Weapon, "damage"): (0, 10_000), (xm.Weapon, "ammo"): (0, 1000),
    (xm.Weapon, "armor_ignore"): (0, 100), (xm.Weapon, "headshot_multiplier"): (1, 100),
    (xm.Weapon, "pellets"): (1, 100), (xm.Weapon, "smoke_radius"): (0, 20), (xm.Weapon, "owner_bonus"): (-50, 50),
    (xm.Weapon, "fallback_below"): bounds.STAT, (xm.UnitTemplate, "stats"): bounds.STAT,
    (xm.UnitTemplate, "items"): (0, 100), (xm.UnitTemplate, "magazines"): (0, 100),
    (xm.UnitTemplate, "hp"): (1, 100_000), (xm.PsiAbility, "min_psi"): bounds.STAT,
    (xm.PsiAbility, "most_targets"): (1, 100), (xm.PsiAbility, "power"): (0, 100),
    (xm.PsiAbility, "overload_gain"): (0, 100), (xm.Item, "actions"): (0, 20), (xm.Item, "reach"): (0, 20),
    (xm.Item, "stamina"): (-100, 100), (xm.Item, "hp"): bounds.SIGNED, (xm.Item, "after_turns"): (0, 100),
    (xm.Item, "after_morale"): bounds.SIGNED,
    (xm.Campaign, "start_bonuses"): (0, 1_000_000), (xm.Campaign, "win_bonuses"): (0, 1_000_000),
    (xm.Campaign, "quest_bonuses"): (0, 1_000_000), (xm.Campaign, "prices"): (0, 1_000_000),
    (xm.Campaign, "refund_percent"): (0, 100), (xm.Campaign, "convert_points"): (0, 100),
    (xm.Campaign, "missed_episodes"): (0, 100), (xm.Campaign, "extra_turns"): (0, 100),
    (xm.Quest, "count"): (0, 10_000),
}


def xcom(content) -> SimpleNamespace:
    """xcom-trpg's tables of a loaded bundle, by kind."""
    return tables.of(content, ID)


class _Any(set):
    """The names of a table that did not load (its own message says why), so none is called unknown."""

    def __contains__(self, _name: object) -> bool:
        return True

    def __or__(self, _other):
        return self

    __ror__ = __or__


def _ref(file: str, key: str, field: str, kind: str, value: str, table) -> list[str]:
    if value in table:
        return []
    return [f"{file}: [{key}].{field}: unknown {kind} {value!r}{strict.did_you_mean(value, table)}"]


def _names(formula: Formula | None, allowed: set[str]) -> str | None:
    if formula is None or isinstance(allowed, _Any):
        return None
    bad = sorted(names_in(formula.tree) - allowed)
    return bad[0] if bad else None


def check(own: dict[str, dict[str, Any]], shared: dict[str, Any]) -> list[str]:
    t = SimpleNamespace(**{kind: own.get(kind, {}) for kind in KINDS})
    known = shared.get("known", {})  # every id declared, own and shared, loaded or not
    ids = SimpleNamespace(**{kind: known.get(kind, _Any()) for kind in (*KINDS, "factions", "terrain", "behaviour")})
    stats = {st for r in t.rulesets.values() for st in r.stats} if set(t.rulesets) == ids.rulesets else _Any()
    out = _stat_system(t, ids, stats) + _weapons_and_units(t, ids, stats)
    out += check_psionics(t.psionics, ids.races) + _shared_uses(ids, stats, shared)
    return out + _bounds(t, shared) + _campaign(own, t, ids)


def _campaign(own: dict[str, dict[str, Any]], t: SimpleNamespace, ids: SimpleNamespace) -> list[str]:
    """campaign.toml's prices and conversions name epic races (2.4); its numbers and quests.toml's in bounds."""
    out: list[str] = []
    for key, c in own.get("campaign", {}).items():
        for field, races in (("prices", list(c.prices)), ("converts", c.converts)):
            for race in races:
                if race not in ids.races:
                    out.append(f"campaign.toml: [{key}].{field}: unknown race {race!r}")
                elif race in t.races and not t.races[race].epic:
                    out.append(f"campaign.toml: [{key}].{field}: {race!r} is not an epic race (2.4)")
        out += [f"campaign.toml: [{key}].converts: {race!r} has no price" for race in c.converts
                if race not in c.prices and race in ids.races]  # an unknown one is said once, above
        out.extend(bounds.numbers("campaign.toml", key, c, LIMITS))
    for key, q in own.get("quests", {}).items():
        out.extend(bounds.numbers("quests.toml", key, q, LIMITS))
    return out


def _stat_system(t: SimpleNamespace, ids: SimpleNamespace, all_stats: set[str]) -> list[str]:
    out = []
    for rid, r in t.rulesets.items():
        stats = set(r.stats)
        for field in ("hp", "stamina", "god_of_random"):
            bad = _names(getattr(r, field), stats)
            if bad:
                out.append(f"rulesets.toml: [{rid}].{field}: unknown name {bad!r}{strict.did_you_mean(bad, stats)}")
        for stat in r.stat_minimums:
            if stat not in stats:
                out.append(f"rulesets.toml: [{rid}].stat_minimums.{stat}: unknown stat{strict.did_you_mean(stat, stats)}")
    for rid, race in t.races.items():
        for i, other in enumerate(race.frightens):
            out.extend(_ref("races.toml", rid, f"frightens[{i}]", "race", other, ids.races))
        for part in ("caps", "modifiers", "fixed"):
            for stat in getattr(race, part):
                if stat not in all_stats:
                    out.append(f"races.toml: [{rid}].{part}.{stat}: unknown stat{strict.did_you_mean(stat, all_stats)}")
    return out


def _weapons_and_units(t: SimpleNamespace, ids: SimpleNamespace, all_stats: set[str]) -> list[str]:
    out = []
    for wid, w in t.weapons.items():
        if w.stat not in all_stats:
            out.append(f"weapons.toml: [{wid}].stat: unknown stat {w.stat!r}{strict.did_you_mean(w.stat, all_stats)}")
        for aid in w.headshot_kills:
            out.extend(_ref("weapons.toml", wid, "headshot_kills", "armour", aid, ids.armor))
        for field in ("throw_range", "penalty"):
            bad = _names(getattr(w, field), all_stats)
            if bad:
                out.append(f"weapons.toml: [{wid}].{field}: unknown name {bad!r}{strict.did_you_mean(bad, all_stats)}")
        if w.thrown and w.throw_range is None:
            out.append(f"weapons.toml: [{wid}].throw_range: a thrown weapon needs a throw range")
        if not w.modes:
            out.append(f"weapons.toml: [{wid}].modes: a weapon needs at least one mode")
        if w.owner is not None:
            out.extend(_ref("weapons.toml", wid, "owner", "unit", w.owner, ids.units))
        for stat in w.owner_bonus:
            if stat not in all_stats:
                out.append(f"weapons.toml: [{wid}].owner_bonus.{stat}: unknown stat{strict.did_you_mean(stat, all_stats)}")
        if w.smoke is not None:
            out.extend(_ref("weapons.toml", wid, "smoke", "tile", w.smoke, ids.terrain))
    behaviours = ids.behaviour
    for uid, u in t.units.items():
        out.extend(_ref("units.toml", uid, "race", "race", u.race, ids.races))
        out.extend(_ref("units.toml", uid, "faction", "faction", u.faction, ids.factions))
        out.extend(_ref("units.toml", uid, "armor", "armour", u.armor, ids.armor))
        out.extend(_ref("units.toml", uid, "weapon", "weapon", u.weapon, ids.weapons))
        for item in u.items:  # grenades (weapons.toml) or consumables (items.toml)
            out.extend(_ref("units.toml", uid, f"items.{item}", "item", item, ids.weapons | ids.items))
        for stat in u.stats:
            if stat not in all_stats:
                out.append(f"units.toml: [{uid}].stats.{stat}: unknown stat{strict.did_you_mean(stat, all_stats)}")
        if len(u.glyph) != 1:
            out.append(f"units.toml: [{uid}].glyph: expected one character, got {strict.show(u.glyph)}")
        if u.ai != "default" and behaviours:
            out.extend(_ref("units.toml", uid, "ai", "behaviour", u.ai, behaviours))
    return out


def _shared_uses(ids: SimpleNamespace, all_stats: set[str], shared: dict[str, Any]) -> list[str]:
    """What the shared tables ask of this ruleset's: the units factions convert their victims into, the stats a
    difficulty level raises, and each of its missions' squad, enemies, leader, searches and special formulas."""
    out = []
    for fid, f in shared.get("factions", {}).items():
        for victim, risen in f.converts.items():
            out.extend(_ref("factions.toml", fid, f"converts.{victim}", "unit", risen, ids.units))
    for did, d in shared.get("difficulty", {}).items():
        for stat in d.alien_stats:
            if stat not in all_stats:
                out.append(f"difficulty.toml: [{did}].alien_stats.{stat}: unknown stat{strict.did_you_mean(stat, all_stats)}")
    files = shared.get("mission_files", {})
    for mid, m in shared.get("missions", {}).items():
        if m.ruleset == ID:
            out.extend(check_mission(files.get(mid, "missions"), mid, m, ids, all_stats))
    return out


def check_mission(file: str, mid: str, m: Mission, ids: SimpleNamespace, all_stats: set[str]) -> list[str]:
    """The parts of a mission that name xcom-trpg's units, weapons, items and stats (4.5-4.7)."""
    out = []
    for i, uid in enumerate(m.squad):
        out.extend(_ref(file, mid, f"squad[{i}]", "unit", uid, ids.units))
    if len(set(m.squad)) != len(m.squad):
        out.append(f"{file}: [{mid}].squad: a unit template can be in the squad only once")
    for uid in m.enemies:
        out.extend(_ref(file, mid, f"enemies.{uid}", "unit", uid, ids.units))
    if m.civilians:
        out.extend(_ref(file, mid, "civilian", "unit", m.civilian, ids.units))
    for oid, o in m.objectives.items():
        if o.unit and o.unit not in m.squad:
            out.append(f"{file}: [{mid}].objectives.{oid}.unit: {o.unit!r} is not in the squad")
    if m.leader and m.leader not in m.squad:
        out.append(f"{file}: [{mid}].leader: {m.leader!r} is not in the squad")
    things = ids.weapons | ids.items
    for zone, search in m.search.items():
        for i, row in enumerate(search.loot):
            out.extend(_ref(file, mid, f"search.{zone}.loot[{i}].item", "item", row.item, things))
    for fid, f in m.formulas.items():
        out.extend(f"{file}: [{mid}].formulas.{fid}.stats: unknown stat {st!r}{strict.did_you_mean(st, all_stats)}"
                   for st in f.stats if st not in all_stats)
    return out


def check_psionics(abilities: dict[str, xm.PsiAbility], race_ids: set[str]) -> list[str]:
    """psionics.toml: known races, a partner that exists and names this one back, sane overloads."""
    out: list[str] = []
    for aid, a in abilities.items():
        for field in ("casters", "barred"):
            for i, race in enumerate(getattr(a, field)):
                out.extend(_ref("psionics.toml", aid, f"{field}[{i}]", "race", race, race_ids))
        if a.combines_with:
            partner = abilities.get(a.combines_with)
            out.extend(_ref("psionics.toml", aid, "combines_with", "ability", a.combines_with, set(abilities)))
            if partner is not None and partner.combines_with != aid:
                out.append(f"psionics.toml: [{aid}].combines_with: [{a.combines_with}] does not combine with {aid!r}")
        if a.overload == "combo" and not a.combines_with:
            out.append(f"psionics.toml: [{aid}].combines_with: a combo overload needs the ability it combines with")
        if a.overload != "none" and a.overload_ss <= 0:
            out.append(f"psionics.toml: [{aid}].overload_ss: a {a.overload} overload needs a positive number of SS")
        if a.most_targets < 1:
            out.append(f"psionics.toml: [{aid}].most_targets: expected at least 1, got {a.most_targets}")
    return out


def _bounds(t: SimpleNamespace, shared: dict[str, Any]) -> list[str]:
    """Every number of its tables within what the rules can mean, and its formulas provably evaluable."""
    out: list[str] = []
    for kind in KINDS:
        for key, obj in getattr(t, kind).items():
            out.extend(bounds.numbers(f"{kind}.toml", key, obj, LIMITS))
    levels = shared.get("difficulty", {})
    every: dict[str, tuple[int, int]] = {}  # weapons serve every stat system: the widest range of each stat
    for rid, rules in t.rulesets.items():
        ranges = stat_ranges(rules, t.races, t.units, levels, t.weapons)
        for stat, (low, high) in ranges.items():
            every[stat] = (min(low, every.get(stat, (low, high))[0]), max(high, every.get(stat, (low, high))[1]))
        for field in ("hp", "stamina"):
            out.extend(bounds.formula("rulesets.toml", f"[{rid}].{field}", getattr(rules, field), ranges))
        out.extend(bounds.formula("rulesets.toml", f"[{rid}].god_of_random", rules.god_of_random, {}, bare=True))
    for wid, w in t.weapons.items():
        for field in ("throw_range", "penalty"):
            out.extend(bounds.formula("weapons.toml", f"[{wid}].{field}", getattr(w, field), every))
    return out


def stat_ranges(rules: xm.RulesetDef, races: dict[str, xm.Race], units: dict[str, xm.UnitTemplate],
                levels: dict[str, Difficulty], weapons: dict[str, xm.Weapon]) -> dict[str, tuple[int, int]]:
    """The values each stat can take in play, from 0 (stamina 0 and losses bring stats down) to the most
    content can stack on it, plus a margin for what the rules add."""
    def most(table: Any) -> int:
        return max([0, *table])

    high = max(rules.stat_max, most(v for r in races.values() for v in (*r.caps.values(), *r.fixed.values())),
               most(v for u in units.values() for v in u.stats.values()))
    high += most(v for r in races.values() for v in r.modifiers.values())
    high += most(v for d in levels.values() for v in d.alien_stats.values())
    high += most(v for w in weapons.values() for v in w.owner_bonus.values()) + bounds.MARGIN
    low = min(0, rules.stat_min + min([0, *(v for r in races.values() for v in r.modifiers.values())])
              + min([0, *(v for d in levels.values() for v in d.alien_stats.values())]))
    return {stat: (low, high) for stat in rules.stats}


SCHEMA = Schema(files={"rulesets.toml": xm.RulesetDef, "races.toml": xm.Race, "armor.toml": xm.Armor,
                       "weapons.toml": xm.Weapon, "units.toml": xm.UnitTemplate, "psionics.toml": xm.PsiAbility,
                       "items.toml": xm.Item, "campaign.toml": xm.Campaign, "quests.toml": xm.Quest},
                optional=("psionics.toml", "items.toml", "campaign.toml", "quests.toml"), check=check, partial=True,
                between=("campaign.toml", "quests.toml"))


def evolve(content, **kinds):
    """The bundle with some of xcom-trpg's tables replaced (tests and tools: a patched weapon, another rule)."""
    import attrs

    return attrs.evolve(content, rules={**content.rules, ID: {**content.rules.get(ID, {}), **kinds}})
