"""verify.ends: what `conclude` reads of a log, taken in one pass over its lines without keeping them."""

from engine.play.verify import ends


def _lines():
    yield b'{"n":1,"kind":"header"}'
    yield b'{"n":2,"kind":"command","base":1,"command":{},"events":[{"kind":"moved"}],"state":"x","prev":"p"}'
    yield b'{"n":3,"kind":"command","base":2,"command":{},"events":[{"kind":"ended","winner":"xcom"}],"prev":"p"}'
    yield b'{"n":4,"kind":"reveal","seed":"00","prev":"p"}'


def test_ends_names_the_first_and_last_lines_their_count_and_the_ending_command():
    got = ends(_lines())
    assert (got.first, got.count, got.ended) == (b'{"n":1,"kind":"header"}', 4, 3)
    assert got.last.startswith(b'{"n":4,"kind":"reveal"')


def test_a_line_that_only_mentions_an_ending_is_no_ending():
    lines = [b'{"n":1,"kind":"header"}', b'{"n":2,"kind":"noted","cause":"\\"kind\\":\\"ended\\""}']
    assert ends(iter(lines)).ended == 0

