"""harvest: collect GitHub Trending, GitHub search and blog/docs articles with Scrapy."""

from __future__ import annotations

__version__ = "0.1.0"
