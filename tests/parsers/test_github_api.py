"""The GitHub API parsers on real recorded answers (PyGithub's replay data, 2012-2026)."""

from __future__ import annotations

import pytest

from harvest.github.repos import repo_item
from harvest.parsers.github_api import (
    error_message,
    is_rate_limit_message,
    load_json,
    parse_link_header,
    parse_readme,
    parse_search_page,
    repo_key,
    result_cap_from_message,
)
from tests import shared_fixture
from tests.github_emulator import Recorded, load_replay

REPLAY = ("github-api", "pygithub-replaydata", "tests", "ReplayData")


def records(name: str) -> list[Recorded]:
    return load_replay(shared_fixture(*REPLAY, name))


def test_search_page_2014_repositories() -> None:
    first, second = records("Search.testSearchRepos.txt")
    page = parse_search_page(load_json(first.body))
    assert page.total_count == 2723
    assert page.incomplete_results is False  # the 2014 body has no such key
    assert len(page.items) == 30
    item = repo_item(page.items[0], query="github language:Python", observed_at="2024-01-01T00:00:00Z")
    assert item is not None
    assert item.repo == "kennethreitz/legit"
    assert item.url == "https://github.com/kennethreitz/legit"
    assert item.description == "Git for Humans, Inspired by GitHub for Mac™."
    assert (item.stars, item.forks, item.open_issues) == (3036, 118, 56)
    assert item.language == "Python"
    assert item.created_at == "2011-06-25T05:58:18Z"
    assert item.pushed_at == "2014-01-27T17:39:31Z"
    assert item.default_branch == "develop"
    assert item.topics == []  # topics arrived in the API in 2017
    assert (item.archived, item.fork) == (False, False)
    assert item.query == "github language:Python"
    assert item.type == "repo"
    # Page 2 holds other repositories (keys never collide across pages of one search).
    page2 = parse_search_page(load_json(second.body))
    assert not {repo_key(r) for r in page.items} & {repo_key(r) for r in page2.items}


def test_repo_item_from_modern_repository_object() -> None:
    repo = records("ContentFile.setUp.txt")[0]
    item = repo_item(load_json(repo.body), query="q", observed_at="t")
    assert item is not None
    assert item.repo == "PyGithub/PyGithub"
    assert item.topics == ["github", "github-api", "pygithub", "python"]
    assert item.default_branch == "main"
    assert (item.stars, item.forks, item.open_issues) == (7126, 1794, 364)


def test_repo_item_without_a_name_is_skipped() -> None:
    assert repo_item({"id": 1, "description": "x"}, query="q", observed_at="t") is None
    owner_only = {"owner": {"login": "o"}, "name": "n"}
    item = repo_item(owner_only, query="q", observed_at="t")
    assert item is not None and item.repo == "o/n" and item.stars == 0


def test_incomplete_results_flag_2026() -> None:
    complete = records("PaginatedList.testSearchWithCompleteResults.txt")[0]
    incomplete = records("PaginatedList.testSearchWithIncompleteResults.txt")[0]
    assert parse_search_page(load_json(complete.body)).incomplete_results is False
    assert parse_search_page(load_json(incomplete.body)).incomplete_results is True


def test_empty_search() -> None:
    rec = records("Search.testSearchReposWithNoResults.txt")[0]
    page = parse_search_page(load_json(rec.body))
    assert (page.total_count, page.items) == (0, [])


def test_not_a_search_answer() -> None:
    with pytest.raises(ValueError, match="not a search result"):
        parse_search_page({"message": "Validation Failed"})
    with pytest.raises(ValueError, match="not a JSON body"):
        load_json(b"<html>proxy error</html>")


def test_link_header_of_real_answers() -> None:
    first, second = records("Search.testSearchRepos.txt")
    links = parse_link_header(first.header("link"))
    assert links == {
        "next": "https://api.github.com/search/repositories?sort=stars&q=github+language%3APython&order=desc&page=2",
        "last": "https://api.github.com/search/repositories?sort=stars&q=github+language%3APython&order=desc&page=34",
    }
    links2 = parse_link_header(second.header("link"))
    assert set(links2) == {"next", "last", "first", "prev"}
    assert links2["prev"].endswith("&page=1")
    # 2026 Title-Case header of the last page: no next.
    last_page = records("PaginatedList.testSearchWithCompleteResults.txt")[1]
    assert "next" not in parse_link_header(last_page.header("Link"))


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, {}),
        ("", {}),
        ("<https://a/x?page=2>; rel=next", {"next": "https://a/x?page=2"}),
        ('<https://a/1>; rel="prev first"', {"prev": "https://a/1", "first": "https://a/1"}),
        (
            b'<https://a/3>; rel="next", <https://a/9>;rel="last"',
            {"next": "https://a/3", "last": "https://a/9"},
        ),
        ("<https://a/3>; title=x", {}),
        ('<https://a/s?q=a,b&page=2>; REL="Next"', {"next": "https://a/s?q=a,b&page=2"}),
    ],
)
def test_link_header_forms(value: str | bytes | None, expected: dict[str, str]) -> None:
    assert parse_link_header(value) == expected


def test_readme_2025_base64_with_newlines() -> None:
    rec = records("ContentFile.setUp.txt")[1]
    data = load_json(rec.body)
    assert "\n" in data["content"]  # GitHub wraps base64 at 60 columns
    readme = parse_readme(data)
    assert readme.text.startswith("# PyGitHub\n\n[![PyPI]")
    assert len(readme.text.encode()) == data["size"] == 2524
    assert readme.name == "README.md"
    assert readme.html_url == "https://github.com/PyGithub/PyGithub/blob/main/README.md"
    assert readme.download_url == "https://raw.githubusercontent.com/PyGithub/PyGithub/main/README.md"


def test_readme_2012_shape() -> None:
    rec = records("Repository.testGetContents.txt")[0]
    readme = parse_readme(load_json(rec.body))
    assert readme.text.startswith("This is a Python library to access the [Github API v3]")
    assert readme.name == "ReadMe.md"
    # No html_url field in 2012: the _links entry gives it.
    assert readme.html_url == "https://github.com/PyGithub/PyGithub/blob/master/ReadMe.md"


def test_readme_errors() -> None:
    with pytest.raises(ValueError, match="content"):
        parse_readme({"message": "Not Found"})
    with pytest.raises(ValueError, match="unknown encoding"):
        parse_readme({"content": "x", "encoding": "rot13"})
    assert parse_readme({"content": "plain", "encoding": "none"}).text == "plain"


def test_error_messages_of_real_403s() -> None:
    primary = records("SpecificExceptions.testRateLimitExceeded.txt")[1]
    secondary = records("SpecificExceptions.testAuthenticatedRateLimitExceeded.txt")[1]
    bad_ua = records("SpecificExceptions.testBadUserAgent.txt")[0]
    assert error_message(primary.body) == "API Rate Limit Exceeded for 92.104.200.119"
    assert error_message(secondary.body).startswith("You have triggered an abuse detection mechanism")
    assert is_rate_limit_message(error_message(primary.body))
    assert is_rate_limit_message(error_message(secondary.body))
    assert not is_rate_limit_message(error_message(bad_ua.body))


def test_error_message_of_422_and_odd_bodies() -> None:
    body = (
        '{"message":"Validation Failed","errors":[{"message":"Only the first 1000 search results are '
        'available","resource":"Search","field":"q","code":"invalid"}],"documentation_url":"x"}'
    )
    message = error_message(body)
    assert message == "Validation Failed: Only the first 1000 search results are available"
    assert result_cap_from_message(message) == 1000
    assert result_cap_from_message("Validation Failed") is None
    missing = '{"message":"Validation Failed","errors":[{"resource":"Search","field":"q","code":"missing"}]}'
    assert error_message(missing) == "Validation Failed: resource=Search field=q code=missing"
    assert error_message(b"<html>\n  Bad   gateway </html>") == "<html> Bad gateway </html>"
    assert error_message(b"") == "(empty body)"
