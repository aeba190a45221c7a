"""`xenotac serve`: a shared SSH host with a lobby, per-player saves and live spectating.

The server (asyncssh, an optional extra) runs in one process; every program a player sees -- the
lobby, the game, the live viewer -- runs in its own pseudo-terminal and process, started by
`tui.serve.child`. Modules:

- command:   the `serve` subcommand (no asyncssh or Textual at import)
- accounts:  names, scrypt passwords, public keys, each player's folder
- limits:    per-address rate limits and the host's settings, with an injectable clock
- status:    the online table the lobbies read, and one-line descriptions of a log
- host:      the SSH server: authentication, the session cap, idle sweeps, the server log
- seat:      one SSH session: the login prompts, then lobby → game or watcher → lobby
- login:     who is at the terminal: a registered key, a password, or a new name registering
- spawn:     a program in a pseudo-terminal, bridged to the SSH channel
- child:     what runs inside that pseudo-terminal
- lobby, lists:  the Textual lobby and its lists of live and finished missions
- follow:    the replay viewer following a log as it is written (spectating)
- watchcount:    the player's game says who is watching
- sshterm:   an SSH client terminal read back through pyte, for the tests and the load benchmark
"""
