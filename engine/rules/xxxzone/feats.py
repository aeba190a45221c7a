"""The abilities' own actions on the map (13) and putting out a fire (9): `Act(action=...)`

- `mark_target` (target; 4 AP, Mark Target): allies shoot the marked enemy at +20 while the marker keeps it in
  sight and does nothing but move or attack it (`focus`);
- `chi_breath` (4 AP, Chi Breath Iron Body, refused after moving): +20 DR and −20 to melee at it until its next
  turn, rooted for the rest of this one;
- `scout` (target; 4 AP, Tactical Scouting): a seen enemy's armour DR and the penetration it needs, told;
- `put_out_fire` (2 AP): a burning entity puts itself out.
Inspire Allies is in inspire.py, Calming Aura (and the civilians' panic it answers) in panic.py."""

from __future__ import annotations

import attrs

from engine.content import missions
from engine.core.commands import Act, Command, Move, Rejected, Shoot
from engine.core.events import Event, Resolved
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.rules.xxxzone import abilities as ab
from engine.rules.xxxzone import actions
from engine.rules.xxxzone.units import changed

ACTIONS = ("mark_target", "chi_breath", "scout", "put_out_fire")
ABILITY = {"mark_target": "mark_target", "chi_breath": "chi_breath", "scout": "tactical_scouting"}


def act(rs, state: State, unit: Unit, cmd: Act) -> Rejected | list[Event]:
    book, c = rs.book, unit.record
    target = state.units.get(cmd.target or "")
    if cmd.action in ("mark_target", "scout"):
        if target is None or target.status == "dead" or not missions.hostile(unit.side, target.side) \
                or target.id not in rs.spotted(state, unit.side):
            name = book.actions["tactical_scouting" if cmd.action == "scout" else cmd.action].name
            return Rejected("no_target", f"{name} needs an enemy the side sees")
    if cmd.action == "put_out_fire":
        if not c.condition.on_fire:
            return Rejected("not_on_fire", f"{unit.name} is not on fire")
        paid = actions.spend(c.turn, actions.fixed_cost(book, book.actions["put_out_fire"].cost), "other",
                             frozenset(c.op.abilities), what="Putting the fire out")
        if isinstance(paid, Rejected):
            return paid
        after = attrs.evolve(c, turn=paid, condition=attrs.evolve(c.condition, on_fire=0))
        return [changed(book, unit, after, "puts the fire out (2 AP)")]
    action = "tactical_scouting" if cmd.action == "scout" else cmd.action
    paid = actions.do(book, c.turn, action, frozenset(c.op.abilities), bool(c.condition.disoriented))
    if isinstance(paid, Rejected):
        return paid
    if cmd.action == "chi_breath":
        return [changed(book, unit, attrs.evolve(c, turn=paid, chi_breath=True),
                        f"Chi Breath Iron Body: +{book.settings.chi_breath_dr} DR, −"
                        f"{book.settings.chi_breath_melee_penalty} to melee at it until its next turn")]
    if cmd.action == "mark_target":
        return [changed(book, unit, attrs.evolve(c, turn=paid, marking=target.id),
                        f"marks {target.name}: allies +{book.settings.mark_target_bonus} to hit it")]
    armour = book.armour[target.record.op.armour]
    text = f"{unit.name} scouts {target.name}: " + ab.scouted(armour.dr, 0)
    return [Resolved(actor=unit.id, action="scout", target=target.id, rolls=(), outcome="success", text=text),
            changed(book, unit, attrs.evolve(c, turn=paid), "scouts")]


def focus(rs, state: State, command: Command, uid: str) -> list[Event]:
    """After a command: a marker that did anything but move or attack its mark, or lost sight of it, loses focus."""
    unit = state.units.get(uid)
    c = unit.record if unit is not None else None
    if c is None or not c.marking:
        return []
    mark = state.units.get(c.marking)
    keeps = (isinstance(command, Move) or (isinstance(command, Shoot) and command.target == c.marking)
             or (isinstance(command, Act) and command.action == "mark_target"))
    sees = mark is not None and mark.status != "dead" and state.grid.sees(unit.pos, mark.pos, rs.sight_range)
    if ab.mark_holds(sees, "move" if keeps else "other", c.marking, c.marking):
        return []
    return [changed(rs.book, unit, attrs.evolve(c, marking=""), "loses focus on its mark")]


def marked(rs, state: State, shooter: Unit, target: Unit) -> bool:
    """Does an ally of the shooter (not itself) keep this target marked?"""
    return any(u.record is not None and u.record.marking == target.id and u.id != shooter.id and u.conscious
               for u in state.side_units(shooter.side))


def options(rs, state: State, unit: Unit) -> list[Option]:
    book, c = rs.book, unit.record
    out = []
    seen = rs.spotted(state, unit.side)
    hostiles = [t for t in state.units.values() if t.id in seen and t.conscious
                and missions.hostile(unit.side, t.side)]
    if "mark_target" in c.op.abilities:
        out += [Option("Abilities", f"Mark Target → {t.name} (4 AP): allies +{book.settings.mark_target_bonus}",
                       Act(unit=unit.id, action="mark_target", target=t.id), note="while it keeps it in sight")
                for t in hostiles if t.id != c.marking]
    if "tactical_scouting" in c.op.abilities:
        out += [Option("Abilities", f"Tactical Scouting → {t.name} (4 AP)", Act(unit=unit.id, action="scout",
                                                                              target=t.id)) for t in hostiles]
    if "chi_breath" in c.op.abilities and not c.turn.walked and not c.chi_breath:
        out.append(Option("Abilities", f"Chi Breath Iron Body (4 AP): +{book.settings.chi_breath_dr} DR",
                          Act(unit=unit.id, action="chi_breath"), note="no moving until its next turn"))
    if c.condition.on_fire:
        out.append(Option("Defence", "Put the fire out (2 AP)", Act(unit=unit.id, action="put_out_fire")))
    return out
