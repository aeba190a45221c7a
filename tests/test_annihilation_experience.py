"""annihilation's experience by use in play (A-6.1), ranks (A-5) and the roster that keeps them: each use counted on
the unit in the log, the end-of-mission improvement rolls on scripted dice (TV-A37's numbers in play), the
Rookie's promotion, the quotas after a mission (TV-A38) and the record a campaign keeps, round trip."""

from __future__ import annotations

import attrs
import pytest

from engine.core.commands import EndTurn, Move, Shoot
from engine.core.dice import Dice, seed_from_int
from engine.core.events import MissionEnded, Resolved, UnitChanged
from engine.core.reducer import fold
from engine.play import roster
from engine.play.game import Game
from engine.rules.annihilation import practice
from engine.rules.annihilation.experience import Tally
from engine.rules.annihilation.fighter import Part

ID = "annihilation"


def _recruit(content, name="Kurt", **levels):
    rules = roster.creation(content, ID)
    draft = attrs.evolve(rules.draft(), name=name)
    for skill, level in levels.items():
        draft = draft.set(skill, level)
    faces = [f for i in range(14) for f in [(i % 10) + 1] + [1] * 6]  # stat i: 7d10 = (i%10 + 1) + 6, + 10
    return roster.create(content, ID, draft, Dice.scripted(faces))[0]


def _unit(state, uid, **fighter):
    u = state.units[uid]
    return attrs.evolve(u, record=attrs.evolve(u.record, fighter=attrs.evolve(u.record.fighter, **fighter)))


def _with(state, *units):
    return attrs.evolve(state, units={**state.units, **{u.id: u for u in units}})


@pytest.fixture
def game(content):
    g = Game.new(content, ID, "eliminate", seed_from_int(4), None)
    s = g.state
    quiet = [_unit(s, u.id, tu_left=0) for u in s.side_units("aliens")]  # nobody reacts
    x, y = s.units["anton"].pos
    g.near = _with(s, *quiet, attrs.evolve(quiet[0], pos=(x, y - 2)))  # sectoid_1, two squares north of Anton
    return g


def _tally(state, uid) -> Tally:
    return state.units[uid].record.tally


def test_a_firing_action_counts_acc_and_its_family_and_a_hit_on_an_enemy(game):
    rs, s = game.ruleset, game.near
    events = rs.decide(s, Shoot(unit="anton", target="sectoid_1", mode="snap"), Dice.scripted([1, 10, 1, 1, 1]))
    use = events[-1]
    assert isinstance(use, UnitChanged) and use.unit == "anton"
    assert use.cause == "uses (A-6.1): fire (rifles), 1 hit on an enemy"
    t = _tally(fold(s, events), "anton")
    assert t.stats.accuracy == 1 and t.skills == (("rifles", 1),) and t.hits == 1 and t.downed == 0
    assert sum(t.stats.env().values()) == 1  # one use of one stat: a firing action, not each bullet


def test_a_miss_still_counts_a_use_but_no_hit_and_an_enemy_put_down_counts_as_downed(game):
    rs, s = game.ruleset, game.near
    missed = fold(s, rs.decide(s, Shoot(unit="anton", target="sectoid_1", mode="snap"), Dice.scripted([100])))
    assert _tally(missed, "anton").stats.accuracy == 1 and _tally(missed, "anton").hits == 0
    frail = _with(s, _unit(s, "sectoid_1", health=1))
    after = fold(frail, rs.decide(frail, Shoot(unit="anton", target="sectoid_1", mode="snap"),
                                  Dice.scripted([1, 10, 1, 1, 1])))
    assert after.units["sectoid_1"].status != "active"
    assert _tally(after, "anton").hits == 1 and _tally(after, "anton").downed == 1


def test_an_opportunity_shot_counts_rct_and_acc_for_the_reactor_and_a_wound_counts_brv(game):
    rs, s = game.ruleset, game.near
    anton = s.units["anton"]
    fire = Resolved(actor="anton", action="reaction fire", target="sectoid_1", weapon=anton.record.kit[0].id,
                    mode="snap", rolls=(), outcome="miss", text="")
    hurt = _unit(s, "anton", wounds=(("torso", Part(open=2, total=2)),))
    wound = UnitChanged(unit="anton", changes={"record": hurt.record}, cause="hit")
    events = practice.counted(rs, s, Move(unit="sectoid_1", path=()), [fire, wound])
    assert events[0].cause == "uses (A-6.1): fire (rifles), reaction shot, wounded, wounded"
    t = _tally(fold(s, [fire, wound] + events), "anton")
    assert (t.stats.reactions, t.stats.accuracy, t.stats.bravery, t.skills) == (1, 1, 2, (("rifles", 1),))


def test_the_end_of_the_squads_phase_counts_a_hard_march_and_a_bleeding_turn(game):
    rs, s = game.ruleset, game.near
    f = s.units["anton"].record.fighter
    half = (f.tu_turn + 1) // 2
    marched = attrs.evolve(s.units["anton"], record=attrs.evolve(
        s.units["anton"].record, tally=Tally(marched=half, march_phase=s.phase),
        fighter=attrs.evolve(f, wounds=(("left_leg", Part(open=1, total=1)),))))
    julia = s.units["julia"].record
    short = attrs.evolve(s.units["julia"], record=attrs.evolve(
        julia, tally=Tally(marched=(julia.fighter.tu_turn + 1) // 2 - 1, march_phase=s.phase)))
    s = _with(s, marched, short)
    after = fold(s, rs.decide(s, EndTurn(side="xcom"), Dice.scripted([])))
    t = _tally(after, "anton")
    assert (t.stats.time_units, t.stats.stamina, t.stats.health) == (1, 1, 1)
    assert _tally(after, "julia").stats.time_units == 0  # under half its allowance on movement


def test_a_walk_keeps_the_tu_it_spent_for_the_hard_march(game):
    rs, s = game.ruleset, game.near
    x, y = s.units["julia"].pos
    cell = next(c for c in ((x + 1, y), (x - 1, y), (x, y + 1)) if s.grid.walkable[c[1], c[0]]
                and not s.units_at(c))
    events = rs.decide(s, Move(unit="julia", path=(cell,)), Dice.scripted([]))
    after = fold(s, events)
    spent = s.units["julia"].record.fighter.tu_left - after.units["julia"].record.fighter.tu_left
    assert spent > 0 and _tally(after, "julia").marched == spent and _tally(after, "julia").march_phase == s.phase
    assert events[-1].cause == f"uses (A-6.1): {spent} TU moved this phase"


def test_tv_a37_in_play_the_mission_ends_with_the_improvement_rolls_and_a_rookie_made_squaddie(game):
    """Acc 62 used 23 times: two rolls, 71 (> 62 → 63) and 40 (≤ 63, no change), 3 uses carried over."""
    rs, s = game.ruleset, game.near
    u = s.units["anton"]
    c = attrs.evolve(u.record.fighter.character, stats=attrs.evolve(u.record.fighter.character.stats, accuracy=62))
    uses = attrs.evolve(Tally().stats, accuracy=23)
    anton = attrs.evolve(u, record=attrs.evolve(u.record, tally=Tally(stats=uses, downed=2),
                                                 fighter=attrs.evolve(u.record.fighter, character=c)))
    others = [attrs.evolve(x, status="dead", record=attrs.evolve(x.record, fighter=attrs.evolve(
        x.record.fighter, status="dead"))) for x in s.side_units("xcom") if x.id != "anton"]
    s = _with(s, anton, *others)
    out = practice.debrief(rs, s, [], Dice.scripted([71, 40]))
    assert len(out) == 1 and out[0].unit == "anton"  # the dead roll nothing
    assert [r.formula for r in out[0].rolls] == ["d100 71 > 62 → 63", "d100 40 ≤ 63, no change"]
    assert out[0].cause == "after the mission (A-6.1): 2 improvement rolls; Acc 62 → 63, Rookie → Squaddie"
    kept = fold(s, out).units["anton"].record.fighter.character
    assert (kept.stats.accuracy, kept.uses.accuracy, kept.rank, kept.missions, kept.kills) == (63, 3, "squaddie", 1, 2)


def test_the_verdict_comes_after_the_debrief_in_one_command(game):
    rs, s = game.ruleset, game.near
    dead = [_unit(s, u.id, status="dead", health=-99) for u in s.side_units("aliens") if u.id != "sectoid_1"]
    s = _with(s, *[attrs.evolve(u, status="dead") for u in dead], _unit(s, "sectoid_1", health=1))
    events = rs.decide(s, Shoot(unit="anton", target="sectoid_1", mode="snap"), Dice.scripted([1, 10, 1, 1, 1]))
    assert isinstance(events[-1], MissionEnded) and events[-1].winner == "xcom"
    debriefs = [e for e in events if isinstance(e, UnitChanged) and e.cause.startswith("after the mission")]
    assert len(debriefs) == 6 and not any(e.rolls for e in debriefs)  # no stat has 10 uses yet
    anton = fold(s, events).units["anton"].record.fighter.character
    assert (anton.rank, anton.missions, anton.kills, anton.uses.accuracy) == ("squaddie", 1, 1, 1)  # hit an enemy
    julia = fold(s, events).units["julia"].record.fighter.character
    assert (julia.rank, julia.missions) == ("rookie", 1)  # neither a hit nor a passed roll


def test_a_roster_character_deploys_as_kept_and_comes_back_improved_then_the_quotas_promote(content, tmp_path):
    kurt = _recruit(content, "Kurt", medic=2)
    assert kurt.record.skills["medic"] == 30 and kurt.record.skills["rifles"] == 30  # bought, and the baseline
    veterans = [roster.Character(ID, attrs.evolve(_recruit(content, f"Vet {n}").record, rank="squaddie",
                                                   missions=i)) for i, n in enumerate("abcd")]
    kurt = roster.Character(ID, attrs.evolve(kurt.record, uses={"accuracy": 8}, rank="squaddie", missions=5))
    game = Game.new(content, ID, "eliminate", seed_from_int(2), None, squad=[kurt])
    unit = game.state.units["roster_kurt"]
    c = unit.record.fighter.character
    assert (c.skill("medic"), c.rank, c.missions, c.uses.accuracy) == (30, "squaddie", 5, 8)
    improved = attrs.evolve(c, stats=attrs.evolve(c.stats, accuracy=c.stats.accuracy + 1), missions=6)
    end = _with(game.state, attrs.evolve(unit, record=attrs.evolve(unit.record, fighter=attrs.evolve(
        unit.record.fighter, character=improved))))
    after, rolls = roster.debrief(content, ID, [kurt, *veterans], end, Dice.scripted([]))
    assert rolls == ()  # five living: one Sergeant's place (TV-A38's floor(N/5)), Kurt has the most missions
    assert [(ch.name, ch.record.rank) for ch in after] == [("Kurt", "sergeant")] + [
        (f"Vet {n}", "squaddie") for n in "abcd"]
    assert after[0].record.stats["accuracy"] == kurt.record.stats["accuracy"] + 1 and after[0].record.missions == 6
    path = tmp_path / roster.FILE
    roster.save(path, after)
    assert roster.load(path, content) == after  # what a campaign keeps reads back as written
    fallen = _with(end, attrs.evolve(end.units["roster_kurt"], status="dead"))
    gone, _ = roster.debrief(content, ID, [kurt, *veterans], fallen, Dice.scripted([]))
    assert [ch.name for ch in gone] == [f"Vet {n}" for n in "abcd"]  # the dead leave the roster


def test_an_older_roster_record_without_skills_deploys_with_the_military_baseline(content):
    kurt = _recruit(content)
    old = roster.Character(ID, attrs.evolve(kurt.record, skills={}))
    game = Game.new(content, ID, "eliminate", seed_from_int(2), None, squad=[old])
    c = game.state.units["roster_kurt"].record.fighter.character
    assert c.skill("rifles") == 30 and c.skill("plasma") == 10 and c.skill("fusion") == 0 and c.rank == "rookie"


@pytest.mark.slow
def test_a_mission_played_with_roster_characters_updates_the_roster_and_its_log_verifies(content, tmp_path):
    from engine.play.simulate import play_out
    from engine.play.verify import verify
    from tui import squad

    kurt, ed = _recruit(content, "Kurt"), _recruit(content, "Ed")
    roster.save(tmp_path / roster.FILE, [kurt, ed])
    path = tmp_path / "m.jsonl"
    game = Game.new(content, ID, "eliminate", seed_from_int(3), path, squad=[kurt, ed])
    play_out(game)
    state, header = game.state, game.header
    game.close()
    assert verify(content, path).failure is None
    lines = squad.debrief(content, tmp_path, header, state)
    after = roster.load(tmp_path / roster.FILE, content)
    for ch, uid in ((kurt, "roster_kurt"), (ed, "roster_ed")):
        unit = state.units[uid]
        kept = next((c for c in after if c.name == ch.name), None)
        if unit.status == "dead":
            assert kept is None and f"  {ch.name}: fallen, off the roster" in lines
            continue
        c = unit.record.fighter.character
        assert kept.record.missions == 1 and kept.record.stats == c.stats.env() and kept.record.rank == c.rank
        assert kept.record.uses == {k: v for k, v in c.uses.env().items() if v}
    assert lines[1] == "Roster after the mission:"
    assert squad.debrief(content, tmp_path, {**header, "mission": {**header["mission"], "squad": []}}, state) == []


# -- difficulty (content/annihilation/difficulty.toml, after OpenXcom) -------------------------------------------


def test_hardened_scales_an_aliens_stats_rounding_down(content):
    from engine.rules.annihilation.deploy_schema import hardened

    h = content.rules[ID]["difficulty"]["veteran"]
    assert (h.accuracy_percent, h.stats_percent, h.reserve_percent) == (110, 105, 10)
    stats = {"accuracy": 49, "throwing": 50, "time_units": 55, "health": 60, "senses": 40, "education": 33}
    assert hardened(h, stats) == {"accuracy": 53, "throwing": 55, "time_units": 57, "health": 63, "senses": 40,
                                  "education": 33}  # 49 × 1.1 = 53.9; 55 × 1.05 = 57.75; Sns and Edu as rolled
    assert hardened(None, stats) == stats


@pytest.mark.parametrize("level, sectoids, leaders", [("easy", 2, 1), ("normal", 3, 1), ("veteran", 3, 1),
                                                      ("impossible", 5, 2)])
def test_a_level_sets_the_alien_numbers_their_stats_and_the_tus_they_keep_back(content, level, sectoids, leaders):
    from engine.rules.annihilation.fire import shot_tu

    mission = "eliminate" if level == "normal" else f"eliminate@{level}"
    game = Game.new(content, ID, mission, seed_from_int(2), None)
    aliens = game.state.side_units("aliens")
    # 3 Sectoids and a leader at 75/100/115/150%, halves up, at least one of a kind
    assert sum(u.template == "sectoid" for u in aliens) == sectoids
    assert sum(u.template == "sectoid_leader" for u in aliens) == leaders
    leader = next(u for u in aliens if u.template == "sectoid_leader")
    pct = {"easy": 90, "normal": 100, "veteran": 105, "impossible": 110}[level]
    f = leader.record.fighter
    assert f.character.stats.health == 60 * pct // 100  # the race's Health 60, grown with the level
    cheapest = min(shot_tu(game.ruleset.book, f, "plasma_rifle", m)
                   for m in game.ruleset.book.weapons["plasma_rifle"].modes)
    snap = shot_tu(game.ruleset.book, f, "plasma_rifle", "snap")  # its profile's reserve (units.toml)
    reserve = max(snap, {"easy": 0, "normal": 0, "veteran": 10, "impossible": 20}[level] * f.tu_turn // 100)
    budget = game.ruleset.budget(attrs.evolve(game.state, side="aliens"), leader)
    assert budget.step == max(0, min(f.tu_left, f.energy) - cheapest - reserve)  # kept back for reaction fire
    assert budget.reserve == reserve


def test_the_unit_panel_names_a_soldiers_rank_above_rookie(content):
    kurt = roster.Character(ID, attrs.evolve(_recruit(content).record, rank="sergeant"))
    game = Game.new(content, ID, "eliminate", seed_from_int(2), None, squad=[kurt])
    rs, state = game.ruleset, game.state
    assert rs.sheet(state, state.units["roster_kurt"]).kind == "Human Sergeant"
    assert rs.sheet(state, state.units["julia"]).kind == "Human"  # a Rookie, as every new soldier is
