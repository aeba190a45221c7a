"""xcom-trpg 4.5, 5.4 and 6.5: encouraging speeches, and the bravery check on meeting a monster.

`Act(unit, "speech")`: + the speaker's Charisma to every conscious friend it sees within
cells_per_sector − 1 cells, "all friendlies in the sector" (the speaker gains nothing); the squad leader's gives Charisma×2 and is free
once per phase ("Let them talk"). No roll: it does not end the turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.content import missions
from engine.core.commands import Act, Rejected
from engine.content.models import Content
from engine.rules.xcom_trpg.models import RulesetDef
from engine.core.dice import Dice
from engine.core.events import Event, Moved, Resolved, TileChanged, UnitChanged, UnitSpawned
from engine.map.grid import distance
from engine.core.model import State, Unit
from engine.core.ruleset import Option
from engine.core.reducer import fold
from engine.rules.xcom_trpg import scale
from engine.rules.xcom_trpg.combat import effective_stat
from engine.rules.xcom_trpg.contest import Side, versus_god
from engine.rules.xcom_trpg.damage import Ledger, apply_crits
from engine.content.scenario import Verdict
from engine.rules.xcom_trpg.tables import xcom
from engine.rules.xcom_trpg.record import soldier

if TYPE_CHECKING:
    from engine.rules.xcom_trpg.scenario import Action
    from engine.rules.xcom_trpg import XcomTrpg



def leader(rs: "XcomTrpg") -> str | None:
    """The squad's commander: the mission's `leader`, else the first of its squad."""
    if rs.setup is None:
        return None
    m = rs.setup.mission
    return m.leader or (m.squad[0] if m.squad else None)


def listeners(rs: "XcomTrpg", state: State, speaker: Unit) -> list[Unit]:
    return [u for u in state.units.values() if u.side == speaker.side and u.id != speaker.id and u.conscious
            and distance(u.pos, speaker.pos) <= scale.in_sector(rs.rules)
            and state.grid.sees(speaker.pos, u.pos, rs.rules.vision_radius)]


def _free(rs: "XcomTrpg", state: State, unit: Unit) -> bool:
    return unit.id == leader(rs) and soldier(unit).speech_free_phase != state.phase


def speech(rs: "XcomTrpg", state: State, cmd: Act, dice: Dice) -> Rejected | list[Event]:
    unit = rs._actor(state, cmd.unit)  # noqa: SLF001
    if isinstance(unit, Rejected):
        return unit
    free = _free(rs, state, unit)
    if not free and soldier(unit).actions < 1:
        return Rejected("no_actions", f"{unit.name} has no actions left this turn"
                        + (" and has had this phase's free speech" if unit.id == leader(rs) else ""))
    heard = listeners(rs, state, unit)
    if not heard:
        return Rejected("nobody_listens", f"No conscious friend within {scale.in_sector(rs.rules)} cells sees {unit.name}")
    is_leader = unit.id == leader(rs)
    charisma = effective_stat(unit, "charisma")
    gain = charisma * 2 if is_leader else charisma
    ledger = Ledger(state.units)
    if free:
        ledger.set(unit.id, "the commander's free speech (Let them talk, 4.5)", speech_free_phase=state.phase)
    else:
        ledger.set(unit.id, "encouraging speech", actions=soldier(unit).actions - 1)
    who = "commander's " if is_leader else ""
    for u in heard:
        ledger.morale(u.id, gain, f"{unit.name}'s {who}encouraging speech (+{gain})")
    how = f"Charisma {charisma}×2" if is_leader else f"Charisma {charisma}"
    text = f"{unit.name} gives an encouraging speech: +{gain} morale ({how}) to {', '.join(u.name for u in heard)}"
    return [Resolved(actor=unit.id, action="speech", rolls=(), outcome="heard", text=text), *ledger.events]


def speech_options(rs: "XcomTrpg", state: State, unit: Unit) -> list[Option]:
    heard = listeners(rs, state, unit)
    if not heard:
        return []
    free = _free(rs, state, unit)
    if not free and soldier(unit).actions < 1:
        return []
    gain = effective_stat(unit, "charisma") * (2 if unit.id == leader(rs) else 1)
    cost = "free once per phase (Let them talk)" if free else "1 action"
    return [Option(group="Morale", label=f"Encouraging speech (+{gain} morale to {len(heard)})",
                         command=Act(unit=unit.id, action="speech"), note=cost)]


# -- bravery on first sight (5.4) ------------------------------------------------------------------


def frightens(content: Content, monster: Unit, viewer: Unit) -> bool:
    return viewer.race in xcom(content).races[monster.race].frightens


def bravery_check(content: Content, rules: RulesetDef, ledger: Ledger, viewer: Unit, monster: Unit,
                  dice: Dice) -> Resolved:
    """Bravery*1d100 against the god of random, no luck check; lost: -20 morale; crits ±50 and a token."""
    bravery = effective_stat(viewer, "bravery")
    contest = versus_god(dice, rules, Side(viewer.id, "bravery", bravery, effective_stat(viewer, "luck")),
                         luck=False)
    dice.note(contest.rolls[0], f"{viewer.name} meets {monster.name}: races.toml [{monster.race}].frightens "
                                f"names {viewer.race} (5.4); no luck check")
    apply_crits(ledger, rules, contest.crits)
    if contest.attacker_wins:
        text = f"{viewer.name} keeps a cool head at the sight of {monster.name}"
    else:
        ledger.morale(viewer.id, -rules.morale.monster, f"terrified by {monster.name} (bravery check lost)")
        text = f"{viewer.name} is terrified by {monster.name}: -{rules.morale.monster} morale"
    return Resolved(actor=viewer.id, action="bravery", target=monster.id, rolls=tuple(contest.rolls),
                    outcome="steady" if contest.attacker_wins else "scared", text=text)


def first_sight(rs: "XcomTrpg", before: State, events: list[Event], dice: Dice) -> list[Event]:
    """Once per (character, monster) per episode, when the monster first comes into its sight."""
    if not any(isinstance(e, (Moved, UnitSpawned, TileChanged)) or
               (isinstance(e, UnitChanged) and "status" in e.changes) for e in events):
        return []  # nobody moved, woke or opened a door: nobody sees anything new (asked first: the cheaper test)
    races = xcom(rs.content).races
    present = [u.race for u in before.units.values() if u.status != "dead"]
    present += [e.unit.race for e in events if isinstance(e, UnitSpawned)]
    if not any(races[r].frightens for r in present):
        return []
    now = fold(before, events)
    monsters = [u for u in now.units.values() if u.conscious and races[u.race].frightens]
    ledger = Ledger(now.units)
    out: list[Event] = []
    for viewer in [u for u in now.units.values() if u.side in now.sides]:  # civilians take no turns: no morale
        for monster in monsters:
            v = ledger.unit(viewer.id)
            if not v.conscious or not frightens(rs.content, monster, v) or not missions.hostile(v.side, monster.side):
                continue  # the questions of who frightens whom first: most pairs end here
            if monster.id in soldier(v).bravery_seen or not now.grid.sees(v.pos, monster.pos, rs.rules.vision_radius):
                continue
            ledger.count(viewer.id, "bravery_seen", monster.id, f"first sight of {monster.name}")
            out.append(bravery_check(rs.content, rs.rules, ledger, v, monster, dice))
            out += ledger.take()
    return out


def referee(content: Content, rules: RulesetDef, units: dict[str, Unit], action: Action, dice: Dice) -> Verdict:
    viewer, monster = units[action.actor], units[action.monster or ""]
    if not frightens(content, monster, viewer):
        return Verdict([], units, {}, f"{viewer.name} need not check Bravery on meeting {monster.name}: "
                                      f"races.toml [{monster.race}].frightens does not name {viewer.race} (5.4)")
    ledger = Ledger(units)
    resolved = bravery_check(content, rules, ledger, viewer, monster, dice)
    return Verdict(list(resolved.rolls), units, ledger.changes, resolved.text)
