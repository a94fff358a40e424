"""The crawl state's parts, built from plain values without a crawler (issue 14)."""

from __future__ import annotations

import errno
from typing import Any, cast

from scrapy.http import Request, Response

from harvest.exceptions import StateError
from harvest.meta import META_FRONTIER_KEY
from harvest.state import StateBatch, StateStore, Validators
from harvest.state.batches import PendingBatch
from harvest.state.claims import ContentClaims
from harvest.state.commits import CommitPoints, is_disk_full
from harvest.state.completion import RequestCompletion


class FakeStore:
    """Commits into a list; knows no item; ``fail`` is raised by the next commits."""

    def __init__(self) -> None:
        self.commits: list[StateBatch] = []
        self.fail: BaseException | None = None

    def commit(self, batch: StateBatch) -> None:
        if self.fail is not None:
            raise self.fail
        self.commits.append(batch)

    def has_item(self, key: bytes) -> bool:
        return False


def commit_points(store: FakeStore, **kwargs: Any) -> tuple[PendingBatch, CommitPoints, list[str]]:
    pending = PendingBatch()
    fatal: list[str] = []
    commits = CommitPoints(pending, on_fatal=fatal.append, **kwargs)
    commits.store = cast(StateStore, store)
    return pending, commits, fatal


def test_items_commit_at_the_threshold_with_the_pre_commit_offsets() -> None:
    store = FakeStore()
    pending, commits, _ = commit_points(store, commit_items=2)
    commits.add_pre_commit(lambda: {"out.jsonl": 42})
    pending.add_item(b"a")
    pending.count_item()
    commits.maybe_commit()
    assert store.commits == []
    pending.add_item(b"b")
    pending.count_item()
    commits.maybe_commit()
    assert [set(b.items) for b in store.commits] == [{b"a", b"b"}]
    assert store.commits[0].offsets == {"out.jsonl": 42}
    assert pending.items == 0 and len(pending.batch) == 0


def test_a_full_disk_abandons_and_nothing_commits_after() -> None:
    store = FakeStore()
    store.fail = StateError("state.sqlite", "database or disk is full")
    pending, commits, fatal = commit_points(store)
    pending.add_frontier(b"k", b"request", False)
    assert not commits.commit_safely()
    assert commits.abandoned == "disk_full" and fatal == ["disk_full"]
    store.fail = None
    commits.commit()
    assert store.commits == [] and len(pending.batch) == 1  # kept, as a kill -9 would leave it


def test_repeated_failures_close_the_crawl_and_keep_the_batch() -> None:
    store = FakeStore()
    store.fail = StateError("state.sqlite", "locked")
    pending, commits, fatal = commit_points(store)
    pending.add_item(b"a")
    for _ in range(3):
        assert not commits.commit_safely()
    assert fatal == ["state_error"] and commits.abandoned is None
    store.fail = None
    assert commits.commit_safely()
    assert set(store.commits[0].items) == {b"a"}


def test_is_disk_full_follows_the_cause() -> None:
    try:
        try:
            raise OSError(errno.ENOSPC, "No space left on device")
        except OSError as exc:
            raise StateError("state.sqlite", "commit failed") from exc
    except StateError as outer:
        assert is_disk_full(outer)
    assert not is_disk_full(StateError("state.sqlite", "locked"))


def test_a_request_is_done_when_its_callback_and_items_are() -> None:
    pending = PendingBatch()
    completion = RequestCompletion(pending)
    request = Request("https://example.com/a")
    key = completion.request_key(request)
    response = Response(request.url, request=request)
    items = [object(), object()]
    for item in items:
        completion.item_started(item, response)
    completion.note_document_fetch(
        key, key, validator_key=b"v", validators=Validators("etag", None), when=5.0
    )
    assert not completion.callback_finished(response)
    completion.item_finished(items[0], response)
    assert pending.batch.frontier_done == set()
    completion.item_finished(items[1], response)
    assert pending.batch.frontier_done == {key}
    assert pending.batch.fetched == {key: 5.0}
    assert pending.validators(b"v") == Validators("etag", None)
    assert pending.requests == 1


def _request_with_items(completion: RequestCompletion, count: int) -> tuple[bytes, Response, list[object]]:
    request = Request("https://example.com/a")
    key = completion.request_key(request)
    response = Response(request.url, request=request)
    items = [object() for _ in range(count)]
    for item in items:
        completion.item_started(item, response)
    completion.note_document_fetch(key, key, validator_key=None, validators=None, when=5.0)
    return key, response, items


def test_a_request_whose_item_failed_in_a_pipeline_stays_pending() -> None:
    """Not retired and not noted as fetched: the next run fetches it again, its item not lost."""
    pending = PendingBatch()
    completion = RequestCompletion(pending)
    key, response, (stored, failed) = _request_with_items(completion, 2)
    completion.item_finished(failed, response, failed=True)
    completion.item_finished(stored, response)
    assert not completion.callback_finished(response)
    assert pending.batch.frontier_done == set() and pending.batch.fetched == {}
    # The callback may end before its items do.
    key, response, (item,) = _request_with_items(completion, 1)
    assert not completion.callback_finished(response)
    completion.item_finished(item, response, failed=True)
    assert pending.batch.frontier_done == set() and pending.batch.fetched == {}
    # Later requests are retired as ever; the failure is not carried over to them.
    key, response, (item,) = _request_with_items(completion, 1)
    completion.item_finished(item, response)
    assert completion.callback_finished(response)
    assert pending.batch.frontier_done == {key}


def test_the_frontier_key_survives_a_redirect() -> None:
    completion = RequestCompletion(PendingBatch())
    original = Request("https://example.com/a")
    redirected = Request(
        "https://example.com/b", meta={META_FRONTIER_KEY: completion.fingerprint(original).hex()}
    )
    assert completion.request_key(redirected) == completion.fingerprint(original)
    assert completion.fingerprint(redirected) != completion.fingerprint(original)


def test_claims_are_seen_until_released_and_unwritten_stored_items_are_kept() -> None:
    pending = PendingBatch()
    store = FakeStore()
    claims = ContentClaims(pending, lambda: cast(StateStore, store))
    first, second = object(), object()
    claims.claim(first, b"k", None, None)
    claims.claim(second, None, "hash", "https://example.com/a")
    assert claims.item_seen(b"k") and not claims.item_seen(b"other")
    owner = claims.content_owner("hash")
    assert owner is not None and str(owner) == "https://example.com/a"
    claims.release(first, stored=False)
    assert not claims.item_seen(b"k") and pending.items == 0
    claims.release(second, stored=True)  # stored, but no output pipeline recorded it
    assert pending.batch.contents["hash"][0] == "https://example.com/a" and pending.items == 1
