"""Cells and steps: the plain geometry every room shares (positions are (x, y); arrays are [y, x])."""

from __future__ import annotations

Pos = tuple[int, int]  # (x, y)

# Orthogonal neighbours; diagonal steps are allowed for movement (Chebyshev distance, xcom-trpg 1.3).
ORTHOGONAL: tuple[Pos, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
NEIGHBOURS: tuple[Pos, ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")  # NEIGHBOURS' names: a facing index in words


def distance(a: Pos, b: Pos) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
