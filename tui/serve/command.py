"""`xenotac serve [--listen HOST:PORT] [--root DIR]`: run a shared SSH host until Ctrl+C or SIGTERM.

Nothing here imports asyncssh or Textual until the host starts, so the other subcommands stay
headless and work without the `server` extra.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from pathlib import Path

DEFAULT_LISTEN = "127.0.0.1:2222"


def listen_address(text: str) -> tuple[str, int]:
    """`HOST:PORT`, `[IPv6]:PORT` or `:PORT` (all addresses)."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT with a port 0-65535, got {text!r}")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if any(c.isspace() or c in "/[]" for c in host):
        raise argparse.ArgumentTypeError(f"not a host name or address: {host!r}")
    return host or "0.0.0.0", int(port)


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return int(text)


def add_parser(sub) -> None:
    p = sub.add_parser("serve", help="host games over SSH: a lobby, per-player saves, live spectating")
    p.add_argument("--listen", type=listen_address, default=listen_address(DEFAULT_LISTEN), metavar="HOST:PORT",
                   help=f"address to listen on (default {DEFAULT_LISTEN}; :PORT for every address)")
    p.add_argument("--root", default="xenotac-host", metavar="DIR",
                   help="the host's folder: host key, accounts, players' saves, server.log (default ./xenotac-host)")
    p.add_argument("--max-sessions", type=_count, default=32, metavar="N", help="sessions at once (default 32)")
    p.add_argument("--max-per-player", type=_count, default=3, metavar="N", help="sessions per player (default 3)")
    p.add_argument("--idle-timeout", type=_count, default=30, metavar="MIN",
                   help="minutes without a key before a session is closed (default 30)")


def run(args: argparse.Namespace) -> int:
    from tui.cli.common import BadInput

    try:
        import asyncssh  # noqa: F401 - only to say clearly when the extra is missing
    except ImportError:
        raise BadInput("xenotac serve needs asyncssh: pip install 'xenotac[server]'") from None
    from tui.serve.host import BadSetup
    from tui.serve.limits import Config

    host, port = args.listen
    config = Config(root=Path(args.root).resolve(), host=host, port=port, max_sessions=args.max_sessions,
                    max_per_player=args.max_per_player, idle_timeout=args.idle_timeout * 60.0)
    try:
        asyncio.run(serve(config))
    except BadSetup as exc:
        raise BadInput(str(exc)) from None
    except OSError as exc:
        raise BadInput(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return 0


async def serve(config, ready=None) -> None:
    """Runs the host until SIGINT or SIGTERM; `ready(host, port)` is told where it listens."""
    from tui.serve.host import Host

    host = Host(config)
    address, port = await host.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    print(f"xenotac serve: listening on {address}:{port}, root {config.root}", flush=True)
    print(f"host key {host.fingerprint}; players connect with: ssh -p {port} NAME@{_shown(address)}", flush=True)
    if ready is not None:
        ready(address, port)
    try:
        await stop.wait()
    finally:
        print("xenotac serve: stopping (every game is saved)", file=sys.stderr, flush=True)
        await host.stop()


def _shown(address: str) -> str:
    return "localhost" if address in ("127.0.0.1", "::1", "0.0.0.0", "::") else address
