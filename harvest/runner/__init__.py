"""The fleet: ``python run_all.py`` runs every spider in its own OS process (see harvest.runner.cli)."""

from __future__ import annotations

from harvest.runner.cli import main

__all__ = ["main"]
