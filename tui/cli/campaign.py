"""`xenotac campaign new|resume|list|verify|advance|simulate`: a campaign, its folder in saves/campaigns/NAME/."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tui.cli.common import BadInput, at_most, check_playable, load_content, secret, seed
from tui.saves import saves_dir


def add_parser(sub) -> None:
    camp = sub.add_parser("campaign", help="a campaign: missions, a calendar and a squad that remembers")
    csub = camp.add_subparsers(dest="campaign_cmd", required=True, metavar="new|resume|list|verify|advance|simulate")
    new = csub.add_parser("new", help="start a campaign (the roster's characters of the ruleset, else its "
                                       "pre-generated squad, else recruits)")
    new.add_argument("--ruleset", default="xcom-trpg")
    new.add_argument("--seed", type=seed, help="a public seed: anyone can foresee the campaign's dice")
    new.add_argument("--name", help="the campaign's name (default: RULESET-N)")
    resume = csub.add_parser("resume", help="open a campaign in the client (default: the latest)")
    resume.add_argument("name", nargs="?")
    resume.add_argument("--keys", metavar="FILE", default=argparse.SUPPRESS, help="key map TOML")
    csub.add_parser("list", help="the campaigns in the save folder")
    verify = csub.add_parser("verify", help="re-derive a campaign and every mission it launched")
    verify.add_argument("name")
    advance = csub.add_parser("advance", help="let days go by to the next event, and say what happened")
    advance.add_argument("name")
    advance.add_argument("--rolls", action="store_true",
                         help="every note, timer and roll on its own line (default: in brief, a soldier's wounds "
                              "on one line)")
    sim = csub.add_parser("simulate", help="a whole campaign played by the AI (see engine/campaign/simulate.py)")
    sim.add_argument("--ruleset", action="append", help="the ruleset (repeat with --trials to compare)")
    sim.add_argument("--seed", type=seed, default=1)
    sim.add_argument("--months", type=at_most(24, "months"), default=1)
    sim.add_argument("--trials", type=at_most(1000, "trials"), metavar="K",
                     help="K campaigns in memory per ruleset: squad survival, missions won, funding, with 95%% "
                          "intervals")
    sim.add_argument("--name", help="the campaign's name in the save folder (default: sim-RULESET-SEED)")


def run(args: argparse.Namespace) -> int:
    return {"new": cmd_new, "resume": cmd_resume, "list": cmd_list, "verify": cmd_verify, "advance": cmd_advance,
            "simulate": cmd_simulate}[args.campaign_cmd](args)


def _folder(args: argparse.Namespace, name: str) -> Path:
    from engine.campaign import ledger

    ledger.check_name(name)
    folder = ledger.folder_of(saves_dir(args.saves), name)
    if not (folder / ledger.LOG).is_file():
        known = ledger.campaigns(saves_dir(args.saves))
        raise BadInput(f"no campaign {name!r} in {folder.parent}" +
                       (f"; one of {', '.join(known)}" if known else "; start one with `xenotac campaign new`"))
    return folder


def _ruleset_of(folder: Path) -> list[str] | None:
    from engine.campaign.ledger import LOG
    from engine.log import writer as log

    try:
        for n, _off, raw in log.read_lines(folder / LOG):
            named = log.parse(raw, n).get("ruleset")
            return [named] if isinstance(named, str) else None
    except (log.LogError, OSError):
        return None
    return None


def open_book(args: argparse.Namespace, name: str):
    """The campaign carried on, a mission that ended before its debrief debriefed; its notes on stderr."""
    from engine.campaign.ledger import Ledger

    folder = _folder(args, name)
    content = load_content(args.content, _ruleset_of(folder))
    book = Ledger.open(content, folder)
    finished = book.finish()
    if finished is not None and not isinstance(finished, list):
        book.notes.append(f"the last mission could not be debriefed: {finished}")
    elif finished:
        from engine.campaign.story import told

        book.notes.append("the last mission had ended before its debrief was written: debriefed now")
        book.notes += told(finished, whole=False)
    for note in book.notes:
        print(f"note: {note}", file=sys.stderr)
    return book


def cmd_new(args: argparse.Namespace) -> int:
    from engine.campaign import ledger
    from tui import squad

    content = load_content(args.content, [args.ruleset])
    check_playable(content, args.ruleset)
    saves = saves_dir(args.saves)
    name = args.name or _free_name(saves, args.ruleset)
    ledger.check_name(name)
    folder = ledger.folder_of(saves, name)
    if folder.exists():
        raise BadInput(f"a campaign named {name} already exists in {folder.parent}; choose another --name")
    characters = squad.read(content, squad.path_of(saves), BadInput, only=args.ruleset)
    characters = [c for c in characters if c.ruleset == args.ruleset]
    key, public = secret(args.seed)
    book = ledger.Ledger.new(content, folder, name, args.ruleset, key, public, characters)
    book.close()
    print(f"campaign {name}: {folder}")
    made = "from the roster" if characters else "pre-generated" if book.header["records"] else "recruited"
    print(f"{len(book.state.records)} characters ({made}), "
          f"the first mission offered on day {book.state.next_offer}")
    print(f"play it with `xenotac campaign resume {name}`")
    return 0


def _free_name(saves: Path, ruleset: str) -> str:
    from engine.campaign import ledger

    taken = set(ledger.campaigns(saves))
    return next(f"{ruleset}-{i}" for i in range(1, 10_000) if f"{ruleset}-{i}" not in taken)


def cmd_list(args: argparse.Namespace) -> int:
    from engine.campaign import ledger
    from engine.campaign.codec import CodecError
    from engine.log import writer as log

    saves = saves_dir(args.saves)
    names = ledger.campaigns(saves)
    if not names:
        print(f"no campaigns in {saves / 'campaigns'}; start one with `xenotac campaign new`")
    for name in names:
        folder = ledger.folder_of(saves, name)
        try:
            book = ledger.Ledger.open(load_content(args.content, _ruleset_of(folder)), folder)
        except (log.LogError, CodecError, BadInput) as exc:
            print(f"{name:<20} cannot be read: {exc}")
            continue
        s = book.state
        flying = f", mission {s.flying.offer.id} under way" if s.flying else ""
        funding = f"funding {s.funding:<6}" if book.downtime.funded else " " * 14
        print(f"{name:<20} {book.ruleset_id:<13} day {s.day:<4} {funding} "
              f"{len(s.living())}/{len(s.records)} alive, {len(s.flown)} flown{flying}")
        book.close()
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from engine.campaign.verify import verify

    folder = _folder(args, args.name)
    content = load_content(args.content, _ruleset_of(folder))
    report = verify(content, folder)
    for note in report.notes:
        print(f"note: {note}")
    if report.failure is not None:
        print(f"FAILED at {report.failure}", file=sys.stderr)
        return 1
    print(f"verified {report.records} campaign records and {report.missions} missions")
    return 0


def cmd_advance(args: argparse.Namespace) -> int:
    from engine.campaign import decide as d
    from engine.campaign.story import told
    from engine.core.commands import Rejected

    book = open_book(args, args.name)
    try:
        events = book.submit(d.Advance())
    finally:
        book.close()
    if isinstance(events, Rejected):
        raise BadInput(events.reason)
    for line in told(events, whole=args.rolls):
        print(line)
    return 0


def cmd_resume(args: argparse.Namespace) -> int:
    from engine.campaign import ledger
    from tui import launch

    saves = saves_dir(args.saves)
    name = args.name or ledger.latest(saves)
    if name is None:
        raise BadInput(f"no campaign in {saves / 'campaigns'}; start one with `xenotac campaign new`")
    return launch.campaign(args, open_book(args, name))


def cmd_simulate(args: argparse.Namespace) -> int:
    rulesets = args.ruleset or ["xcom-trpg"]
    if args.trials:
        return _trials(args, rulesets)
    if len(rulesets) > 1:
        raise BadInput("one --ruleset for a single campaign; several only with --trials")
    from engine.campaign import ledger, simulate
    from engine.core.dice import seed_from_int

    content = load_content(args.content, rulesets)
    check_playable(content, rulesets[0])
    saves = saves_dir(args.saves)
    name = args.name or f"sim-{rulesets[0]}-{args.seed}"
    ledger.check_name(name)
    folder = ledger.folder_of(saves, name)
    if folder.exists():
        raise BadInput(f"a campaign named {name} already exists in {folder.parent}; choose another --name")
    book = ledger.Ledger.new(content, folder, name, rulesets[0], seed_from_int(args.seed), args.seed, [])
    try:
        summary = simulate.play(book, args.months)
    finally:
        book.close()
    print(f"campaign {name}: {folder}")
    print(f"day {summary.days}: {summary.flown} missions flown, {summary.won} won, {summary.missed} missed; "
          f"{summary.alive} of {summary.recruits} alive")
    if book.downtime.funded:
        print("funding at each month's end: " + (", ".join(str(f) for f in summary.funding) or "—"))
    print(f"verify it with `xenotac campaign verify {name}`")
    return 0


def _trials(args: argparse.Namespace, rulesets: list[str]) -> int:
    from rich.console import Console
    from rich.progress import Progress

    from engine.campaign import ledger, simulate
    from engine.core.dice import seed_from_int
    from engine.play.balance import mean_interval, wilson

    if args.name:
        raise BadInput("--trials plays in memory: it takes no --name")
    content = load_content(args.content, rulesets)
    for rid in rulesets:
        check_playable(content, rid)
    rows, funded = [], {}
    with Progress(console=Console(stderr=True), transient=True) as bar:  # the report alone on stdout
        for rid in rulesets:
            task = bar.add_task(f"{rid}: campaigns", total=args.trials)
            results = []
            for i in range(args.trials):
                book = ledger.Ledger.new(content, None, f"trial-{i}", rid, seed_from_int(args.seed + i), None, [])
                results.append(simulate.play(book, args.months))
                funded[rid] = book.downtime.funded
                bar.advance(task)
            rows.append((rid, results))
    for rid, results in rows:
        alive = simulate.survival(results)
        flown = sum(r.flown for r in results)
        won = sum(r.won for r in results)
        wlow, whigh = wilson(won, flown)
        print(f"{rid}: {args.trials} campaigns of {args.months} month{'s' if args.months > 1 else ''}, "
              f"seeds {args.seed}-{args.seed + args.trials - 1}")
        print(f"  squad survival  {100 * alive['mean']:.0f}% [{100 * alive['low']:.0f}–{100 * alive['high']:.0f}%] "
              f"alive at the end, mean of {alive['trials']} campaigns ({sum(r.recruits for r in results)} characters)")
        print(f"  missions won    {100 * won / max(1, flown):.0f}% [{100 * wlow:.0f}–{100 * whigh:.0f}%] of {flown} "
              f"flown; {_mean(mean_interval([float(r.won) for r in results]))} per campaign; "
              f"{sum(r.missed for r in results)} left to lapse")
        for m in range(args.months if funded[rid] else 0):
            values = [float(r.funding[m]) for r in results if len(r.funding) > m]
            print(f"  funding, month {m + 1:<2} {_mean(mean_interval(values))}")
    print("95% intervals: survival a Student-t over the campaigns (each its share alive), Wilson for missions won, "
          "±1.96 standard errors for means.")
    return 0


def _mean(v: dict) -> str:
    return f"{v['mean']:.1f} [{v['low']:.1f}–{v['high']:.1f}]"
