"""`xenotac serve`: a shared SSH host with a lobby, per-player saves and live spectating.

- accounts:  names, scrypt passwords, public keys, each player's folder
- limits:    per-address rate limits and the host's settings, with an injectable clock
- status:    the online table the lobbies read, and one-line descriptions of a log
- lobby, lists:  the Textual lobby and its lists of live and finished missions
- follow:    the replay viewer following a log as it is written (spectating)
- watchcount:    the player's game says who is watching
"""
