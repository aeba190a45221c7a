"""Battle maps: the grid, its generators and zones. tcod is loaded submodule by submodule (tcodlib)."""

from engine.map import tcodlib  # noqa: F401  (before any `import tcod.*`)
