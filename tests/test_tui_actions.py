"""The action menu (`a`): the ruleset's options for the selected soldier, picked by keyboard, with an
overload amount when the option takes one; the chosen command goes through the session like any other."""

from __future__ import annotations

import json

from engine.core.commands import Act, Rejected
from engine.core.events import Resolved
from engine.rules.xcom_trpg import hooks
from engine.core.ruleset import Option
from tui.app import XenotacApp
from tui.testing import new_session, run_app
from tui.textshot import screen_text



def probe(rs, state, cmd, dice):
    unit = rs._actor(state, cmd.unit, 1)  # noqa: SLF001
    if isinstance(unit, Rejected):
        return unit
    return [Resolved(actor=unit.id, action="probe", rolls=(), outcome="done",
                     text=f"{unit.name} probes {cmd.option} with {cmd.amount} extra")]


def offer(rs, state, unit):
    return [Option("Tests", "Plain probe", Act(unit=unit.id, action="probe", option="plain"), "no overload"),
            Option("Tests", "Strong probe", Act(unit=unit.id, action="probe", option="strong"), "up to 3", overload=3)]


def last_command(session) -> dict:
    return json.loads(session.path.read_text().splitlines()[-1])["command"]


def with_probe(monkeypatch):
    monkeypatch.setitem(hooks.ACTS, "probe", probe)
    monkeypatch.setattr(hooks, "OPTIONS", [*hooks.OPTIONS, offer])


def test_a_lists_the_options_and_enter_submits_the_chosen_one(content, tmp_path, monkeypatch):
    with_probe(monkeypatch)
    session = new_session(content, tmp_path)

    async def steps(pilot):
        await pilot.press("a")
        while not app.screen.options[app.screen.index].label == "Plain probe":
            await pilot.press("down")
        menu = screen_text(app)  # the list scrolls to keep the chosen entry in view
        await pilot.press("enter")
        return menu, screen_text(app)

    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)
    menu, after = run_app(app, steps)
    assert "Tests" in menu and "▶ Plain probe" in menu and "Strong probe" in menu
    assert "probes plain with 0 extra" in after
    sent = last_command(session)
    assert (sent["kind"], sent["unit"], sent["action"], sent["option"], sent["amount"]) == \
        ("act", "anton", "probe", "plain", 0)


def test_an_option_with_overload_asks_how_much_and_keeps_it_in_range(content, tmp_path, monkeypatch):
    with_probe(monkeypatch)
    session = new_session(content, tmp_path)

    async def steps(pilot):
        await pilot.press("a")
        while not app.screen.options[app.screen.index].label == "Strong probe":
            await pilot.press("down")
        await pilot.press("enter")
        asked = screen_text(app)
        await pilot.press("right", "right", "right", "right", "left")  # 4 asked, 3 allowed, then one less
        await pilot.press("enter")
        return asked

    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)
    asked = run_app(app, steps)
    assert "Overload: 0 extra SS (0-3)" in asked
    assert last_command(session)["amount"] == 2


def test_escape_closes_the_menu_and_nothing_is_sent(content, tmp_path, monkeypatch):
    with_probe(monkeypatch)
    session = new_session(content, tmp_path)
    records = len(session.path.read_text().splitlines())

    async def steps(pilot):
        await pilot.press("a")
        await pilot.press("escape")
        return type(app.screen).__name__

    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)
    assert run_app(app, steps) == "BattleScreen"
    assert len(session.path.read_text().splitlines()) == records


def test_an_interrupt_asking_the_squad_pops_its_choices_and_submits_the_answer(content, tmp_path, monkeypatch):
    """`Turn.choices` for the player's side: the battle screen asks with a modal and sends the answer chosen (Esc:
    the decline) through the session."""
    from engine.core.ruleset import Turn

    with_probe(monkeypatch)
    session = new_session(content, tmp_path)
    rs = session.ruleset
    uid = session.ready()[0].id
    asked = Turn(side=session.side, units=(uid,), label="Anton may probe as it passes",
                 choices=(Option("Tests", "Probe it", Act(unit=uid, action="probe", option="yes")),
                          Option("Tests", "Let it pass", Act(unit=uid, action="probe", option="no"))), decline=1)
    plain = type(rs).turn
    answered = []
    monkeypatch.setattr(type(rs), "turn", lambda self, state: plain(self, state) if answered else asked)

    async def steps(pilot):  # the battle screen asks as it opens (a resumed mission), after a command, after
        await pilot.pause()  # the other side's turn
        shown = screen_text(app)
        answered.append(True)
        await pilot.press("escape")
        await pilot.pause()
        return shown, type(app.screen).__name__

    app = XenotacApp(content, tmp_path, session=session, alien_delay=0)
    shown, after = run_app(app, steps)
    assert "Anton may probe as it passes" in shown and "▶ Probe it" in shown and "esc let it pass" in shown.lower()
    assert after == "BattleScreen" and last_command(session)["option"] == "no"
