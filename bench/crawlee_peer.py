"""Crawlee's ParselCrawler with in-memory storage: the fastest peer measured on this machine.

Follows every same-host link and stores nothing; prints {"pages": N, "seconds": S} at the end.
usage: python bench/crawlee_peer.py URL [--concurrency 16]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import time

from crawlee import ConcurrencySettings
from crawlee.crawlers import ParselCrawler, ParselCrawlingContext
from crawlee.storage_clients import MemoryStorageClient


async def crawl(url: str, concurrency: int) -> None:
    pages = 0
    crawler = ParselCrawler(
        storage_client=MemoryStorageClient(),
        concurrency_settings=ConcurrencySettings(
            min_concurrency=concurrency, desired_concurrency=concurrency, max_concurrency=concurrency
        ),
        max_request_retries=1,
        configure_logging=False,
    )

    @crawler.router.default_handler
    async def handler(context: ParselCrawlingContext) -> None:
        nonlocal pages
        pages += 1
        await context.enqueue_links()

    start = time.monotonic()
    await crawler.run([url])
    print(json.dumps({"pages": pages, "seconds": round(time.monotonic() - start, 2)}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(crawl(args.url, args.concurrency))


if __name__ == "__main__":
    main()
