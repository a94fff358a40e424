"""A scheduler that says "pending" for ever and hands nothing out: the state a crawl must not keep.

The resumed frontier once did this (harvest/crawl/frontier.py); any scheduler bug of the kind would
too. Used with the crashsite spider by tests/extensions/test_stuck.py.
"""

from __future__ import annotations

from harvest.crawl.frontier import FrontierScheduler


class AlwaysPendingScheduler(FrontierScheduler):
    """Claims a pending request once the queue ran dry, never hands it out."""

    def has_pending_requests(self) -> bool:
        return True

    def __len__(self) -> int:
        return super().__len__() or 1
