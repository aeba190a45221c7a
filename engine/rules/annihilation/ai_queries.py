"""What the AI asks of annihilation beyond a walk or a shot: a special action (a perch, a blow, a dose, a stalk),
kneeling to rest, and its chores (reloads, standing up, what lies on the ground)."""

from __future__ import annotations

from engine.core.commands import Act, Command, Rejected, Reload
from engine.core.model import State, Unit
from engine.rules.annihilation import combat, heights, kneeling, medical, melee, scavenge, stalking
from engine.rules.annihilation.soldier import gun, loads


class AiQueries:
    """Methods of the ruleset (`play.Annihilation` through `queries.Queries`): `self` is the ruleset."""

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
