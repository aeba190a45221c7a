"""`xenotac resolve` for annihilation: a described shot, throw or physical attack staged on a small open field and
put to the game's own handler (the one `decide` calls), so every check refuses with the game's code and reason and
every consequence (opportunity fire first, the rounds, the scatter, the blast, armour by side, wounds) follows.

A scenario file: `ruleset = "annihilation"`, `[units.<id>]` with a `template` of units.toml (its stats pre-made or
rolled on the setup dice), a `side` ("a" the actor's, "b" the other), and optionally `tu_left`, `stance`, `harness`
(worn or not, whatever its template says: a size I or J weapon fires only from it, A-12.3), `health` and `wounds`
(open wounds by body part); an `[action]` with `type` ("shoot", "throw", "melee" or
"treat"), `actor`, `target`, `distance` (squares in a row) and `from_behind` (the target faces away: its rear
armour); a shot names its `mode`, a throw its `item` (an explosives.toml id the actor carries), thrown at the
target's square, a treatment its `dose` ("bandage:<body part>", "heal", "stimulant", "pain_killer"). A shot may
use `sights` (1 or 2: the laser and telescopic sights of A-14.7, fitted to the weapon if its template has none).
A unit may also set `stats` and `skills` over its template's, carry another clip-fed `weapon`, wear another
`armour` and start with `armour_left` (its AV and side totals, as worn down); the target shows the actor a `side`
("front", "left", "right", "rear"). A physical attack and a dose reach 1 square."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import attrs

from engine.content import missions
from engine.content.scenario import UnitReport, Verdict
from engine.core.commands import Act, Rejected, Shoot, Throw
from engine.core.dice import Dice
from engine.core.events import Resolved
from engine.core.model import State, Unit, replace
from engine.core.reducer import fold
from engine.map.grid import Grid
from engine.rules.annihilation import acts, combat, medical, sights
from engine.rules.annihilation.armour import SIDES
from engine.rules.annihilation.character import Stats
from engine.rules.annihilation.fighter import Part, deploy
from engine.rules.annihilation.soldier import STATUS, enc, gun, muster
from engine.rules.annihilation.space import facing_towards

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation


@attrs.frozen(kw_only=True)
class ScenarioUnit:
    template: str  # units.toml
    side: Literal["a", "b"] = "b"
    tu_left: int | None = None  # TUs left of its allowance (None: all of them)
    stance: Literal["standing", "kneeling", "prone"] = "standing"
    health: int | None = None  # Health now (None: full); 0 or less: unconscious
    wounds: dict[str, int] = attrs.field(factory=dict)  # body.toml id -> open wounds
    harness: bool | None = None  # wears the heavy-weapon harness; None: as its template says
    stats: dict[str, int] = attrs.field(factory=dict)  # stats set over the template's (or its rolls)
    skills: dict[str, str] = attrs.field(factory=dict)  # skills.toml id -> levels.toml id, over the template's
    weapon: str = ""  # weapons.toml, clip-fed or charged, held loaded in place of the template's ("": its own)
    armour: str = ""  # armour.toml, in place of the template's
    armour_left: dict[str, int] = attrs.field(factory=dict)  # what is left: "av" and side totals ("front", ...)


@attrs.frozen(kw_only=True)
class Action:
    type: Literal["shoot", "throw", "melee", "treat"]
    actor: str
    target: str
    mode: str = "snap"  # a shot's firing mode
    sights: int = 0  # laser and telescopic sights the shot uses: 1 (+10 TU, range /2) or 2 (+15, /4)
    item: str = ""  # a throw's explosive
    dose: str = ""  # a treatment's dose
    distance: int = 5  # squares along a row: the range distance
    from_behind: bool = False  # the target faces away from the shooter
    side: Literal["", "front", "left", "right", "rear"] = ""  # the target's side the actor faces


@attrs.frozen(kw_only=True)
class Scenario:
    ruleset: str
    units: dict[str, ScenarioUnit]
    action: Action


TURNS = {"front": 0, "right": -2, "left": 2, "rear": 4}  # the target's facing from facing the actor, in 45° steps


def check(rs: Annihilation, sc: Scenario) -> list[str]:
    out = [f"[units.{uid}].template: unknown unit {u.template!r}" for uid, u in sc.units.items()
           if u.template not in rs.units]
    a = sc.action
    for key in ("actor", "target"):
        if getattr(a, key) not in sc.units:
            out.append(f"[action].{key}: no unit {getattr(a, key)!r} in [units]")
    if not 1 <= a.distance <= rs.sight_range:
        out.append(f"[action].distance: expected 1 to {rs.sight_range} squares, got {a.distance}")
    out += [f"[units.{uid}].wounds: unknown body part {k!r}" for uid, u in sc.units.items() for k in u.wounds
            if k not in rs.book.body]
    out += [line for uid, u in sc.units.items() for line in _kit_lines(rs, uid, u)]
    if a.side and a.from_behind:
        out.append("[action].side: give `side` or `from_behind`, not both")
    if not out and a.type == "treat" and a.dose.partition(":")[0] not in medical.WORDS:
        out.append(f"[action].dose: one of {', '.join(medical.WORDS)} (bandage:<body part>), got {a.dose!r}")
    if not out and a.type == "throw" and a.item not in rs.book.explosives:
        out.append(f"[action].item: a throw names an explosive of explosives.toml, got {a.item!r}")
    if not out and a.type == "shoot":
        weapon = rs.units[sc.units[a.actor].template].weapon
        if not weapon:
            out.append(f"[action].actor: {a.actor!r} carries no weapon")
        elif a.mode not in rs.book.weapons[weapon].modes:
            out.append(f"[action].mode: the {rs.book.weapons[weapon].name} has no {a.mode!r} mode; it fires "
                       f"{', '.join(rs.modes_of(weapon))}")
        elif not 0 <= a.sights <= 2:
            out.append(f"[action].sights: 0, 1 or 2 sights, got {a.sights}")
        elif a.sights and not sights.helps(rs.book, weapon, a.mode):
            out.append(f"[action].sights: sights do nothing for the {rs.book.weapons[weapon].name}'s {a.mode} shot "
                       "(A-14.5, A-14.8)")
    if a.type != "shoot" and a.sights:
        out.append("[action].sights: only a shot uses sights")
    return out


def _kit_lines(rs: Annihilation, uid: str, u: ScenarioUnit) -> list[str]:
    """The stats, skills, weapon and armour a scenario sets on a unit, each checked against the tables."""
    at, book = f"[units.{uid}]", rs.book
    out = [f"{at}.stats: unknown stat {k!r}" for k in u.stats if k not in Stats.__annotations__]
    out += [f"{at}.stats: {k} = {v}: a stat is 1 to 200" for k, v in u.stats.items() if not 1 <= v <= 200]
    out += [f"{at}.skills: unknown skill {k!r} or level {v!r}" for k, v in u.skills.items()
            if k not in book.skills or v not in book.levels]
    if u.weapon and (u.weapon not in book.weapons or book.weapons[u.weapon].feed not in ("clip", "charges")):
        out.append(f"{at}.weapon: a clip-fed or charged weapons.toml id, got {u.weapon!r}")
    if u.armour and u.armour not in book.armour:
        out.append(f"{at}.armour: unknown armour {u.armour!r}")
    out += [f"{at}.armour_left: {k!r} is none of av, {', '.join(SIDES)}" for k in u.armour_left
            if k not in ("av",) + SIDES]
    out += [f"{at}.armour_left: {k} = {v}: at least 0" for k, v in u.armour_left.items() if v < 0]
    return out


def _made(rs: Annihilation, unit: Unit, su: ScenarioUnit) -> Unit:
    """The unit with the scenario's stats, skills and worn armour, deployed again (TU, Energy, Health follow)."""
    if not (su.stats or su.skills or su.armour_left):
        return unit
    f = unit.record.fighter
    c = f.character
    skills = dict(c.skills) | {k: rs.book.levels[v].chance for k, v in su.skills.items()}
    c = attrs.evolve(c, stats=attrs.evolve(c.stats, **su.stats), skills=tuple(sorted(skills.items())))
    f = deploy(rs.book, c, enc(rs.book, attrs.evolve(unit.record, fighter=attrs.evolve(f, character=c))),
               unit.facing)
    left = dict(su.armour_left)
    if left:
        av = left.pop("av", None)
        f = attrs.evolve(f, armour=attrs.evolve(f.armour, **left, **({} if av is None else {"av10": 10 * av})))
    return replace(unit, {"record": attrs.evolve(unit.record, fighter=f), "hp": f.health, "hp_max": c.stats.health})


def _sighted(rs: Annihilation, unit: Unit, used: int) -> Unit:
    """The shooter's weapon with at least `used` sights fitted (the scenario says it has them: A-14.7)."""
    g = gun(unit.record, rs.book)
    if g is None or len(g.sights) >= used:
        return unit
    kinds = tuple(k for k, item in rs.book.items.items() if item.sight)
    fitted = g.sights + tuple(k for k in kinds if k not in g.sights)[:used - len(g.sights)]
    kit = tuple(attrs.evolve(c, sights=fitted) if c is g else c for c in unit.record.kit)
    return replace(unit, {"record": attrs.evolve(unit.record, kit=kit)})


def units_of(rs: Annihilation, sc: Scenario, setup: Dice) -> tuple[dict[str, Unit], list]:
    """Each unit mustered from its template (rolled stats on the setup dice), on the actor's side or the other."""
    actor = sc.units[sc.action.actor]
    mine = missions.ALIENS if actor.side == "a" and rs.units[actor.template].race != "human" else missions.PLAYER
    theirs = missions.ALIENS if mine == missions.PLAYER else missions.PLAYER
    out: dict[str, Unit] = {}
    rolls: list = []
    for uid, su in sc.units.items():
        t = rs.units[su.template]
        t = t if su.harness is None else attrs.evolve(t, harness=su.harness)
        if su.weapon:
            t = attrs.evolve(t, weapon=su.weapon, ammo="", spares={}, sights=[], clips=1)
        t = attrs.evolve(t, armour=su.armour) if su.armour else t
        side = mine if su.side == "a" else theirs
        unit, made = muster(rs.book, setup, t, missions.Member(side, su.template, uid, t.name, t.glyph), (0, 0))
        unit = _made(rs, unit, su)
        f = unit.record.fighter
        f = attrs.evolve(f, stance=su.stance, tu_left=f.tu_left if su.tu_left is None else min(su.tu_left, f.tu_turn))
        for part, n in sorted(su.wounds.items()):
            f = f.with_part(part, Part(open=n, total=n))
        if su.health is not None:
            f = attrs.evolve(f, health=min(su.health, f.character.stats.health),
                             status="unconscious" if su.health <= 0 else f.status)
        out[uid] = replace(unit, {"record": attrs.evolve(unit.record, fighter=f), "hp": f.health,
                                  "status": STATUS[f.status]})
        if uid == sc.action.actor and sc.action.sights:
            out[uid] = _sighted(rs, out[uid], sc.action.sights)
        rolls += made
    return out, rolls


def stage(rs: Annihilation, units: dict[str, Unit], a: Action) -> State:
    d = a.distance
    actor_at, target_at = (1, 1), (1 + d, 1)
    others = [uid for uid in units if uid not in (a.actor, a.target)]
    placed = {}
    for uid, u in units.items():
        if uid == a.actor:
            pos, facing = actor_at, facing_towards(actor_at, target_at, rs.book.settings.grid)
        elif uid == a.target:  # with x east, y south: the shooter is on its right when it faces 90° left
            towards = facing_towards(target_at, actor_at, rs.book.settings.grid)
            turn = TURNS["rear" if a.from_behind else a.side or "front"]
            pos, facing = target_at, (towards + turn) % 8
        else:
            pos, facing = (1 + others.index(uid), 3), 0
        placed[uid] = replace(u, {"pos": pos, "facing": facing,
                                  "record": attrs.evolve(u.record, fighter=attrs.evolve(u.record.fighter,
                                                                                        facing=facing))})
    size = max(d + 3, len(others) + 2)
    grid = Grid.from_ids([["grass"] * size for _ in range(5)], rs.content.terrain)
    side = placed[a.actor].side
    sides = (side, *sorted({u.side for u in placed.values()} - {side}))
    return State(ruleset=rs.id, mission="resolve", grid=grid, units=placed, phase=1, side=side, sides=sides)


def referee(rs: Annihilation, units: dict[str, Unit], a: Action, dice: Dice) -> Verdict | Rejected:
    state = stage(rs, units, a)
    actor = rs._actor(state, a.actor)
    if isinstance(actor, Rejected):
        return actor
    if a.type == "throw":
        events = acts.throw(rs, state, actor, Throw(unit=a.actor, item=a.item, cell=state.units[a.target].pos), dice)
    elif a.type in ("melee", "treat"):
        events = acts.act(rs, state, actor, Act(unit=a.actor, action=a.type, target=a.target,
                                                option=a.dose or None), dice)
    else:
        events = combat.shoot(rs, state, actor, Shoot(unit=a.actor, target=a.target,
                                                      mode=sights.joined(a.mode, a.sights)), dice)
    if isinstance(events, Rejected):
        return events
    after = fold(state, events)
    changes = {}
    for uid, before in state.units.items():
        now = after.units[uid]
        changed = {k: getattr(now, k) for k in ("hp", "status", "facing", "record")
                   if getattr(now, k) != getattr(before, k)}
        if changed:
            changes[uid] = changed
    rolls = [r for e in events for r in e.rolls]
    summary = "; ".join(e.text for e in events if isinstance(e, Resolved))
    return Verdict(rolls=rolls, before=dict(state.units), changes=changes, summary=summary)


def report(rs: Annihilation, before: Unit, after: Unit) -> UnitReport:
    b, f = before.record.fighter, after.record.fighter
    wounds = ", ".join(f"{rs.book.body[k].name} {p.open}" for k, p in f.wounds if p.open)
    status = {v: k for k, v in STATUS.items()}.get(after.status, after.status)
    line = (f"{after.name}: Health {b.health} → {f.health}, TU {b.tu_left} → {f.tu_left}, stun {f.stun}"
            + (f", wounds: {wounds}" if wounds else "") + f", {status}")
    return UnitReport(line=line, numbers={"hp_lost": b.health - f.health, "tu_lost": b.tu_left - f.tu_left,
                                          "wounds_lost": f.open_wounds - b.open_wounds, "stun": f.stun,
                                          "status": after.status})


def tally(rs: Annihilation, a: Action, verdict: Verdict) -> dict[str, dict[str, int | str]]:
    """`--trials`' categories at the target: its hits (and each round's, for a shot), the damage to its Health,
    the wounds each body part took and its state after."""
    uid = a.target
    b, f = verdict.before[uid].record.fighter, verdict.after[uid].record.fighter
    out: dict[str, int | str] = {}
    if a.type in ("shoot", "melee"):
        rounds = [r for r in verdict.rolls if r.actor == a.actor and r.expr == "1d100" and " round " in r.purpose]
        out["hits"] = sum(r.total for r in rounds)
        out.update({r.purpose.split(" ", 1)[1]: "hit" if r.total else "miss" for r in rounds})
    out["damage"] = b.health - f.health
    out.update({f"wounds {part.name.lower()}": f.part(k).total - b.part(k).total for k, part in rs.book.body.items()})
    out["state"] = f.status
    return {uid: out}
