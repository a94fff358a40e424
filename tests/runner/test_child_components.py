"""The child-side components as Scrapy components: the fleet extension and the reachability check."""

from __future__ import annotations

import multiprocessing
import os

import pytest
from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import (
    CannotResolveHostError,
    DownloadConnectionRefusedError,
    IgnoreRequest,
    NotConfigured,
)
from scrapy.http import Response

from harvest.extensions import fleet
from harvest.extensions.fleet import FleetChannel, FleetExtension
from harvest.extensions.reachability import CANNOT_REACH, ReachabilityMiddleware, connect_failure
from harvest.runner.stopflag import StopFlag
from tests import get_crawler as shared_get_crawler


def crawler(settings: dict[str, object] | None = None) -> Crawler:
    """A Crawler with the project's settings and a stats collector; no reactor, no engine."""
    return shared_get_crawler(Spider, dict(settings or {}))


@pytest.fixture
def channel():
    ctx = multiprocessing.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    ch = FleetChannel(ctx.Array("q", 2, lock=False), StopFlag(ctx), send, os.getppid(), slot=1)
    yield ch, receive
    fleet.attach(None)


def test_fleet_extension_is_off_outside_the_fleet():
    fleet.attach(None)
    with pytest.raises(NotConfigured):
        FleetExtension.from_crawler(crawler())


def test_fleet_extension_counts_items_and_stops_on_the_flag(channel):
    ch, receive = channel
    stats = crawler().stats
    closed: list[str] = []
    ext = FleetExtension(ch, stats, 0.1, closed.append)
    spider = Spider("fleet-test")
    for _ in range(3):
        ext.item_scraped({}, spider)
        stats.inc_value("item_scraped_count")
    assert list(ch.counter) == [0, 3]  # its own slot only
    ext.poll()
    assert closed == [] and receive.recv()["items"] == 3
    ch.stop_flag.set()
    ext.poll()
    ext.poll()
    assert closed == ["stop_requested"]  # once, however often it polls
    assert stats.get_value("harvest/fleet/stop_requested") == 1
    stats.set_value("harvest/reachability/unreachable", ["example.org (DNS lookup failed)"])
    ext.spider_closed(spider, "stop_requested")
    messages = []
    while receive.poll():
        messages.append(receive.recv())
    assert messages[-1]["kind"] == "closed" and messages[-1]["reason"] == "stop_requested"
    assert messages[-1]["unreachable"] == ["example.org (DNS lookup failed)"]


def test_fleet_extension_stops_when_the_supervisor_is_gone(channel):
    ch, receive = channel
    ch.parent_pid = -1  # not our parent: as if the supervisor died and we were re-parented
    closed: list[str] = []
    FleetExtension(ch, crawler().stats, 0.1, closed.append).poll()
    assert closed == ["stop_requested"]


def test_connect_failures_are_recognised():
    assert connect_failure(CannotResolveHostError()) == "DNS lookup failed"
    assert connect_failure(DownloadConnectionRefusedError()) == "connection refused"
    assert connect_failure(ValueError()) is None


def middleware() -> tuple[ReachabilityMiddleware, list[str]]:
    closed: list[str] = []
    return ReachabilityMiddleware(crawler().stats, closed.append), closed


def test_closes_when_no_host_it_tried_answers():
    mw, closed = middleware()
    req = Request("https://api.github.com/search/repositories?q=x")
    mw.process_request(req)
    with pytest.raises(IgnoreRequest, match="cannot reach api.github.com"):
        mw.process_exception(req, CannotResolveHostError("api.github.com"))
    assert closed == [CANNOT_REACH]
    assert mw.stats.get_value("harvest/reachability/unreachable") == ["api.github.com (DNS lookup failed)"]


def test_one_dead_site_among_live_ones_keeps_the_crawl_going():
    mw, closed = middleware()
    dead, live = Request("https://gone.example/"), Request("https://live.example/")
    mw.process_request(dead)
    mw.process_request(live)
    assert mw.process_exception(dead, DownloadConnectionRefusedError()) is None  # live.example pending
    mw.process_response(live, Response(live.url, status=404))
    assert mw.process_exception(dead, DownloadConnectionRefusedError()) is None
    assert closed == []
    assert mw.stats.get_value("harvest/reachability/unreachable") == ["gone.example (connection refused)"]


def test_a_host_that_answered_once_is_retried_normally():
    mw, closed = middleware()
    req = Request("https://flaky.example/a")
    mw.process_request(req)
    mw.process_response(req, Response(req.url))
    assert mw.process_exception(req, DownloadConnectionRefusedError()) is None
    assert closed == [] and mw.stats.get_value("harvest/reachability/unreachable") is None


def test_reachability_applies_to_every_crawl_unless_turned_off(channel):
    # A plain `scrapy crawl` too (tests/test_edges.py: exit 1, "cannot reach HOST (why)").
    fleet.attach(None)
    assert isinstance(ReachabilityMiddleware.from_crawler(crawler()), ReachabilityMiddleware)
    fleet.attach(channel[0])
    assert isinstance(ReachabilityMiddleware.from_crawler(crawler()), ReachabilityMiddleware)
    with pytest.raises(NotConfigured, match="HARVEST_FLEET_REACHABILITY_ENABLED"):
        ReachabilityMiddleware.from_crawler(crawler({"HARVEST_FLEET_REACHABILITY_ENABLED": False}))
