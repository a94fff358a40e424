"""``python -m harvest.runner``: the same as ``python run_all.py``."""

from __future__ import annotations

import sys

from harvest.runner.cli import main

if __name__ == "__main__":
    sys.exit(main())
