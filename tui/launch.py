"""Entry points that need the terminal client: the title menu, `play` and `resume`."""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    raise SystemExit("xenotac: the terminal client is not built yet; try `xenotac simulate`")
