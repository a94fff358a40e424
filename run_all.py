#!/usr/bin/env python3
"""Run the whole harvest fleet: every spider in its own OS process (`python run_all.py --help`).

A thin shim over harvest.runner, so `python run_all.py` works from a clone without installing.
The __main__ guard matters: spider processes are started with the spawn method, which imports
this file again in each child.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from harvest.runner import main

    sys.exit(main())
