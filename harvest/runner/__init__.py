"""The fleet: ``python run_all.py`` runs every spider in its own OS process (see harvest.runner.cli).

``main`` imports the fleet's command line only when called: every fleet child imports this
package for its own entry point (:mod:`harvest.runner.child`) and needs none of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run the fleet as the command line asks; return the exit code (harvest.runner.cli.main)."""
    # Imported when called: each fleet child imports this package (runner.child), never the CLI.
    from harvest.runner.cli import main as cli_main

    return cli_main(argv)


__all__ = ["main"]
