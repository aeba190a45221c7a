"""The unit panel and the odds lines come from the ruleset: the client prints rows it is given and knows no
ruleset's names. xcom-trpg's sheet reads as it always did; a made-up ruleset's rows show as they come."""

from __future__ import annotations

import asyncio


from engine.core.ruleset import Budget, Row, Sheet
from engine.rules.xcom_trpg.sheet import effect_words
from tui.app import XenotacApp
from tui.session import Session
from tui.testing import advance_to_contact, new_session
from tui.textshot import screen_text
from tui.widgets.panels import Card, card_lines
from tests.xcom_record import evolved
from engine.rules.xcom_trpg.record import soldier


def test_xcom_effects_name_states_and_cooldowns_not_bookkeeping():
    words = effect_words({"psi_active": 1, "psi_ss": 50, "psi_cd_panic": 3, "crit_plus": 2, "cha_pair:julia": 1,
                          "melee_held_by:anton": 1, "bravery_sectoid_1": 1, "psi_sleep": 2, "after_xs_076_2": 2})
    assert words == ["after-effect in 2", "+ tokens 2", "held", "panic cooldown 2", "asleep 2"]


def test_the_xcom_sheet_reads_as_before(content, tmp_path):
    session = new_session(content, tmp_path)
    unit = evolved(session.state.units["anton"], hp=35, concussion=4, status="unconscious", morale=60,
                        flags=("moved", "concussed"), counters={"psi_active": 1, "psi_ss": 12, "psi_ss_max": 40,
                                                                "sniper_prone": 1})
    ruleset = session.ruleset
    lines = [t.plain for t in card_lines(content, Card(unit, ruleset.sheet(session.state, unit),
                                                       ruleset.budget(session.state, unit)))]
    assert lines[1:4] == [f"HP       35/{unit.hp_max:<3} ████····",
                          f"Stamina {unit.record.stamina:>3}/{unit.record.stamina_max:<3} Morale 60",
                          "Concussion 4  Psi 12/40 SS  UNCONSCIOUS"]
    assert lines[-1] == "Effects: concussed, prone"  # the turn flag `moved` is the path preview's business


class Made:
    """A made-up ruleset for the client: wound boxes and action points, odds as hits and saves, a flare to
    throw. Everything else is xcom-trpg's, so the mission still plays."""

    def __init__(self, real) -> None:
        self.real = real

    def __getattr__(self, name):
        return getattr(self.real, name)

    def sheet(self, state, unit) -> Sheet:
        return Sheet(rows=(Row("Wounds", "light 1/4", 1, 4), Row("Nerve", "steady", alert="PINNED")),
                     effects=("suppressed", "aiming 2"))

    def budget(self, state, unit) -> Budget:
        real = self.real.budget(state, unit)
        return evolved(real, label=f"AP {2 * soldier(unit).actions}/4")

    def preview_shot(self, state, shooter, target, mode):
        preview = self.real.preview_shot(state, shooter, target, mode)
        return preview if not hasattr(preview, "lines") else evolved(
            preview, lines=(Row("Hits", "2d6 keep 1: 58%"), Row("Saves", "armour 4+: 50%")))

    def shot_panel(self, state, shooter, target, mode):
        return self.preview_shot(state, shooter, target, mode)  # its panel is its preview, as Plain's is

    def throwables(self, state, unit) -> list:
        return []


def test_the_panels_print_a_made_up_rulesets_rows(content, tmp_path, monkeypatch):
    session = new_session(content, tmp_path, seed=3)
    assert advance_to_contact(session)
    made = Made(session.ruleset)
    monkeypatch.setattr(Session, "ruleset", property(lambda self: made))
    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            battle = screen_text(app)
            await pilot.press("t")
            refused = screen_text(app)
            await pilot.press("tab", "f")  # Julia has a shot
            return battle, refused, screen_text(app)

    battle, refused, aiming = asyncio.run(main())
    assert "Wounds  light 1/4 ██······" in battle and "Nerve   steady  PINNED" in battle
    assert "AP 4/4  move " in battle and "Effects: suppressed, aiming 2" in battle
    assert "Stamina" not in battle and "Concussion" not in battle  # nothing of xcom-trpg's sheet is left
    assert "t:throw" not in battle and "carries nothing to throw" in refused  # the ruleset says what to throw
    assert "Hits 2d6 keep 1: 58%" in aiming and "Saves armour 4+: 50%" in aiming
    assert "Headshot" not in aiming


def test_the_targeting_panel_shows_the_damage_after_armour_at_80x24(content, tmp_path):
    session = new_session(content, tmp_path, seed=3)
    assert advance_to_contact(session)
    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("tab", "f")  # Julia has a shot
            await pilot.pause()
            screen = app.screen
            return screen_text(app), screen.selected, screen.target.id, screen.fire_mode

    aiming, shooter, target, mode = asyncio.run(main())
    preview = session.ruleset.preview_shot(session.state, shooter, target, mode)
    damage = next(row for row in preview.lines if row.label == "Damage")
    assert damage.text.startswith(f"{preview.expected_damage:.1f}")
    assert f"Damage {damage.text}" in aiming


def test_the_budget_line_leaves_out_what_a_row_above_already_says(content, tmp_path):
    """annihilation's TU bar and its budget "TU 53/53" printed the TU twice; a row that says something else
    leaves the label, and the compact card (no rows) keeps it."""
    session = new_session(content, tmp_path)
    unit = session.state.units["anton"]
    budget = Budget(label="TU 43/60 · done", can_act=False, moves_left=43)
    tu = Sheet(rows=(Row("TU", " 43/60 ", 43, 60), Row("Energy", " 50/60 ", 50, 60)))
    assert [t.plain for t in card_lines(content, Card(unit, tu, budget))][-1] == "Move 43 · done"
    other = Sheet(rows=(Row("Energy", " 50/60 ", 50, 60),))
    assert [t.plain for t in card_lines(content, Card(unit, other, budget))][-1] == "TU 43/60 · done  move 43"
    assert [t.plain for t in card_lines(content, Card(unit, tu, budget, compact=True))][-1] == \
        "TU 43/60 · done  move 43"
