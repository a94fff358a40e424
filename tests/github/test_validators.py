"""ValidatorStore: ETags per consumer and token, memos, query finish times; shared by processes."""

from __future__ import annotations

from pathlib import Path

from harvest.github.validators import ValidatorStore

URL = "https://api.github.com/search/repositories?q=x&per_page=100"


def test_roundtrip_and_reopen(tmp_path: Path) -> None:
    store = ValidatorStore(tmp_path / "v.sqlite")
    store.put("github_search", "t-a", URL, etag='W/"abc"', memo={"total": 5, "next": None})
    store.close()
    again = ValidatorStore(tmp_path / "v.sqlite")
    got = again.get("github_search", "t-a", URL)
    assert got is not None
    assert (got.etag, got.last_modified, got.memo) == ('W/"abc"', None, {"total": 5, "next": None})


def test_keys_are_consumer_token_and_url(tmp_path: Path) -> None:
    store = ValidatorStore(tmp_path / "v.sqlite")
    store.put("github_search", "t-a", URL, etag='"1"')
    assert store.get("github_search", "t-b", URL) is None  # an ETag is only good for its token
    assert store.get("trending", "t-a", URL) is None  # nor for another spider's copy
    assert store.get("github_search", "t-a", URL + "&page=2") is None
    store.put("github_search", "t-a", URL, etag='"2"', memo={"n": 3})
    got = store.get("github_search", "t-a", URL)
    assert got is not None and got.etag == '"2"' and got.memo == {"n": 3}
    assert store.count("github_search") == 1


def test_nothing_to_validate_with_forgets(tmp_path: Path) -> None:
    store = ValidatorStore(tmp_path / "v.sqlite")
    store.put("s", "t", URL, etag='"1"')
    store.put("s", "t", URL, etag=None, last_modified=None)
    assert store.get("s", "t", URL) is None


def test_reset_and_finish_times(tmp_path: Path) -> None:
    store = ValidatorStore(tmp_path / "v.sqlite")
    store.put("s", "t", URL, etag='"1"')
    store.put("other", "t", URL, etag='"1"')
    store.mark_finished("s", "q|stars|desc", when=1234.5)
    assert store.last_finished("s", "q|stars|desc") == 1234.5
    assert store.last_finished("s", "q|best-match|desc") is None
    store.reset("s")
    assert store.get("s", "t", URL) is None and store.last_finished("s", "q|stars|desc") is None
    assert store.get("other", "t", URL) is not None


def test_two_connections_see_each_other(tmp_path: Path) -> None:
    a = ValidatorStore(tmp_path / "v.sqlite")
    b = ValidatorStore(tmp_path / "v.sqlite")
    a.put("s", "t", URL, etag='"1"')
    got = b.get("s", "t", URL)
    assert got is not None and got.etag == '"1"'
