"""The loadout before a mission (engine.core.loadout, a/outfit.py): a roster recruit's chosen flying armour is in
the log's header with the squad, it flies in play, and the log verifies; the place's own kit writes no outfit."""

from __future__ import annotations

import attrs

from engine.core.commands import Move
from engine.core.dice import Dice, seed_from_int
from engine.core.ruleset import make
from engine.map import levels
from engine.play import roster
from engine.play.game import Game
from engine.play.verify import verify

ID = "annihilation"


def _kurt(content):
    draft = attrs.evolve(roster.creation(content, ID).draft(), name="Kurt")
    faces = [f for i in range(14) for f in [(i % 10) + 1] + [1] * 6]
    return roster.create(content, ID, draft, Dice.scripted(faces))[0]


def test_a_chosen_flying_armour_is_in_the_header_flies_in_play_and_the_log_verifies(content, tmp_path):
    out = make(ID, content, None).loadout()
    kurt = _kurt(content)
    assert out.choose("crash", 0, kurt.record, "armour", "light_body_armor").outfit is None  # the place's own
    flying = out.choose("crash", 0, kurt.record, "armour", "light_flying_armor")
    assert flying.outfit.armour == "light_flying_armor"
    assert out.summary("crash", 0, flying)[-1] == "Boxes 11 (armour 4) − relief 9 = ENC 2: TU 17 → 15 a turn " \
                                                  "(A-8.1, A-12.7)"
    path = tmp_path / "fly.jsonl"
    game = Game.new(content, ID, "crash", seed_from_int(1), path, squad=[roster.Character(ID, flying)])
    assert game.header["mission"]["squad"][0]["outfit"]["armour"] == "light_flying_armor"
    unit = game.state.units["roster_kurt"]
    assert unit.record.fighter.character.armour == "light_flying_armor"
    assert levels.sky(game.state.grid, 0, 1)[unit.pos[1], unit.pos[0]]
    moved = game.submit(Move(unit="roster_kurt", path=(unit.pos,), levels=(1,)))
    assert not hasattr(moved, "code"), moved
    assert game.state.units["roster_kurt"].z == 1  # hovering a storey up
    game.close()
    assert verify(content, path).failure is None


def test_a_count_below_none_a_harness_cannon_and_a_bandage_sight_are_refused(content):
    out = make(ID, content, None).loadout()
    kurt = _kurt(content).record
    assert out.choose("crash", 0, kurt, "smoke_grenade", "-") == "No Smoke Grenade to take off"
    pistol = out.choose("crash", 0, kurt, "weapon", "pistol_9mm")
    assert pistol.outfit.weapon == "pistol_9mm" and pistol.outfit.clips == 2
    assert out.choose("crash", 0, pistol, "sights", "laser_sight").outfit.sights == ["laser_sight"]
    assert out.choose("crash", 0, kurt, "weapon", "thunder_hc").startswith("'thunder_hc': not a hand weapon")
    assert out.choose("crash", 0, kurt, "sights", "bandages").startswith("'bandages': no sight that fits")
    assert make("xcom-trpg", content, None).loadout() is None
