"""The picker's window of entries: long orders wrap onto two lines, so it counts lines, not entries."""

from tui.screens.picker import ROWS, lines, window


def test_a_long_entry_counts_the_lines_it_wraps_onto():
    assert lines("Recruit a new operative: Ash (2F)") == 1
    assert lines("Train Helmut Hartmann in Explosives Expert at the Firing Range (12 days)") == 2


def test_the_window_of_two_line_entries_fits_the_box_and_holds_the_cursor():
    heights = [2] * 40
    for index in (0, 7, 8, 20, 39):
        first, last = window(heights, index)
        assert first <= index < last
        assert sum(heights[first:last]) <= ROWS
        assert last - first == ROWS // 2  # as many as fit, not 16 entries of 32 lines
    assert window(heights, 0) == (0, 8) and window(heights, 39) == (32, 40)


def test_a_short_list_is_shown_whole():
    assert window([1, 2, 1], 1) == (0, 3)
