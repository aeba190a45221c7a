"""Cover on a line of fire in the spec's words (`crate 20 adjacent, fence 5 half`)."""

from __future__ import annotations


def cover_words(pieces, hunkered: bool = False) -> str:
    out = []
    for p in pieces:
        if p.adjacent:
            value, how = (2 * p.value, "adjacent ×2") if hunkered else (p.value, "adjacent")
        else:
            value, how = p.value // 2, "half"
        out.append(f"{p.label} {value} ({how}, HP {p.hp})")
    return ", ".join(out)
