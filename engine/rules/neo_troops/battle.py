"""The battle as neo-troops keeps it on `State.record`: the initiative order (§7) and what each observer has noticed
of the cloaked (§4); and the slot's end, when the order moves on to the next combatant.

A unit's own action is kept on its record (`Trooper.spent_m`, `moved`, `ran`, `attacked`: the metres walked in it
and what it, or for everyone else the latest one, did) and `Trooper.actions` is 1 for the unit whose slot is up. They
are cleared when the unit's next slot comes up.
"""

from __future__ import annotations

import attrs

from engine.content import missions
from engine.core.dice import Dice, Roll
from engine.core.events import Event, MissionEnded, Noted, PhaseStarted, SideStarted, UnitChanged
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core import records
from engine.core.records import record
from engine.core.reducer import fold
from engine.rules.neo_troops import care, senses
from engine.rules.neo_troops import order as orders

SIGHT = 20  # cells a unit sees at most (2 m cells: 40 m, short of a rifle's long range)
SIDES = missions.SIDES  # the sides that take slots; civilians take none


@attrs.frozen(kw_only=True)
class Covering:
    """A live covering-fire area (§11) as the battle record keeps it: plain values, the cells follow from the aim."""

    firer: str
    side: str
    aim: tuple[int, int]
    weapon: str
    firer_pos: tuple[int, int]


@attrs.frozen(kw_only=True)
class Question:
    """One enemy's chance at a mover (N-7.4, N-7.5): `at` is the walk's cell it strikes at (0: before it leaves)."""

    asker: str
    kind: str  # "hasten" or "run past"
    at: int
    answer: str = ""  # "" until asked: "strike" or "let go"; "hastened" for a run past by one that hastened


@attrs.frozen(kw_only=True)
class Asking:
    """A Move held up while the enemies it gives a melee chance answer, in order (`engine/.../interrupt.py`)."""

    mover: str
    path: tuple[tuple[int, int], ...]
    questions: tuple[Question, ...]

    @property
    def next(self) -> Question | None:
        return next((q for q in self.questions if not q.answer), None)


@attrs.frozen(kw_only=True)
class Dropped:
    """A weapon let go to draw another (N-13.2): it lies in the cell, its shots still in it, until picked up."""

    weapon: str
    cell: tuple[int, int]
    shots: int = 0


@record("neo-troops.battle")
@attrs.frozen(kw_only=True, slots=False)  # a __dict__: records.evolve copies it in one step
class Battle:
    order: orders.Order
    areas: tuple[Covering, ...] = ()  # live covering fire, until each firer's next slot starts
    acting: str = ""  # a unit taking its held action (N-7.3) before the slot that is up; "" when none
    noticed: tuple[tuple[str, str], ...] = ()  # (observer, cloaked target) noticed by a perception test
    known: tuple[tuple[str, str, tuple[int, int]], ...] = ()  # (side, target, cell): an unnoticed attacker's cell
    asking: Asking | None = None  # a Move waiting on the answers of the enemies it gives a melee chance
    aids: tuple[care.Aid, ...] = ()  # first aid under way (N-19.3): consecutive actions by one helper
    dropped: tuple[Dropped, ...] = ()  # weapons on the ground
    repairs: tuple[care.Repair, ...] = ()  # repairs under way (N-19.2): consecutive actions by one helper
    rests: tuple[tuple[str, int], ...] = ()  # (varan, own turns of uninterrupted rest so far, N-19.4)

    @property
    def awareness(self) -> senses.Awareness:
        return senses.Awareness(noticed=frozenset(self.noticed), known=frozenset(self.known))


def battle(state: State) -> Battle | None:
    return state.record if isinstance(state.record, Battle) else None


def up(state: State) -> Unit | None:
    """The unit whose slot is up, or None (before the start, after the end, nobody left)."""
    b = battle(state)
    if b is None or not b.order.slots or state.winner is not None:
        return None
    return state.units.get(b.acting or b.order.up)


def latest(unit: Unit) -> senses.Latest:
    """The unit's latest action as sighting.toml names it (N-4.3)."""
    t = unit.record
    return "attacked" if t.attacked else "ran" if t.ran else "moved" if t.moved else "stationary"


def stationary(unit: Unit) -> bool:
    """N-8.2: did not move in its latest action (a Move of 0 m counts as stationary)."""
    return not unit.record.moved and not unit.record.ran


def start_slot(unit: Unit) -> UnitChanged:
    fresh = records.evolve(unit.record, {"spent_m": 0, "moved": False, "ran": False, "attacked": False,
                                         "switch_dice": None, "actions": 1})  # `searched` stays: its latest action
    return UnitChanged(unit=unit.id, changes={"record": fresh}, cause="slot")


def end_slot(rs, state: State, events: list[Event], dice: Dice, cause: str = "ends its action",
             delay: bool = False, found: tuple[tuple[str, str], ...] | None = None) -> list[Event]:
    """The unit whose slot is up has finished its action: its perception tests if it is cloaked (N-4.4), the
    order moves on past anyone who cannot act, a new cycle is a new phase (and the phase limit ends the mission),
    and the next unit's slot starts."""
    now = fold(state, events)
    b = battle(now)
    assert b is not None
    done = now.units[b.acting or b.order.up]
    from engine.rules.neo_troops import aid, cover

    inside: list[Event] = []
    if done.conscious and not done.record.spent_m:  # an action ended inside an area (N-11.3)

        inside, _ = cover.crossed(rs, now, done, (done.pos,), False, dice)
        if inside:
            now = fold(now, inside)
            done = now.units[done.id]
    bled = [] if b.acting else aid.bleeds(rs, done)  # its own turn ends (a held action taken was counted)
    if bled:
        now = fold(now, bled)
        done = now.units[done.id]
    aw = senses.observer_acted(b.awareness, done.id)
    if found:  # a Search's notices last until the searcher's next action ends
        aw = attrs.evolve(aw, noticed=aw.noticed | frozenset(found))
    aw, rolls = _sightings(rs, now, done, aw, dice)
    # a held action taken leaves the slot that was up where it was; a delay holds the action (N-7.3)
    o = b.order if b.acting else orders.delay(b.order, done.id) if delay else orders.done(b.order, done.id)
    assert not isinstance(o, orders.Rejected)
    for u in now.units.values():  # the dead leave the order (most left it long ago)
        if u.status == "dead" and (u.id in o.slots or u.id in o.later):
            o = orders.remove(o, u.id)
    spent = {} if delay else {"record": records.evolve(done.record, {"actions": 0, "searched": found is not None})}
    out: list[Event] = [*inside, *bled, UnitChanged(unit=done.id, changes=spent, cause=cause)]
    from engine.rules.neo_troops import mend

    rests = b.rests
    for _ in range(2 * len(o.slots) + 2):  # pass over the incapacitated (they keep their slot, N-7.2), whose
        if not o.slots or now.units[o.up].conscious:  # bleeding counts there (N-19.3), and their rest (N-19.4)
            break
        more = aid.bleeds(rs, now.units[o.up]) or mend.passed_over(rs, attrs.evolve(b, rests=rests), now.units[o.up])
        if more:
            rests = next((e.record.rests for e in more if isinstance(e, Noted)), rests)
            more = [e for e in more if not isinstance(e, Noted)]  # the count goes on the slot's Noted below
            out += more
            now = fold(now, more)
        o = orders.remove(o, o.up) if now.units[o.up].status == "dead" else orders.done(o, o.up)
    nxt_id = o.up if o.slots else ""
    same = bool(b.acting) and o.slots and o.up == b.order.up  # back to the slot that was up: it has started
    new = records.evolve(b, {"order": o, "acting": "", "areas": tuple(a for a in b.areas if same or a.firer != nxt_id),
                             "rests": rests, "noticed": tuple(sorted(aw.noticed)), "known": tuple(sorted(aw.known))})
    out.append(Noted(record=new, cause="next slot", rolls=tuple(rolls)))
    if o.cycle > b.order.cycle:
        if rs.setup is not None and o.cycle > rs.setup.max_phases:  # (`resolve` has no mission, no limit)
            return out + [MissionEnded(winner="draw", reason=f"phase limit {rs.setup.max_phases} reached")]
        out.append(PhaseStarted(phase=o.cycle))
    if not o.slots or not now.units[o.up].conscious:
        return out
    nxt = now.units[o.up]
    if nxt.side != now.side:
        out.append(SideStarted(side=nxt.side))
    return out if same else out + [start_slot(nxt)]


def _sightings(rs, state: State, done: Unit, aw: senses.Awareness,
               dice: Dice) -> tuple[senses.Awareness, list[Roll]]:
    """N-4.4: when a cloaked unit completes an action, each enemy in line of sight that has not noticed it tests
    once; notices of those who lost sight of it lapse."""
    rolls: list[Roll] = []
    for o, t in sorted(aw.noticed):
        a, b = state.units.get(o), state.units.get(t)
        if a is None or b is None or not a.conscious or not state.grid.sees(a.pos, b.pos, SIGHT):
            aw = senses.out_of_sight(aw, o, t)
    t = done.record
    if not done.conscious or not t.cloaked:
        return aw, rolls
    if t.moved or t.ran:  # a known cell is stale, and a cloaked unit that moves must be noticed again
        aw = senses.target_moved(aw, done.id)
        aw = attrs.evolve(aw, noticed=frozenset(n for n in aw.noticed if n[1] != done.id))
    for obs in state.units.values():
        if obs.side == done.side or obs.side not in SIDES or not obs.conscious or aw.seen_by(obs.id, done.id):
            continue
        if not state.grid.sees(obs.pos, done.pos, SIGHT):
            continue
        seen = senses.spot(dice, obs.record, t, latest(done), done.pos, rs.tables, observer_ran=obs.record.ran)
        if seen.roll is not None:
            rolls.append(seen.roll)
        aw = senses.noted(aw, obs.record, done.id, seen)
    return aw, rolls


def spotted(state: State, side: str, seen) -> frozenset[str]:
    """The other sides' units in the side's seen cells, less the cloaked that none of its units has noticed (a
    notice holds while the observer still has the target in sight)."""
    b = battle(state)
    noticed = set(b.noticed) if b else set()
    out = set()
    for u in state.units.values():
        if u.side == side or not seen[u.pos[1], u.pos[0]]:
            continue
        if u.record is not None and u.record.cloaked and u.status != "dead":
            if not any((o.id, u.id) in noticed and o.conscious and state.grid.sees(o.pos, u.pos, SIGHT)
                       for o in state.side_units(side)):
                continue
        out.add(u.id)
    return frozenset(out)


def spots(state: State, side: str, uid: str) -> bool:
    """`uid in spotted(state, side, sight)`, asked of one unit: its cell is seen when one of the side's conscious
    units sees it (`Grid.sees` reads the very fields of view the side's sight is the union of), so no union is made
    and an eye out of the unit's range needs no field of view."""
    unit = state.units.get(uid)
    if unit is None or unit.side == side:
        return False
    grid, at = state.grid, unit.pos
    eyes = [o for o in state.units.values() if o.side == side and o.conscious and grid.sees(o.pos, at, SIGHT)]
    if not eyes:
        return False
    if unit.record is not None and unit.record.cloaked and unit.status != "dead":
        b = battle(state)
        noticed = set(b.noticed) if b else set()
        return any((o.id, uid) in noticed for o in eyes)
    return True


def known_cell(state: State, side: str, target: str) -> Pos | None:
    b = battle(state)
    return b.awareness.known_cell(side, target) if b else None
