"""What the client shows of an annihilation unit: its sheet (the unit panel) and what its action menu offers
(stances, doors, the mission's objects, melee, medical, grenades and charges, the motion sensor)."""

from __future__ import annotations

from engine.content import missions
from engine.core.commands import Act, Rejected
from engine.core.model import State, Unit
from engine.core.ruleset import Option, Row, Sheet
from engine.rules.annihilation import board, fire, hazards, medical, melee, moves, sensor
from engine.rules.annihilation import sheet as _sheet
from engine.rules.annihilation.acts import STANCE_WORDS
from engine.rules.annihilation.soldier import grenades, gun, loads


class UnitQueries:
    """Methods of the ruleset (`play.Annihilation` through `queries.Queries`): `self` is the ruleset."""

    def sheet(self, state: State, unit: Unit) -> Sheet:
        s = unit.record
        f = s.fighter
        g = gun(s, self.book)
        kit = []
        if g is not None:
            w = self.book.weapons[g.id]
            spare = len(loads(self.book, s, g))
            kit.append(f"{w.name} {g.rounds}/{w.capacity}" + (f" +{spare} clips" if w.feed == "clip" else
                                                               f" +{spare} spare" if spare else ""))
            kit.append("Fire TU: " + " ".join(f"{m.capitalize()} {fire.shot_tu(self.book, f, g.id, m)}"
                                              for m in self.modes_of(g.id)))  # issue 12: each mode's cost
        nades = [self.name(c.id) for c in grenades(s, self.book) + medical.kits(s)]
        if nades:
            kit.append("Belt: " + ", ".join(f"{n}×{nades.count(n)}" for n in sorted(set(nades))))
        ready = next((c for c in s.kit if c.primed is not None), None)
        effects = tuple(x for x in (f.status if f.status != "awake" else "", "kneeling" if f.stance == "kneeling"
                                    else "", "prone" if f.stance == "prone" else "",
                                    f"{self.name(ready.id)} primed" + (f" (turn {ready.primed})" if ready.primed
                                                                       else "") if ready else "",
                                    "phase ended" if s.done else "") if x)
        rows = []
        for row in _sheet.rows(self.book, f):  # the panel is 24 rows high: no Stun row at 0, the armour on one
            if row.label == "Stun" and not f.stun:
                continue
            if row.label == "Armour":
                a = f.armour
                row = Row("Armour", f" AV {a.av} · F{a.front} L{a.left} R{a.right} B{a.rear} U{a.under} ")
            rows.append(row)
        rank = f.character.rank  # no rule acts on it; a Rookie, every new soldier, goes unsaid
        kind = self.book.races[f.character.race].name + (f" {self.book.ranks[rank].name}" if rank != "rookie" else "")
        return Sheet(rows=tuple(rows), effects=effects, kind=kind, kit=tuple(kit))

    def options(self, state: State, unit: Unit) -> list[Option]:
        if not self._mine(state, unit):
            return []
        f = unit.record.fighter
        out = []
        for to in moves.STANCES:
            if to == f.stance:
                continue
            price = moves.stance_price(self.book, f, to)
            if isinstance(price, Rejected):
                continue
            out.append(Option("Stance", f"{STANCE_WORDS[to]} ({price.tu} TU)",
                              Act(unit=unit.id, action="stance", option=to), note=price.text.replace("_", " ")))
        for action, cell in missions.uses(self.content, self.setup.mission, self.setup.spawns, state, unit):
            thing = self.content.terrain[state.grid.tile(cell)].name.lower()  # a power source, a terminal
            words = {"shut_down": f"Shut down the {thing}", "open": "Open the door", "close": "Close the door"}
            tu = (self.book.cost("shut_down", f.tu_turn) if action == "shut_down"
                  else self.book.costs["open_door"].tu)
            out.append(Option("Mission" if action == "shut_down" else "Doors",
                              f"{words[action]} at {cell[0]},{cell[1]} ({tu} TU)",
                              Act(unit=unit.id, action=action, cell=cell)))
        for p in melee.targets(self, state, unit):
            out.append(Option("Melee", f"Strike {p.target.name} ({p.turn + p.tu} TU, {max(0, min(100, p.chance))}%)",
                              Act(unit=unit.id, action="melee", target=p.target.id),
                              note=f"{p.text} (A-14.10)"))
        out += [Option("Medical", label, cmd) for label, cmd in medical.options(self, state, unit)]
        out += self._charges(state, unit)
        sense = sensor.price(self, unit)
        if not isinstance(sense, Rejected) and sense.tu <= f.tu_left:
            out.append(Option("Items", f"Motion sensor ({sense.tu} TU)", Act(unit=unit.id, action="sense"),
                              note="A-13.3: blips where a unit moved since this side's last phase, out to "
                                   f"{self.book.settings.motion_sensor_range} spaces, no sight needed"))
        return out

    def _charges(self, state: State, unit: Unit) -> list[Option]:
        """Priming a grenade to throw (timed: with a delay; proximity: it waits where it lands), laying a charge
        or a mine on the unit's square (A-17.7)."""
        f = unit.record.fighter
        out = []
        prime = self.book.costs["belt_to_hand"].tu + self.book.cost("prime", f.tu_turn)
        lay = hazards.lay_price(self, unit).tu
        delay = self.book.settings.priming_delay_max
        holding = any(c.primed is not None for c in unit.record.kit)
        here = any(g.cell == unit.pos and g.z == unit.z for g in board.lying(state))
        for item in sorted({g.id for g in grenades(unit.record, self.book)}):
            trigger, name = self.book.explosives[item].trigger, self.name(item)
            if trigger != "mine" and not holding and prime <= f.tu_left:
                timed = trigger == "timer"
                out.append(Option("Grenades", f"Prime a {name} ({prime} TU)",
                                  Act(unit=unit.id, action="prime", option=item),
                                  note="A-17.7: it goes off at the end of this side's phase, the delay's turns on "
                                       "(0: this one); then throw it with the throw key" if timed else
                                       "A-17.7: thrown, it lies where it lands until a unit comes within 1 square",
                                  overload=delay if timed else 0, amount_words="Delay: {n} turns"))
            if trigger != "proximity" and not here and lay <= f.tu_left:
                out.append(Option("Grenades", f"Lay a {name} here ({lay} TU)",
                                  Act(unit=unit.id, action="lay", option=item),
                                  note="A-17.7: it goes off when a unit steps on this square" if trigger == "mine"
                                  else "A-17.7: it goes off at the end of this side's phase, the delay's turns on",
                                  overload=delay if trigger == "timer" else 0, amount_words="Delay: {n} turns"))
        return out
