"""The host as a newcomer meets it: `xenotac serve` started as a command, and OpenSSH's `ssh` in a
real pseudo-terminal at 80×24. Skipped where the machine has no `ssh` (.ci/run installs
openssh-client when its package manager allows).
"""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

asyncssh = pytest.importorskip("asyncssh", reason="the server extra (asyncssh) is not installed")

from tui.ptyterm import KEYS, Terminal, env_for_terminal  # noqa: E402

SSH = shutil.which("ssh")
pytestmark = pytest.mark.skipif(SSH is None, reason="OpenSSH's ssh client is not installed "
                                                    "(.ci/run installs openssh-client where apt is available)")
ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "correct horse"


@pytest.fixture
def host(tmp_path):
    """`xenotac serve` on a free port; stopped with SIGTERM, as a service manager would."""
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from tui.cli import main; sys.exit(main())", "serve",
                             "--listen", "127.0.0.1:0", "--root", str(tmp_path / "host")], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        line = proc.stdout.readline() if ready else ""
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        assert found, (line, proc.poll())
        yield int(found.group(1)), tmp_path / "host", proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture
def key(tmp_path) -> Path:
    path = tmp_path / "id_ed25519"
    asyncssh.generate_private_key("ssh-ed25519").write_private_key(path)
    os.chmod(path, 0o600)
    return path


def ssh(port: int, user: str, key: Path | None, *extra: str) -> list[str]:
    args = [SSH, "-F", "/dev/null", "-p", str(port), "-o", "StrictHostKeyChecking=no", "-o",
            "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"]
    args += ["-i", str(key), "-o", "IdentitiesOnly=yes"] if key else ["-o", "PubkeyAuthentication=no"]
    return [*args, *extra, f"{user}@127.0.0.1"]


@pytest.mark.slow
def test_a_newcomer_registers_plays_and_resumes_with_plain_ssh(host, key):
    port, root, proc = host
    term = Terminal(ssh(port, "anna", key, "-tt"), env=env_for_terminal())
    try:
        assert term.wait_for("'anna' is a new name here", "Password (8 characters or more)"), term.text()
        term.send(PASSWORD + "\r")
        assert term.wait_for("The same again"), term.text()
        term.send(PASSWORD + "\r")
        assert term.wait_for("Online now", "you are anna"), term.text()
        term.send("n")
        assert term.wait_for("Start mission"), term.text()
        term.send("s")
        assert term.wait_for("Phase 1/40", "save+quit", timeout=60), term.text()
        term.send("k" + KEYS["enter"])
        assert term.wait_for("Anton moves to"), term.text()
        term.settle()  # the needle can arrive before the rest of its line: read the frame to its end
        found = re.search(r"Anton moves to (\d+,\d+)", term.text())
        assert found, term.text()
        cell = found.group(1)
        term.send("q")
        assert term.wait_for("Online now", "Resume Eliminate"), term.text()
        term.send("q")
        assert term.wait(20) == 0
    finally:
        term.kill()

    # the key it offered was registered with the name: BatchMode, no password asked
    term = Terminal(ssh(port, "anna", key, "-tt", "-o", "BatchMode=yes"), env=env_for_terminal())
    try:
        assert term.wait_for("Online now", "Resume Eliminate"), term.text()
        assert "Password" not in term.text()
        term.send(KEYS["enter"])
        assert term.wait_for("Phase 1/40", f"Anton moves to {cell}", timeout=60), term.text()
        assert "Actions 1/2" in term.text()
    finally:
        term.kill(signal.SIGHUP)  # the terminal window is closed mid-mission

    proc.send_signal(signal.SIGTERM)
    assert proc.wait(30) == 0
    lines = (root / "server.log").read_text().splitlines()
    assert any(" register anna 127.0.0.1 with a key" in ln for ln in lines)
    assert any(" login anna 127.0.0.1 key" in ln for ln in lines) and lines[-1].endswith(" stop")


def test_plain_ssh_gets_one_line_for_a_bad_name_and_for_a_command(host, key, tmp_path):
    port, _root, _proc = host
    term = Terminal(ssh(port, "a/b", None, "-tt"), env=env_for_terminal())
    try:
        assert term.wait(30) == 2
        said = [ln for ln in term.text().splitlines() if ln.strip()]
        assert len(said) == 1 and said[0].startswith("xenotac: 'a/b' is not a name"), term.text()
    finally:
        term.kill()
    done = subprocess.run(ssh(port, "anna", None, "-T", "-o", "KbdInteractiveAuthentication=yes") + ["ls", "/"],
                          capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert done.stdout == "xenotac: this host runs only the game: connect without a command (ssh -t NAME@HOST)\n"
    started = time.monotonic()
    done = subprocess.run(ssh(port, "anna", key, "-T", "-s", "-o", "BatchMode=yes") + ["sftp"],
                          capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert done.returncode != 0 and time.monotonic() - started < 30  # no SFTP subsystem: refused, no hang
