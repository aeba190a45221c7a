"""Fog of war for every reader: each mission type is walked to first contact, and no hostile the squad has
not seen leaks its numbers (HP, psi pool, spawn rolls) onto the 80×24 screen, into the roll log or the full
log, or into `replay --story` and `audit`; once the mission has ended, all of it is there."""

from __future__ import annotations

import asyncio
import re

import pytest

import stub_ruleset
from engine.content.missions import PLAYER
from engine.core import codec
from engine.core.reducer import fold
from engine.log import reading
from engine.play.game import build
from engine.play.simulate import play_out
from engine.play.timeline import Timeline
from tui.app import XenotacApp
from tui.cli import main
from tui.replay import Replay, names_in
from tui.screens.summary import summary_lines
from tui.chronicle import Chronicle
from tui.session import Session, read_chronicle
from tui.testing import hostiles_in_sight
from engine.core.dice import seed_from_int
from tui.textshot import screen_text

MISSIONS = ["eliminate", "crash", "terror", "vip", "defend"]


def never_seen(content, path) -> dict[str, list[str]]:
    """Each other-side unit the squad has not spotted in any state of the log: the words that would give it
    away (its name as a roll's actor, with its HP or morale, or as a deployment), then the formulas of its spawn
    rolls (which alone may match a seen unit's: a civilian rolls HP as a sectoid does)."""
    records, _broken = reading.records(path)
    ruleset, state = build(content, records[0][1])
    seen: set[str] = set()
    spawned: dict[str, dict] = {}
    for _n, record in records[1:]:
        if record.get("kind") != "command":
            continue
        events = record["events"]
        spawned.update({e["unit"]["id"]: e for e in events if e["kind"] == "spawned" and e["unit"]["side"] != PLAYER})
        state = fold(state, [codec.load_event(e) for e in events])
        seen |= ruleset.spotted(state, PLAYER)
    out = {}
    for uid, event in spawned.items():
        if uid in seen:
            continue
        name = event["unit"]["name"]
        out[uid] = [f"{name}: ", f"{name} (", f"{name} deploys", *[r["formula"] for r in event.get("rolls") or []]]
    return out


def leaks(text: str, secrets: dict[str, list[str]]) -> list[str]:
    """The names of unseen units found in `text`, as actor or deployment (`Sectoid 1: ` is not `Sectoid 12: `)."""
    found = []
    for words in secrets.values():
        for word in words[:3]:
            if word in text:
                found.append(word)
    return found


def cli(capsys, *argv) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def screens(content, session: Session) -> str:
    """The battle screen at 80×24, then the full log (L) over it."""
    app = XenotacApp(content, session.path.parent, session=session, alien_delay=0)

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            battle = screen_text(app)
            await pilot.press("L")
            await pilot.pause()
            return battle + "\n" + screen_text(app)

    return asyncio.run(run())


def viewer_text(content, path) -> list[str]:
    """What the replay viewer (and a spectator) reads at each stop: the heading, the story and the roll log."""
    replay = Replay(Timeline(content, path))
    out = []
    for n in replay.stops:
        names = names_in(replay.timeline.state_at(replay.state_record(n)))
        out += [replay.heading(n, names), *replay.story(n, names), *replay.roll_log(n, names)[0]]
    return out


def contact(content, tmp_path, ruleset: str, mission: str, seed: int) -> Session:
    """A new mission played by the AI, the squad too, until the squad's turn begins with a hostile in sight."""
    session = Session.new(content, ruleset, mission, seed_from_int(seed), tmp_path / f"{mission}.jsonl")
    for _ in range(3000):
        if session.over or session.players_turn and hostiles_in_sight(session):
            break
        session.ai_step()
    assert not session.over and hostiles_in_sight(session)
    return session


def check_closed_then_open(content, capsys, session: Session) -> tuple[Session, dict[str, list[str]]]:
    path = session.path
    secrets = never_seen(content, path)
    assert secrets  # some hostiles are still out of sight at first contact
    chron = session.chronicle
    assert leaks("\n".join(chron.rolls), secrets) == []
    assert leaks("\n".join(chron.journal), secrets) == []
    assert leaks(screens(content, session), secrets) == []
    assert leaks(cli(capsys, "replay", str(path), "--story"), secrets) == []
    assert leaks(cli(capsys, "audit", str(path)), secrets) == []
    assert leaks("\n".join(read_chronicle(content, path).journal), secrets) == []
    assert leaks("\n".join(viewer_text(content, path)), secrets) == []
    summary = summary_lines(path, content)
    assert leaks("\n".join(summary), secrets) == [] and not any(line.startswith("Aliens") for line in summary)
    session = Session.resume(content, path)  # the client saved and closed it on the way out
    play_out(session.game)  # the AI plays both sides to the end: everything opens
    session.catch_up()
    assert session.over
    return session, secrets


SEEDS = {"vip": 1}  # a seed whose first contact leaves some hostiles unseen (on vip seed 3 every alien is in view)


@pytest.mark.slow
@pytest.mark.parametrize("mission", MISSIONS)
def test_nothing_unseen_reaches_the_player_until_the_end(content, tmp_path, capsys, mission):
    session = contact(content, tmp_path, "xcom-trpg", mission, seed=SEEDS.get(mission, 3))
    assert any(line.endswith("out of sight") for line in session.chronicle.rolls)  # the unseen dice are counted
    session, secrets = check_closed_then_open(content, capsys, session)
    audit = cli(capsys, "audit", str(session.path))
    story = cli(capsys, "replay", str(session.path), "--story")
    rolls = "\n".join(read_chronicle(content, session.path).rolls)
    for words in secrets.values():
        name, hp = words[0][:-2], words[3]
        assert re.search(re.escape(name) + r" +hp +" + re.escape(hp), audit)  # its spawn roll, with its formula
        assert f"{name}: {hp}" in rolls and words[1] in story  # in the roll log; its deployment in the story
    assert any(line.startswith("Aliens") for line in summary_lines(session.path, content))  # their losses
    session.close()


def test_the_first_contact_of_a_mission_keeps_the_unseen_out(content, tmp_path, capsys):
    """The quick one of the above: one mission, its first contact, every reader."""
    session = contact(content, tmp_path, "xcom-trpg", "eliminate", seed=1)
    secrets = never_seen(content, session.path)
    assert secrets
    assert leaks("\n".join(session.chronicle.journal), secrets) == []
    assert leaks(cli(capsys, "replay", str(session.path), "--story"), secrets) == []
    assert leaks(cli(capsys, "audit", str(session.path)), secrets) == []
    assert leaks("\n".join(viewer_text(content, session.path)), secrets) == []
    session.close()


@pytest.mark.slow
def test_the_stub_rulesets_hostiles_stay_unseen_too(content, tmp_path, capsys):
    session = contact(content, tmp_path, stub_ruleset.ID, "eliminate", seed=2)
    session, secrets = check_closed_then_open(content, capsys, session)
    story = cli(capsys, "replay", str(session.path), "--story")
    assert all(words[1] in story for words in secrets.values())
    session.close()


def test_a_run_of_unseen_records_is_one_line_that_counts_all_their_dice(content, tmp_path):
    session = Session.new(content, "xcom-trpg", "eliminate", seed_from_int(1), tmp_path / "m.jsonl")
    session.close()
    records, _broken = reading.records(session.path)
    ruleset, initial = build(content, records[0][1])
    chron = Chronicle(ruleset, initial, PLAYER)
    chron.feed(records[1][1])
    unseen = next(u for u in chron.state.units.values()
                  if u.side != PLAYER and u.id not in ruleset.spotted(chron.state, PLAYER))
    for n, uid in ((3, "anton"), (4, unseen.id), (5, unseen.id), (6, unseen.id)):
        roll = {"actor": uid, "purpose": "panic", "expr": "1d100", "faces": [n], "formula": f"panic 1d100={n}",
                "total": n, "crit": None, "stream": "main", "index": 100 + n}
        chron.feed({"kind": "command", "n": n, "base": n - 1, "command": {"kind": "wait", "unit": uid},
                    "events": [{"kind": "changed", "unit": uid, "changes": {"record": {"kind": "xcom-trpg.soldier", "morale": 90 - n}}, "cause": "panic",
                                "rolls": [roll, roll] if n == 5 else [roll]}]})
    assert chron.rolls[-3:] == ["Anton: panic 1d100=3", "Anton: morale 100 → 87 (-13, panic)", "4 rolls out of sight"]
    assert chron.journal[-1] == "  » 4 rolls out of sight"
