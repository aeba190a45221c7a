"""The annihilation targeting panel at 80×24 (issue 12): the exact chance per round of every mode the weapon has at
once, its rounds, its TU and what is left after, the armour side the shot hits; `m` moves the mark through the
modes and the sighted ones (A-14.7). The shooter's sheet gives way to the odds when both do not fit."""

from __future__ import annotations

import asyncio

import attrs

from engine.core.dice import seed_from_int
from engine.core.model import State
from engine.rules.annihilation.soldier import gun
from test_annihilation_play import _face_off
from tui.app import XenotacApp
from tui.screens.modes import TargetScreen
from tui.session import Session
from tui.textshot import screen_text
from annihilation_book import BOOK


class Staged(Session):
    """A session whose state is set by the test (Anton and a Sectoid face to face), the log untouched."""

    staged: State

    @property
    def state(self) -> State:
        return self.staged


def _session(content, tmp_path, sights=()) -> Staged:
    session = Session.new(content, "annihilation", "eliminate", seed_from_int(4), tmp_path / "t.jsonl")
    state, _col = _face_off(session.game, sectoid_tu=0)
    anton = state.units["anton"]
    kit = tuple(attrs.evolve(c, sights=sights) if c is gun(anton.record, BOOK) else c for c in anton.record.kit)
    session.__class__ = Staged
    session.staged = attrs.evolve(state, units={**state.units, "anton": attrs.evolve(
        anton, record=attrs.evolve(anton.record, kit=kit))})
    return session


def _shots(content, session, presses, mode="snap"):
    app = XenotacApp(content, session.path.parent, session=session, alien_delay=0)
    shots = []

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.push_screen(TargetScreen(session, "anton", ["sectoid_1"], mode))
            await pilot.pause()
            shots.append(screen_text(app))
            for key in presses:
                await pilot.press(key)
                await pilot.pause()
                shots.append(screen_text(app))

    asyncio.run(main())
    session.close()
    return shots


def test_every_mode_at_once_with_its_tu_left_and_the_side_hit(content, tmp_path):
    first, aimed = _shots(content, _session(content, tmp_path), ["m"])
    lines = first.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    # per mode: Acc 58 × the mode's accuracy, skill 5, range 1 × 6; TU of 53
    for row in ("▸Snap    33% ×1 13 TU → 40", " Aimed   62% ×1 42 TU → 11", " Burst   19% ×3 18 TU → 35",
                " Auto    13% ×7 23 TU → 30", "Side  front AV 0: 35 → 35, D 6"):
        assert row in first, row
    assert "Acc 58×60% 34 + skill 5 − range 1×6" in first  # the marked mode's formula
    assert "[1] Anton" in first and "TU 53/53" in first and "Armour" not in first  # the sheet gave way
    assert "▸Aimed   62% ×1 42 TU → 11" in aimed and " Snap    33%" in aimed and "Acc 58×110% 63" in aimed


def test_a_mode_the_soldier_cannot_pay_for_still_shows_every_modes_odds(content, tmp_path):
    """Gap 6: with 30 TU the aimed shot (42) is refused, in the status line as `decide` words it, and the panel
    keeps the table, the aimed row marked with what is left; `m` goes on to burst, which 30 TU pay for."""
    session = _session(content, tmp_path)
    anton = session.staged.units["anton"]
    f = attrs.evolve(anton.record.fighter, tu_left=30)
    session.staged = attrs.evolve(session.staged, units={**session.staged.units, "anton": attrs.evolve(
        anton, record=attrs.evolve(anton.record, fighter=f))})
    refused, burst = _shots(content, session, ["m"], mode="aimed")
    assert "✗ The aimed shot costs 42 TU; Anton has 30 left" in refused
    for row in ("▸Aimed   62% ×1 42 TU → ✗ 30 left", " Snap    33% ×1 13 TU → 17", " Burst   19% ×3 18 TU → 12",
                " Auto    13% ×7 23 TU → 7", "Acc 58×110% 63", "Side  front AV 0: 35 → 35, D 6"):
        assert row in refused, row
    assert "▸Burst   19% ×3 18 TU → 12" in burst and " Aimed   62% ×1 42 TU → ✗ 30 left" in burst
    rs = session.ruleset  # the AI's question is unchanged: the shot it cannot take is refused
    assert rs.preview_shot(session.staged, "anton", "sectoid_1", "aimed").code == "no_tu"


def test_the_sights_are_a_mode_the_panel_reckons_with(content, tmp_path):
    shots = _shots(content, _session(content, tmp_path, ("laser_sight",)), ["m"] * 4)
    assert "Sights  1 fitted, unused (m: use them)" in shots[0]
    sighted = shots[4]  # snap, aimed, burst, auto, then snap with the sight
    assert "▸Snap    36% ×1 23 TU → 30" in sighted and " Aimed   65% ×1 52 TU → 1" in sighted
    assert "Health 60/60 · Snap+sight (m: 8 modes)" in sighted and "1×6/2 3" in sighted  # the formula wraps


def test_a_cannons_damage_is_its_rounds(content):
    """Section 16: the Mk. 5 AC's AP shell does 50; the panel said the weapon row's 0."""
    from test_annihilation_inventory_play import _gunner

    rs, state = _gunner(content, harness=True)
    x, y = state.units["anton"].pos
    near = attrs.evolve(state, units={**state.units, "sectoid_1": attrs.evolve(state.units["sectoid_1"],
                                                                                pos=(x, y - 2))})
    rows = {r.label: r.text for r in rs.preview_shot(near, "anton", "sectoid_1", "snap").lines}
    assert rows["Side"] == " front AV 0: 50 → 50, D 2 "
