"""A-7.6's optional spotting roll (settings `spotting_roll`, off by default as the source leaves it): an enemy in
smoke is seen only by a side one of whose units made `d100 <= Sns`; the roll is on a Noted event, and the fog of war,
shots and opportunity fire ask the one answer (spotting.py)."""

from __future__ import annotations

import attrs

from engine.core.commands import Face, Shoot
from engine.core.dice import Dice, seed_from_int
from engine.core.events import Noted, Resolved
from engine.core.reducer import fold
from engine.play.game import Game
from engine.rules.annihilation import combat
from engine.rules.annihilation.board import Cloud, Sighting, field_of
from engine.rules.annihilation.soldier import fighter_of
from test_annihilation_play import _face_off


def _smoked(content, on=True):
    """Anton 6 squares from Sectoid 1, which stands in smoke (the only one of the squad with a line to it)."""
    g = Game.new(content, "annihilation", "eliminate", seed_from_int(4), None)
    rs = g.ruleset
    state, _col = _face_off(g, sectoid_tu=0)
    g.close()
    cloud = Cloud("smoke", (state.units["sectoid_1"].pos,), state.phase, state.phase + 5)
    state = attrs.evolve(state, record=attrs.evolve(field_of(state), clouds=(cloud,)))
    rs.book = attrs.evolve(rs.book, settings=attrs.evolve(rs.book.settings, spotting_roll=on))
    return rs, state


def test_an_enemy_in_smoke_is_seen_only_once_spotted_and_the_roll_is_in_the_log(content):
    rs, state = _smoked(content)
    assert "sectoid_1" not in rs.spotted(state, "xcom")  # nobody has looked yet: unseen
    missed = rs.decide(state, Face(unit="anton", facing=1), Dice.scripted([99]))
    (note,) = [e for e in missed if isinstance(e, Noted)]
    assert note.cause == "Anton does not make out Sectoid 1 in the smoke"
    assert [(r.actor, r.purpose, r.formula) for r in note.rolls] == [("anton", "spot", "d100 99 > Sns 50 ✗")]
    after = fold(state, missed)
    assert field_of(after).sightings == (Sighting("anton", "sectoid_1", False),)
    assert "sectoid_1" not in rs.spotted(after, "xcom")  # the fog of war and the AI's in-sight list
    refused = rs.decide(after, Shoot(unit="anton", target="sectoid_1", mode="snap"), Dice.scripted([]))
    assert refused.code == "not_spotted" and rs.preview_shot(after, "anton", "sectoid_1", "snap").code == "not_spotted"
    again = rs.decide(after, Face(unit="anton", facing=2), Dice.scripted([]))  # one look a phase: no new roll
    assert not [e for e in again if isinstance(e, Noted)]
    made = rs.decide(state, Face(unit="anton", facing=1), Dice.scripted([50]))
    seen = fold(state, made)
    assert [r.formula for e in made if isinstance(e, Noted) for r in e.rolls] == ["d100 50 ≤ Sns 50 ✓"]
    assert "sectoid_1" in rs.spotted(seen, "xcom")
    assert rs.preview_shot(seen, "anton", "sectoid_1", "snap").p_hit > 0
    out = fold(seen, [Noted(record=attrs.evolve(field_of(seen), clouds=()), cause="lifts")])  # the smoke lifts
    assert "sectoid_1" in rs.spotted(out, "xcom")
    gone = rs.decide(out, Face(unit="anton", facing=3), Dice.scripted([]))
    assert field_of(fold(out, gone)).sightings == ()  # nothing left to spot: the sighting goes


def test_opportunity_fire_at_a_unit_in_smoke_needs_the_spotting_roll_first(content):
    rs, state = _smoked(content)
    sectoid = state.units["sectoid_1"]
    actor = fighter_of(sectoid)
    _f, blind = combat.react(rs, state, Dice.scripted([99]), sectoid, actor, sectoid.pos, "walking")
    assert [type(e).__name__ for e in blind] == ["Noted"] and blind[0].rolls[0].formula == "d100 99 > Sns 50 ✗"
    _f, shots = combat.react(rs, state, Dice.scripted([7, 99]), sectoid, actor, sectoid.pos, "walking")
    assert [type(e).__name__ for e in shots] == ["Noted", "Resolved", "UnitChanged"]
    assert shots[0].cause == "Anton spots Sectoid 1 in the smoke" and shots[1].action == "reaction fire"
    assert shots[1].rolls[0].faces == (99,) and shots[1].outcome == "miss"


def test_with_the_rule_off_smoke_hides_nobody_and_nothing_is_rolled(content):
    rs, state = _smoked(content, on=False)
    assert "sectoid_1" in rs.spotted(state, "xcom")
    events = rs.decide(state, Face(unit="anton", facing=1), Dice.scripted([]))
    assert not [e for e in events if isinstance(e, Noted)]
    sectoid = state.units["sectoid_1"]
    _f, shots = combat.react(rs, state, Dice.scripted([99]), sectoid, fighter_of(sectoid), sectoid.pos, "walking")
    assert [type(e).__name__ for e in shots] == ["Resolved", "UnitChanged"]
    assert isinstance(shots[0], Resolved) and shots[0].rolls[0].faces == (99,)


def test_the_shipped_settings_leave_the_optional_roll_off(content):
    from engine.rules.annihilation.book import Book

    own = {k: v for k, v in content.rules["annihilation"].items()
           if k not in ("units", "forces", "ground", "difficulty", "campaign")}
    assert Book.of(own).settings.spotting_roll is False


def test_the_map_does_not_draw_an_enemy_in_smoke_nobody_made_out(content):
    import numpy as np

    from tui import scene

    rs, state = _smoked(content)
    x, y = state.units["sectoid_1"].pos
    every = np.ones((state.grid.height, state.grid.width), dtype=bool)
    for spotted, drawn in ((rs.spotted(state, "xcom"), False), (None, True)):
        frame = scene.draw(scene.Palette(content), state, "xcom", every, every, {}, scene.Overlay(), spotted=spotted)
        assert (chr(frame.console.ch[y, x]) == state.units["sectoid_1"].glyph) is drawn


def test_senses_count_the_unit_whose_own_roll_spotted_the_enemy_in_smoke(content):
    """A-6.1 Sns, "the first on its side to spot an enemy": with the spotting roll on, a line of sight is not a
    sighting. Anton turns and fails his roll; Julia, beside him, makes hers: the use is Julia's, not the actor's."""
    from engine.rules.annihilation import clouds

    rs, state = _smoked(content)
    anton, sectoid = state.units["anton"], state.units["sectoid_1"]
    beside = next(c for c in state.grid.neighbours(anton.pos) if state.grid.walkable[c[1], c[0]]
                  and not state.units_at(c) and clouds.sees(rs, state, c, sectoid.pos, 0, 0))
    state = attrs.evolve(state, units={**state.units, "julia": attrs.evolve(state.units["julia"], pos=beside, z=0)})
    events = rs.decide(state, Face(unit="anton", facing=1), Dice.scripted([99, 1]))
    (note,) = [e for e in events if isinstance(e, Noted)]
    assert note.cause == "Anton does not make out Sectoid 1 in the smoke; Julia spots Sectoid 1 in the smoke"
    uses = {e.unit: e.cause for e in events if getattr(e, "cause", "").startswith("uses (A-6.1)")}
    assert "first to spot" in uses.get("julia", "") and "first to spot" not in uses.get("anton", "")
