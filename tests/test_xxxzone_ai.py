"""xxxzone's AI on small scripted maps: what issue 11's AI list asks of it, one behaviour a test, each played through
the ruleset with seeded dice as the kernel would (`play`)."""

from __future__ import annotations

import attrs
import pytest

from engine.ai.planner import Ai
from engine.core import ruleset
from engine.core.commands import Act, EndTurn, Move, Rejected, Wait
from engine.core.dice import Dice, Faces, seed_from_int
from engine.core.reducer import fold
from tests.test_xxxzone_field import stage


@pytest.fixture(scope="module")
def rs(content):
    return ruleset.make("xxxzone", content, None)


def play(rs, ai: Ai, state, seed: int = 3, steps: int = 30):
    """The side's turn up to its end: (command, refusal or None, state before it) for every command the AI gives."""
    faces = Faces(seed_from_int(seed))
    out = []
    for _ in range(steps):
        command = ai.next_command(state)
        if isinstance(command, EndTurn):
            break
        events = rs.decide(state, command, Dice(faces, state.dice))
        out.append((command, events if isinstance(events, Rejected) else None, state))
        if isinstance(events, Rejected):
            ai.rejected(command, events)
            continue
        state = fold(state, events)
    return out


NICHE = {c: "wall" for c in [(7, 11), (9, 11), (7, 12), (9, 12), (7, 13), (8, 13), (9, 13)]}


def test_the_planner_never_plans_to_stop_on_a_friends_square(rs):
    """Johnny in a niche whose only open neighbour holds a Zhetan: the Boorus, a melee monster, would stop on the
    Zhetan's square to reach him (refused, its turn lost); it stops short instead, and every move ends on open
    ground."""
    state = stage(rs, {"boorus": ("boorus", "aliens", (8, 3)), "zhetan": ("zhetan", "aliens", (8, 11)),
                       "johnny": ("johnny", "xcom", (8, 12))}, tiles=NICHE, side="aliens")
    turn = play(rs, Ai(rs, "aliens"), state)
    moves = [(c, before) for c, refused, before in turn if isinstance(c, Move)]
    assert [refused for _c, refused, _s in turn] == [None] * len(turn)
    assert moves and moves[0][0].unit == "boorus" and moves[0][0].path[-1] == (7, 10)
    for c, before in moves:
        assert not any(u.side == "aliens" and u.id != c.unit for u in before.units_at(c.path[-1]))


# -- issue 11's AI list --------------------------------------------------------------------------------------


def alone(state, side: str, seen_by: dict):
    """The state with who has spotted whom set: side -> the ids it has spotted."""
    from engine.rules.xxxzone.units import Battle

    return attrs.evolve(state, record=Battle(seen=tuple(sorted((s, tuple(sorted(ids))) for s, ids in seen_by.items()))))


WALL = {(x, 8): "wall" for x in range(0, 13)}  # a wall across the field, open at its east end


def test_it_moves_cautiously_while_unspotted_and_quickly_once_spotted(rs):
    """A Zhetan that remembers Johnny behind the wall closes in: a cautious walk (a Combo, 2 AP a square) while the
    squad has not spotted it, a quick one (a Move) once it has."""
    base = stage(rs, {"zhetan": ("zhetan", "aliens", (2, 4)), "johnny": ("johnny", "xcom", (2, 12))}, tiles=WALL,
                 side="aliens")

    def first_walk(state):
        ai = Ai(rs, "aliens")
        ai.memory, ai._armed = {"johnny": (2, 12)}, {"johnny"}  # seen there before the wall came between
        return next(c for c, refused, _s in play(rs, ai, state) if c.kind in ("move", "combo") and refused is None)

    unseen = first_walk(alone(base, "aliens", {"aliens": {"johnny"}, "xcom": set()}))
    seen = first_walk(alone(base, "aliens", {"aliens": {"johnny"}, "xcom": {"zhetan"}}))
    assert unseen.kind == "combo" and seen.kind == "move"
    assert not rs.budget(alone(base, "aliens", {"xcom": {"zhetan"}}), base.units["zhetan"]).dash_prefer


def test_it_aims_before_a_long_shot_it_has_the_ap_for_once(rs):
    """Johnny 12 squares off: the Zhetan's AP pay one aimed shot, not two plain ones, so it aims first (Aim: better
    odds in the preview) and then fires."""
    state = stage(rs, {"zhetan": ("zhetan", "aliens", (2, 2)), "johnny": ("johnny", "xcom", (2, 14))}, side="aliens")
    turn = play(rs, Ai(rs, "aliens"), state)
    kinds = [(c.kind, getattr(c, "action", "")) for c, refused, _s in turn if refused is None]
    assert kinds[:2] == [("act", "aim"), ("shoot", "")]
    aimed = turn[1][2]  # the state the shot was fired from
    shot = turn[1][0]
    assert rs.preview_shot(aimed, "zhetan", "johnny", shot.mode).p_hit > \
        rs.preview_shot(state, "zhetan", "johnny", shot.mode).p_hit


def test_it_sets_overwatch_on_an_approach_it_has_no_shot_down(rs):
    """A cautious unit that knows a hostile is in its weapon's reach but has no shot worth taking (he is out of its
    sight behind the wall's end) watches the approach instead of walking into it."""
    state = stage(rs, {"sam": ("sam", "xcom", (14, 4)), "zhetan": ("zhetan", "aliens", (3, 11))},
                  tiles={**WALL, (13, 8): "wall", (14, 8): "wall", (15, 8): "wall"}, side="xcom")
    state = alone(state, "xcom", {"xcom": set(), "aliens": set()})
    ai = Ai(rs, "xcom")
    ai.memory, ai._armed = {"zhetan": (3, 11)}, {"zhetan"}
    sam = state.units["sam"]
    assert rs.ai_special(state, sam, [], False) is None  # nobody in sight: nothing to watch for
    sees = alone(state, "xcom", {"xcom": {"zhetan"}})
    assert rs.ai_special(sees, sees.units["sam"], [sees.units["zhetan"]], False) == \
        Act(unit="sam", action="overwatch", option=rs.shot_modes(sees, sees.units["sam"])[0].id)


def test_it_throws_a_grenade_at_a_cluster_and_never_where_a_friend_stands(rs):
    """Three hostiles in one blast: Johnny throws his frag there; with Trevor in the blast he does not."""
    placed = {"johnny": ("johnny", "xcom", (2, 2)), "z1": ("zhetan", "aliens", (2, 9)),
              "z2": ("zhetan", "aliens", (3, 9)), "z3": ("zhetan", "aliens", (2, 10))}
    state = stage(rs, placed)
    first = next(c for c, refused, _s in play(rs, Ai(rs, "xcom"), state) if refused is None)
    assert first.kind == "throw" and first.cell in {(2, 9), (3, 9), (2, 10)}
    crowded = stage(rs, {**placed, "trevor": ("trevor", "xcom", (3, 10))})
    assert not any(c.kind == "throw" for c, _r, _s in play(rs, Ai(rs, "xcom"), crowded))


def test_it_never_sprays_a_cone_that_catches_its_own_side(rs):
    """Vadin's MG sprays the Zhetan when the cone is clear; with Johnny in it, the preview's odds are nil and the
    AI picks another mode (or no shot)."""
    placed = {"vadin": ("vadin", "xcom", (5, 2)), "zhetan": ("zhetan", "aliens", (5, 10))}
    modes = {"spray"}

    def shots(state):
        return [c for c, refused, _s in play(rs, Ai(rs, "xcom"), state) if c.kind == "shoot" and refused is None]

    clear = stage(rs, placed)
    assert rs.preview_shot(clear, "vadin", "zhetan", "spray").p_hit > 0
    crowded = stage(rs, {**placed, "johnny": ("johnny", "xcom", (5, 6))})
    spray = rs.preview_shot(crowded, "vadin", "zhetan", "spray")
    assert spray.p_hit == 0 and spray.notes == ("the cone catches your own side: Johnny Miller",)
    assert all(c.mode not in modes for c in shots(crowded))


def test_it_sees_only_what_its_side_has_spotted(rs):
    """Johnny in plain sight but not spotted by the aliens: the Zhetan has no shot at him and does not shoot."""
    state = stage(rs, {"zhetan": ("zhetan", "aliens", (2, 2)), "johnny": ("johnny", "xcom", (2, 10))}, side="aliens")
    blind = alone(state, "aliens", {"aliens": set(), "xcom": {"zhetan"}})
    assert rs.preview_shot(blind, "zhetan", "johnny", "shoot").code == "no_line_of_sight"
    ai = Ai(rs, "aliens")
    assert not any(c.kind == "shoot" for c, _r, _s in play(rs, ai, blind, steps=4))
    assert "johnny" not in ai.memory


# -- no waiting out the phase limit (crash and vip ended in draws) ----------------------------------------------


def test_an_ambush_ends_after_hold_turns_and_the_cautious_unit_presses_on(rs):
    """Sam, cautious, remembers a Zhetan behind the wall: he waits in ambush HOLD_TURNS turns, then goes for it
    (he used to hold the cell for good when nothing scored better, and two such sides waited out the limit)."""
    from engine.ai.planner import HOLD_TURNS

    state = alone(stage(rs, {"sam": ("sam", "xcom", (2, 4)), "zhetan": ("zhetan", "aliens", (2, 12))}, tiles=WALL),
                  "xcom", {"xcom": set(), "aliens": set()})
    ai = Ai(rs, "xcom")
    ai.memory, ai._armed = {"zhetan": (2, 12)}, {"zhetan"}
    firsts = []
    for turn in range(HOLD_TURNS + 1):
        ai._turn = None  # a new turn of the side's
        firsts.append(ai.next_command(state))
    assert [c.kind for c in firsts[:HOLD_TURNS]] == ["wait"] * HOLD_TURNS
    assert firsts[HOLD_TURNS].kind in ("move", "combo") and firsts[HOLD_TURNS].unit == "sam"


def test_a_vip_waits_for_its_escort_but_goes_on_alone_when_none_stands(rs):
    placed = {"vip": ("vip", "xcom", (2, 4)), "sam": ("sam", "xcom", (4, 4)), "zhetan": ("zhetan", "aliens", (2, 12))}
    state = alone(stage(rs, placed, tiles=WALL), "xcom", {"xcom": set(), "aliens": set()})

    def first(s):
        ai = Ai(rs, "xcom")
        ai.memory, ai._armed = {"zhetan": (2, 12)}, {"zhetan"}
        ai._skip = {"sam"}  # only the VIP's choice is asked
        ai._turn = (s.phase, s.side)
        return ai.next_command(s)

    assert first(state) == Wait(unit="vip")  # a threat near, in cover: the escort deals with it
    sam = state.units["sam"]
    down = attrs.evolve(state, units={**state.units, "sam": attrs.evolve(sam, status="unconscious")})
    assert first(down).kind in ("move", "combo") and first(down).unit == "vip"


def test_aliens_who_have_met_the_squad_hunt_it_instead_of_waiting_at_the_extraction_point(content):
    from engine.ai.orders import Orders
    from engine.content import missions
    from engine.core.dice import seed_from_int
    from engine.play.game import Game

    game = Game.new(content, "xxxzone", "vip", seed_from_int(3), None)
    setup = game.ruleset.setup
    orders = Orders(setup.mission, setup.spawns, missions.ALIENS)
    assert orders.idle(contact=False) == "extraction" and orders.idle(contact=True) is None
    squad = Orders(setup.mission, setup.spawns, missions.PLAYER)
    assert squad.idle(contact=True) == "extraction"  # the escorts still lead the way there
    game.close()


def test_late_in_a_mission_nobody_hangs_back_or_holds_an_ambush(content):
    from engine.ai.planner import LATE
    from engine.core.dice import seed_from_int
    from engine.play.game import Game

    game = Game.new(content, "xxxzone", "vip", seed_from_int(3), None)
    ai = game.ai("xcom")
    sam = game.state.units["sam"]
    limit = game.ruleset.setup.max_phases
    p = ai.profile(sam)
    assert p.hold and p.distance == 7
    early = attrs.evolve(game.state, phase=int(LATE * limit) - 1)
    late = attrs.evolve(game.state, phase=-(-2 * limit // 3))
    assert ai._pressed(early, p) == p
    assert ai._pressed(late, p) == attrs.evolve(p, hold=False, distance=0)
    game.close()


def test_a_walk_never_goes_through_where_it_remembers_a_hostile_nor_is_cut_short_onto_a_friend(rs):
    """A Zhetan lies senseless, unspotted, where the squad last saw it: the planner counts that square blocked (a
    walk through it was refused every turn); and a walk refused at a square the side cannot see is cut short to
    the squares before it, never ending on a friend's square (refused again, the turn lost)."""
    from engine.core.commands import Combo

    state = stage(rs, {"sam": ("sam", "xcom", (2, 4)), "johnny": ("johnny", "xcom", (3, 5)),
                       "zhetan": ("zhetan", "aliens", (8, 4))}, tiles={(6, y): "wall" for y in range(16)})
    z = state.units["zhetan"]
    state = alone(attrs.evolve(state, units={**state.units, "zhetan": attrs.evolve(z, status="unconscious")}),
                  "xcom", {"xcom": set()})
    ai = Ai(rs, "xcom")
    ai.memory = {"zhetan": (8, 4)}  # seen there before it fell behind the wall
    assert (8, 4) in ai._blocked(state, ai.knowledge(state), state.units["sam"]) and ai.memory == {"zhetan": (8, 4)}
    ai.next_command(state)  # it looks, and notes where its side stands
    ai._seen = ai._seen.copy()
    ai._seen[6, 4] = False  # (4, 6): a square it cannot see
    blocked = Rejected("blocked", "Someone unseen stands at 4,6")
    ai.rejected(Combo(unit="sam", path=((2, 5), (3, 6), (4, 6))), blocked)
    assert ai._retry == Combo(unit="sam", path=((2, 5), (3, 6)))  # up to where it can see
    ai._retry = None
    ai.rejected(Combo(unit="sam", path=((2, 5), (3, 5), (4, 6))), blocked)
    assert ai._retry == Combo(unit="sam", path=((2, 5),))  # not onto Johnny's square at (3, 5)
