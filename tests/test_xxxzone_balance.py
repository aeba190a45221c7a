"""xxxzone's difficulty levels (settings `level_forces`): difficulty.toml's `enemies_percent` scales forces.toml's
aliens and its `alien_stats` are added to their attributes; content written before keeps the forces as they were."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from engine.content import loader, missions
from engine.core.dice import seed_from_int
from engine.core.ruleset import make
from engine.play.game import Game

OLD = Path(__file__).parent / "fixtures" / "logs" / "v3-content"


def _aliens(rs, mission_id: str) -> Counter:
    return Counter(m.template for m in rs.roster(mission_id) if m.side == missions.ALIENS)


def test_a_level_scales_the_aliens_of_forces_toml(content):
    rs = make("xxxzone", content, None)
    assert _aliens(rs, "eliminate") == {"zhetan": 2, "hover_drone": 2, "boorus": 1}  # normal: as written
    assert _aliens(rs, "eliminate@easy") == {"zhetan": 2, "hover_drone": 2, "boorus": 1}  # 75%: 1.5 rounds up
    assert _aliens(rs, "eliminate@veteran") == {"zhetan": 2, "hover_drone": 2, "boorus": 1}  # 115%: 2.3 is 2
    assert _aliens(rs, "eliminate@impossible") == {"zhetan": 3, "hover_drone": 3, "boorus": 2}  # 150%: halves up
    assert _aliens(rs, "crash@easy") == {"zhetan": 2, "hover_drone": 2, "boorus": 2}  # 3 drones: 2.25 is 2
    squad = [m.template for m in rs.roster("eliminate@impossible") if m.side == missions.PLAYER]
    assert squad == [m.template for m in rs.roster("eliminate") if m.side == missions.PLAYER]  # the squad stays


def test_a_level_adds_its_alien_stats_to_the_aliens_only(content):
    def attributes(level: str) -> dict[str, dict[str, int]]:
        game = Game.new(content, "xxxzone", f"eliminate@{level}", seed_from_int(1), None)
        return {u.id: u.record.op.attributes.as_dict() for u in game.state.units.values()}

    normal, easy, hard = attributes("normal"), attributes("easy"), attributes("impossible")
    assert normal["zhetan_1"]["agility"] == 4 and normal["zhetan_1"]["strength"] == 7
    assert easy["zhetan_1"]["agility"] == 3 and easy["zhetan_1"]["strength"] == 6  # easy: Agi -1, Str -1
    assert hard["zhetan_3"]["agility"] == 5 and hard["zhetan_3"]["strength"] == 8  # impossible: +1 each, Luck too
    assert hard["zhetan_3"]["luck"] == normal["zhetan_1"]["luck"] + 1
    assert easy["johnny"] == normal["johnny"] == hard["johnny"]  # the squad is never changed


def test_older_content_keeps_its_forces_at_every_level():
    old = loader.load(OLD)
    rs = make("xxxzone", old, None)
    assert rs.level("eliminate@impossible") is None
    assert _aliens(rs, "eliminate@impossible") == _aliens(rs, "eliminate")
