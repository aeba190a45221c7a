"""neo-troops' melee in play (§15), spray fire at several targets (§10), grenades (N-3.5), bleeding and first
aid (§19), hastening (N-7.4) and running past (N-7.5) on the kernel's interrupt
(`Turn.choices`), through `decide` with scripted dice: TV-N32 and TV-N34 as the game plays them, the refusals,
the action menu's odds and the AI's answers."""

from __future__ import annotations

import attrs
import pytest

from engine.core.commands import Act, EndTurn, Move, Rejected, Throw, Wait
from engine.core.dice import Dice, seed_from_int
from engine.core.events import Resolved, UnitChanged
from engine.core.reducer import fold
from engine.play.game import Game
from engine.rules.neo_troops import battle, order

ID = "neo-troops"


@pytest.fixture
def game(content):
    g = Game.new(content, ID, "eliminate", seed_from_int(4), None, public=4)
    yield g
    g.close()


def _open(state, w: int = 11, h: int = 3) -> tuple[int, int]:
    """The corner of a w × h block of open ground that sees itself whole."""
    g = state.grid
    for y in range(1, g.height - h):
        for x in range(1, g.width - w):
            cells = [(x + i, y + j) for j in range(h) for i in range(w)]
            if all(g.walkable[c[1], c[0]] and g.cost[c[1], c[0]] == 1 for c in cells) \
                    and all(g.sees(a, b, 20) for a in cells for b in cells):
                return x, y
    raise AssertionError("no open ground on the map")


def _stage(game, at: dict[str, tuple[int, int]], fighter: int = 0):
    """The first varans ("v", "v2": uncloaked, one melee attack, "v" with the given Fighter) and the first goons at `at` offsets from
    open ground, in the order given, the first one's slot up; nobody else on the map."""
    state = game.state
    x, y = _open(state)
    varans = [u for u in state.units.values() if u.side == "xcom"]
    goons = [u for u in state.units.values() if u.template == "goon"]
    brute = next(u for u in state.units.values() if u.template == "brute")
    who = {"v": varans[0], "v2": varans[1], "g1": goons[0], "g2": goons[1], "g3": goons[2], "b": brute}
    first = next(iter(at))
    units = {}
    for key, (dx, dy) in at.items():
        u = who[key]
        rec = attrs.evolve(u.record, cloak=None, actions=int(key == first), **({"fighter": fighter} if key == "v" else {}))
        # the spec's own numbers: one melee attack (the squad's claws and jaws are content's), goons of Perception 0
        rec = attrs.evolve(rec, **({"attacks": 1} if u.side == "xcom" else {"perception": 0}))
        units[u.id] = attrs.evolve(u, pos=(x + dx, y + dy), record=rec)
    ids = tuple(who[k].id for k in at)
    b = battle.Battle(order=order.Order(slots=ids, later=ids))
    staged = attrs.evolve(state, units=units, record=b, side=units[who[first].id].side)
    return staged, {k: staged.units[who[k].id] for k in at}, (x, y)


def _decide(game, state, command, faces):
    dice = Dice.scripted(list(faces))
    events = game.ruleset.decide(state, command, dice)
    assert dice.scripted_left == 0, "every scripted die is used"
    return events


def test_tv_n32_a_hastened_hit_cancels_the_run_and_the_goon_skips_its_slot(game):
    rs = game.ruleset
    state, u, (x, y) = _stage(game, {"v": (7, 1), "g1": (8, 1), "g2": (10, 0)})
    v, g = u["v"], u["g1"]
    path = tuple((x + i, y + 1) for i in range(6, 0, -1))  # 12 m away from the goon: a Run
    asked = _decide(game, state, Move(unit=v.id, path=path), [])
    state = fold(state, asked)
    assert state.units[v.id].pos == v.pos  # held up, not moved
    turn = rs.turn(state)
    assert (turn.side, turn.units, turn.label) == ("aliens", (g.id,), f"{g.name} may hasten as {v.name} leaves")
    assert [o.label for o in turn.choices] == [f"Strike {v.name}", f"Let {v.name} go"] and turn.decline == 1
    assert turn.choices[0].note == "n=1 vs AV 5: hit 33% · unsaved 17% · skips its next slot"
    for other in (Wait(unit=v.id), EndTurn(side="xcom"), Act(unit=g.id, action="melee", target=v.id)):
        refused = rs.decide(state, other, Dice.scripted([]))
        assert isinstance(refused, Rejected) and refused.code == "answer_first"
        assert refused.reason == f"{turn.label}: answer first (Strike {v.name} / Let {v.name} go)"
    # the goon hastens with 1 die (Fighter 0): 5 ≥ AV 5, a hit; save 2 fails, external 1, critical 4 (+1 damage)
    events = _decide(game, state, turn.choices[0].command, [5, 2, 1, 4])
    blow = next(e for e in events if isinstance(e, Resolved))
    assert (blow.action, blow.actor, blow.target) == ("hasten", g.id, v.id)
    assert blow.rolls[0].formula.startswith("hasten n=1: 1d6") and blow.rolls[0].faces == (5,)
    after = fold(state, events)
    hit = after.units[v.id]
    assert hit.pos == v.pos and hit.hp == 1 and hit.record.actions == 0  # the run cancelled, its action spent
    b = battle.battle(after)
    assert b.asking is None and b.order.up == u["g2"].id  # the goon's own slot is passed over
    assert after.units[g.id].record.attacked and rs.turn(after).choices == ()


def test_a_hastened_miss_lets_the_run_go_on_and_a_let_go_rolls_nothing(game):
    rs = game.ruleset
    state, u, (x, y) = _stage(game, {"v": (7, 1), "g1": (8, 1), "g2": (10, 0)})
    v, g = u["v"], u["g1"]
    path = tuple((x + i, y + 1) for i in range(6, 0, -1))
    state = fold(state, _decide(game, state, Move(unit=v.id, path=path), []))
    strike, let_go = (o.command for o in rs.turn(state).choices)
    missed = fold(state, _decide(game, state, strike, [4]))  # 4 < AV 5
    assert missed.units[v.id].pos == path[-1] and missed.units[v.id].record.ran
    assert battle.battle(missed).order.up == u["g2"].id  # it hastened all the same: the slot is given up
    free = fold(state, _decide(game, state, let_go, []))
    assert free.units[v.id].pos == path[-1] and battle.battle(free).order.up == g.id


def test_tv_n34_each_goon_run_past_gets_one_free_blow(game):
    rs = game.ruleset
    state, u, (x, y) = _stage(game, {"v": (8, 1), "g1": (6, 0), "g2": (2, 2)})
    v, g1, g2 = u["v"], u["g1"], u["g2"]
    path = tuple((x + i, y + 1) for i in range(7, -1, -1))  # 16 m: a Run past both goons
    state = fold(state, _decide(game, state, Move(unit=v.id, path=path), []))
    assert [(q.asker, q.kind, q.at) for q in battle.battle(state).asking.questions] == [
        (g1.id, "run past", 1), (g2.id, "run past", 5)]
    turn = rs.turn(state)
    assert turn.units == (g1.id,) and turn.label == f"{g1.name} may strike as {v.name} runs past"
    assert turn.choices[0].note == "n=1 vs AV 5: hit 33% · unsaved 17% · a free attack"
    state = fold(state, _decide(game, state, turn.choices[0].command, []))  # answered; nothing rolled yet
    assert rs.turn(state).units == (g2.id,)
    # each goon: 1 die, 5 ≥ AV 5, a hit; the battlesuit saves it (5, then 6) and the external rolls miss (1, 2)
    events = _decide(game, state, rs.turn(state).choices[0].command, [5, 5, 1, 5, 6, 2])
    blows = [e for e in events if isinstance(e, Resolved)]
    assert [(e.action, e.actor, e.outcome) for e in blows] == [("free attack", g1.id, "saved"),
                                                              ("free attack", g2.id, "saved")]
    assert [e.cell for e in blows] == [path[0], path[4]]
    after = fold(state, events)
    ran = after.units[v.id]
    assert ran.pos == path[-1] and ran.record.spent_m == 16 and ran.record.ran and ran.record.actions == 0
    assert not after.units[g1.id].record.attacked and battle.battle(after).order.up == g1.id  # no action used


def test_a_surprised_goon_is_not_asked(game):
    state, u, (x, y) = _stage(game, {"v": (7, 1), "g1": (8, 1), "g2": (10, 0)})
    v = u["v"]
    cloaked = attrs.evolve(v, record=attrs.evolve(v.record, cloak="working"))  # unnoticed: the goon is surprised
    state = attrs.evolve(state, units={**state.units, v.id: cloaked})
    path = tuple((x + i, y + 1) for i in range(6, 3, -1))
    events = _decide(game, state, Move(unit=v.id, path=path), [])
    assert fold(state, events).units[v.id].pos == path[-1]


def test_melee_in_play_with_its_odds_and_refusals(game):
    rs = game.ruleset
    state, u, _ = _stage(game, {"v": (4, 1), "g1": (5, 1), "g2": (0, 0)}, fighter=1)
    v, g1, g2 = u["v"], u["g1"], u["g2"]
    melee = [o for o in rs.options(state, v) if o.group == "Melee"]
    assert [(o.label, o.command) for o in melee] == [
        (f"Strike {g1.name} ({g1.pos[0]},{g1.pos[1]})", Act(unit=v.id, action="melee", target=g1.id))]
    assert melee[0].note == "n=1+1 fighter=2 vs AV 4: hit 75% · unsaved 75%"  # base 1 + Fighter 1, the goon Fighter 0
    for target, code in ((g2.id, "out_of_reach"), ("", "no_target")):
        got = rs.decide(state, Act(unit=v.id, action="melee", target=target), Dice.scripted([]))
        assert isinstance(got, Rejected) and got.code == code
    # 2 dice [3 4]: keep 4 ≥ AV 4, one hit; the goon has no armour to save it nor anything external to hit,
    # and its 1 HP is gone: dead, no critical
    events = _decide(game, state, melee[0].command, [3, 4])
    blow = next(e for e in events if isinstance(e, Resolved))
    assert (blow.action, blow.actor, blow.target, blow.outcome) == ("melee", v.id, g1.id, "dead")
    assert blow.rolls[0].formula.startswith("melee n=1+1 fighter=2: 2d6") and blow.rolls[0].faces == (3, 4)
    assert blow.text.startswith(f"{v.name} strikes {g1.name} (bare-handed): 1 hit, 1 unsaved")
    after = fold(state, events)
    assert after.units[g1.id].status == "dead" and after.units[v.id].record.attacked
    assert after.units[v.id].record.actions == 0 and battle.battle(after).order.up == g2.id
    # the same blow once the action has attacked
    done = attrs.evolve(state, units={**state.units, v.id: attrs.evolve(v, record=attrs.evolve(v.record,
                                                                                               attacked=True))})
    assert rs.decide(done, melee[0].command, Dice.scripted([])) == Rejected(
        "acted", f"{v.name} has attacked: the action is over")
    assert [o for o in rs.options(done, done.units[v.id]) if o.group == "Melee"] == []


def test_the_ai_hastens_when_the_blow_is_worth_its_slot_and_strikes_an_adjacent_goon(game):
    rs = game.ruleset
    state, u, (x, y) = _stage(game, {"v": (7, 1), "g1": (8, 1), "g2": (10, 0)})
    v, g = u["v"], u["g1"]
    path = tuple((x + i, y + 1) for i in range(6, 0, -1))
    state = fold(state, _decide(game, state, Move(unit=v.id, path=path), []))
    assert game.ai("aliens").next_command(state) == Act(unit=g.id, action="strike", target=v.id)  # 1/3 ≥ 1/3
    tough = attrs.evolve(state.units[v.id], record=attrs.evolve(v.record, av=6))  # 1/6 is not worth a slot
    assert game.ai("aliens").next_command(attrs.evolve(state, units={**state.units, v.id: tough})) == \
        Act(unit=g.id, action="let_go", target=v.id)
    near, u, _ = _stage(game, {"v": (4, 1), "g1": (5, 1), "g2": (0, 0)}, fighter=1)
    v, g = u["v"], u["g1"]
    assert rs.ai_special(near, v, [g], True) is None  # a 75% blow, but the rifle's spray wounds likelier
    empty = attrs.evolve(v, record=attrs.evolve(v.record, shots=(("plasma_rifle", 0), ("pistol", 0))))
    near = attrs.evolve(near, units={**near.units, v.id: empty})
    assert rs.ai_special(near, empty, [g], False) == Act(unit=v.id, action="melee", target=g.id)


def test_the_client_asks_an_interrupt_as_a_modal_that_returns_the_answer(content, tmp_path):
    """`ChoiceMenu`: the arrows pick, Enter answers, Esc gives the decline; without a decline Esc does nothing."""
    import asyncio

    from engine.core.ruleset import Option
    from tui.app import XenotacApp
    from tui.screens.actions import ChoiceMenu
    from tui.testing import new_session
    from tui.textshot import screen_text

    strike = Act(unit="goon_1", action="strike", target="anna")
    let_go = Act(unit="goon_1", action="let_go", target="anna")
    options = [Option("Melee", "Strike Anna", strike, "n=1 vs AV 5: hit 33%"), Option("Melee", "Let Anna go", let_go)]
    app = XenotacApp(content, tmp_path, session=new_session(content, tmp_path), alien_delay=0)
    got: list = []

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.push_screen(ChoiceMenu("Goon 1 may hasten as Anna leaves", options, 1), got.append)
            await pilot.pause()
            shown = screen_text(app)
            await pilot.press("escape")
            app.push_screen(ChoiceMenu("Goon 1 may hasten as Anna leaves", options, 1), got.append)
            await pilot.pause()
            await pilot.press("down", "down", "enter")  # round the list and back to the first
            app.push_screen(ChoiceMenu("No way out", options, None), got.append)
            await pilot.pause()
            await pilot.press("escape")
            stuck = isinstance(app.screen, ChoiceMenu)
            await pilot.press("enter")
            return shown, stuck

    shown, stuck = asyncio.run(go())
    assert "Goon 1 may hasten as Anna leaves" in shown and "▶ Strike Anna" in shown and "hit 33%" in shown
    assert "esc let anna go" in shown.lower()
    assert got == [let_go, strike, strike] and stuck


def test_tv_n7_a_spray_at_three_goons_gives_each_one_die(game):
    """ROF 4, Accuracy 1, shooter and targets still (+1): 6 dice [6 5 4 3 2 2], keep 6 5 4 3; each goon (AV 4)
    takes the lowest die left that reaches it (N-10.4): one hit each, and the 3 hits nothing more."""
    rs = game.ruleset
    state, u, _ = _stage(game, {"v": (1, 1), "g1": (5, 0), "g2": (6, 1), "g3": (7, 2)})
    v, goons = u["v"], (u["g1"].id, u["g2"].id, u["g3"].id)
    fire = [o for o in rs.options(state, v) if o.command.action == "spray"]
    assert [(o.label, o.command.targets) for o in fire] == [
        (f"Spray {u['g1'].name} + {u['g2'].name} + {u['g3'].name}", goons)]
    assert fire[0].note == "n=4+1 accuracy+1 still=6 vs AV 4, 4, 4: a die for each first (N-10.4)"
    events = _decide(game, state, fire[0].command, [6, 5, 4, 3, 2, 2])  # nothing more: 1 HP, no save, no kit
    shot = next(e for e in events if isinstance(e, Resolved))
    assert shot.rolls[0].formula == (f"spray n=4+1 accuracy+1 still=6: 6d6 [6 5 4 3 2 2] keep 6,5,4,3 vs "
                                     f"{goons[0]} AV 4: 1 hit, {goons[1]} AV 4: 1 hit, {goons[2]} AV 4: 1 hit")
    after = fold(state, events)
    assert [after.units[g].status for g in goons] == ["dead"] * 3
    fired = next(e for e in events if isinstance(e, UnitChanged) and e.cause == "fires").changes["record"]
    assert fired.shots[0] == ("plasma_rifle", 36) and fired.attacked  # ROF 4 shots; the attack ends the action
    for targets, code in (((goons[0], goons[0]), "targets"), ((), "targets"), ((goons[0], v.id), "own_side")):
        got = rs.decide(state, Act(unit=v.id, action="spray", targets=targets), Dice.scripted([]))
        assert isinstance(got, Rejected) and got.code == code, targets
    far, u, _ = _stage(game, {"v": (1, 1), "g1": (5, 0), "g2": (9, 2), "g3": (0, 0)})
    got = rs.decide(far, Act(unit=u["v"].id, action="spray", targets=(u["g1"].id, u["g2"].id)), Dice.scripted([]))
    assert got == Rejected("spread", "Each target after the first must be within 2 cells of another")


def _bleeding(state, uid, turns):
    u = state.units[uid]
    rec = attrs.evolve(u.record, hp=0, status="incapacitated", bleeding=turns, severe_wounds=1)
    return attrs.evolve(state, units={**state.units, uid: attrs.evolve(u, hp=0, status="unconscious", record=rec)})


def test_tv_n28_three_first_aid_actions_in_a_row_stop_the_bleeding(game):
    """An adjacent ally gives first aid at three of its slots in a row; the incapacitated varan's own turns are
    counted at its slot, passed over, until the third stops the bleeding."""
    rs = game.ruleset
    state, u, _ = _stage(game, {"v2": (1, 1), "v": (2, 1), "g1": (10, 0)})
    helper, patient, goon = u["v2"].id, u["v"].id, u["g1"].id
    state = _bleeding(state, patient, 0)
    aid = [o for o in rs.options(state, state.units[helper]) if o.group == "Care"]
    assert [(o.label, o.command, o.note) for o in aid] == [(
        f"First aid: {u['v'].name} (bleeding 0/10)", Act(unit=helper, action="first_aid", target=patient),
        "Stationary: 0/3 in a row stops it")]
    for n in (1, 2, 3):
        events = _decide(game, state, aid[0].command, [])
        said = next(e for e in events if isinstance(e, Resolved)).text
        state = fold(state, events)
        state = fold(state, _decide(game, state, Wait(unit=goon), []))  # the goon's slot, then a new cycle
        if n < 3:
            assert said == f"{u['v2'].name} gives {u['v'].name} first aid ({n}/3)"
            assert state.units[patient].record.bleeding == n  # counted at its own (passed-over) slot
    assert said == f"{u['v2'].name} stops {u['v'].name}'s bleeding"
    assert state.units[patient].record.bleeding is None and state.units[patient].status == "unconscious"


def test_first_aid_interrupted_starts_again_and_a_bleeder_dies_at_its_tenth_turn(game):
    rs = game.ruleset
    state, u, _ = _stage(game, {"v2": (1, 1), "v": (2, 1), "g1": (10, 0)})
    helper, patient, goon = u["v2"].id, u["v"].id, u["g1"].id
    state = _bleeding(state, patient, 0)
    give = Act(unit=helper, action="first_aid", target=patient)
    for _ in range(2):
        state = fold(state, _decide(game, state, give, []))
        state = fold(state, _decide(game, state, Wait(unit=goon), []))
    assert [(a.helper, a.done) for a in battle.battle(state).aids] == [(helper, 2)]
    state = fold(state, _decide(game, state, Wait(unit=helper), []))  # anything else: the count starts again
    assert battle.battle(state).aids == ()
    refused = rs.decide(state, Act(unit=goon, action="first_aid", target=patient), Dice.scripted([]))
    assert refused == Rejected("not_adjacent", "First aid is given by the patient or an adjacent ally")
    dying = _bleeding(state, patient, 9)
    dying = fold(dying, _decide(game, dying, Wait(unit=goon), []))  # then the helper's slot
    events = _decide(game, dying, Wait(unit=helper), [])  # its end passes over the patient: its 10th own turn
    died = next(e for e in events if isinstance(e, UnitChanged) and e.unit == patient)
    assert died.cause == "bleeds to death" and fold(dying, events).units[patient].status == "dead"
    assert patient not in battle.battle(fold(dying, events)).order.slots


def test_a_grenade_lands_where_aimed_and_throws_a_die_at_everyone_in_the_blast(game):
    rs = game.ruleset
    state, u, (x, y) = _stage(game, {"b": (1, 1), "v": (6, 1), "v2": (7, 1), "g1": (10, 0)})
    b, v, v2 = u["b"], u["v"], u["v2"]
    assert [(t.item, t.count) for t in rs.throwables(state, b)] == [("grenade", 1)] and rs.throwables(state, v) == []
    p = rs.preview_throw(state, b.id, "grenade", v.pos)
    # one die at AV 5: 1/3; the 4+ save at −1 needs 5: 2/3 of hits go through
    assert p.p_land == 1.0 and [(uid, row.text) for uid, row in p.hits] == [
        (v.id, " AV 5: hit 33% · unsaved 22% "), (v2.id, " AV 5: hit 33% · unsaved 22% ")]
    # the blast's dice in order (the aimed cell first): Anna 5 hits, the other 2 misses; her save 6 holds, the
    # external roll 1 damages nothing
    events = _decide(game, state, Throw(unit=b.id, item="grenade", cell=v.pos), [5, 2, 6, 1])
    shot = next(e for e in events if isinstance(e, Resolved))
    assert [r.formula for r in shot.rolls[:2]] == [f"blast on {v.id} n=1: 1d6 [5] vs AV 5: hit",
                                                  f"blast on {v2.id} n=1: 1d6 [2] vs AV 5: miss"]
    assert shot.text == f"{b.name} throws a grenade at {v.pos[0]},{v.pos[1]}: 1 of 2 hit"
    after = fold(state, events)
    assert after.units[b.id].record.shots == (("plasma_rifle", 40), ("grenade", 0))
    assert rs.throwables(after, after.units[b.id]) == [] and after.units[v.id].hp == 3
    far = rs.preview_throw(state, b.id, "grenade", (x + 10, y + 1))  # 9 cells: past long range 8
    assert far.lines[1].text == " 3×3 · a die each (2, the lower: past long range) "
    for cell, item, why in (((x + 19, y + 1), "grenade", "too_far"), (v.pos, "pistol", "not_throwable")):
        got = rs.decide(state, Throw(unit=b.id, item=item, cell=cell), Dice.scripted([]))
        assert isinstance(got, Rejected) and got.code == why, (cell, got)


def test_a_run_may_end_in_a_melee_and_nothing_else(game):
    """N-8.1: a Run ending next to an enemy leaves the slot open for one melee blow (the setting `run_melee`); the
    goon it runs up to may strike it as it comes (N-7.5), and a shot is refused."""
    import attrs as _attrs

    from engine.core.commands import Shoot

    rs = game.ruleset
    state, u, (x, y) = _stage(game, {"v": (1, 1), "g1": (9, 1), "g2": (10, 2)})
    v, g = u["v"], u["g1"]
    path = tuple((x + i, y + 1) for i in range(2, 9))  # 14 m, up to the goon
    state = fold(state, _decide(game, state, Move(unit=v.id, path=path), []))
    assert rs.turn(state).label == f"{g.name} may strike as {v.name} runs past"
    state = fold(state, _decide(game, state, rs.turn(state).choices[1].command, []))  # let go
    ran = state.units[v.id]
    assert ran.pos == path[-1] and ran.record.ran and ran.record.actions == 1 and rs.turn(state).units == (v.id,)
    assert rs.decide(state, Shoot(unit=v.id, target=g.id, mode="snap"), Dice.scripted([])) == Rejected(
        "ran", "A Run allows no shot (N-8.1)")
    assert [o.command for o in rs.options(state, ran) if o.group == "Melee"] == [
        Act(unit=v.id, action="melee", target=g.id)]
    events = _decide(game, state, Act(unit=v.id, action="melee", target=g.id), [1])  # n=1: a 1 misses
    assert next(e for e in events if isinstance(e, Resolved)).outcome == "miss"
    assert fold(state, events).units[v.id].record.actions == 0
    off = _attrs.evolve(rs.settings, run_melee=False)  # GM's discretion: no melee at a run's end
    rs.settings = off
    try:
        state2, u2, _ = _stage(game, {"v": (1, 1), "g1": (9, 1), "g2": (10, 2)})
        state2 = fold(state2, _decide(game, state2, Move(unit=u2["v"].id, path=path), []))
        state2 = fold(state2, _decide(game, state2, rs.turn(state2).choices[1].command, []))
        assert state2.units[u2["v"].id].record.actions == 0  # the run ended the slot
    finally:
        rs.settings = _attrs.evolve(off, run_melee=True)
