"""The rule book: the ruleset's tables as one value, and its formulas evaluated the way this ruleset rounds.

All divisions and percentages of annihilation round down (A-0). `Formula.evaluate` rounds half up (xcom-trpg 1.2),
so the exact value of the parsed formula is taken and floored once, at the end, as the spec's worked examples do
(`floor(0.20 × (40 + 45))`, `floor(1 × 30 × 1/4)`).
"""

from __future__ import annotations


import attrs

from engine.content import formula
from engine.content.tables import Tables
from engine.core.dice import Dice, Roll
from engine.rules.annihilation import schema as s


_VALUES: dict[tuple, int] = {}  # Book.value's answers: a formula's value is its text's on the same numbers


@attrs.frozen(kw_only=True)
class Book:
    settings: s.Settings
    levels: dict[str, s.Level]
    skills: dict[str, s.Skill]
    ranks: dict[str, s.Rank]
    costs: dict[str, s.Cost]
    terrain: dict[str, s.Terrain]
    body: dict[str, s.BodyPart]
    modes: dict[str, s.Mode]
    classes: dict[str, s.WeaponClass]
    weapons: dict[str, s.Weapon]
    ammo: dict[str, s.Ammo]
    explosives: dict[str, s.Explosive]
    blasts: dict[str, s.BlastSize]
    armour: dict[str, s.Armour]
    items: dict[str, s.Item]
    races: dict[str, s.Race]
    uses: dict[str, s.Use]

    @classmethod
    def of(cls, tables: Tables, settings: str = "standard") -> "Book":
        return cls(settings=tables["settings"][settings],
                   **{k: v for k, v in tables.items() if k != "settings"})

    def value(self, name: str, **env: int) -> int:
        """A settings formula without dice, rounded down once; kept by the formula's text and the numbers (the
        same few formulas on the same numbers, every step of every walk)."""
        key = (getattr(self.settings, name).text, *env.items())
        found = _VALUES.get(key)
        if found is None:
            if len(_VALUES) > 4096:  # bounded: a campaign meets many characters
                _VALUES.clear()
            found = _VALUES[key] = self.evaluate(name, env)[0]
        return found

    def evaluate(self, name: str, env: dict[str, int], roll=None) -> tuple[int, str, list[int]]:
        """Value, the formula with numbers filled in, and the faces rolled."""
        f: formula.Formula = getattr(self.settings, name)
        return f.evaluate(env, roll, rounding="down")  # exact to the end, then floored: this ruleset rounds down

    def roll(self, name: str, dice: Dice, actor: str, purpose: str, **env: int) -> Roll:
        """A settings formula with dice (`7d10 + 10`), as one Roll: `7d10+10: 3+7+10+1+5+8+2+10=46`."""
        first: list[int] = []

        def face(sides: int) -> int:
            got, index = dice.d(sides, actor, purpose)
            if not first:
                first.append(index)
            return got
        f: formula.Formula = getattr(self.settings, name)
        total, shown, faces = self.evaluate(name, env, face)
        return Roll(actor=actor, purpose=purpose, expr=f.text.replace(" ", ""), faces=tuple(faces),
                    formula=shown, total=total, index=first[0] if first else 0)

    def cost(self, key: str, tu_turn: int) -> int:
        """What a costs.toml entry costs this turn: fixed TU, a share of `tu_turn` (A-8.2), or, for a task of full
        turns (the harness, A-12.3), the whole allowance of each of them."""
        c = self.costs[key]
        if c.percent:
            return percent_cost(self.settings, tu_turn, c.percent) + c.tu
        if c.turns:
            return tu_turn
        return c.tu


def percent_cost(settings: s.Settings, tu_turn: int, percent: int) -> int:
    """A-8.2: `max(1, floor(TU_turn × p / 100))`, taken of the turn's allowance."""
    return max(settings.percent_cost_minimum, tu_turn * percent // 100)
