"""Scrapy's remote-control server, imported only when ``REMOTE_CONTROL_ENABLED`` is on.

Scrapy 2.19 lists ``scrapy.extensions.remote_control.RemoteControl`` among its base extensions
and imports it even when the setting is off; its module imports aiohttp, a good part of what
harvest adds to a crawl process's memory (BENCHMARKS.md, "Issue 18") for a server harvest keeps off
(``harvest/settings.py``). This stand-in takes its place in ``EXTENSIONS`` and builds Scrapy's
own extension when a user turns the setting on, so ``-s REMOTE_CONTROL_ENABLED=True`` still works.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.utils.misc import build_from_crawler

from harvest.exceptions import NotApplicable

if TYPE_CHECKING:
    from scrapy.crawler import Crawler


class RemoteControl:
    """Builds ``scrapy.extensions.remote_control.RemoteControl`` when the setting is on."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Any:
        """Scrapy's extension, or :class:`NotApplicable` while ``REMOTE_CONTROL_ENABLED`` is off."""
        if not crawler.settings.getbool("REMOTE_CONTROL_ENABLED"):
            raise NotApplicable("REMOTE_CONTROL_ENABLED is off")
        from scrapy.extensions.remote_control import RemoteControl as ScrapyRemoteControl

        return build_from_crawler(ScrapyRemoteControl, crawler)
