"""The vibro-spear in hand: the roster's lancer varan type holds it first (a loadout option), and its reach 2 gives a
superior position against a reach-1 foe (N-15.4, TV-N12) in `resolve` and in play, through the same `decide`."""

from __future__ import annotations

from pathlib import Path

import attrs

from cli_run import run
from engine.core.commands import Act
from engine.core.dice import Dice, seed_from_int
from engine.core.model import replace
from engine.core.reducer import fold
from engine.play import roster
from engine.play.game import Game
from engine.rules.neo_troops import battle, order

DOCS = Path(__file__).resolve().parent.parent / "docs" / "scenarios" / "neo-troops"


def test_a_spear_thrust_has_the_superior_position_of_its_reach(capsys):
    code, out, err = run(["resolve", str(DOCS / "spear.toml"), "--dice", "3,1,4,2"], capsys)
    assert (code, err) == (0, "")
    # 1 attack + Fighter 2 + superior 1 (reach 2 > 1); the goon's Fighter 0 takes nothing off: 4 dice, best 4 ≥ AV 4
    assert "melee n=1+2 fighter+1 superior=4: 4d6 [3 1 4 2] best 4 vs AV 4: hit" in out
    assert "Lancer varan strikes Goon (Vibro-spear): 1 hit, 1 unsaved (HP 1→0, dead)" in out


def test_the_roster_offers_the_lancer_holding_the_spear(content):
    rules = roster.creation(content, "neo-troops")
    form = rules.form(rules.draft({"type": "lancer"}))
    types = dict(form.choices[0].options)
    assert types["lancer"] == "Lancer varan"
    assert form.choices[1].id == "held" and form.choices[1].value == "vibro_spear" and dict(form.choices[1].options) == {"vibro_spear": "Vibro-spear",
                                                                                "pistol": "Pistol"}


def test_a_roster_lancer_strikes_with_the_spear_in_play(content):
    draft = attrs.evolve(roster.creation(content, "neo-troops").draft({"type": "lancer"}), name="Vera")
    vera = roster.create(content, "neo-troops", draft, Dice.scripted([]))[0]
    game = Game.new(content, "neo-troops", "eliminate", seed_from_int(2), None, squad=[vera])
    state = game.state
    me = state.units["roster_vera"]
    assert me.record.held == ("vibro_spear",)
    goon = next(u for u in state.units.values() if u.template == "goon")
    cell = next((me.pos[0] + dx, me.pos[1] + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1))
                if state.grid.walkable[me.pos[1] + dy, me.pos[0] + dx] and not state.units_at(
                    (me.pos[0] + dx, me.pos[1] + dy)))
    b = battle.battle(state)
    slots = (me.id, goon.id)
    state = attrs.evolve(state, units={**state.units, goon.id: replace(goon, {"pos": cell})},
                         record=attrs.evolve(b, order=order.Order(slots=slots, later=slots),
                                             noticed=tuple(sorted({*b.noticed, (goon.id, me.id)}))))
    events = game.ruleset.decide(state, Act(unit=me.id, action="melee", target=goon.id), Dice.scripted([4, 3, 2, 1]))
    struck = next(e for e in events if getattr(e, "action", "") == "melee")
    # Vera: 1 attack + Fighter 2 + superior 1 (reach 2 > the goon's 1) − the goon's Fighter 0 = 4 dice
    assert struck.rolls[0].formula == "melee n=1+2 fighter+1 superior=4: 4d6 [4 3 2 1] best 4 vs AV 4: hit"
    assert fold(state, events).units[goon.id].status == "dead"
