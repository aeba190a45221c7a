"""The campaign engine (issue 18): the fold, the calendar, the log, the mission link, verify and resume."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import attrs
import pytest

from engine.campaign import decide as d
from engine.campaign.ledger import LOG, Ledger, mission_number
from engine.campaign.seam import Offer, Order, Outcome, Standard, Timer
from engine.campaign.state import MONTH, Campaign, Dawn, Missed, Offered, Posting, Running, Scheduled, fold
from engine.campaign.verify import verify
from engine.core.commands import Rejected
from engine.core.dice import Dice, seed_from_int
from engine.core.ruleset import make
from engine.log import writer as log
from engine.play.simulate import play_out
from tui.cli import main

RULESET = "xcom-trpg"


class Fake(Standard):
    """A downtime with funding, a timer set at the start and an order that costs: each rule the calendar calls."""

    def begin(self, records, dice):
        return Outcome(records=tuple(records), funding=50, timers=(Timer(4, "heal:ash", "Ash heals", "Ash"),))

    def due(self, records, base, timer, dice):
        return Outcome(records=tuple(records), base=base, notes=(f"{timer.label}",))

    def month(self, records, base, dice):
        return Outcome(records=tuple(records), base=base, funding=100, notes=("income +100",))

    def order(self, records, base, funding, busy, order, dice):
        if order.kind != "train":
            return super().order(records, base, funding, busy, order, dice)
        face, index = dice.d(6, "campaign", "course days")
        return Outcome(records=tuple(records), funding=-20, timers=(Timer(face, f"train:{order.who}", "course"),))


def _rules(content, downtime=None) -> d.Rules:
    rs = make(RULESET, content, None)
    return d.Rules(downtime or Fake(rs), ("eliminate", "terror"), lambda m: 6)


def _names(book: Ledger, places: int = 6) -> tuple[str, ...]:
    """The first living characters the ruleset lets deploy (one knocked out last time sits this one out)."""
    s = book.state
    return tuple(r.name for r in s.living() if book.downtime.deploy_refusal(r, s.base, s.busy) is None)[:places]


def _to_offer(book: Ledger) -> Posting:
    for _ in range(10):
        if book.state.offers:
            return book.state.offers[0]
        assert not isinstance(book.submit(d.Advance()), Rejected)
    raise AssertionError("no mission offered in ten stops")


# -- the fold and the calendar ------------------------------------------------------------------------------


def test_the_fold_is_pure(content):
    start = Campaign(RULESET)
    events = d.decide(start, d.Begin(), _rules(content), Dice.scripted([3]))
    assert not isinstance(events, Rejected)
    once, again = fold(start, events), fold(start, events)
    assert once == again and start == Campaign(RULESET)  # same events, same state; the state before untouched
    assert once.funding == 50 and once.next_offer == 3 and once.timers == (Running(Timer(4, "heal:ash", "Ash heals",
                                                                                          "Ash"), 4),)


def test_time_stops_at_every_event_kind(content):
    rules = _rules(content)
    c = fold(Campaign(RULESET), d.decide(Campaign(RULESET), d.Begin(), rules, Dice.scripted([3])))
    # day 3: the first offer (mission 2 of 2, open 3+2 days, the next one 4+6 days on)
    events = d.decide(c, d.Advance(), rules, Dice.scripted([2, 2, 6]))
    assert events[0] == Dawn(3) and isinstance(events[1], Offered) and events[2] == Scheduled(13, events[2].rolls)
    assert events[1].posting == Posting("m1", "terror", 3, 8)
    assert [r.formula for r in events[1].rolls] == ["2", "3+2=5"]
    c = fold(c, events)
    events = d.decide(c, d.Advance(), rules, Dice.scripted([]))  # day 4: the timer
    assert events[0] == Dawn(4) and events[1].cause == "due:heal:ash" and events[1].outcome.notes == ("Ash heals",)
    c = fold(c, events)
    assert c.timers == ()
    events = d.decide(c, d.Advance(), rules, Dice.scripted([]))  # day 8: the deadline
    assert events == [Dawn(8), Missed("m1")]
    c = fold(c, events)
    assert c.missed == (Posting("m1", "terror", 3, 8),) and c.offers == ()
    c = attrs.evolve(c, next_offer=40)
    events = d.decide(c, d.Advance(), rules, Dice.scripted([]))  # day 30: the month
    assert events[0] == Dawn(MONTH) and events[1].cause == "month" and events[1].outcome.funding == 100
    assert fold(c, events).funding == 150


def test_orders_and_refusals(content):
    rules = _rules(content)
    c = fold(Campaign(RULESET), d.decide(Campaign(RULESET), d.Begin(), rules, Dice.scripted([3])))
    events = d.decide(c, d.Give(Order("train", "Ash", "per")), rules, Dice.scripted([5]))
    c = fold(c, events)
    assert c.funding == 30 and Running(Timer(5, "train:Ash", "course"), 5) in c.timers
    refused = d.decide(c, d.Give(Order("gamble", "Ash")), rules, Dice.scripted([]))
    assert isinstance(refused, Rejected) and refused.code == "no_orders"
    assert d.decide(c, d.Deploy("m9", ()), rules, Dice.scripted([])).reason == "There is no mission 'm9' on offer"


# -- the log ------------------------------------------------------------------------------------------------


def test_same_seed_and_commands_make_the_same_bytes(content, tmp_path):
    logs = []
    for run in ("a", "b"):
        book = Ledger.new(content, tmp_path / run, "same", RULESET, seed_from_int(7), 7, [])
        for _ in range(3):
            book.submit(d.Advance())
        book.close()
        logs.append((tmp_path / run / LOG).read_bytes())
    assert logs[0] == logs[1] and logs[0].count(b"\n") == 5


def test_a_campaign_opened_again_folds_to_the_same_state(content, tmp_path):
    book = Ledger.new(content, tmp_path / "c", "c", RULESET, seed_from_int(8), None, [])
    for _ in range(4):
        book.submit(d.Advance())
    state = book.state
    book.close()
    again = Ledger.open(content, tmp_path / "c")
    assert again.state == state and again.header["seed_public"] is False  # a secret seed unless --seed
    assert not isinstance(again.submit(d.Advance()), Rejected)  # it carries on after the last record
    state = again.state
    again.close()
    assert Ledger.open(content, tmp_path / "c").state == state


# -- missions: the link, verify, resume mid-debrief -----------------------------------------------------------


@pytest.fixture(scope="module")
def flown(content, tmp_path_factory) -> Path:
    """A campaign of three missions, each played by the AI and debriefed by Standard's rules."""
    folder = tmp_path_factory.mktemp("campaign") / "three"
    book = Ledger.new(content, folder, "three", RULESET, seed_from_int(5), 5, [])
    for _ in range(3):
        posting = _to_offer(book)
        assert not isinstance(book.submit(d.Deploy(posting.id, _names(book))), Rejected)
        game = book.mission()
        play_out(game)
        assert not isinstance(book.land(game), Rejected)
        game.close()
    book.close()
    return folder


@pytest.mark.slow
def test_a_campaign_of_three_missions_verifies(content, flown):
    report = verify(content, flown)
    assert report.failure is None and report.missions == 3
    book = Ledger.open(content, flown)
    first = book.state.flown[0]
    header = log.read_header(flown / first.log)
    assert header["campaign"] == {"name": "three", "record": first.record, "hash": book.hashes[first.record]}
    assert header["seed_public"] == mission_number(book.seed, first.offer.id)  # a public campaign: public missions
    assert len(first.squad) == 6 and header["mission"]["squad"][0]["name"] == first.squad[0]
    assert header["mission"]["extra_turns"] == 2  # campaign.toml's (4.8), through Downtime.mission_params
    book.close()


@pytest.mark.slow
def test_a_mission_log_edited_afterwards_fails_naming_it(content, flown, tmp_path):
    copy = tmp_path / "three"
    shutil.copytree(flown, copy)
    book = Ledger.open(content, copy)
    target = copy / book.state.flown[1].log
    book.close()
    lines = target.read_bytes().split(b"\n")
    record = json.loads(lines[3])
    record["command"]["ai"] = "edited"
    lines[3] = json.dumps(record, separators=(",", ":")).encode()
    target.write_bytes(b"\n".join(lines))
    report = verify(content, copy)
    assert report.failure is not None and report.failure.startswith(f"mission m2 ({target.name}): line")


@pytest.mark.slow
def test_a_campaign_log_edited_fails_naming_the_record(content, flown, tmp_path, capsys):
    copy = tmp_path / "saves" / "campaigns" / "three"
    shutil.copytree(flown, copy)
    path = copy / LOG
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"day":', b'"day":1', 1)
    path.write_bytes(b"\n".join(lines))
    assert main(["--saves", str(tmp_path / "saves"), "campaign", "verify", "three"]) == 1
    assert capsys.readouterr().err.strip() == ("FAILED at campaign log line 3: changed after it was written "
                                               "(the next line holds its original hash)")


@pytest.mark.slow
def test_killed_mid_debrief_resumes_losing_nothing(content, tmp_path):
    folder = tmp_path / "killed"
    book = Ledger.new(content, folder, "killed", RULESET, seed_from_int(5), 5, [])
    posting = _to_offer(book)
    book.submit(d.Deploy(posting.id, _names(book)))
    game = book.mission()
    play_out(game)  # the mission ends, its log revealed and sealed ...
    last_hash = game.writer.last_hash
    game.close()
    book.close()  # ... and the process dies before the debrief record
    again = Ledger.open(content, folder)
    assert again.state.flying is not None and again.mission() is None
    done = again.finish()
    assert not isinstance(done, Rejected) and again.state.flying is None
    assert again.state.flown[-1].hash == last_hash and again.state.flown[-1].won == (game.state.winner == "xcom")
    again.close()
    assert verify(content, folder).failure is None


# -- bad input: one line --------------------------------------------------------------------------------------


def test_bad_input_is_one_line(tmp_path, capsys):
    saves = ["--saves", str(tmp_path)]
    assert main(saves + ["campaign", "verify", "missing"]) == 2
    assert capsys.readouterr().err.strip().endswith("start one with `xenotac campaign new`")
    assert main(saves + ["campaign", "advance", "../up"]) == 2
    assert "a campaign's name is 1-32 letters" in capsys.readouterr().err
    folder = tmp_path / "campaigns" / "bad"
    folder.mkdir(parents=True)
    (folder / LOG).write_bytes(b"not json\n")
    assert main(saves + ["campaign", "advance", "bad"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "line 1" in err
    assert main(saves + ["campaign", "new", "--ruleset", "nope"]) == 2
    assert "unknown ruleset 'nope'" in capsys.readouterr().err


def test_cli_new_advance_list(tmp_path, capsys):
    saves = ["--saves", str(tmp_path)]
    assert main(saves + ["campaign", "new", "--seed", "4", "--name", "one"]) == 0
    assert "8 characters (recruited)" in capsys.readouterr().out
    assert main(saves + ["campaign", "new", "--name", "one"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(saves + ["campaign", "advance", "one"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("— day ") and "mission m1 offered" in out
    assert main(saves + ["campaign", "list"]) == 0
    assert capsys.readouterr().out.startswith("one                  xcom-trpg")
    assert main(saves + ["campaign", "verify", "one"]) == 0
    assert "verified 3 campaign records and 0 missions" in capsys.readouterr().out


# -- a ruleset with a base and no characters (the test stub), through the log and verify ------------------------


@attrs.frozen
class Base:
    rooms: tuple[str, ...] = ()
    built: int = 0


class BaseFake(Fake):
    def begin(self, records, dice):
        return attrs.evolve(super().begin(records, dice), base=Base(("runway",)))

    def offers(self, records, base, funding, busy):
        return (Offer(Order("build", what="lab"), "Build a lab (3 days)", 20),) if "lab" not in base.rooms else ()

    def order(self, records, base, funding, busy, order, dice):
        if order.kind != "build" or funding < 20:
            return Rejected("no_funds", "Not enough funding")
        return Outcome(records=tuple(records), base=attrs.evolve(base, rooms=base.rooms + (order.what,)),
                       funding=-20, timers=(Timer(3, f"build:{order.what}", f"The {order.what} is built"),))

    def due(self, records, base, timer, dice):
        return Outcome(records=tuple(records), base=attrs.evolve(base, built=base.built + 1), notes=(timer.label,))


def test_a_base_round_trips_through_the_log_and_verifies(content, tmp_path, monkeypatch):
    import stub_ruleset
    from engine.campaign import simulate

    monkeypatch.setattr(stub_ruleset.D6Stub, "downtime", lambda self: BaseFake(self))
    folder = tmp_path / "based"
    book = Ledger.new(content, folder, "based", stub_ruleset.ID, seed_from_int(2), 2, [])
    assert book.state.records == () and book.state.base == Base(("runway",)) and book.state.funding == 50
    summary = simulate.play(book, 1)  # builds the lab on day 0 (the stub has no missions of its own content)
    book.close()
    again = Ledger.open(content, folder)
    assert again.state == book.state
    assert again.state.base == Base(("runway", "lab"), 2)  # two timers came due: the lab built, Ash healed
    assert again.state.funding == 50 - 20 + 100 and summary.funding == (30,) and summary.flown == 0
    assert again.state.timers == () and again.state.day == MONTH
    again.close()
    assert verify(content, folder).failure is None


def test_a_mission_log_left_empty_by_a_kill_is_begun_again(content, tmp_path):
    folder = tmp_path / "empty"
    book = Ledger.new(content, folder, "empty", RULESET, seed_from_int(5), 5, [])
    posting = _to_offer(book)
    book.submit(d.Deploy(posting.id, _names(book)))
    path = folder / book.state.flying.log
    path.write_bytes(b"")  # created and locked, then the process died before its seed and header
    game = book.mission()
    assert game.state.phase >= 1 and log.read_header(path)["campaign"]["record"] == book.state.flying.record
    game.close()
    book.close()


def test_a_header_whose_records_do_not_read_is_one_line(content, tmp_path, capsys):
    folder = tmp_path / "campaigns" / "bent"
    Ledger.new(content, folder, "bent", RULESET, seed_from_int(5), 5, []).close()
    assert main(["--saves", str(tmp_path), "campaign", "advance", "bent"]) == 0
    capsys.readouterr()
    path = folder / LOG
    lines = path.read_bytes().split(b"\n")
    header = json.loads(lines[0])
    header["records"] = [{"name": 3}]
    lines[0] = json.dumps(header, separators=(",", ":")).encode()
    path.write_bytes(b"\n".join(lines))
    assert main(["--saves", str(tmp_path), "campaign", "advance", "bent"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith("xenotac: ")
    assert main(["--saves", str(tmp_path), "campaign", "verify", "bent"]) == 1
    assert capsys.readouterr().err.startswith("FAILED at campaign log")


@pytest.mark.slow
def test_cli_simulate_plays_a_month_that_verifies_and_trials_report_intervals(tmp_path, capsys):
    saves = ["--saves", str(tmp_path)]
    assert main(saves + ["campaign", "simulate", "--ruleset", "neo-troops", "--seed", "3", "--months", "1"]) == 0
    out = capsys.readouterr().out
    assert "campaign sim-neo-troops-3:" in out and "missions flown" in out
    assert main(saves + ["campaign", "verify", "sim-neo-troops-3"]) == 0
    verified = capsys.readouterr().out
    assert "verified" in verified and "missions" in verified
    assert main(saves + ["campaign", "simulate", "--ruleset", "neo-troops", "--seed", "3", "--months", "1"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(saves + ["campaign", "simulate", "--ruleset", "neo-troops", "--months", "1", "--trials", "2"]) == 0
    report = capsys.readouterr().out.splitlines()
    assert report[0] == "neo-troops: 2 campaigns of 1 month, seeds 1-2"
    assert report[1].startswith("  squad survival") and "[" in report[1] and report[2].startswith("  missions won")
    assert report[3].startswith("95% intervals")  # neo-troops keeps no funding: no month's funding to report
    assert main(saves + ["campaign", "simulate", "--ruleset", "xxxzone", "--months", "1", "--trials", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[3].startswith("  funding, month 1")


def test_the_simulated_policy_waits_for_a_fit_squad_and_lets_a_thin_one_lapse(content, tmp_path, monkeypatch):
    """`campaign simulate` flies a mission once all its places can be filled; short of that it waits while the
    offer stays open past the next stop, and at its last chance flies with two thirds of the places or lets it go."""
    from engine.campaign import simulate

    book = Ledger.new(content, tmp_path / "wait", "wait", RULESET, seed_from_int(5), 5, [])
    names = [r.name for r in book.state.living()]
    assert len(names) == 8 and book.rules.places("eliminate") == 6
    unfit: set[str] = set()
    monkeypatch.setattr(book.downtime, "deploy_refusal",
                        lambda r, base, busy: f"{r.name} is hurt" if r.name in unfit else None)
    soon = d.next_day(book.state)
    open_long, last_chance = Posting("m9", "eliminate", 0, soon + 1), Posting("m9", "eliminate", 0, soon)
    assert simulate.squad(book, open_long) == tuple(names[:6])  # all eight fit: the first six
    unfit.update(names[:4])  # four of eight can go, so four of six places
    assert simulate.squad(book, open_long) is None  # wait: the offer is still open after the next stop
    assert simulate.squad(book, last_chance) == tuple(names[4:])  # 4 of 6 is two thirds: fly
    unfit.add(names[4])
    assert simulate.squad(book, last_chance) is None  # 3 of 6: let it lapse
    book.close()


def test_the_calendar_counts_one_event_due_many_times_the_same_day_on_one_line():
    wounds = tuple(Running(Timer(1, f"heal:bruce:{i}", "Bruce's Minor Wound heals", "Bruce"), 7) for i in range(4))
    c = Campaign("plain", day=6, timers=(*wounds, Running(Timer(1, "heal:ash:0", "Ash's Minor Wound heals", "Ash"), 7)))
    assert d.upcoming(c) == [(7, "Ash's Minor Wound heals"), (7, "4× Bruce's Minor Wound heals"),
                             (30, "first of the month: funding")]


def test_the_calendar_always_shows_the_offers_deadlines_and_the_next_offer():
    """Issue 18: eight wounds healing on eight days before them pushed the open offer's deadline and the next offer
    off the calendar's five lines."""
    wounds = tuple(Running(Timer(1, f"heal:bruce:{i}", f"Bruce's wound {i} heals", "Bruce"), 7 + i) for i in range(8))
    c = Campaign("plain", day=6, timers=wounds, offers=(Posting("m3", "crash", 6, 20),), next_offer=22)
    shown = d.upcoming(c, 5)
    assert shown == [(7, "Bruce's wound 0 heals"), (8, "Bruce's wound 1 heals"), (9, "Bruce's wound 2 heals"),
                     (20, "offer m3 (crash) expires"), (22, "a mission will be offered")]
    assert d.upcoming(attrs.evolve(c, timers=()), 5) == [(20, "offer m3 (crash) expires"),
                                                          (22, "a mission will be offered"),
                                                          (30, "first of the month: funding")]


def test_a_campaign_without_funding_has_no_first_of_the_month_on_its_calendar():
    c = Campaign("plain", day=6, offers=(Posting("m3", "crash", 6, 20),), next_offer=22)
    assert d.upcoming(c, 5, funded=False) == [(20, "offer m3 (crash) expires"), (22, "a mission will be offered")]
