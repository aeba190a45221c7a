"""A child process that runs many `xenotac ARGS` in turn, as the hostile-file test gives them: each one in-process
with a time limit of its own, its stderr read at the file descriptor (what a terminal would show), its exit code as
the process would have it (an uncaught exception: 1 and its traceback). One interpreter start-up for many readers.

    python tests/reader_batch.py CASES.json RESULTS.json SECONDS
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import traceback


class TimeLimit(Exception):
    pass


def _alarm(_signum, _frame):
    raise TimeLimit


def one(main, argv: list[str], seconds: int) -> tuple[int, str]:
    with tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(err.fileno(), 2)
        signal.alarm(seconds)
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except TimeLimit:
            code = -signal.SIGALRM
            print(f"no answer in {seconds} s", file=sys.stderr)
        except BaseException:  # noqa: BLE001 - what the interpreter would print and exit 1 with
            code = 1
            traceback.print_exc()
        finally:
            signal.alarm(0)
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
        err.seek(0)
        return code, err.read().decode("utf-8", "replace")


def run(cases_path: str, results_path: str, seconds: int) -> None:
    signal.signal(signal.SIGALRM, _alarm)
    sink = os.open(os.devnull, os.O_WRONLY)
    os.dup2(sink, 1)  # what the readers print is not the test's concern; what they say on stderr is
    from tui.cli import main

    with open(cases_path, encoding="utf-8") as f:
        cases = json.load(f)
    results = [one(main, argv, seconds) for argv in cases]
    with open(results_path, "w", encoding="utf-8") as f:
        json.dump(results, f)


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2], int(sys.argv[3]))
