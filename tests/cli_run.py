"""`xenotac ARGS` in-process, as the tests of the command line run it: (exit code, stdout, stderr)."""

from __future__ import annotations

from tui.cli import main


def run(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err
