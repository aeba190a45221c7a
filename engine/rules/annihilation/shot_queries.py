"""What the client and the AI ask of annihilation about a shot: the weapon's firing modes in their order, with the
sights that help (A-14.7), and the targeting panel's exact odds of every mode at once (issue 12)."""

from __future__ import annotations

import attrs

from engine.core.commands import Rejected
from engine.core.model import State, Unit
from engine.core.ruleset import Mode, Row, ShotPreview
from engine.rules.annihilation import actions, fire, hits, sights
from engine.rules.annihilation.combat import shot_cost
from engine.rules.annihilation.inventory import harnessed
from engine.rules.annihilation.soldier import fighter_of, gun
from engine.rules.annihilation.space import between, facing_towards

DEFAULT_MODES = ("snap", "aimed", "burst", "auto")  # the order the modes are offered in, the default first


class ShotQueries:
    """Methods of the ruleset (`play.Annihilation` through `queries.Queries`): `self` is the ruleset."""

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
