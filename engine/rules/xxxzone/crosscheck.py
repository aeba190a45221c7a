"""The cross-checks of xxxzone's content tables: references between them and the ranges the rules can mean,
one located line each (`weapons.toml: [smg].ammo: unknown ammo 'x'`)."""

from __future__ import annotations

from engine.content.formula import Formula, FormulaError, names_in
from engine.content.tables import Tables
from engine.rules.xxxzone.schema import ATTRIBUTES, Attributes, KitEntry

FORMULA_NAMES = frozenset(ATTRIBUTES)


def check(own: Tables, shared: Tables) -> list[str]:
    """References between the tables and the ranges the rules can mean, one located line each."""
    out: list[str] = []
    weapons, items, abilities = own["weapons"], own["items"], own["abilities"]
    gear = set(weapons) | set(items)
    for file in ("settings", "campaign"):
        if "standard" not in own[file]:
            out.append(f"{file}.toml: missing table [standard]")
    for sid, s in own["settings"].items():
        for name in ("accuracy", "action_points", "carry", "max_capacity", "fortitude", "sneak", "sight",
                     "willpower", "hack", "locksmith", "toughness", "improved_toughness", "medkit_uses"):
            out += _formula("settings.toml", f"[{sid}].{name}", getattr(s, name),
                            (s.attribute_min, s.attribute_max + 1))  # a starred attribute counts +1
    for tid, t in own["wounds"].items():
        if t.penalty < 0:
            out.append(f"wounds.toml: [{tid}].penalty: expected 0 or more, got {t.penalty}")
    if sorted(t.rank for t in own["wounds"].values()) != list(range(1, len(own["wounds"]) + 1)):
        out.append("wounds.toml: ranks must be 1, 2, 3, ... one per tier")
    for wid, w in weapons.items():
        for aid in w.ammo:
            if aid not in items or items[aid].kind != "ammo":
                out.append(f"weapons.toml: [{wid}].ammo: unknown ammo {aid!r}")
        if w.explosion and w.explosion not in items:
            out.append(f"weapons.toml: [{wid}].explosion: unknown item {w.explosion!r}")
        if not w.modes:
            out.append(f"weapons.toml: [{wid}].modes: a weapon needs at least one mode")
        for mid, m in w.modes.items():
            if m.ap < 0 or m.rolls < 1:
                out.append(f"weapons.toml: [{wid}].modes.{mid}: expected ap >= 0 and rolls >= 1")
            if w.kind != "melee" and not 1 <= m.rounds <= w.capacity:
                out.append(f"weapons.toml: [{wid}].modes.{mid}.rounds: expected 1 to the capacity {w.capacity}, "
                           f"got {m.rounds}")
    for iid, it in items.items():
        if it.effect in ("damage", "on_fire", "disorient") and len(it.rings) != 3:
            out.append(f"items.toml: [{iid}].rings: expected three blast ranges a-b-c, got {len(it.rings)}")
        if it.rings != sorted(it.rings):
            out.append(f"items.toml: [{iid}].rings: expected rising ranges, got {it.rings}")
    for aid, a in abilities.items():
        for need in a.after:
            if need not in abilities:
                out.append(f"abilities.toml: [{aid}].after: unknown ability {need!r}")
        for field in ("requires", "second_rank"):
            for attr, value in getattr(a, field).items():
                if attr not in ATTRIBUTES:
                    out.append(f"abilities.toml: [{aid}].{field}.{attr}: unknown attribute")
                elif not 0 <= value <= 10:
                    out.append(f"abilities.toml: [{aid}].{field}.{attr}: expected 0 to 10, got {value}")
        if a.facility != "none" and a.facility not in own["facilities"]:
            out.append(f"abilities.toml: [{aid}].facility: unknown facility {a.facility!r}")
        if a.grants and a.grants not in weapons:
            out.append(f"abilities.toml: [{aid}].grants: unknown weapon {a.grants!r}")
    for aid, act in own["actions"].items():
        for ability in [*act.cost_with, *([act.needs] if act.needs else [])]:
            if ability not in abilities:
                out.append(f"actions.toml: [{aid}]: unknown ability {ability!r}")
    people = [(f"characters.toml: [{cid}]", c) for cid, c in own["characters"].items()]
    people += [(f"enemies.toml: [{eid}]", e) for eid, e in own["enemies"].items()]
    for where, c in people:
        out += _attributes(where, c.attributes)
        if c.armour not in own["armour"]:
            out.append(f"{where}.armour: unknown armour {c.armour!r}")
        for ability in c.abilities:
            if ability not in abilities:
                out.append(f"{where}.abilities: unknown ability {ability!r}")
        out += _kit(where, c.kit, gear, weapons)
        if c.drawn and c.drawn not in weapons:
            out.append(f"{where}.drawn: unknown weapon {c.drawn!r}")
        elif c.drawn and c.drawn not in {e.item for e in c.kit}:
            out.append(f"{where}.drawn: {c.drawn!r} is not in the kit")
    for kid, k in own["kits"].items():
        if k.armour not in own["armour"]:
            out.append(f"kits.toml: [{kid}].armour: unknown armour {k.armour!r}")
        out += _kit(f"kits.toml: [{kid}]", k.items, gear, weapons)
    for cid, camp in own["campaign"].items():
        for fid in camp.new_base:
            if fid not in own["facilities"]:
                out.append(f"campaign.toml: [{cid}].new_base: unknown facility {fid!r}")
        if names_in(camp.attribute_days.tree) - {"current"}:
            out.append(f"campaign.toml: [{cid}].attribute_days: only 'current' may be named")
        out += _start(own, cid, camp)
    for fid, fac in own["facilities"].items():
        if not fac.shape or any(set(row) - {"X", "."} for row in fac.shape):
            out.append(f"facilities.toml: [{fid}].shape: rows of X and . expected")
        for attr in fac.trains:
            if attr not in ATTRIBUTES:
                out.append(f"facilities.toml: [{fid}].trains.{attr}: unknown attribute")
    return out


def _start(own: Tables, cid: str, camp) -> list[str]:
    """The starting base, placed spot by spot with the placement rule a build order uses."""
    from engine.rules.xxxzone.basework import Base, found, lay_out
    from engine.rules.xxxzone.book import Book

    unknown = [f"campaign.toml: [{cid}].start[{i}].facility: unknown facility {s.facility!r}"
               for i, s in enumerate(camp.start) if s.facility not in own["facilities"]]
    unknown += [f"campaign.toml: [{cid}].housing.{role}: unknown facility {fid!r}"
                for role, fid in camp.housing.items() if fid not in own["facilities"]]
    if unknown or not camp.start:
        return unknown
    book = Book.of({**own, "campaign": {"standard": camp}})
    _, problems = lay_out(book, camp.start, camp.start_staff)
    out = [f"campaign.toml: [{cid}].start{p if p.startswith('[') else ': ' + p}" for p in problems]
    if any(fid not in own["facilities"] for fid in camp.new_base):  # said above
        return out
    try:  # a new base is laid out as the start lays its first Surface, Elevator, Excavation... (15)
        found(book, Base(), 1)
    except (ValueError, KeyError) as exc:
        out.append(f"campaign.toml: [{cid}].new_base: {str(exc).removeprefix('campaign.toml: ')}")
    return out


def _attributes(where: str, a: Attributes) -> list[str]:
    return [f"{where}.attributes.{name}: expected 0 to 10, got {v}"
            for name, v in a.as_dict().items() if not 0 <= v <= 10]


def _kit(where: str, kit: list[KitEntry], gear: set[str], weapons: dict) -> list[str]:
    out = []
    for i, e in enumerate(kit):
        if e.item not in gear:
            out.append(f"{where}.kit[{i}].item: unknown item {e.item!r}")
        elif e.spares and (e.item not in weapons or not weapons[e.item].ammo):
            out.append(f"{where}.kit[{i}].spares: {e.item!r} takes no magazines")
        if e.count < 1 or e.spares < 0:
            out.append(f"{where}.kit[{i}]: expected count >= 1 and spares >= 0")
    return out


def _formula(file: str, where: str, f: Formula, span: tuple[int, int]) -> list[str]:
    unknown = sorted(names_in(f.tree) - FORMULA_NAMES)
    if unknown:
        return [f"{file}: {where}: unknown name {unknown[0]!r} in {f.text!r}"]
    try:
        f.bounds({name: span for name in ATTRIBUTES})
    except FormulaError as exc:
        return [f"{file}: {where}: {exc}"]
    return []
