"""The screen as plain text, for tests and the key fuzzer: what a player would read."""

from __future__ import annotations

from textual.app import App


def screen_text(app: App) -> str:
    strips = app.screen._compositor.render_strips()  # noqa: SLF001 - no public text export in Textual
    return "\n".join("".join(seg.text for seg in strip).rstrip() for strip in strips)
