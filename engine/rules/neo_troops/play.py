"""neo-troops as a registered ruleset: the kernel's `Ruleset` protocol over the rules core of this package."""

from __future__ import annotations

import attrs
import numpy as np

from engine.content import field, missions
from engine.core.commands import Act, Command, EndTurn, Face, Move, Rejected, Reload, Shoot, StartMission, Throw, Wait
from engine.core.dice import Dice
from engine.core.events import Event, Noted, PhaseStarted, SideStarted, UnitSpawned
from engine.core.geometry import Pos
from engine.content.models import scaled
from engine.core.model import State, Unit
from engine.core.reducer import fold
from engine.core.ruleset import (Later, Budget, CellShot, Hunt, Mode, Option, Plain, Sheet, ShotPreview, ThrowPreview,
                                 Throwable, Turn, answers, register)
from engine.rules.neo_troops import actions, aid, arms, battle, brawl, cover, fight, interrupt, movement, order
from engine.rules.neo_troops import hunt, loadout, mend, shooting, spray, throwing, views
from engine.rules.neo_troops import unit as units
from engine.rules.neo_troops.schema import SCHEMA, Settings

ID = "neo-troops"


def _referee():
    """The `resolve` rules (referee.py), imported when first asked for: a battle never needs them."""
    from engine.rules.neo_troops import referee

    return referee


@register(ID)
class NeoTroops(Plain):
    title = "Neo-Troops"
    sight_range = battle.SIGHT
    audit_dice = (6,)
    storeys = 1  # one level: its maps have raised floors, no storeys
    schema = SCHEMA
    scenario = Later(lambda: _referee().Scenario)  # `resolve`: one action staged on an open field (referee.py)

    def __init__(self, content, setup) -> None:
        self.content = content
        self.setup = setup
        self.tables = content.rules.get(ID, {})
        self.settings = self.tables.get("settings", {}).get("default", Settings())  # none: a bundle without us
        self.weapons = self.tables.get("weapons", {})
        self.characters = self.tables.get("characters", {})
        self.hardship = self._hardship(setup.mission) if setup is not None else None
        self.priced = None  # (grid, [y, x] price of a step) for the Walk
        self.staged: tuple[list, frozenset[str]] = ([], frozenset())  # the last scenario's cover and unseen units

    # -- the kernel's entry point ---------------------------------------------------------------

    def decide(self, state: State, command: Command, dice: Dice) -> Rejected | list[Event]:
        if state.winner is not None:
            return Rejected("mission_over", "The mission is over")
        if isinstance(command, StartMission):
            if state.units:
                return Rejected("started", "The mission has started")
            return self._start(state, dice)
        up = battle.up(state)
        if up is None:
            return Rejected("nobody_up", "Nobody may act now")
        turn = self.turn(state)
        why = answers(turn, command)
        if why is not None:
            return why
        if battle.battle(state).asking is not None:  # one of the interrupt's answers
            events = interrupt.answer(self, state, command, dice)
            return events + self._verdict(state, events)
        if isinstance(command, EndTurn):
            if command.side not in battle.SIDES:
                return Rejected("not_your_turn", f"{command.side!r} takes no slots; it is {up.name}'s slot")
            if command.side != up.side:
                # The slot has passed to the other side already (a run, a shot): ending "the turn" hands play on
                # and changes nothing. The client's end-turn key is how the player lets the other side's slots
                # play (tui/screens/battle.py starts the AI only after an EndTurn).
                return []
            pre = aid.interrupted(state, up, command)
            events = pre + battle.end_slot(self, fold(state, pre), [], dice, cause="ends the slot")
            return events + self._verdict(state, events)
        uid = getattr(command, "unit", "")
        if uid not in state.units:
            return Rejected("no_unit", f"No unit {uid!r}")
        pre: list[Event] = []
        if uid != up.id and uid in (turn.units or ()):  # a held action, taken now (N-7.3)
            b = battle.battle(state)
            o = order.take_held(b.order, uid)
            if isinstance(o, Rejected):
                return o
            pre = [Noted(record=attrs.evolve(b, order=o, acting=uid), cause="takes its held action"),
                   battle.start_slot(state.units[uid])]
            state = fold(state, pre)
            up = state.units[uid]
        if uid != up.id:
            return Rejected("not_your_slot", f"It is {up.name}'s slot, not {state.units[uid].name}'s")
        reset = aid.interrupted(state, up, command)  # only if the command is accepted
        events = self._act(fold(state, reset) if reset else state, up, command, dice)
        if isinstance(events, Rejected):
            return events
        events = reset + events
        return pre + events + self._verdict(state, events)

    def _act(self, state: State, up: Unit, command: Command, dice: Dice) -> Rejected | list[Event]:
        if isinstance(command, Act) and command.action == "delay":
            if not up.record.fresh or battle.battle(state).acting:
                return Rejected("not_now", f"{up.name} has begun its action: only a fresh slot is delayed")
            return battle.end_slot(self, state, [], dice, cause="holds its action", delay=True)
        if isinstance(command, Wait):
            events = battle.end_slot(self, state, [], dice, cause="waits")
        elif isinstance(command, Move):
            events = actions.move(self, state, up, command.path, dice)
        elif isinstance(command, Shoot):
            events = actions.shoot(self, state, up, command.target, command.mode, dice)
        elif isinstance(command, Reload):
            events = actions.reload(self, state, up, dice)
        elif isinstance(command, Act) and command.action == "spray":
            events = spray.fire(self, state, up, command.targets, dice)
        elif isinstance(command, Act) and command.action == "first_aid":
            events = aid.give(self, state, up, command.target, dice)
        elif isinstance(command, Act) and command.action == "melee" and command.targets:
            events = brawl.attack(self, state, up, command.targets, dice)  # several targets (N-15.3)
        elif isinstance(command, Act) and command.action == "melee":
            events = fight.attack(self, state, up, command.target, dice)
        elif isinstance(command, Act) and command.action == "cover":
            if command.cell is None:
                return Rejected("no_cell", "Say which cell the covering fire is aimed at")
            events = cover.cover(self, state, up, command.cell, dice)
        elif isinstance(command, Act) and command.action in arms.HOW_KIND:
            events = arms.switch(self, state, up, command.action, command.option, dice)
        elif isinstance(command, Act) and command.action == "pick_up":
            events = arms.pick_up(self, state, up, command.option, dice)
        elif isinstance(command, Act) and command.action == "search":
            events = hunt.search(self, state, up, dice)
        elif isinstance(command, Act) and command.action == "fire_at":
            events = hunt.fire_at(self, state, up, command.cell, command.option, dice)
        elif isinstance(command, Act) and command.action == "repair":
            events = mend.repair(self, state, up, command.target, command.option, dice)
        elif isinstance(command, Act) and command.action == "rest":
            events = mend.rest(self, state, up, dice)
        elif isinstance(command, Act):
            events = actions.act(self, state, up, command.action, command.cell, dice)
        elif isinstance(command, Throw):
            events = throwing.throw(self, state, up, command.item, command.cell, dice)
        elif isinstance(command, Face):  # N-8: nothing in the rules reads a facing, so there is no turn to take
            return Rejected("no_facing", "Neo-Troops has no facing: turning in place changes nothing, so it is no "
                                         "action")
        else:
            return Rejected("unknown_command", f"neo-troops has no {command.kind}: one action per slot")
        return events

    def _start(self, state: State, dice: Dice) -> list[Event]:
        events: list[Event] = []
        for m, cell in field.placements(self.roster(self.setup.mission_id) or [], self.setup.mission,
                                        self.setup.spawns):
            t = units.build(m.uid, m.side, m.template, self.tables, **self._hardened(m.side, m.template))
            events.append(UnitSpawned(unit=frame(self, m.uid, m.name, m.template, m.side, cell, t)))
        fighters = [e.unit for e in events if e.unit.side in battle.SIDES]
        caught = self._surprised(fold(state, events))
        rolled = order.roll_initiative(dice, [order.Combatant(id=u.id, av=u.record.av, surprised=u.id in caught)
                                              for u in fighters])
        first = next(e.unit for e in events if e.unit.id == rolled.order.up)
        return events + [Noted(record=battle.Battle(order=rolled.order), rolls=rolled.rolls,
                               cause="initiative" + (" (an ambush: the surprised act last this cycle)" if caught else "")),
                         PhaseStarted(phase=1), SideStarted(side=first.side), battle.start_slot(first)]

    def _surprised(self, state: State) -> frozenset[str]:
        """N-7.2: on a mission `settings.toml` names in `ambush`, the ambushed side's combatants that see no enemy
        as they deploy (the cloaked are not seen: nobody has noticed them yet) are surprised."""
        side = self.settings.ambush.get(missions.base_id(self.setup.mission_id))
        if side is None:
            return frozenset()
        aware = {u.id for u in state.side_units(side) if u.conscious and any(
            state.grid.sees(u.pos, e.pos, battle.SIGHT) and not e.record.cloaked
            for e in state.units.values() if e.side != side and e.side in battle.SIDES)}
        return frozenset(u.id for u in state.side_units(side) if u.id not in aware)

    def _hardship(self, mission):
        """What the mission's level (`terror@veteran`, else the default one) does to the enemies: hardship.toml."""
        level = (mission.difficulty if mission is not None else None) or self.content.default_difficulty()
        return self.tables.get("hardship", {}).get(level)

    def _hardened(self, side: str, template: str) -> dict[str, int]:
        """The level's skill levels on top of an enemy's own (hardship.toml); nothing for the squad."""
        h, c = self.hardship, self.characters[template]
        if h is None or side != missions.ALIENS:
            return {}
        return {k: max(0, getattr(c, k) + getattr(h, k)) for k in ("accuracy", "fighter", "perception")}

    def _verdict(self, state: State, events: list[Event]) -> list[Event]:
        if self.setup is None:  # `resolve`: one action on a staged field, no mission to win
            return []
        return missions.ending(self.content, self.setup, state, events)

    # -- who acts, who sees -----------------------------------------------------------------------

    def turn(self, state: State) -> Turn:
        up = battle.up(state)
        b = battle.battle(state)
        if up is None or b is None:
            return Turn(side="", units=(), label="Nobody may act")
        asked = interrupt.turn(self, state, b)
        if asked is not None:
            return asked
        o = b.order
        waiting = () if b.acting or o.last is None else tuple(
            u for u in o.held if u in state.units and state.units[u].side == up.side and state.units[u].conscious)
        held = f" (holding: {', '.join(state.units[u].name for u in waiting)})" if waiting else ""
        return Turn(side=up.side, units=(up.id, *waiting),
                    label=f"Initiative {o.at + 1}/{len(o.slots)}: {up.name}{held}{order.next_words(o, state, up)}")

    def sight_levels(self, state: State, side: str) -> np.ndarray:
        return self.visible(state, side)[np.newaxis]  # one level

    def visible(self, state: State, side: str) -> np.ndarray:
        return field.sight(state, side, battle.SIGHT)

    def spotted(self, state: State, side: str) -> frozenset[str]:
        return battle.spotted(state, side, self.visible(state, side))

    # -- what the client and the AI ask -----------------------------------------------------------

    def budget(self, state: State, unit: Unit) -> Budget:
        return views.budget(self, state, unit)

    def walked(self, state: State, command: Move) -> State | Rejected:
        unit = state.units.get(command.unit)
        if unit is None or not unit.conscious or not self.turn(state).allows(unit.id) or self.turn(state).units is None:
            return Rejected("not_your_slot", f"It is not {command.unit}'s slot")
        if not isinstance(command, Move):
            return Rejected("unknown_command", "neo-troops walks by Move (a walk past the move metres is a Run)")
        return actions.ahead(self, state, unit, command.path)

    def sheet(self, state: State, unit: Unit) -> Sheet:
        return views.sheet(self, state, unit)

    def preview_shot(self, state: State, shooter: str, target: str, mode: str) -> ShotPreview | Rejected:
        return views.preview_shot(self, state, shooter, target, mode)

    def shot_modes(self, state: State, unit: Unit) -> list[Mode]:
        return views.shot_modes(self, state, unit)

    def options(self, state: State, unit: Unit) -> list[Option]:
        return views.options(self, state, unit)

    def preview_cell_shot(self, state: State, shooter: str, cell: Pos, mode: str) -> CellShot | Rejected:
        return hunt.preview_cell(self, state, shooter, cell, mode)

    def preview_throw(self, state: State, thrower: str, item: str, cell: Pos) -> ThrowPreview | Rejected:
        return throwing.preview(self, state, thrower, item, cell)

    def throwables(self, state: State, unit: Unit) -> list[Throwable]:
        t = unit.record
        return [] if t is None else [Throwable(item=i, label=self.name(i), count=loadout.shots_left(t, i))
                                     for i in throwing.carried(self, t)]

    def throw_range(self, state: State, unit: Unit, item: str) -> int:
        w = self.weapons.get(item)
        return shooting.throw_reach(w, self.settings) if w is not None else 0

    def distance(self, a: Pos, b: Pos) -> int:
        return movement.range_cells(a, b)

    def blast(self, state: State, item: str, cell: Pos) -> tuple[Pos, ...]:
        w = self.weapons.get(item)
        if w is None or not w.blast:
            return (cell,)
        return tuple(sorted(c for c in shooting.blast_cells(cell, w) if state.grid.inside(c)))

    def name(self, thing: str) -> str:
        for table in (self.weapons, self.tables.get("items", {}), self.characters):
            if thing in table:
                return table[thing].name
        return thing.replace("_", " ").capitalize()

    def roster(self, mission_id: str) -> list[missions.Member] | None:
        forces = self.tables.get("forces", {}).get(missions.base_id(mission_id))
        if forces is None:
            return None
        h = self._hardship(self.content.missions.get(mission_id))
        if h is not None and h.enemies_percent != 100:  # the level's enemy numbers
            forces = attrs.evolve(forces, enemies={k: scaled(n, h.enemies_percent)
                                                   for k, n in forces.enemies.items()})

        def looks(template: str) -> tuple[str, str, str]:
            c = self.characters[template]
            return c.name, c.glyph, self.name(c.weapons[0]).lower() if c.weapons else "unarmed"

        return missions.members(forces, looks)

    def behaviour(self, unit: Unit) -> str:
        c = self.characters.get(unit.template)
        return c.behaviour if c is not None else "default"

    def shaken(self, unit: Unit, below: float) -> bool:
        return False  # neo-troops has no morale

    def aptitude(self, unit: Unit, stats: tuple[str, ...]) -> int:
        return (1 + self.characters[unit.template].perception) * stats.count("intelligence")  # its wits

    def inventory(self, state: State, unit: Unit) -> None:
        return None  # no inventory screen: its kit is not moved about in battle

    def marks(self, state: State, side: str) -> tuple:
        return ()  # nothing of its own drawn over the tiles

    def change_note(self, before: Unit, after: Unit, cause: str) -> str | None:
        return None  # its unit changes are told by their events' own words

    def ai_special(self, state: State, unit: Unit, in_sight: list[Unit], has_shot: bool) -> Command | None:
        return views.ai_special(self, state, unit, in_sight, has_shot)

    def suspects(self, state: State, side: str) -> tuple[tuple[str, Pos], ...]:
        b = battle.battle(state)  # an unnoticed attacker's cell, known until it moves (N-4.4)
        return () if b is None else tuple(sorted((t, c) for s, t, c in b.known if s == side))

    def ai_hunt(self, state: State, unit: Unit, clues) -> Hunt | None:
        return views.ai_hunt(self, state, unit, clues)

    def ai_chore(self, state: State, unit: Unit, in_sight: list[Unit], stage: str) -> Command | None:
        return views.ai_chore(self, state, unit, in_sight, stage)

    def creation(self):
        from engine.rules.neo_troops.creator import NeoCreation

        return NeoCreation(self.content)

    def downtime(self):
        from engine.rules.neo_troops.downtime import NeoDowntime

        return NeoDowntime(self.content)

    # -- resolve: one action staged on an open field (referee.py) -------------------------------

    def check_scenario(self, scenario) -> list[str]:
        return _referee().check(self, scenario)

    def scenario_units(self, scenario, setup: Dice):
        self.staged = (list(scenario.cover), frozenset(u for u, s in scenario.units.items() if not s.noticed))
        return _referee().units(self, scenario), []

    def unit_report(self, before: Unit, after: Unit):
        return _referee().report(self, before, after)

    def referee(self, units: dict[str, Unit], action, dice: Dice):
        return _referee().referee(self, units, action, dice, *self.staged)

    def trial_plan(self, units: dict[str, Unit], action):
        from engine.rules.neo_troops import trials

        return trials.plan(self, units, action, *self.staged)

    def trial_tally(self, action, verdict):
        return _referee().tally(action, verdict)


def frame(rs, uid: str, name: str, template: str, side: str, cell: Pos, t: units.Trooper) -> Unit:
    """The kernel's frame of a trooper: what the client and the shared missions read, the record riding on it."""
    c = rs.characters[template]
    return Unit(id=uid, name=name, template=template, race="Cybervaran" if c.varan else c.name, side=side,
                glyph=c.glyph, pos=cell, facing=field.FACING.get(side, 0), hp=t.hp, hp_max=t.hp_max, record=t)
