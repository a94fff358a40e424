"""``run_all.py --demo``: sample sites harvest serves itself, so the fleet runs with no network.

The sites (a GitHub trending page in today's markup, a small GitHub API emulator, a small blog
with a feed and a sitemap) are generated in code from made-up data (harvest.demo.content), not
copied from anywhere, and served on 127.0.0.1 by the runner's own process.
"""

from __future__ import annotations

from harvest.demo.config import demo_configs, write_demo_config
from harvest.demo.server import DemoSites

__all__ = ["DemoSites", "demo_configs", "write_demo_config"]
