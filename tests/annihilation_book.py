"""The shipped annihilation book, for tests that ask `soldier.gun` which held thing is a weapon."""

from engine.content import loader, tables
from engine.rules.annihilation.book import Book
from engine.rules.annihilation.schema import SCHEMA

BOOK = Book.of(tables.load_folder(loader.default_dir(), "annihilation", SCHEMA))
