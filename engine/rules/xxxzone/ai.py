"""What the client and the AI read of xxxzone: the firing modes, the exact odds of a shot in the spec's words,
the unit panel, and the AI's own uses of the rules (reloads and draws, Aim, Overwatch, Hunker Down, the
Lockpicker's errand, a sneak's chance to be spotted)."""

from __future__ import annotations

from engine.content import missions
from engine.core.commands import Act, Command, Rejected, Reload
from engine.core.geometry import NEIGHBOURS
from engine.core.model import State, Unit
from engine.core.ruleset import Clues, Hunt, Mode, Row, Sheet, ShotPreview
from engine.rules.xxxzone import errands, inspire, moving, seen, shooting, sight, spraying
from engine.rules.xxxzone import sheet as panel
from engine.rules.xxxzone.actions import available
from engine.rules.xxxzone.character import derive
from engine.rules.xxxzone.geometry_words import cover_words
from engine.rules.xxxzone.lines import between


def _kind(book, w) -> str:
    return "melee" if book.weapons[w].kind == "melee" else "gun"


def shot_modes(rs, state: State, unit: Unit) -> list[Mode]:
    book, c = rs.book, unit.record
    if c is None:
        return []
    out = []
    loaded = {h.item: h.rounds for h in c.hands}
    wet = moving.swimming(rs, state, unit, "shoot") is not None
    for mid, w, m, ap in shooting.modes(book, c):
        spec = book.weapons[w].modes[m]
        usable = (not c.turn.ended and available(c.turn, _kind(book, w)) >= ap and w not in c.disabled
                  and (book.weapons[w].kind == "melee" or loaded.get(w, 0) >= spec.rounds) and not wet)
        how = ("Disabling Shot" if shooting.disabling(mid) else
               f"{m.replace('_', ' ')} without the scope" if shooting.no_scope(mid) else m.replace("_", " "))
        out.append(Mode(mid, f"{book.weapons[w].name} {how} ({ap} AP)", usable))
    return out


def preview(rs, state: State, shooter: str, target: str, mode: str) -> ShotPreview | Rejected:
    book = rs.book
    a, b = state.units.get(shooter), state.units.get(target)
    if a is None or b is None or a.record is None or b.record is None:
        return Rejected("no_target", "No such unit")
    which = shooting.mode_of(book, a.record, mode)
    if isinstance(which, Rejected):
        return which
    w = book.weapons[which[0]]
    spec = w.modes[which[1]]
    if b.id not in rs.spotted(state, a.side) or not state.grid.sees(a.pos, b.pos, rs.sight_range):
        return Rejected("no_line_of_sight", f"{a.name} has no line of fire to {b.name}")
    if spec.cone:
        return spraying.preview(rs, state, a, b, *which)
    pieces = shooting.cover(book, state, a.pos, b.pos)
    shot = shooting.declare(shooting.shot_for(rs, state, a, b, *which), mode)
    planned = shooting.plan(book, a.record, b.record, shot, pieces)
    if isinstance(planned, Rejected):
        return planned
    attacks, d = planned
    first, wound, worth = shooting.odds(attacks, d)
    first = dict(first)
    lines = _outcomes(first)  # the outcomes first, two rows: the panel is short at 80×24
    if len(attacks) > 1:
        lines.append(Row("Any wound", f" {float(wound) * 100:.1f}% over {len(attacks)} rolls"))
    lines.append(Row("AdjAcc", f" {' / '.join(str(x.adj_acc) for x in attacks)} − Agi {d.agility}"))
    lines.append(Row("From", " " + shooting.reckoned(book, a.record, b.record, shot, pieces)))  # the modifiers
    if pieces:
        lines.append(Row("Cover", " " + cover_words(pieces, d.hunkered)))
    lines.append(Row("Armour", f" DR {d.armour_dr if d.armour_hp else 0} · HP {d.armour_hp}"
                               + (f" · DT {attacks[0].dt} + End {d.endurance}" if attacks else "")))
    if d.extra_dr:  # Chi Breath, Moving Target: DR that costs no armour HP, in the odds above as in the shot
        lines.append(Row("Ability DR", " " + " · ".join(f"{label} {v:+d}" for label, v in d.extra_dr)))
    notes = tuple(n for n, on in (("unaware: it has not spotted the shooter", shot.unaware),) if on)
    return ShotPreview(p_hit=float(wound), expected_damage=float(worth), p_headshot=float(first.get("lethal", 0)),
                       distance=between(a.pos, b.pos) + 1, reach=None if w.kind == "melee" and False else
                       (1 if w.kind == "melee" else w.range + 1), lines=tuple(lines), notes=notes)


def _outcomes(first) -> list[Row]:
    """`Miss 10.0% · cover 4.0% · glancing 20.0%` and `Wound minor 43.0% · severe 21.0% · mortal 2.0%`."""
    def pct(o: str) -> str:
        return f"{panel.LABEL[o].lower()} {float(first[o]) * 100:.1f}%"
    misses = [o for o in ("miss", "cover", "glancing", "hit") if first.get(o)]
    wounds = [o for o in ("minor", "severe", "mortal", "lethal") if first.get(o)]
    out = []
    if misses:
        out.append(Row("No wound", " " + " · ".join(pct(o) for o in misses)))
    if wounds:
        out.append(Row("Wound", " " + " · ".join(pct(o) for o in wounds)))
    return out


def sheet(rs, unit: Unit, swimming: bool = False) -> Sheet:
    book, c = rs.book, unit.record
    base = panel.sheet(book, c)
    kit = []
    if c.belt or c.magazines:
        kit.append(f"Belt {len(c.belt)} items · ammo {sum(n for _, n in c.magazines)} magazines")
    more = (("swimming",) if swimming else ()) + (("panicking",) if c.panic == "panicking" else ())
    return Sheet(rows=base.rows, effects=base.effects + more, kind=unit.race, kit=tuple(kit))


def chore(rs, state: State, unit: Unit, stage: str) -> Command | None:
    book, c = rs.book, unit.record
    if c is None:
        return None
    gun = next((h for h in c.hands if h.item in book.weapons), None)
    if gun is None:
        weapon = next((i for i in c.belt if i in book.weapons), None)
        if weapon is not None and c.turn.ap >= 1:
            return Act(unit=unit.id, action="draw", option=weapon)
        return None
    w = book.weapons[gun.item]
    if w.kind == "melee" or not w.ammo:
        return None
    mags = sum(n for a, n in c.magazines if a in w.ammo)
    cheapest = min(m.rounds for m in w.modes.values())
    low = gun.rounds < cheapest if stage == "first" else gun.rounds < w.capacity // 2
    if low and mags and available(c.turn, "reload") >= w.reload:
        return Reload(unit=unit.id)
    return None


def errand(rs, state: State, unit: Unit, clues: Clues) -> Hunt | None:
    """With no shot: a stealth mission's Lockpicker goes for a locked door its side has seen, the rest wait for it
    (errands.ai_lock); no hunt else (what it hears is a threat the planner closes on)."""
    if unit.record is None or clues.explored is None:
        return None
    hostile = any(missions.hostile(unit.side, t.side) and t.conscious and t.side != missions.CIVILIANS
                  for t in clues.in_sight)
    lock = errands.ai_lock(rs, state, unit, hostile, clues.explored)
    return Hunt(command=lock) if lock is not None else None


def special(rs, state: State, unit: Unit, in_sight: list[Unit], has_shot: bool) -> Command | None:
    """Inspire Allies when a friend in reach failed a Will test; aim when the AP allow one aimed shot but not two
    plain ones; overwatch when hostiles are known but there is no shot worth taking and it has not yet walked this
    turn (`cautious` units) or has walked and kept AP; but first hunker down when outgunned next to cover, having
    walked or been wounded."""
    book, c = rs.book, unit.record
    if c is None:
        return None
    if inspire.ABILITY in c.op.abilities and c.turn.ap >= 4 and not c.turn.ended and inspire.allies(rs, state, unit):
        return Act(unit=unit.id, action=inspire.ABILITY)  # a friend down or stunned is worth more than a shot
    hostile = [t for t in in_sight if missions.hostile(unit.side, t.side) and t.conscious
               and t.side != missions.CIVILIANS]
    usable = [m for m in shot_modes(rs, state, unit) if m.usable and not _spray(book, c, m.id)]  # aimed, watched
    if not usable:
        return None
    ap = c.turn.ap + c.turn.gun
    cost = min(book.weapons[w].modes[m].ap for w, m in (shooting.mode_of(book, c, u.id) for u in usable))
    if has_shot and hostile and cost + 2 <= ap < 2 * cost and c.aim is None:
        best = max(hostile, key=lambda t: (_odds(rs, state, unit, t, usable[0].id), t.id))
        if _odds(rs, state, unit, best, usable[0].id) > 0:
            return Act(unit=unit.id, action="aim", target=best.id)
    if not has_shot and _outgunned(rs, state, unit, hostile) and c.turn.ap >= 2 and (c.turn.walked or
                                                                                   c.condition.wounds.any):
        return Act(unit=unit.id, action="hunker")
    if not has_shot and hostile and ap >= cost:
        near = min(between(unit.pos, t.pos) for t in hostile)
        reach = book.weapons[shooting.mode_of(book, c, usable[0].id)[0]].range
        if near <= reach and (c.turn.walked or rs.behaviour(unit) == "cautious"):
            return Act(unit=unit.id, action="overwatch", option=usable[0].id)
    return None


def _outgunned(rs, state: State, unit: Unit, hostile: list[Unit]) -> bool:
    """More hostiles in sight than friends standing near it (itself included), and cover next to it to double."""
    friends = [u for u in state.side_units(unit.side) if u.conscious and between(unit.pos, u.pos) < rs.sight_range]
    covered = any(rs.book.terrain_cover.get(state.grid.tile(cell)) is not None
                  for cell in ((unit.pos[0] + dx, unit.pos[1] + dy) for dx, dy in NEIGHBOURS)
                  if state.grid.inside(cell))
    return covered and len(hostile) > len(friends)


def _spray(book, c, mode_id: str) -> bool:
    w, m = shooting.mode_of(book, c, mode_id)
    return bool(book.weapons[w].modes[m].cone)


def _odds(rs, state, unit, target, mode) -> float:
    got = preview(rs, state, unit.id, target.id, mode)
    return 0.0 if isinstance(got, Rejected) else got.p_hit


def spot_chance(rs, state: State, unit: Unit, cell, watcher, spotter: Unit | None) -> int:
    """Section 10's chance that a hostile at `watcher` spots the unit at `cell`, moving cautiously (not conspicuous):
    the range fall-off from the spotter's Sight, the unit's Sneak, halved outside the spotter's front arc. A spotter
    in sight is judged by its own Sight and facing; one only remembered or heard, by the unit's own Sight and as
    facing the cell (the worst case)."""
    if watcher == cell or not state.grid.sees(watcher, cell, seen.RADIUS):
        return 0 if watcher != cell else 100
    own = derive(unit.record.op, rs.book)
    if spotter is not None and spotter.record is not None:
        eyes, facing = derive(spotter.record.op, rs.book).sight, spotter.record.facing
    else:
        eyes, facing = own.sight, sight.facing(watcher, cell)
    return sight.sees(rs.book, watcher, facing, eyes, cell, own.sneak)
