"""The committed outputs as typed records: what ``scrapy report`` reads from the data folder.

Each spider's folder ``HARVEST_DATA_DIR/<spider>/`` holds one JSON Lines file per item type
(harvest.pipelines.output). :func:`load_dataset` reads every such file once, keeps only the
fields the report uses (a ``page`` line's HTML is cut off before parsing, since it is most of the
line), applies the ``--since`` and ``--spider`` filters, and counts lines it could not read
instead of failing on them (a line being appended by a running crawl, a hand-edited file).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

logger = logging.getLogger(__name__)

#: Folders of the data folder that belong to no spider.
NOT_SPIDERS = frozenset({"logs", "fleet", "state", "report"})
#: A page line's HTML follows this key; everything before it is the metadata the report needs.
_PAGE_HTML_KEY = b',"html":'


@dataclass(frozen=True, slots=True)
class TrendingObservation:
    """One repository on one trending page (period and language filter) on one day."""

    repo: str
    language: str | None
    stars: int | None
    period_stars: int | None
    since: str
    language_filter: str | None
    rank: int
    observed_at: str
    #: Read from a web archive's capture (trending_history), not observed live.
    archived: bool = False

    @property
    def day(self) -> str:
        """The UTC day of the observation (``YYYY-MM-DD``)."""
        return self.observed_at[:10]


@dataclass(frozen=True, slots=True)
class DeveloperObservation:
    """One developer on one trending developers page on one day."""

    username: str
    name: str | None
    rank: int
    since: str
    observed_at: str
    #: Read from a web archive's capture (trending_history), not observed live.
    archived: bool = False

    @property
    def day(self) -> str:
        """The UTC day of the observation."""
        return self.observed_at[:10]


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One repository returned by one GitHub search query, on one day."""

    repo: str
    query: str
    language: str | None
    stars: int
    topics: tuple[str, ...]
    created_at: str | None
    observed_at: str

    @property
    def day(self) -> str:
        """The UTC day of the observation."""
        return self.observed_at[:10]


@dataclass(frozen=True, slots=True)
class Document:
    """One stored document version (a README or an article)."""

    spider: str
    url: str
    source: str
    site: str | None
    published: str | None
    fetched_at: str
    content_hash: str

    @property
    def group(self) -> str:
        """What the report groups documents by: the site, or the kind and the spider."""
        if self.site:
            return self.site
        return f"{self.source}s ({self.spider})" if self.source else self.spider


@dataclass(frozen=True, slots=True)
class Page:
    """One fetched page kept as served (blogs with extraction off)."""

    spider: str
    url: str
    site: str
    status: int
    fetched_at: str


@dataclass
class Dataset:
    """Everything the report reads from the outputs, filtered."""

    data_dir: Path
    spiders: list[str] = field(default_factory=list)
    trending: list[TrendingObservation] = field(default_factory=list)
    developers: list[DeveloperObservation] = field(default_factory=list)
    search: list[SearchResult] = field(default_factory=list)
    documents: list[Document] = field(default_factory=list)
    pages: list[Page] = field(default_factory=list)
    #: Lines read, per ``<spider>/<file>``, before the ``--since`` filter.
    lines: dict[str, int] = field(default_factory=dict)
    #: Lines that were not a JSON object of a known type (a partial last line, a foreign file).
    unreadable: int = 0

    @property
    def items(self) -> int:
        """Records kept after the filters."""
        return (
            len(self.trending)
            + len(self.developers)
            + len(self.search)
            + len(self.documents)
            + len(self.pages)
        )


def spider_folders(data_dir: Path, only: str | None = None) -> list[Path]:
    """The spiders' output folders under ``data_dir`` (those holding a ``.jsonl`` file)."""
    if not data_dir.is_dir():
        return []
    folders = []
    for child in sorted(data_dir.iterdir()):
        if not child.is_dir() or child.name in NOT_SPIDERS or child.name.startswith("."):
            continue
        if only is not None and child.name != only:
            continue
        if any(child.glob("*.jsonl")):
            folders.append(child)
    return folders


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class _Loader:
    """Turns JSON objects into records, dropping those older than ``since``."""

    def __init__(self, dataset: Dataset, since: str | None) -> None:
        self.ds = dataset
        self.since = since

    def keep(self, stamp: str) -> bool:
        return self.since is None or stamp >= self.since

    def add(self, spider: str, obj: dict[str, Any]) -> bool:
        """Add the record ``obj`` holds (unless older than ``since``); False if it holds none."""
        kind = obj.get("type")
        if kind == "trending_repo":
            return self._add_trending(obj)
        if kind == "trending_developer":
            return self._add_developer(obj)
        if kind == "repo":
            return self._add_search_result(obj)
        if kind == "document":
            return self._add_document(spider, obj)
        if kind == "page":
            return self._add_page(spider, obj)
        return False

    def _add_trending(self, obj: dict[str, Any]) -> bool:
        stamp = _str(obj.get("observed_at"))
        repo, rank = _str(obj.get("repo")), _int(obj.get("rank"))
        if stamp is None or repo is None or rank is None:
            return False
        if self.keep(stamp):
            self.ds.trending.append(
                TrendingObservation(
                    repo,
                    _str(obj.get("language")),
                    _int(obj.get("stars")),
                    _int(obj.get("period_stars")),
                    _str(obj.get("since")) or "",
                    _str(obj.get("language_filter")),
                    rank,
                    stamp,
                    obj.get("archived") is True,
                )
            )
        return True

    def _add_developer(self, obj: dict[str, Any]) -> bool:
        stamp, user, rank = _str(obj.get("observed_at")), _str(obj.get("username")), _int(obj.get("rank"))
        if stamp is None or user is None or rank is None:
            return False
        if self.keep(stamp):
            self.ds.developers.append(
                DeveloperObservation(
                    user,
                    _str(obj.get("name")),
                    rank,
                    _str(obj.get("since")) or "",
                    stamp,
                    obj.get("archived") is True,
                )
            )
        return True

    def _add_search_result(self, obj: dict[str, Any]) -> bool:
        stamp, repo = _str(obj.get("observed_at")), _str(obj.get("repo"))
        if stamp is None or repo is None:
            return False
        if self.keep(stamp):
            topics = obj.get("topics")
            self.ds.search.append(
                SearchResult(
                    repo,
                    _str(obj.get("query")) or "",
                    _str(obj.get("language")),
                    _int(obj.get("stars")) or 0,
                    tuple(t for t in topics if isinstance(t, str)) if isinstance(topics, list) else (),
                    _str(obj.get("created_at")),
                    stamp,
                )
            )
        return True

    def _add_document(self, spider: str, obj: dict[str, Any]) -> bool:
        stamp, url = _str(obj.get("fetched_at")), _str(obj.get("url"))
        if stamp is None or url is None:
            return False
        if self.keep(stamp):
            self.ds.documents.append(
                Document(
                    spider,
                    url,
                    _str(obj.get("source")) or "",
                    _str(obj.get("site")),
                    _str(obj.get("published")),
                    stamp,
                    _str(obj.get("content_hash")) or "",
                )
            )
        return True

    def _add_page(self, spider: str, obj: dict[str, Any]) -> bool:
        stamp, url = _str(obj.get("fetched_at")), _str(obj.get("url"))
        if stamp is None or url is None:
            return False
        if self.keep(stamp):
            self.ds.pages.append(
                Page(spider, url, _str(obj.get("site")) or "", _int(obj.get("status")) or 0, stamp)
            )
        return True


def _parse(line: bytes) -> Any:
    cut = line.find(_PAGE_HTML_KEY)
    if cut > 0 and line.startswith(b'{"url":'):
        # A page line: parse its metadata only, not the HTML that follows it (nor "type" after it).
        head = orjson.loads(line[:cut] + b"}")
        if isinstance(head, dict):
            head["type"] = "page"
        return head
    return orjson.loads(line)


def load_dataset(data_dir: Path, *, since: str | None = None, spider: str | None = None) -> Dataset:
    """Read every spider's JSON Lines files under ``data_dir`` (``since``: ISO UTC lower bound)."""
    dataset = Dataset(data_dir)
    loader = _Loader(dataset, since)
    for folder in spider_folders(data_dir, spider):
        dataset.spiders.append(folder.name)
        for path in sorted(folder.glob("*.jsonl")):
            count = 0
            with path.open("rb") as fh:
                for line in fh:
                    if not line.strip():
                        continue
                    count += 1
                    try:
                        obj = _parse(line)
                    except orjson.JSONDecodeError:
                        dataset.unreadable += 1
                        continue
                    if not isinstance(obj, dict) or not loader.add(folder.name, obj):
                        dataset.unreadable += 1
            dataset.lines[f"{folder.name}/{path.name}"] = count
    if dataset.unreadable:
        logger.info(
            "%d line(s) under %s were not items the report knows; skipped", dataset.unreadable, data_dir
        )
    return dataset
