"""Test spiders: fetch N pages from a loopback site, one document each; or crash; or hang.

Settings they read (passed with -s by the tests):
- TEST_SITE_URL: base URL of the loopback server;
- TEST_PAGES: pages per spider (default 10), at ``<site>/<spider>/<i>``;
- TEST_CRASH_AFTER: the ``crashy`` spider SIGKILLs its own process on this response (default 2);
- TEST_HANG_AFTER: the ``hangs`` spider blocks its reactor on this response (default 1).

Each item records the pid of the process that wrote it (in ``author``), so tests can check that
every spider ran in its own process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import scrapy

from harvest.fingerprints import content_hash, utc_now
from harvest.items import DocumentItem
from harvest.spiders.base import HarvestSpider
from harvest.state.crawl import CrawlState
from harvest.util.paths import safe_name


class PagesSpider(HarvestSpider):
    """Fetches TEST_PAGES pages and stores each as a document."""

    name = "alpha"
    responses = 0

    async def start(self) -> AsyncIterator[Any]:
        site = self.settings.get("TEST_SITE_URL").rstrip("/")
        for i in range(self.settings.getint("TEST_PAGES", 10)):
            yield scrapy.Request(
                f"{site}/{self.name}/{i}",
                meta={"harvest_kind": "document", "harvest_ttl": None},
            )

    def parse(self, response: Any) -> Iterator[DocumentItem]:
        self.responses += 1
        self.on_response()
        text = f"# {self.name} {response.url}\n\n" + response.text
        yield DocumentItem(
            url=response.url,
            title=f"{self.name} {response.url.rsplit('/', 1)[-1]}",
            path=f"pages/{safe_name(response.url)}.md",
            content_hash=content_hash(text),
            fetched_at=utc_now(),
            source="test",
            content=text,
            author=str(os.getpid()),
        )

    def on_response(self) -> None:
        pass


class BetaSpider(PagesSpider):
    name = "beta"


class GammaSpider(PagesSpider):
    name = "gamma"


class CrashySpider(PagesSpider):
    """Dies like an OOM kill would: SIGKILL, no cleanup, no close reason."""

    name = "crashy"

    def on_response(self) -> None:
        if self.responses >= self.settings.getint("TEST_CRASH_AFTER", 2):
            # Commit first, so each process leaves items behind whatever the commit timer did
            # (tests count them); the kill still lands with this response's item in flight.
            CrawlState.required(self.crawler).commit()
            os.kill(os.getpid(), signal.SIGKILL)


class HangsSpider(PagesSpider):
    """Blocks its reactor forever: no progress, no heartbeat."""

    name = "hangs"

    def on_response(self) -> None:
        if self.responses >= self.settings.getint("TEST_HANG_AFTER", 1):
            time.sleep(3600)


class LeakySpider(PagesSpider):
    """Starts a helper process (as an extraction pool or a browser would), then dies by SIGKILL.

    Appends the helper's pid to the file named by TEST_HELPER_PIDS.
    """

    name = "leaky"

    def on_response(self) -> None:
        helper = subprocess.Popen(["sleep", "600"])
        with open(self.settings.get("TEST_HELPER_PIDS"), "a") as fh:
            fh.write(f"{helper.pid}\n")
        os.kill(os.getpid(), signal.SIGKILL)
