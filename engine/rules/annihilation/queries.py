"""What the client and the AI ask of annihilation without deciding anything: whose phase it is, what a unit can
still pay for (TU, priced walks), its sheet, the exact odds of a shot or a throw, its firing modes and options."""

from __future__ import annotations

import attrs

from engine.content import missions
from engine.core.commands import Act, Command, Rejected, Reload
from engine.core.geometry import Pos
from engine.core.model import State, Unit
from engine.core.ruleset import (Plain, Budget, Mark, Mode, Option, Row, Sheet, ShotPreview, Throwable,
                                 ThrowPreview, Turn, Walk)
from engine.rules.annihilation import actions, attacks, board, clouds, fire, fuses, ground, hazards, medical, melee
from engine.rules.annihilation import floor, heights, hits, kneeling, moves, scavenge, sensor, sights, spotting
from engine.rules.annihilation import stalking
from engine.rules.annihilation import sheet as _sheet
from engine.rules.annihilation.acts import STANCE_WORDS, throw_price
from engine.rules.annihilation.blast import cells, falloff, side_hit, spaces_from
from engine.rules.annihilation import combat
from engine.rules.annihilation.combat import shot_cost
from engine.rules.annihilation.inventory import harnessed
from engine.rules.annihilation.soldier import fighter_of, grenades, gun, loads, name_of, shooters
from engine.rules.annihilation.space import between, facing_towards

DEFAULT_MODES = ("snap", "aimed", "burst", "auto")  # the order the modes are offered in, the default first


class Queries(Plain):
    def turn(self, state: State) -> Turn:
        if state.winner is not None or not state.side:
            return Turn(side="")
        who = "X-COM" if state.side == missions.PLAYER else state.side.capitalize()
        return Turn(side=state.side, label=f"{who} phase, turn {state.phase}")

    def spotted(self, state: State, side: str) -> frozenset[str]:
        seen = self.sight_levels(state, side)
        return frozenset(u.id for u in state.units.values() if u.side != side and u.z < len(seen)
                         and seen[u.z, u.pos[1], u.pos[0]] and spotting.seen(self, state, side, u))

    def _mine(self, state: State, unit: Unit) -> bool:
        return (state.winner is None and unit.side == state.side and unit.conscious and unit.record is not None
                and not unit.record.done)

    def walk(self, state: State, unit: Unit) -> Walk:
        f = unit.record.fighter
        legless = any(self.book.body[p].part == "leg" for p in f.lost)
        return ground.walk(self.book, self.ground, state.grid, self._walks,
                           self.book.settings.crawl_multiplier if legless else 1, moves.flies(self.book, f))

    def budget(self, state: State, unit: Unit) -> Budget:
        f = unit.record.fighter
        mine = self._mine(state, unit)
        can_walk = f.stance == "standing" or (f.stance == "prone" and any(self.book.body[p].part == "leg"
                                                                          for p in f.lost))
        moves_left = min(f.tu_left, f.energy) if mine and can_walk else 0
        g = gun(unit.record, self.book)
        shot = min((fire.shot_tu(self.book, f, g.id, m) for m in self.book.weapons[g.id].modes), default=0) \
            if g is not None and g.rounds else 0
        step = moves_left - shot if shot and shot <= f.tu_left else moves_left
        reserve = self._reserve(unit)
        label = f"TU {f.tu_left}/{f.tu_turn}" + ("" if mine or unit.side != state.side else " · done")
        return Budget(label=label, can_act=mine and f.tu_left >= self.book.costs["walk"].tu, moves_left=moves_left,
                      step=max(0, min(step - reserve, moves_left)), reserve=min(reserve, moves_left),
                      walk=self.walk(state, unit))

    def _reserve(self, unit: Unit) -> int:
        """The TU a unit's AI walks keep for opportunity fire in the enemy's phase (A-14.9): its profile's firing mode
        (units.toml `reserve`) with the weapon it holds, or the level's share of its allowance for an alien
        (difficulty.toml `reserve_percent`), whichever is more."""
        f = unit.record.fighter
        level = f.tu_turn * self.hardship.reserve_percent // 100 \
            if unit.side == missions.ALIENS and self.hardship is not None else 0
        t = self.units.get(unit.template)
        g = gun(unit.record, self.book)
        if t is None or not t.reserve or g is None or not g.rounds:
            return level
        modes = self.book.weapons[g.id].modes
        mode = t.reserve if t.reserve in modes else min(modes, key=lambda m: fire.shot_tu(self.book, f, g.id, m))
        return max(level, fire.shot_tu(self.book, f, g.id, mode))

    def modes_of(self, weapon: str) -> list[str]:
        modes = self.book.weapons[weapon].modes
        return [m for m in DEFAULT_MODES if m in modes] + sorted(m for m in modes if m not in DEFAULT_MODES)

    def mode_id(self, unit: Unit, mode: str) -> str:
        """The kernel's default mode ("single") is the weapon's first."""
        g = gun(unit.record, self.book)
        if g is None or mode in self.book.weapons[g.id].modes:
            return mode
        return self.modes_of(g.id)[0] if mode == "single" else mode

    def shot_modes(self, state: State, unit: Unit) -> list[Mode]:
        """The weapon's modes, then each again with one sight and with both where its fitted sights help
        (A-14.7: "aimed+sight", "aimed+sights"); the plain modes first, the default the first of them."""
        g = gun(unit.record, self.book)
        if g is None:
            return []
        f = unit.record.fighter
        out = []
        for used in (0, 1, 2):
            for m in self.modes_of(g.id):
                if used > sights.usable(self.book, g, m):
                    continue
                tu = fire.shot_tu(self.book, f, g.id, m, used)  # the name is short: the panel has every number
                out.append(Mode(sights.joined(m, used), f"{m.capitalize()}{sights.SUFFIX.get(used, '')}",
                                self._mine(state, unit) and g.rounds > 0 and tu <= f.tu_left))
        return out

    def preview_shot(self, state: State, shooter: str, target: str, mode: str) -> ShotPreview | Rejected:
        """The targeting panel (issue 12): every mode of the weapon at once, at the sights the chosen mode uses,
        each with its chance per round, its rounds, its TU (the turn to face included) and the TU left after; the
        chosen one's formula; the armour side the shot hits and a hit's damage through it. A shot that cannot be
        taken now is the Rejected `decide` would give it (the AI's question)."""
        return self._shot_table(state, shooter, target, mode, unpaid=False)

    def shot_panel(self, state: State, shooter: str, target: str, mode: str) -> ShotPreview | Rejected:
        """The panel's table even when the chosen mode's TUs are short (gap 6): the other modes are still worth
        reading, and the chosen row says what is left."""
        return self._shot_table(state, shooter, target, mode, unpaid=True)

    def _shot_table(self, state: State, shooter: str, target: str, mode: str, *,
                    unpaid: bool) -> ShotPreview | Rejected:
        from engine.rules.annihilation.combat import check_shot

        a, b = state.units.get(shooter), state.units.get(target)
        if a is None or b is None or a.record is None or b.record is None:
            return Rejected("no_target", "No target there")
        mode = self.mode_id(a, mode)
        checked = check_shot(self, state, a, target, mode)
        if isinstance(checked, Rejected) and not (unpaid and checked.code == "no_tu"):
            return checked
        g = gun(a.record, self.book)
        plain, used = sights.split(mode)
        turn, tu = shot_cost(self, a, b, mode)
        f = attrs.evolve(fighter_of(a), tu_left=a.record.fighter.tu_left - turn,
                         facing=facing_towards(a.pos, b.pos, self.book.settings.grid))
        table = actions.preview(self.book, f, g, fighter_of(b), a.pos, b.pos, dz=b.z - a.z, sights=used,
                                harness=harnessed(g, a.record.harness), every=True)
        odds = next((o for o in table if o.mode == plain), None)
        if odds is None:
            return Rejected("no_mode", f"{mode} cannot be fired now")
        tf = b.record.fighter
        rnd = hits.round_of(self.book, g.id, g.loaded)  # a cannon's or launcher's damage is its round's (16)
        dmg = 0 if isinstance(rnd, Rejected) else rnd.damage
        side = "under" if not isinstance(rnd, Rejected) and rnd.delivery == "grenade" else odds.side
        av = tf.armour.av
        side_left = getattr(tf.armour, side)
        through = dmg if side_left <= 0 else max(0, dmg - av)
        p = max(0, min(100, odds.chance)) / 100
        p_any = 1 - (1 - p) ** odds.rounds
        spaces = between(self.book.settings.grid, a.pos, b.pos, b.z - a.z, self.book.settings.height_adds_to_range)
        lines = []
        for o in table:  # the label padded so the columns line up in the panel
            label = ("▸" if o.mode == plain else " ") + f"{o.mode.capitalize():<5}"
            lines.append(Row(label, f" {o.chance:>3}% ×{o.rounds} {turn + o.tu:>2} TU → "
                                    + (f"{o.tu_after} " if o.paid else f"✗ {f.tu_left + turn} left ")))
        lines.append(Row("", f" {odds.text} "))
        fitted = sights.usable(self.book, g, plain)
        if fitted and not used:  # in use, the mode's name and the formula's "/2" say so (24 rows: no room)
            lines.append(Row("Sights", f" {fitted} fitted, unused (m: use them) "))
        lines.append(Row("Side", f" {side} AV {av}: {dmg} → {through}, D {spaces}"
                                 + (f" ({b.z - a.z:+d} lvl)" if b.z != a.z else "")
                                 + (f", turn {turn} TU" if turn else "") + " "))
        return ShotPreview(p_hit=p_any, expected_damage=p * odds.rounds * through,
                           p_headshot=p_any * (1.0 if through >= tf.health + tf.character.stats.bravery else 0.0),
                           distance=spaces, reach=None, lines=tuple(lines))

    def throwables(self, state: State, unit: Unit) -> list[Throwable]:
        if unit.record is None:
            return []
        ids = [g.id for g in grenades(unit.record, self.book) if self.book.explosives[g.id].trigger != "mine"]
        out = []
        for i in sorted(set(ids)):
            ready = fuses.primed_of(unit, i)
            label = self.name(i) + (f" (primed, turn {ready.primed})" if ready and ready.primed else
                                    " (primed)" if ready else "")
            out.append(Throwable(i, label, ids.count(i)))
        return sorted(out, key=lambda t: fuses.primed_of(unit, t.item) is None)  # a primed one is offered first

    def throw_range(self, state: State, unit: Unit, item: str) -> int:
        if item not in self.book.explosives:
            return 0
        return attacks.throw_range(self.book, unit.record.fighter, self.book.explosives[item].size)

    def preview_throw(self, state: State, thrower: str, item: str, cell: Pos) -> ThrowPreview | Rejected:
        unit = state.units.get(thrower)
        if unit is None or item not in {t.item for t in self.throwables(state, unit)}:
            return Rejected("no_item", "Nothing of that kind to throw")
        if not state.grid.inside(cell) or not clouds.sees(self, state, unit.pos, cell, unit.z, unit.z):
            return Rejected("no_line_of_sight", f"{cell[0]},{cell[1]} is not in sight")
        if cell == unit.pos:
            return Rejected("too_close", "Throw it at another square")
        e = self.book.explosives[item]
        cost = throw_price(self, unit, item)
        if cost.tu > unit.record.fighter.tu_left:
            return Rejected("no_tu", f"Bringing out, priming and throwing costs {cost.tu} TU; "
                                     f"{unit.record.fighter.tu_left} left")
        spaces = between(self.book.settings.grid, unit.pos, cell)
        odds = attacks.throw_odds(self.book, unit.record.fighter, e.size, spaces)
        if isinstance(odds, Rejected):
            return odds
        p = max(0, min(100, odds.chance)) / 100
        struck = []
        for c in cells(self.book, cell, e.radius):
            for u in state.units_at(c, unit.z):
                amount = falloff(e.damage, spaces_from(self.book, cell, c), e.radius)
                side = side_hit(cell, c, u.facing, "grenade", grid=self.book.settings.grid)
                struck.append((u.id, Row(u.name, f" {amount} on {side} (AV {u.record.fighter.armour.av}) ")))
        lines = (Row("Lands", f" {odds.chance}% ({odds.text}) "), Row("TU", f" {cost.tu} ({cost.text}) "),
                 Row("Scatter", f" else d8 way, d{1 + spaces // 4} spaces "))
        return ThrowPreview(p_land=p, lines=lines, hits=tuple(struck))

    def distance(self, a: Pos, b: Pos) -> int:
        return between(self.book.settings.grid, a, b)

    def blast(self, state: State, item: str, cell: Pos) -> tuple[Pos, ...]:
        radius = self.book.explosives[item].radius if item in self.book.explosives else 0
        return tuple(c for c in cells(self.book, cell, radius) if state.grid.inside(c))

    def shot_blast(self, state: State, unit: Unit, cell: Pos) -> tuple[Pos, ...]:
        g = gun(unit.record, self.book) if unit.record is not None else None
        rnd = hits.round_of(self.book, g.id, g.loaded) if g is not None and g.rounds else None
        if rnd is None or isinstance(rnd, Rejected) or rnd.radius < 0:
            return ()
        return tuple(c for c in cells(self.book, cell, rnd.radius) if state.grid.inside(c))

    def name(self, thing: str) -> str:
        return name_of(self.book, thing)

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

    def inventory(self, state: State, unit: Unit):
        from engine.rules.annihilation import stowing

        return stowing.screen(self, state, unit) if unit.record is not None else None

    def heard(self, state: State, side: str) -> tuple[Pos, ...]:
        """Where its enemies have fired from since the side's last phase (settings `shots_seen`): its AI hunts
        there, as OpenXcom's aliens go for a soldier who shot at them."""
        return shooters(state, side)

    def marks(self, state: State, side: str) -> tuple[Mark, ...]:
        """A smoke cloud of which the side sees a square, whole; the burning squares it sees; its own primed
        explosives lying about (the other side's stay hidden); its motion-sensor blips."""
        f = board.field_of(state)
        sight = self.sight_levels(state, side)
        out: list[Mark] = []
        for cloud in f.clouds:
            seen = sight[cloud.z]
            if cloud.kind == "smoke" and any(seen[y, x] for x, y in cloud.cells):
                out += [Mark(c, "▒", "#b0b0b0", f"Smoke until turn {cloud.until}", "#404040", z=cloud.z)
                        for c in cloud.cells]
        for cloud in f.clouds:
            if cloud.kind == "fire":
                out += [Mark(c, "≋", "#ff9040", f"Burning until turn {cloud.until}", "#602000", z=cloud.z)
                        for c in cloud.cells if sight[cloud.z][c[1], c[0]]]
        for g in f.lying:
            if g.side == side:
                trigger = self.book.explosives[g.item].trigger
                when = "goes off when a unit steps on it" if trigger == "mine" else fuses.when(
                    self, g.side, g.turn, g.item)
                out.append(Mark(g.cell, "¤" if trigger == "mine" else "•", "#ffd040",
                                f"{self.name(g.item)}, primed: {when}", z=g.z))
        out += [Mark(b.cell, "◊", "#60ff60", "Motion sensor: something moved here", z=b.z) for b in f.blips
                if b.side == side]
        out += floor.marks(self, state, sight)  # things on the ground (settings `ground_items`)
        return tuple(out)

    def ai_special(self, state: State, unit: Unit, in_sight: list[Unit], has_shot: bool) -> Command | None:
        """With no shot, an enemy it knows of next to it is struck (A-14.10), the likeliest blow on the weakest first;
        else a kit on its belt wakes a friend next to it or closes a bleeding wound (section 20); with nobody in
        sight, it closes on where its enemies fired from (stalking.py).
        Kneeling is ai_rest's and ai_chore's (kneeling.py)."""
        if has_shot or not self._mine(state, unit):
            return None
        perch = heights.perch(self, state, unit, in_sight)  # up to a firing position or a lookout, down to hunt
        if perch is not None:
            return perch
        known = {u.id for u in in_sight}
        strikes = [p for p in melee.targets(self, state, unit) if p.target.id in known and p.target.conscious]
        if strikes:
            best = min(strikes, key=lambda p: (-p.chance, p.target.hp, p.target.id))
            return Act(unit=unit.id, action="melee", target=best.target.id)
        doses = [cmd for _label, cmd in medical.options(self, state, unit) if cmd.option == "stimulant"
                 or cmd.option.startswith("bandage:")]
        dose = min(doses, key=lambda c: (c.option != "stimulant", c.target != unit.id), default=None)
        if dose is not None or in_sight:
            return dose
        return stalking.stalk(self, state, unit)  # shot at from out of sight: close in, a snap's TUs kept

    def ai_rest(self, state: State, unit: Unit, in_sight: list[Unit]) -> Command | None:
        """Kneel next to cover before ending the phase, for the kneel bonus on opportunity fire (kneeling.py)."""
        return kneeling.rest(self, state, unit, in_sight) if self._mine(state, unit) else None

    def ai_chore(self, state: State, unit: Unit, in_sight: list[Unit], stage: str) -> Command | None:
        """An empty weapon is reloaded before anything ("first"), and a unit kneeling with no shot from there stands
        up (kneeling.py); a half-empty one when nothing is in sight ("idle"), if the unit can pay for it. Then what
        lies on the ground: a weapon for the unarmed, a grenade for any (scavenge.py)."""
        up = kneeling.rise(self, state, unit, in_sight) if stage == "first" and self._mine(state, unit) else None
        if up is not None:
            return up
        g = gun(unit.record, self.book)
        need = combat.reload_price(self, unit) if g is not None and loads(self.book, unit.record, g) else None
        if need is not None and not isinstance(need, Rejected) and need.tu <= unit.record.fighter.tu_left and (
                (stage == "first" and g.rounds == 0) or (stage == "idle" and not in_sight
                                                         and g.rounds < self.book.weapons[g.id].capacity // 2)):
            return Reload(unit=unit.id)
        return scavenge.grab(self, state, unit, stage) if self._mine(state, unit) else None  # what lies on the ground
