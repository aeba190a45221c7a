"""`xenotac serve`: a shared SSH host with a lobby, per-player saves and live spectating.

- accounts:  names, scrypt passwords, public keys, each player's folder
- limits:    per-address rate limits and the host's settings, with an injectable clock
"""
