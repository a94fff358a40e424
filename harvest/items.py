"""Item types every spider yields. ``type`` tells them apart in the JSON Lines output.

Dataclasses (read through itemadapter by Scrapy) so a field typo is an error at the source.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class TrendingRepoItem:
    """One repository's row on a GitHub Trending page, observed at one moment."""

    repo: str
    url: str
    description: str | None
    language: str | None
    stars: int | None
    forks: int | None
    period_stars: int | None
    since: str
    language_filter: str | None
    rank: int
    built_by: list[str]
    observed_at: str
    source_url: str
    spoken_language: str | None = None
    type: str = "trending_repo"


@dataclass
class TrendingDeveloperItem:
    """One developer's row on a GitHub Trending developers page."""

    username: str
    name: str | None
    rank: int
    url: str
    popular_repo: str | None
    since: str
    language_filter: str | None
    observed_at: str
    source_url: str
    type: str = "trending_developer"


@dataclass
class RepoItem:
    """One repository from the GitHub search API."""

    repo: str
    url: str
    description: str | None
    language: str | None
    topics: list[str]
    stars: int
    forks: int
    open_issues: int
    created_at: str | None
    pushed_at: str | None
    default_branch: str | None
    archived: bool
    fork: bool
    query: str
    observed_at: str
    type: str = "repo"


@dataclass
class DocumentItem:
    """A stored document: a README or an article, kept as a Markdown file with YAML front matter.

    ``content`` is the Markdown body; the output pipeline writes it to the ``.md`` file at
    ``path`` (relative to the spider's data folder when the spider sets it) and leaves it out of
    the JSON Lines record, which keeps the path instead.
    """

    url: str
    title: str | None
    path: str
    content_hash: str
    fetched_at: str
    source: str
    content: str = field(default="", repr=False)
    repo: str | None = None
    canonical_url: str | None = None
    site: str | None = None
    author: str | None = None
    published: str | None = None
    language: str | None = None
    type: str = "document"

    def front_matter(self) -> dict[str, Any]:
        """Fields written at the top of the Markdown file (None values left out)."""
        keys = ("url", "canonical_url", "repo", "site", "title", "author", "published",
                "language", "source", "fetched_at", "content_hash")
        return {k: getattr(self, k) for k in keys if getattr(self, k) is not None}


@dataclass
class PageItem:
    """A fetched page kept as served: the blogs spider's output with extraction off.

    One JSON line per page in ``page.jsonl`` with the decoded HTML in ``html`` (a single
    appended file: made durable by one fsync per commit point, not one per page). Identity is
    the canonical URL plus ``body_sha256`` (sha256 of the body bytes as received), so a page is
    written once per distinct body and again when it changes.
    """

    url: str
    site: str
    status: int
    fetched_at: str
    body_sha256: str
    html: str = field(repr=False)
    type: str = "page"
