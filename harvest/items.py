"""Item types every spider yields. ``type`` tells them apart in the JSON Lines output.

Dataclasses (read through itemadapter by Scrapy) so a field typo is an error at the source.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harvest.parsers.rights import Rights

if TYPE_CHECKING:
    from typing_extensions import Self

    from harvest.parsers.trending import TrendingDeveloperRow, TrendingRepoRow


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

    @classmethod
    def from_row(
        cls,
        row: TrendingRepoRow,
        *,
        since: str,
        language_filter: str | None,
        observed_at: str,
        source_url: str,
        spoken_language: str | None,
    ) -> Self:
        """The observation of a parsed row (live or archived: the class says which)."""
        assert row.repo is not None and row.url is not None  # rows without them are skipped
        return cls(
            repo=row.repo,
            url=row.url,
            description=row.description,
            language=row.language,
            stars=row.stars,
            forks=row.forks,
            period_stars=row.period_stars,
            since=since,
            language_filter=language_filter,
            rank=row.rank,
            built_by=row.built_by,
            observed_at=observed_at,
            source_url=source_url,
            spoken_language=spoken_language,
        )


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

    @classmethod
    def from_row(
        cls,
        row: TrendingDeveloperRow,
        *,
        since: str,
        language_filter: str | None,
        observed_at: str,
        source_url: str,
    ) -> Self:
        """The observation of a parsed row (live or archived: the class says which)."""
        assert row.username is not None and row.url is not None  # rows without them are skipped
        return cls(
            username=row.username,
            name=row.name,
            rank=row.rank,
            url=row.url,
            popular_repo=row.popular_repo,
            since=since,
            language_filter=language_filter,
            observed_at=observed_at,
            source_url=source_url,
        )


@dataclass
class ArchivedTrendingRepoItem(TrendingRepoItem):
    """A Trending repository row read from a web archive's capture (``observed_at``: its time).

    The same type and identity as a live observation (one per repo, period, language filter,
    spoken language and UTC day), so live and archived rows make one time series;
    ``source_url`` is the memento (with its timestamp) and ``archived`` tells them apart.
    """

    archived: bool = True


@dataclass
class ArchivedTrendingDeveloperItem(TrendingDeveloperItem):
    """A Trending developer row read from a web archive's capture (see ArchivedTrendingRepoItem)."""

    archived: bool = True


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
    #: ISO 639-1 code detected from the text (py3langid; ISO 639-3 for a language without one);
    #: None when the text is too short.
    language: str | None = None
    #: What the page declared (``<html lang>``, Content-Language meta), as written there.
    language_declared: str | None = None
    #: The detector's probability for ``language`` (0-1).
    language_score: float | None = None
    #: Opt-out and licence signals of the page (:class:`harvest.parsers.rights.Rights`).
    rights: Rights | None = None
    #: The site reserved text-and-data mining or said noai: ``content`` was not kept.
    text_withheld: bool = False
    #: URL of an earlier document whose text this one nearly repeats (HARVEST_NEAR_DUP=flag).
    near_duplicate_of: str | None = None
    #: The WARC file (relative to HARVEST_DATA_DIR) holding the response, with HARVEST_WARC_ENABLED.
    warc_file: str | None = None
    #: The WARC-Record-ID of that response record.
    warc_record_id: str | None = None
    type: str = "document"
    #: ``content``'s MinHash signature when the extraction worker computed it: the near-duplicate
    #: pipeline's input, not an output (``transient`` fields are in no JSON line or export).
    minhash: bytes | None = field(default=None, repr=False, compare=False, metadata={"transient": True})
    #: ``language`` was detected already (by the extraction worker, from ``content``): the language
    #: pipeline does not detect it again. An input of the pipeline, not an output (transient).
    language_detected: bool = field(default=False, repr=False, compare=False, metadata={"transient": True})

    def front_matter(self) -> dict[str, Any]:
        """Fields written at the top of the Markdown file (None values left out)."""
        keys = (
            "url",
            "canonical_url",
            "repo",
            "site",
            "title",
            "author",
            "published",
            "language",
            "language_declared",
            "source",
            "fetched_at",
            "content_hash",
            "near_duplicate_of",
        )
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
    #: The WARC file (relative to HARVEST_DATA_DIR) holding the response, with HARVEST_WARC_ENABLED.
    warc_file: str | None = None
    #: The WARC-Record-ID of that response record.
    warc_record_id: str | None = None
    type: str = "page"
