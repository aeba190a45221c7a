"""neo-troops, registered: whole AI-vs-AI missions on every shared mission that verify byte for byte, the initiative
slots, moves priced in metres, d6 pools with their kept dice, the refusals of `decide`, cloaked varans, the client
at 80×24 and the CLI."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from client_walk import draw_and_walk
from client_walk import free as _free
from engine.core import ruleset
from engine.core.commands import Act, Combo, EndTurn, Move, Reload, Rejected, Shoot, Throw, Wait
from engine.core.dice import Dice, seed_from_int
from engine.core.reducer import fold
from engine.play import simulate
from engine.play.game import Game
from engine.play.verify import verify
from engine.rules.neo_troops import battle

ID = "neo-troops"
# a public seed per mission whose AI-vs-AI battle has both sides firing
SEEDS = {"crash": 1, "defend": 6, "eliminate": 1, "infiltrate": 1, "terror": 1, "vip": 1}
FIRING = ("shoot", "cover", "covering fire")  # a shot, a covering-fire volley, covering fire on a mover


def _records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.slow
@pytest.mark.parametrize("mission", sorted(SEEDS))
def test_a_whole_ai_mission_plays_to_its_end_and_verifies(content, tmp_path, mission):
    path = tmp_path / f"{mission}.jsonl"
    game = simulate.run(content, ID, mission, seed_from_int(SEEDS[mission]), path, public=SEEDS[mission])
    state = game.state
    game.close()
    assert state.winner in ("xcom", "aliens", "draw"), state.ended
    records = _records(path)
    events = [e for r in records if r.get("kind") == "command" for e in r["events"]]
    shooters = {state.units[e["actor"]].side for e in events if e["kind"] == "resolved" and e["action"] in FIRING}
    assert shooters == {"xcom", "aliens"}
    rolls = [roll for e in events for roll in e.get("rolls", [])]
    # every test and attack is a pool of d6; only the logged random picks (a tie, a component, a severed limb) are 1dk
    picks = [roll for roll in rolls if not re.match(r"\d*d6\b", roll["expr"])]  # "1d6 * 10": a repair's time
    assert rolls and all(roll["purpose"] in ("initiative tie", "which limb") or roll["purpose"].startswith("random ")
                         for roll in picks)
    assert all(roll["expr"] == f"1d{len(roll['formula'].split(' among ')[1].split(':')[0].split(', '))}"
               for roll in picks if roll["purpose"] == "initiative tie")
    assert verify(content, path).failure is None


@pytest.fixture
def game(content, tmp_path):
    g = Game.new(content, ID, "eliminate", seed_from_int(4), tmp_path / "game.jsonl", public=4)
    yield g
    g.close()


def test_the_start_rolls_initiative_and_names_one_unit_per_slot(game):
    state = game.state
    b = battle.battle(state)
    fighters = [u for u in state.units.values() if u.side in ("xcom", "aliens")]
    assert len(b.order.slots) == len(fighters) == 37  # 6 varans, 18 goons, 8 armoured goons, 5 attack hounds
    first = next(r for r in _records(game.path) if r.get("kind") == "command")
    start = next(e for e in first["events"] if e["kind"] == "noted")
    assert sum(roll["purpose"] == "initiative" for roll in start["rolls"]) == 37
    assert all(roll["expr"] == "1d6" and 1 <= roll["total"] <= 6 for roll in start["rolls"]
               if roll["purpose"] == "initiative")
    turn = game.ruleset.turn(state)
    up = state.units[b.order.up]
    assert turn.units == (up.id,) and turn.side == up.side
    assert turn.label.startswith(f"Initiative 1/37: {up.name}")
    assert [u.id for u in state.units.values() if u.record.actions] == [up.id]


def _to_player_slot(game):
    """Let the AI play the aliens' slots until a varan's slot is up."""
    while game.ruleset.turn(game.state).side != "xcom":
        game.ai_step()
    return game.state.units[game.ruleset.turn(game.state).units[0]]


def _free_path(state, unit, steps: int):
    """`steps` free cells in a straight orthogonal line from the unit."""
    for dx, dy in ((0, -1), (1, 0), (-1, 0), (0, 1)):
        path = tuple((unit.pos[0] + dx * i, unit.pos[1] + dy * i) for i in range(1, steps + 1))
        if all(_free(state, cell) for cell in path):
            return path
    raise AssertionError(f"no straight line of {steps} free cells from {unit.pos}")


def test_a_move_is_priced_in_metres_and_a_run_ends_the_slot(game):
    unit = _to_player_slot(game)
    rs = game.ruleset
    b = rs.budget(game.state, unit)
    assert (b.moves_left, b.step, b.walk.cardinal, b.walk.diagonal, b.walk.currency) == (20, 10, 2, 3, "m")
    assert b.label == "shot ≤10 m" and b.moves_left == 20
    assert rs.decide(game.state, Move(unit=unit.id, path=_free_path(game.state, unit, 11)),
                     Dice(game.faces, game.state.dice)) == Rejected(
        "too_far", f"22 m is past {unit.name}'s run of 20 m (move 10 m)")
    line = _free_path(game.state, unit, 6)
    game.submit(Move(unit=unit.id, path=line[:3]))  # 6 m: still a Move, the shot is left
    after = rs.budget(game.state, game.state.units[unit.id])
    assert (after.can_act, after.moves_left, after.step) == (True, 14, 4)
    assert game.ruleset.turn(game.state).units == (unit.id,)
    game.submit(Move(unit=unit.id, path=line[3:]))  # 12 m in all: a Run
    moved = game.state.units[unit.id]
    assert moved.record.spent_m == 12 and moved.record.ran and moved.record.actions == 0
    assert game.ruleset.turn(game.state).units != (unit.id,)


def test_decide_refuses_with_codes_and_reasons(game):
    unit = _to_player_slot(game)
    rs, state = game.ruleset, game.state
    dice = Dice(game.faces, state.dice)
    other = next(u for u in state.units.values() if u.side == "xcom" and u.id != unit.id)
    goon = next(u for u in state.units.values() if u.side == "aliens")
    assert rs.decide(state, Wait(unit=other.id), dice) == Rejected(
        "not_your_slot", f"It is {unit.name}'s slot, not {other.name}'s")
    assert rs.decide(state, EndTurn(side="civilians"), dice).code == "not_your_turn"
    assert rs.decide(state, EndTurn(side="aliens"), dice) == []  # the slot is not theirs: nothing to end
    assert rs.decide(state, Shoot(unit=unit.id, target=other.id, mode="snap"), dice) == Rejected(
        "own_side", f"{other.name} is on {unit.name}'s side")
    assert rs.decide(state, Shoot(unit=unit.id, target=goon.id, mode="burst"), dice) == Rejected(
        "no_mode", "neo-troops fires a snap shot or spray fire, not 'burst'")
    assert rs.decide(state, Combo(unit=unit.id, path=_free_path(state, unit, 1)), dice) == Rejected(
        "unknown_command", "neo-troops has no combo: one action per slot")
    assert rs.decide(state, Act(unit=unit.id, action="cover"), dice).code == "no_cell"
    assert rs.decide(state, Throw(unit=unit.id, item="grenade", cell=unit.pos), dice).code == "not_throwable"
    assert rs.decide(state, Act(unit=unit.id, action="dance", cell=unit.pos), dice).code == "unknown_action"
    assert rs.decide(state, Move(unit=unit.id, path=((unit.pos[0] + 3, unit.pos[1]),)), dice).code == "blocked"
    game.submit(Move(unit=unit.id, path=_free_path(state, unit, 1)))
    assert rs.decide(game.state, Reload(unit=unit.id), Dice(game.faces, game.state.dice)) == Rejected(
        "not_stationary", f"{unit.name} has moved or fired: that needs a Stationary action (N-8.1)")


def test_a_full_weapon_is_not_loaded_and_an_emptied_one_is(game):
    import attrs

    from engine.rules.neo_troops import loadout

    unit = _to_player_slot(game)
    rs, state = game.ruleset, game.state
    assert rs.decide(state, Reload(unit=unit.id), Dice(game.faces, state.dice)) == Rejected(
        "full", "The Plasma rifle is full (40/40)")
    emptied = attrs.evolve(unit, record=loadout.spend(unit.record, "plasma_rifle", 37))
    assert loadout.shots_left(emptied.record, "plasma_rifle") == 3
    staged = attrs.evolve(state, units={**state.units, unit.id: emptied})
    assert rs.ai_chore(staged, emptied, [], "idle") == Reload(unit=unit.id)  # below one spray of 4
    assert rs.ai_chore(staged, emptied, [], "first") is None  # a snap is still possible
    got = rs.decide(staged, Reload(unit=unit.id), Dice(game.faces, staged.dice))
    changed = next(e for e in got if getattr(e, "cause", "") == "loads")  # a Stationary action: the cell refills it
    loaded = changed.changes["record"]
    assert loadout.shots_left(loaded, "plasma_rifle") == 40 and not any(p.kind == "ammo" for p in loaded.parts)
    assert rs.turn(fold(staged, got)).units != (unit.id,)  # and the slot is over


def test_a_shot_is_one_pool_with_its_kept_dice_and_exact_odds(content, tmp_path):
    path = tmp_path / "eliminate.jsonl"
    simulate.run(content, ID, "eliminate", seed_from_int(2), path, public=2).close()
    shots = [e for r in _records(path) if r.get("kind") == "command" for e in r["events"]
             if e["kind"] == "resolved" and e["action"] == "shoot"]
    sprays = [e["rolls"][0] for e in shots if e["mode"] == "spray"]
    rof = {"plasma_rifle": 4, "machine_pistol": 3, "smg": 4, "heavy_plasma": 6}
    bases = [rof[e["weapon"]] + (3 if "two weapons" in e["rolls"][0]["formula"] else 0)  # Oleg: SMG + machine
             for e in shots if e["mode"] == "spray"]                                      # pistol, B = 7
    # one target: "vs AV 5"; several (the AI sprays a cluster): "vs goon_1 AV 4: 1 hit, goon_3 AV 5: a miss"
    assert sprays and all(pool["purpose"] == "spray" and re.search(r" vs (\w+ )?AV \d", pool["formula"])
                          for pool in sprays)
    assert any(pool["formula"].count(" AV ") > 1 for pool in sprays)
    for pool, base in zip(sprays, bases):  # n dice thrown (2 at n ≤ 0), the B highest kept when n > B
        n = int(re.search(r"n=(?:[^:]*=)?(-?\d+): ", pool["formula"]).group(1))
        assert len(pool["faces"]) == (n if n > 0 else 2) and all(1 <= f <= 6 for f in pool["faces"])
        if n > base:
            kept = sorted((pool["faces"][i] for i in pool["kept"]), reverse=True)
            assert kept == sorted(pool["faces"], reverse=True)[:base] and " keep " in pool["formula"]
        elif n > 0:  # every die thrown is an attack: nothing discarded, nothing marked
            assert "kept" not in pool


def test_preview_shot_is_the_exact_distribution(game):
    rs, state = game.ruleset, game.state
    varan = next(u for u in state.units.values() if u.side == "xcom")
    goon = next(u for u in state.units.values() if u.template == "goon")
    b = battle.battle(state)
    import attrs

    units = dict(state.units)  # the goon stands four cells in front of the varan, in the open, the varan's slot up
    cell = next((varan.pos[0] + dx, varan.pos[1] - 4) for dx in range(-3, 4)
                if state.grid.walkable[varan.pos[1] - 4, varan.pos[0] + dx]
                and state.grid.cover_against((varan.pos[0] + dx, varan.pos[1] - 4), varan.pos) == 0
                and state.grid.sees(varan.pos, (varan.pos[0] + dx, varan.pos[1] - 4), 20))
    units[goon.id] = attrs.evolve(goon, pos=cell, record=attrs.evolve(goon.record, moved=True))
    units[varan.id] = attrs.evolve(varan, record=attrs.evolve(varan.record, actions=1))
    order = attrs.evolve(b.order, slots=(varan.id,) + tuple(s for s in b.order.slots if s != varan.id), at=0)
    staged = attrs.evolve(state, units=units, record=attrs.evolve(b, order=order))
    p = rs.preview_shot(staged, varan.id, goon.id, "spray")
    # 4 base + 1 accuracy (the goon moved: no +1 still) = 5 dice, keep 4, each ≥ 4 hits; no save, 1 HP
    p_hit = 1 - Fraction(1, 2) ** 5
    assert p.p_hit == pytest.approx(float(p_hit))
    rows = {r.label: r.text for r in p.lines}
    assert rows["Dice"].strip() == "n=4+1 accuracy=5 vs AV 4"
    assert rows["Hits"].strip() == "0–4: 3 16 31 31 19%"  # 1/32, 5/32, 10/32, 10/32, (5 + 1)/32
    assert rows["Unsaved"] == rows["Hits"]  # a goon has no armour to save with
    snap = rs.preview_shot(staged, varan.id, goon.id, "snap")
    assert snap.p_hit == pytest.approx(1 - 0.25)  # best of 2 dice ≥ 4


def test_a_cloaked_varan_stays_unseen_until_noticed(game):
    rs, state = game.ruleset, game.state
    varan = next(u for u in state.units.values() if u.side == "xcom")
    goon = next(u for u in state.units.values() if u.template == "goon")
    import attrs

    units = dict(state.units)
    units[goon.id] = attrs.evolve(goon, pos=(varan.pos[0], varan.pos[1] - 2))
    staged = attrs.evolve(state, units=units)
    assert rs.visible(staged, "aliens")[varan.pos[1], varan.pos[0]]
    assert varan.id not in rs.spotted(staged, "aliens")  # in a seen cell, not noticed
    assert goon.id in rs.spotted(staged, "xcom")  # goons have no cloak
    b = battle.battle(staged)
    noticed = attrs.evolve(b, noticed=((goon.id, varan.id),))
    assert varan.id in rs.spotted(attrs.evolve(staged, record=noticed), "aliens")
    assert varan.id not in rs.spotted(attrs.evolve(staged, record=noticed), "civilians")


def test_the_registry_lists_it_with_its_die():
    assert ID in ruleset.available()
    assert ruleset.kind(ID).audit_dice == (6,)


def test_cli_simulate_with_seed_3_runs(tmp_path, capsys):
    from tui.cli import main

    out = tmp_path / "neo.jsonl"
    code = main(["simulate", "--ruleset", ID, "--seed", "3", "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0
    # seed 3's outcome since the armoured goons cover the varans' approach (watch.py): the squad goes down
    assert "winner:     aliens (the squad is down)" in printed and "phases:     7" in printed
    assert "xcom:       0 standing, 1 unconscious, 5 dead" in printed
    assert "aliens:     9 standing, 0 unconscious, 22 dead" in printed  # of 18 goons, 8 armoured, 5 hounds
    assert main(["replay", "--verify", str(out)]) == 0




def test_the_client_draws_the_varan_and_walks_it(content, tmp_path):
    first, unit, step, moved, _session = draw_and_walk(content, ID, tmp_path, mission="crash", seed=4)
    panel = [line.split("▏", 1)[1].strip() for line in first.splitlines()[1:16] if "▏" in line]
    # the crash site is 48 cells wide: the panel has 30 columns at 80×24, and no line of the sheet wraps
    assert panel[:6] == [f"[{unit.glyph}] {unit.name} Acc1 Fig1 Per1", "HP       3/3  ████████",
                         "AV       5 · save 4+", "Shot ≤10 m  move 20 m", "▶Rifle 40+1 · Pistol 12",
                         "Bio-scanner, Grapple launcher"]
    assert f"Initiative 1/31: {unit.name}" in first  # 6 varans, 16 goons, 6 armoured, 3 hounds
    assert unit.glyph.isdigit()  # the squad told apart on the map, as xcom-trpg's is
    assert moved.pos == (unit.pos[0] + step[0], unit.pos[1] + step[1])
    assert moved.record.spent_m == (2 if 0 in step else 3)


def test_the_unit_panel_fits_30_columns_with_two_weapons_and_systems_out(game):
    """Oleg's two weapons in hand, Lev's combination, a damaged cloak and a destroyed head: every line of the
    sheet as the panel draws it within 30 columns."""
    import attrs

    from tui.widgets.panels import Card, card_lines

    rs, state = game.ruleset, game.state
    for uid, changes in (("oleg", {}), ("lev", {"cloak": "damaged", "head_hits": 2, "mapping": "damaged"})):
        u = state.units[uid]
        u = attrs.evolve(u, record=attrs.evolve(u.record, **changes))
        lines = [t.plain for t in card_lines(game.content, Card(u, rs.sheet(state, u), rs.budget(state, u)))]
        assert all(len(line) <= 30 for line in lines), lines
        if uid == "oleg":
            assert "▶SMG 40+1 ▶MP 30 · Pistol 12" in lines
        else:
            assert "Systems  cloak, mapping, head " in lines  # three out: their names


def _staged_shot(game):
    """The first varan's slot up, a goon four cells in front of it in the open (it moved), nobody else near."""
    import attrs

    state = game.state
    varan = next(u for u in state.units.values() if u.side == "xcom")
    goon = next(u for u in state.units.values() if u.template == "goon")
    cell = next((varan.pos[0] + dx, varan.pos[1] - 4) for dx in range(-3, 4)
                if state.grid.walkable[varan.pos[1] - 4, varan.pos[0] + dx]
                and state.grid.cover_against((varan.pos[0] + dx, varan.pos[1] - 4), varan.pos) == 0
                and state.grid.sees(varan.pos, (varan.pos[0] + dx, varan.pos[1] - 4), 20))
    units = {k: (attrs.evolve(u, record=attrs.evolve(u.record, actions=0)) if u.record.actions else u) for k, u in state.units.items()}
    units[goon.id] = attrs.evolve(goon, pos=cell, record=attrs.evolve(goon.record, moved=True))
    units[varan.id] = attrs.evolve(varan, record=attrs.evolve(varan.record, actions=1, spent_m=0, moved=False,
                                                                          ran=False, attacked=False))
    b = battle.battle(state)
    order = attrs.evolve(b.order, slots=(varan.id,) + tuple(s for s in b.order.slots if s != varan.id), at=0)
    return attrs.evolve(state, units=units, record=attrs.evolve(b, order=order)), varan, units[goon.id]


def test_covering_fire_rolls_its_volley_and_attacks_an_enemy_walking_in(game):
    import attrs

    from engine.rules.neo_troops import cover

    rs = game.ruleset
    staged, varan, goon = _staged_shot(game)
    options = [o for o in rs.options(staged, varan) if o.command.action == "cover"]
    assert [o.command.cell for o in options] == [goon.pos] and options[0].group == "Fire"
    events = rs.decide(staged, options[0].command, Dice(game.faces, staged.dice))
    volley = next(e for e in events if getattr(e, "action", "") == "cover")
    assert volley.rolls[0].purpose == "sustained" and volley.rolls[0].formula.startswith(
        "sustained n=min(4, 4+1 accuracy=5)=4: 1d6")  # the goon moved: no "still"; one target, one die
    after = fold(staged, events)
    live = battle.battle(after).areas
    assert [(a.firer, a.aim) for a in live] == [(varan.id, goon.pos)]
    assert after.units[varan.id].record.shots == (("plasma_rifle", 36), ("pistol", 12))
    # another goon walking into the 3×3 faces one die (two for a run ending closer to the firer)
    other = next(u for u in after.units.values() if u.template == "goon" and u.id != goon.id)
    start = (goon.pos[0] - 3, goon.pos[1])
    walker = attrs.evolve(other, pos=start)
    path = ((start[0] + 1, start[1]), (start[0] + 2, start[1]))  # the second step enters the area
    fired, down = cover.crossed(rs, attrs.evolve(after, units={**after.units, other.id: walker}), walker,
                                (start, *path), False, Dice(game.faces, after.dice))
    shot = [e for e in fired if getattr(e, "action", "") == "covering fire"]
    assert len(shot) == 1 and shot[0].cell == path[1] and shot[0].rolls[0].expr == "1d6"
    assert shot[0].rolls[0].formula.startswith("covering fire n=1: 1d6")
    hit = shot[0].rolls[0].faces[0] >= 4  # the total counts hits
    assert shot[0].rolls[0].total == int(hit) and (down == 2) == hit  # 1 HP and no save: a hit downs it there


def test_forces_are_checked_against_the_shared_missions(tmp_path):
    """A misspelt mission, an unknown unit and a vip mission without its envoy are located lines; forces for a
    mission the bundle leaves out are idle."""
    import shutil

    from engine.content import loader

    folder = tmp_path / "content"
    shutil.copytree(loader.default_dir(), folder)
    forces = folder / "neo-troops" / "forces.toml"
    text = forces.read_text()
    text = text.replace("[terror]", "[terorr]").replace('squad = ["anna", "boris", "kira", "lev", "mira", "vip"]',
                                                       'squad = ["anna", "boris", "kira", "lev", "mira", "envoy"]')
    forces.write_text(text)
    (folder / "missions" / "crash.toml").unlink()
    with pytest.raises(loader.ContentError) as got:
        loader.load(folder)
    assert sorted(got.value.messages) == [
        "neo-troops/forces.toml: [terorr]: no such mission in missions/ (did you mean 'terror'?)",
        "neo-troops/forces.toml: [vip].squad: the objective 'out' needs 'vip' in the squad",
        "neo-troops/forces.toml: [vip].squad[5]: unknown unit 'envoy'"]


def test_a_delayed_varan_takes_its_held_action_after_the_next_one(game):
    """N-7.3: Delay passes the slot on; once another action has finished, the holder is offered beside the unit
    whose slot is up, acts at once, and the slot that was up stays up."""
    import attrs

    rs = game.ruleset
    state = game.state
    b = battle.battle(state)
    varans = [u for u in b.order.slots if state.units[u].side == "xcom"]
    first, second, third = varans[:3]
    order = attrs.evolve(b.order, slots=(first, second, third) + tuple(s for s in b.order.slots if s not in varans[:3]),
                         at=0)  # three varans' slots in a row
    units = {k: attrs.evolve(u, record=attrs.evolve(u.record, actions=1 if k == first else 0)) for k, u in state.units.items()}
    state = attrs.evolve(state, units=units, record=attrs.evolve(b, order=order), side="xcom")
    delay = next(o.command for o in rs.options(state, state.units[first]) if o.command.action == "delay")
    state = fold(state, rs.decide(state, delay, Dice(game.faces, state.dice)))
    assert rs.turn(state).units == (second,)  # no action has finished since the delay
    assert not rs.budget(state, state.units[first]).can_act
    state = fold(state, rs.decide(state, Wait(unit=second), Dice(game.faces, state.dice)))
    turn = rs.turn(state)
    assert turn.units == (third, first) and f"(holding: {state.units[first].name}) ▸ " in turn.label  # and who is next
    assert rs.budget(state, state.units[first]).can_act
    path = _free_path(state, state.units[first], 1)
    state = fold(state, rs.decide(state, Move(unit=first, path=path), Dice(game.faces, state.dice)))
    assert state.units[first].pos == path[0] and rs.turn(state).units == (first,)  # acting now, the shot left
    state = fold(state, rs.decide(state, Wait(unit=first), Dice(game.faces, state.dice)))
    assert battle.battle(state).order.up == third and rs.turn(state).units == (third,)  # the slot up stays up
    assert battle.battle(state).order.slots.index(first) == battle.battle(state).order.slots.index(second) + 1


def test_the_turn_label_says_who_is_next_by_name_or_as_a_foe(game):
    state = game.state
    b = battle.battle(state)
    up = state.units[b.order.up]
    label = game.ruleset.turn(state).label
    after = next(state.units[u] for u in b.order.slots[1:] if state.units[u].conscious)
    assert label.endswith(f" ▸ {after.name}" if after.side == up.side else " ▸ foe")


def test_audit_stats_tells_the_pools_kept_dice_from_the_rolled(content, tmp_path):
    from engine.log.audit import stats

    path = tmp_path / "neo.jsonl"
    simulate.run(content, ID, "defend", seed_from_int(3), path, max_phases=3, public=3).close()
    pools = [r for rec in _records(path) for e in rec.get("events", []) for r in e.get("rolls", [])
             if re.fullmatch(r"\d+d6", r["expr"]) and len(r["faces"]) > 1]
    xcom = {u for rec in _records(path) for e in rec.get("events", []) if e["kind"] == "spawned"
            for u in [e["unit"]["id"]] if e["unit"]["side"] == "xcom"}
    mine = [r for r in pools if r["actor"] in xcom]
    rolled = [f for r in mine for f in r["faces"]]
    kept = [r["faces"][i] for r in mine for i in (r.get("kept") or range(len(r["faces"])))]
    assert len(kept) < len(rolled)  # some spray or snap discarded dice
    out = list(stats(path))
    at = out.index("Kept versus rolled (pools of several dice; a pool keeps its best, or the lower of two at zero dice)")
    line = next(x for x in out[at:] if x.strip().startswith("xcom"))
    assert line == (f"  xcom     rolled {len(rolled):>5} mean {sum(rolled) / len(rolled):.2f} · kept {len(kept):>5} "
                    f"mean {sum(kept) / len(kept):.2f} · discarded {len(rolled) - len(kept)}")
