"""The game's engine. attrs and cattrs get a compile that keeps what it compiled (engine.core.codecache) before any
module here defines a class."""

from engine.core import codecache

codecache.install()
