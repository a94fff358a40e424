"""Helpers every layer may use.

Units and sizes, the machine, paths, redaction, waits, JSON Lines, atomic file writes, a
loopback HTTP server.
"""
