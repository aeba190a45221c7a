"""neo-troops at the start of a mission: who is surprised (N-7.2, `settings.toml` `ambush`), what a difficulty level
does to the enemies (`hardship.toml`), and the log written before either re-deciding as it was written."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from engine.content import loader
from engine.core.commands import StartMission
from engine.core.dice import Dice, seed_from_int
from engine.play.game import Game
from engine.rules.neo_troops import battle

ID = "neo-troops"
FIXTURES = Path(__file__).parent / "fixtures" / "logs"


def _start(content, mission: str, ambush: dict | None = None):
    """The mission's ruleset and its start decided on scripted dice: every varan rolls 1 and every enemy 6 for
    initiative, each tie picks the first still tied."""
    game = Game.new(content, ID, mission, seed_from_int(1), None, public=1)
    rs, before = game.ruleset, game.history[0].state
    if ambush is not None:
        rs.settings = attrs.evolve(rs.settings, ambush=ambush)
    squad = [m for m in rs.roster(mission) if m.side == "xcom"]
    enemies = [m for m in rs.roster(mission) if m.side == "aliens"]
    by_av: dict[tuple[int, int], int] = {}
    for m in squad + enemies:
        key = (1 if m.side == "xcom" else 6, rs.characters[m.template].av)
        by_av[key] = by_av.get(key, 0) + 1
    ties = sum(n - 1 for n in by_av.values())
    faces = [1] * len(squad) + [6] * len(enemies) + [1] * ties
    dice = Dice.scripted(faces)
    events = rs.decide(before, StartMission(), dice)
    assert dice.scripted_left == 0
    return events, [m.uid for m in squad], [m.uid for m in enemies]


def _order(events):
    return next(e.record.order for e in events if isinstance(getattr(e, "record", None), battle.Battle))


def test_the_guards_of_an_ambushed_mission_start_surprised_and_act_last_in_the_first_cycle(content):
    events, squad, enemies = _start(content, "infiltrate")
    o = _order(events)
    # the enemies rolled 6 and the varans 1, but no guard sees a (cloaked) varan: all are surprised
    assert set(o.slots[:len(squad)]) == set(squad) and set(o.slots[len(squad):]) == set(enemies)
    assert set(o.later[:len(enemies)]) == set(enemies) and set(o.later[len(enemies):]) == set(squad)  # cycle 2 on
    start = next(e for e in events if getattr(e, "cause", "").startswith("initiative"))
    assert start.cause == "initiative (an ambush: the surprised act last this cycle)"
    assert events[-1].unit == o.slots[0] and o.slots[0] in squad  # a varan's slot is up first


def test_a_mission_without_an_ambush_surprises_nobody(content):
    events, squad, enemies = _start(content, "eliminate")
    o = _order(events)
    assert o.slots == o.later and set(o.slots[:len(enemies)]) == set(enemies)
    assert next(e for e in events if getattr(e, "cause", "").startswith("initiative")).cause == "initiative"


def test_a_guard_that_sees_an_uncloaked_enemy_as_it_deploys_is_not_surprised(content):
    game = Game.new(content, ID, "infiltrate", seed_from_int(1), None, public=1)
    rs = game.ruleset
    state = game.state
    goon = next(u for u in state.units.values() if u.side == "aliens")
    varan = next(u for u in state.units.values() if u.side == "xcom")
    cell = next((goon.pos[0] + dx, goon.pos[1]) for dx in (1, -1, 2, -2)
                if state.grid.inside((goon.pos[0] + dx, goon.pos[1]))
                and state.grid.sees(goon.pos, (goon.pos[0] + dx, goon.pos[1]), battle.SIGHT)
                and not state.units_at((goon.pos[0] + dx, goon.pos[1])))
    near = attrs.evolve(varan, pos=cell)
    seen = attrs.evolve(state, units={**state.units, varan.id: attrs.evolve(near, record=attrs.evolve(
        varan.record, cloak="damaged"))})
    assert goon.id not in rs._surprised(seen)
    cloaked = attrs.evolve(state, units={**state.units, varan.id: near})
    assert goon.id in rs._surprised(cloaked)  # the cloak hides it: nobody has noticed it yet


def test_the_level_scales_the_enemies_and_adds_their_skills(content):
    rs = Game.new(content, ID, "eliminate", seed_from_int(1), None, public=1).ruleset
    levels = rs.tables["hardship"]
    base = rs.tables["forces"]["eliminate"].enemies
    for level, h in levels.items():
        game = Game.new(content, ID, f"eliminate@{level}", seed_from_int(1), None, public=1)
        got: dict[str, int] = {}
        for u in game.state.units.values():
            if u.side == "aliens":
                got[u.template] = got.get(u.template, 0) + 1
                c = rs.characters[u.template]
                assert (u.record.accuracy, u.record.fighter, u.record.perception) == (
                    max(0, c.accuracy + h.accuracy), max(0, c.fighter + h.fighter), max(0, c.perception + h.perception))
            elif u.side == "xcom":
                c = rs.characters[u.template]
                assert (u.record.accuracy, u.record.perception) == (c.accuracy, c.perception)
        assert got == {k: max(1, (2 * n * h.enemies_percent + 100) // 200) for k, n in base.items()}, level


def test_the_levels_are_not_all_alike(content):
    levels = loader.load().rules[ID]["hardship"]
    assert len({attrs.astuple(h) for h in levels.values()}) == len(levels) == 4


def test_mistakes_in_the_new_tables_are_one_located_line_each(tmp_path):
    import shutil

    folder = tmp_path / "content"
    shutil.copytree(loader.default_dir(), folder)
    own = folder / "neo-troops"
    (own / "hardship.toml").write_text((own / "hardship.toml").read_text().replace("[easy]", "[easyy]"))
    settings = (own / "settings.toml").read_text().replace('infiltrate = "aliens"', 'infiltrat = "goons"')
    (own / "settings.toml").write_text(settings)
    with pytest.raises(loader.ContentError) as got:
        loader.load(folder)
    assert sorted(got.value.messages) == [
        "neo-troops/hardship.toml: [easyy]: no such level in difficulty.toml",
        "neo-troops/settings.toml: [default].ambush: 'infiltrat': expected the side 'xcom' or 'aliens', got 'goons'",
        "neo-troops/settings.toml: [default].ambush: no such mission 'infiltrat' in missions/ (did you mean "
        "'infiltrate'?)"]
    shutil.rmtree(folder)
    shutil.copytree(loader.default_dir(), folder)
    (own / "hardship.toml").write_text("[normal]\nenemies_percent = 0\naccuracy = 4\n")
    with pytest.raises(loader.ContentError) as got:
        loader.load(folder)
    assert got.value.messages == ["neo-troops/hardship.toml: [normal]: enemies_percent is 1 to 1000 and the skills "
                                  "-3 to 3"]


def test_a_bundle_from_before_the_ambush_and_the_levels_starts_as_it_did(content):
    """The content of the released neo-troops log (no hardship.toml, no `ambush`): the goons are
    not surprised on terror and every level deploys the forces.toml numbers. (That log itself no longer re-decides on main:
    its units' records lack `searched`, a field added since; not this change's doing.)"""
    old = loader.load(FIXTURES / "v3-content")
    assert "hardship" not in old.rules[ID] or not old.rules[ID]["hardship"]
    for mission in ("terror", "eliminate@veteran"):
        game = Game.new(old, ID, mission, seed_from_int(1), None, public=1)
        o = battle.battle(game.state).order
        assert o.slots == o.later
        enemies = sum(u.side == "aliens" for u in game.state.units.values())
        assert enemies == sum(old.rules[ID]["forces"][mission.split("@")[0]].enemies.values())
