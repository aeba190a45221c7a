"""The title menu's Campaign entry: resume a campaign of the save folder, or start one under a ruleset."""

from __future__ import annotations

import secrets

from engine.campaign import ledger


def entries(app) -> list[tuple[str, tuple[str, str]]]:
    from engine.play import catalog

    out = [(f"Resume {name}", ("open", name)) for name in ledger.campaigns(app.saves)]
    out += [(f"New {rid} campaign", ("new", rid)) for rid in catalog.rulesets(app.content)]
    return out


def choose(app) -> None:
    from tui.screens.picker import Picker

    app.push_screen(Picker("Campaign", entries(app)), lambda picked: _open(app, picked))


def _open(app, picked: tuple[str, str] | None) -> None:
    """A new campaign (a secret seed; the roster's characters of its ruleset, else the ruleset's pre-generated
    squad, else recruits) or one carried on."""
    from engine.campaign.codec import CodecError
    from engine.log import writer as log
    from engine.play import roster
    from tui.screens.campaign import CampaignScreen
    from tui.widgets.panels import StatusLine

    if picked is None:
        return
    what, value = picked
    try:
        if what == "new":
            taken = set(ledger.campaigns(app.saves))
            name = next(f"{value}-{i}" for i in range(1, 10_000) if f"{value}-{i}" not in taken)
            characters = [c for c in roster.load(app.saves / roster.FILE, app.content, only=value)
                          if c.ruleset == value]
            book = ledger.Ledger.new(app.content, ledger.folder_of(app.saves, name), name, value,
                                     secrets.token_bytes(32), None, characters)
        else:
            book = ledger.Ledger.open(app.content, ledger.folder_of(app.saves, value))
            if book.finish():
                book.notes.append("the last mission had ended before its debrief was written: debriefed now")
    except (log.LogError, CodecError, roster.RosterError, OSError) as exc:
        app.screen.query_one(StatusLine).message = f"✗ {exc}"
        return
    app.sessions.append(book)
    app.push_screen(CampaignScreen(book))
