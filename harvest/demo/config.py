"""The spider configs of ``--demo``: the three spiders pointed at the demo sites, small rounds.

Written as YAML into a temporary HARVEST_CONFIG_DIR, exactly like a user's spiders_config/, so
the demo exercises the same config loading and validation as a real run.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from harvest.demo.server import DemoSites

logger = logging.getLogger(__name__)


def demo_configs(sites: DemoSites) -> dict[str, dict[str, Any]]:
    """Spider name -> its YAML content for the demo."""
    blog = sites.urls()["blog"]
    return {
        "trending": {
            "languages": ["python", "rust"],
            "periods": ["daily", "weekly"],
            "developers": True,
            "readmes": True,
            "refresh_interval": "1d",
        },
        "github_search": {
            "refresh_interval": "1d",
            "queries": [
                # One page of results, each with its README through the API.
                {"query": "topic:web-scraping", "sort": "stars", "order": "desc", "readmes": True},
                # Two pages: pagination through the Link header.
                {"query": "created:>=2020-01-01", "sort": "updated", "readmes": False},
            ],
        },
        "blogs": {
            "refresh_interval": "1d",
            "sites": [
                {
                    "name": "crawl-notes",
                    "start_urls": [f"{blog}/"],
                    "feeds": [f"{blog}/atom.xml"],
                    "sitemaps": [f"{blog}/sitemap.xml"],
                }
            ],
        },
    }


def write_demo_config(config_dir: Path, sites: DemoSites) -> None:
    """Write ``<spider>.yaml`` for the three spiders into ``config_dir``."""
    config_dir.mkdir(parents=True, exist_ok=True)
    for spider, data in demo_configs(sites).items():
        text = f"# Written by run_all.py --demo: the {spider} spider against the demo sites.\n"
        text += yaml.safe_dump(data, sort_keys=False)
        (config_dir / f"{spider}.yaml").write_text(text, encoding="utf-8")
