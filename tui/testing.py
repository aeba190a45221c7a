"""Helpers the tests and the benchmarks share: fixed-seed sessions and a way to reach first contact."""

from __future__ import annotations

import asyncio
from pathlib import Path

from engine.core.commands import EndTurn, Move
from engine.content.models import Content
from engine.core.dice import seed_from_int
from tui.session import Session


def new_session(content: Content, folder: Path, seed: int = 1, mission: str = "eliminate",
                name: str | None = None, casual: bool = False) -> Session:
    path = folder / (name or f"{mission}-seed{seed}.jsonl")
    return Session.new(content, "xcom-trpg", mission, seed_from_int(seed), path, casual=casual)


def hostiles_in_sight(session: Session) -> list:
    seen = session.chronicle.spotted
    return [u for u in session.state.units.values() if u.side != session.side and u.status == "active" and u.id in seen]


def advance_to_contact(session: Session, max_phases: int = 15) -> bool:
    """Walk the squad towards the hostiles, two cells a soldier a phase, until one is in sight on the
    squad's turn. The commands are ordinary logged commands, as a player would give them."""
    for _ in range(max_phases):
        if session.over:
            return False
        if hostiles_in_sight(session):
            return True
        for unit in session.ready():
            state = session.state
            hostiles = [a for a in state.units.values() if a.side != session.side and a.status == "active"]
            if not hostiles:
                return False
            goal = min(hostiles, key=lambda a: (max(abs(a.pos[0] - unit.pos[0]), abs(a.pos[1] - unit.pos[1])), a.id))
            path = state.grid.path(unit.pos, goal.pos, [a.pos for a in hostiles])[:2]
            if path:
                session.submit(Move(unit=unit.id, path=tuple(path)))
        session.submit(EndTurn(side=session.side))
        while not session.players_turn and not session.over:
            session.ai_step()
    return bool(hostiles_in_sight(session))


def run_app(app, steps, size: tuple[int, int] = (80, 24)):
    """Run `steps(pilot)` on the app at `size` (80×24, the game's promise) after its first paint; its result."""
    async def go():
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            return await steps(pilot)

    return asyncio.run(go())
