"""The base screen at 80×24 (tui/screens/basemap.py): the xxxzone starting base drawn, a facility chosen, its
footprint moved, turned and previewed (+ fits, x refused, with the reason), and the Order it returns."""

from __future__ import annotations

import asyncio

from engine.campaign.seam import Order, Timer
from engine.core.dice import Dice
from engine.rules.xxxzone.downtime import XxxzoneDowntime
from tui.app import XenotacApp
from tui.screens.basemap import BaseScreen
from tui.textshot import screen_text


def run(content, tmp_path, presses, funding=10):
    dt = XxxzoneDowntime(content)
    base = dt.begin((), Dice.scripted([])).base
    app = XenotacApp(content, tmp_path)
    got = []

    async def steps(pilot):
        screen = BaseScreen(dt, base, funding, frozenset())
        app.push_screen(screen, got.append)
        await pilot.pause()
        shots = []
        for keys in presses:
            await pilot.press(*keys)
            await pilot.pause()
            shots.append(screen_text(app))
        return screen, shots

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return await steps(pilot)

    screen, shots = asyncio.run(main())
    return dt, base, screen, shots, got


def test_choose_move_rotate_and_build(content, tmp_path):
    dt, base, screen, shots, got = run(content, tmp_path, [
        (), (), ("up",), ("down",), ("enter",)])
    first = shots[0]
    assert "Build · Base 1 · Surface (layer 0 of 0-2) · funding 10F" in first
    assert "A B C D E F G H I J K L M N O P" in first and " 5         A A A A A A A" in first  # E5: the Surface's corner
    assert "A A A A A A A" in first  # the Runway
    assert "+" in first and "✗" not in first.splitlines()[-3]
    moved = shots[2]  # one square up from a fitting spot: over something, refused with its reason
    assert "x" in moved and "✗ " in moved
    (order,) = got
    assert isinstance(order, Order) and order.kind == "build"
    assert dt.placement(base, order.what, order.where) is None


def test_refused_spot_is_not_returned_and_back_returns_none(content, tmp_path):
    dt, base, screen, shots, got = run(content, tmp_path, [("up", "up", "up", "up", "up"), ("enter",), ("escape",)])
    assert "✗ not on built ground" in shots[0] or "✗ overlap" in shots[0] or "✗ out of bounds" in shots[0]
    assert got == [None]


def test_firing_range_turned_and_placed(content, tmp_path):
    dt = XxxzoneDowntime(content)
    kinds = list(dict.fromkeys(o.order.what for o in dt.offers((), dt.begin((), Dice.scripted([])).base, 10,
                                                                    frozenset()) if o.order.kind == "build"))
    tabs = ("tab",) * kinds.index("firing_range")
    dt, base, screen, shots, got = run(content, tmp_path, [tabs, ("r",), ("r", "r", "r"), ("enter",)])
    import re

    assert "▸ Firing Range 1F" in shots[0]
    turned = [int(re.search(r"· turned (\d)", shot).group(1)) for shot in shots[:3]]
    assert turned[1] == (turned[0] + 1) % 4 and turned[2] == turned[0]
    (order,) = got
    assert order.what == "firing_range" and dt.placement(base, "firing_range", order.where) is None


def test_layers_and_help(content, tmp_path):
    dt, base, screen, shots, got = run(content, tmp_path, [(">",), (">",), ("<", "<", "<"), ("question_mark",)])
    assert "Excavation 1 (layer 1" in shots[0] and "E Command Center" in shots[0]
    assert "Layer 2 (not dug)" in shots[1]
    assert "Surface (layer 0" in shots[2]
    assert "HELP — basemap" in shots[3] and "r turns it" in shots[3]


def test_no_colour_still_tells_fit_from_refused(content, tmp_path, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    dt, base, screen, shots, got = run(content, tmp_path, [(), ("up",)])
    assert "+" in shots[0] and "+ Building the" in shots[0]
    assert " x " in shots[1] or "x " in shots[1]


def test_move_a_hangar_then_back_to_building(content, tmp_path):
    dt, base, screen, shots, got = run(content, tmp_path, [
        ("m",), ("tab", "tab", "tab"), ("enter",), ("down", "down", "down", "down", "right"), ("enter",)])
    assert "Move · Base 1 · Surface" in shots[0] and "▸ Runway" in shots[0] and "at E5" in shots[0]
    assert "✗ the Runway stands there already" in shots[0]
    assert "▸ Aircraft Hangar" in shots[1] and "at F6" in shots[1]
    assert "✗ the Aircraft Hangar stands there already" in shots[2]  # refused: only the last enter returns
    moved = shots[3]  # four squares down and one right: G10, by the Elevator
    assert "at G10" in moved and "+ Moving the Aircraft Hangar to G10 on the Surface, turned 0: 30 man-days by 5" \
        in moved and "(no funding)" in moved
    (order,) = got
    hangar = next(p for p in base.placed if p.facility == "aircraft_hangar")
    assert order == Order("move", what=hangar.key, where=(0, 6, 9, 0))
    assert dt.placement(base, "", order.where, moving=order.what) is None


def test_the_second_base_is_a_b_away(content, tmp_path):
    dt = XxxzoneDowntime(content)
    base = dt.begin((), Dice.scripted([])).base
    founded = dt.order((), base, 10, frozenset(), Order("found"), Dice.scripted([])).base
    ready = dt.due((), founded, Timer(64, "found:1", ""), Dice.scripted([])).base
    app = XenotacApp(content, tmp_path)
    got, shots = [], []

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            app.push_screen(BaseScreen(dt, ready, 10, frozenset()), got.append)
            await pilot.pause()
            for keys in [(), ("b",), ("enter",)]:
                await pilot.press(*keys)
                await pilot.pause()
                shots.append(screen_text(app))

    asyncio.run(main())
    assert "Build · Base 1 (1 of 2, b: next) · Surface" in shots[0] and "I Barracks" in shots[0]
    assert "Build · Base 2 (2 of 2, b: next) · Surface" in shots[1]
    assert "Barracks" not in shots[1].split("A Runway")[1]  # Base 2 has only the new base's parts
    (order,) = got
    assert order.kind == "build" and order.site == 1 and dt.placement(ready, order.what, order.where, site=1) is None
