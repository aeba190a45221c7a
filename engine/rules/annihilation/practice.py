"""Experience by use in play (A-6.1): what each command's events count as uses on the squad's units, and the
improvement rolls when the mission ends.

Only the squad's units count: theirs are the characters a roster or campaign keeps. A command's uses are written as
one `UnitChanged` per unit that used something, its record's `tally` patched, so the log holds every count. Uses
are read from the command's events, which every action already writes: a firing action (`shoot`), an opportunity
shot (`reaction fire`, also a firing action), a physical attack, a throw, a roll of a non-weapon skill's test, a
wound, an enemy coming into sight; at the end of the squad's phase a hard march and a bleeding turn. The whole
counting is off unless settings.toml `uses_counted` is on (an older bundle's logs decide as they were written).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from engine.content import missions
from engine.core.commands import Command, EndTurn, Move
from engine.core.dice import Dice
from engine.core.events import Event, MissionEnded, Moved, Noted, Resolved, TileChanged, UnitChanged, UnitSpawned
from engine.core.model import State, Unit
from engine.core import records
from engine.core.records import Patch
from engine.core.reducer import fold
from engine.rules.annihilation import clouds, experience, spotting
from engine.rules.annihilation.experience import Tally
from engine.rules.annihilation.soldier import Soldier

if TYPE_CHECKING:
    from engine.rules.annihilation.play import Annihilation

SQUAD = missions.PLAYER
THROWN = "thrown_explosives"  # the skill a throw uses, as attacks.throw_odds reads it
ATTACKS = ("shoot", "reaction fire", "melee")  # a Resolved whose "hit" outcome is a hit on its target
SIGHT = (Moved, TileChanged, UnitSpawned, Noted)  # the events that may bring an enemy into sight
SHORT = {"time_units": "TU", "stamina": "Stm", "health": "Hth", "bravery": "Brv", "reactions": "Rct",
         "accuracy": "Acc", "throwing": "Trw", "strength": "Str", "senses": "Sns", "psychic": "Psi"}


@attrs.define
class _Count:
    """The uses one command gives each squad unit, as uses.toml events (with the skill each one uses)."""

    uses: dict[str, list[tuple[str, str | None]]] = attrs.field(factory=dict)
    hits: dict[str, int] = attrs.field(factory=dict)
    downed: dict[str, int] = attrs.field(factory=dict)

    def use(self, uid: str, event: str, skill: str | None = None) -> None:
        self.uses.setdefault(uid, []).append((event, skill))


def counted(rs: Annihilation, state: State, command: Command, events: list[Event]) -> list[Event]:
    """A-6.1: the uses the command's events make (and, for A-5.2, the hits and enemies downed), one event per squad
    unit that made any; none unless the settings count uses."""
    if not rs.book.settings.uses_counted or not events:
        return []
    after = fold(state, events)
    count = _Count()
    _actions(rs, state, after, events, count)
    _wounds(state, after, count)
    if any(isinstance(e, SIGHT) for e in events):
        _spots(rs, state, after, getattr(command, "unit", None), count)
    if isinstance(command, EndTurn) and command.side == SQUAD:
        _phase_end(rs, state, count)
    out: list[Event] = []
    for uid in sorted(set(count.uses) | set(count.hits) | set(count.downed) | _marcher(state, after, command)):
        unit = after.units[uid]
        tally = unit.record.tally
        for event, skill in count.uses.get(uid, []):
            tally = experience.count(rs.book, tally, event, skill)
        hits, downed = count.hits.get(uid, 0), count.downed.get(uid, 0)
        if hits or downed:
            tally = records.evolve(tally, {"hits": tally.hits + hits, "downed": tally.downed + downed})
        words = _words(count, uid)
        if isinstance(command, Move) and uid == command.unit:
            tally = _march(tally, state, state.units[uid], unit)
            words += [f"{tally.marched} TU moved this phase"] if tally.marched else []
        if tally != unit.record.tally:
            out.append(UnitChanged(unit=uid, changes={"record": Patch(Soldier.record_kind, {"tally": tally})},
                                   cause=f"uses (A-6.1): {', '.join(words)}"))
    return out


def _squad(state: State, uid: str | None) -> bool:
    u = state.units.get(uid) if uid else None
    return u is not None and u.side == SQUAD and isinstance(u.record, Soldier)


def _actions(rs: Annihilation, state: State, after: State, events: list[Event], count: _Count) -> None:
    """Firing actions, opportunity shots, physical attacks, throws, skill tests; hits on enemies and who downed
    them (the last to hit each enemy this command)."""
    last_hit: dict[str, str] = {}
    blaster: str | None = None
    for e in events:
        if isinstance(e, Resolved):
            blaster = e.actor if e.action == "blast" else None
            if e.action in ATTACKS and e.outcome == "hit" and e.target:
                last_hit[e.target] = e.actor
                if _squad(state, e.actor) and missions.hostile(SQUAD, state.units[e.target].side):
                    count.hits[e.actor] = count.hits.get(e.actor, 0) + 1
            if not _squad(state, e.actor):
                continue
            if e.action in ("shoot", "reaction fire"):
                count.use(e.actor, "fire", rs.book.weapons[e.weapon].family)
            if e.action == "reaction fire":
                count.use(e.actor, "reaction_shot")
            elif e.action == "melee":
                count.use(e.actor, "physical_attack")
            elif e.action == "throw":
                count.use(e.actor, "throw", THROWN)
            for r in e.rolls:
                if r.actor == e.actor and r.purpose in rs.book.skills and not rs.book.skills[r.purpose].weapon:
                    count.use(e.actor, "skill_test", r.purpose)
        elif isinstance(e, UnitChanged) and blaster and e.cause == "blast" and e.unit in state.units:
            last_hit[e.unit] = blaster
            if _squad(state, blaster) and missions.hostile(SQUAD, state.units[e.unit].side):
                count.hits[blaster] = count.hits.get(blaster, 0) + 1
    for uid, hitter in last_hit.items():
        if state.units[uid].conscious and not after.units[uid].conscious and _squad(state, hitter) \
                and missions.hostile(SQUAD, state.units[uid].side):
            count.downed[hitter] = count.downed.get(hitter, 0) + 1


def _wounds(state: State, after: State, count: _Count) -> None:
    """Brv: each wound a squad unit took this command."""
    for uid, now in after.units.items():
        was = state.units.get(uid)
        if now is was:  # untouched by the command (the fold keeps it): no new wound
            continue
        if _squad(after, uid) and was is not None and isinstance(was.record, Soldier):
            for _ in range(_wound_total(now) - _wound_total(state.units[uid])):
                count.use(uid, "wounded")


def _wound_total(unit: Unit) -> int:
    return sum(p.total for _, p in unit.record.fighter.wounds)


def _spots(rs: Annihilation, state: State, after: State, actor: str | None, count: _Count) -> None:
    """Sns: an enemy the squad did not see before the command and sees after it is spotted first by the actor, if
    it sees it, else by the first squad unit that does; in smoke under the spotting roll, only a unit whose own roll
    made it out sees it (spotting.made_out)."""
    was = rs.spotted(state, SQUAD) if state.units else frozenset()
    for uid in sorted(rs.spotted(after, SQUAD) - was):
        enemy = after.units[uid]
        if enemy.status == "dead" or not missions.hostile(SQUAD, enemy.side):
            continue
        eyes = [u for u in after.side_units(SQUAD) if u.conscious and isinstance(u.record, Soldier)
                and clouds.sees(rs, after, u.pos, enemy.pos, u.z, enemy.z) and spotting.made_out(rs, after, u, enemy)]
        first = next((u for u in eyes if u.id == actor), eyes[0] if eyes else None)
        if first is not None:
            count.use(first.id, "first_spot")


def _phase_end(rs: Annihilation, state: State, count: _Count) -> None:
    """At the end of the squad's phase: TU and Stm for a hard march (at least half the allowance spent moving),
    Hth for a turn ended with an open wound."""
    for u in state.side_units(SQUAD):
        if not isinstance(u.record, Soldier) or u.status == "dead":
            continue
        f, t = u.record.fighter, u.record.tally
        if t.march_phase == state.phase and f.tu_turn and 2 * t.marched >= f.tu_turn:
            count.use(u.id, "hard_march")
        if f.open_wounds:
            count.use(u.id, "bleeding_turn")


def _marcher(state: State, after: State, command: Command) -> set[str]:
    """The squad unit a move spent TUs of, whose tally keeps them for the hard march."""
    if not isinstance(command, Move) or not _squad(state, command.unit) or command.unit not in after.units:
        return set()
    spent = state.units[command.unit].record.fighter.tu_left - after.units[command.unit].record.fighter.tu_left
    return {command.unit} if spent > 0 else set()


def _march(tally: Tally, state: State, before: Unit, now: Unit) -> Tally:
    spent = max(0, before.record.fighter.tu_left - now.record.fighter.tu_left)
    if not spent:
        return tally
    so_far = tally.marched if tally.march_phase == state.phase else 0
    return records.evolve(tally, {"marched": so_far + spent, "march_phase": state.phase})


def _words(count: _Count, uid: str) -> list[str]:
    names = {"fire": "fire", "reaction_shot": "reaction shot", "physical_attack": "physical attack",
             "throw": "throw", "hard_march": "hard march", "bleeding_turn": "bleeding turn", "wounded": "wounded",
             "first_spot": "first to spot", "skill_test": "skill test"}
    parts = [names.get(event, event) + (f" ({skill})" if skill else "") for event, skill in count.uses.get(uid, [])]
    parts += [f"{count.hits[uid]} hit on an enemy"] if count.hits.get(uid) else []
    parts += [f"{count.downed[uid]} enemy downed"] if count.downed.get(uid) else []
    return parts


def debrief(rs: Annihilation, state: State, events: list[Event], dice: Dice) -> list[Event]:
    """A-6.1 and A-5.2 when the mission ends: each squad unit alive rolls its improvements (this mission's uses and
    those carried over), counts the mission survived and the enemies it downed, and a Rookie who hit an enemy or
    passed a stat's roll becomes a Squaddie; written before the verdict, with the rolls."""
    if not rs.book.settings.uses_counted:
        return []
    after = fold(state, [e for e in events if not isinstance(e, MissionEnded)])
    order = sorted(rs.book.ranks, key=lambda k: rs.book.ranks[k].order)
    out: list[Event] = []
    for u in after.side_units(SQUAD):
        if not isinstance(u.record, Soldier) or u.status == "dead":
            continue
        was, tally = u.record.fighter.character, u.record.tally
        new, rolls = experience.end_mission(rs.book, dice, was, tally)
        passed = any(r.total for r in rolls if r.purpose.removeprefix("improve ") in SHORT)
        rank = order[1] if was.rank == order[0] and (tally.hits or passed) else was.rank
        new = attrs.evolve(new, missions=was.missions + 1, kills=was.kills + tally.downed, rank=rank)
        risen = [f"{SHORT[k]} {v} → {new.stats.env()[k]}" for k, v in was.stats.env().items()
                 if new.stats.env()[k] != v]
        risen += [f"{rs.book.skills[k].name} {v}% → {new.skill(k)}%" for k, v in
                  ((k, was.skill(k)) for k in rs.book.skills) if new.skill(k) != v]
        if rank != was.rank:
            risen.append(f"{rs.book.ranks[was.rank].name} → {rs.book.ranks[rank].name}")
        record = attrs.evolve(u.record, fighter=attrs.evolve(u.record.fighter, character=new))
        out.append(UnitChanged(unit=u.id, changes={"record": record}, rolls=tuple(rolls),
                               cause=f"after the mission (A-6.1): {len(rolls)} improvement roll"
                                     f"{'' if len(rolls) == 1 else 's'}" + (f"; {', '.join(risen)}" if risen else "")))
    return out
