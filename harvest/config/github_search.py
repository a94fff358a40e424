"""Config of the ``github_search`` spider: the searches to run and how.

``spiders_config/github_search.yaml``::

    refresh_interval: 1d          # how often run_all.py starts the spider
    readme_revisit: 7d            # READMEs stored earlier are asked again (conditionally) after this
    queries:
      - query: "topic:web-scraping language:python"
        sort: stars               # best-match (default), stars, forks, help-wanted-issues, updated
        order: desc
        max_results: null         # null: every result, past GitHub's 1000-result cap
        readmes: true             # fetch each repository's README as a document
        refresh_interval: 6h      # skip this query if it finished less than 6 h ago
      - "topic:crawler"           # a bare string is a query with the defaults
"""

from __future__ import annotations

import logging
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

from harvest.config.args import Flag, SpiderArgs, Stripped
from harvest.config.base import SpiderConfig
from harvest.util.units import parse_duration

logger = logging.getLogger(__name__)

Sort = Literal["best-match", "stars", "forks", "help-wanted-issues", "updated"]
Order = Literal["desc", "asc"]


class GithubQueryConfig(BaseModel):
    """One search of ``GET /search/repositories``."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    query: str = Field(
        min_length=1,
        description="The search text with qualifiers, as typed on github.com (e.g. 'topic:x language:y').",
    )
    sort: Sort = Field(default="best-match", description="GitHub's sort field; best-match sends none.")
    order: Order = Field(default="desc", description="Sort order (ignored by GitHub for best-match).")
    max_results: int | None = Field(
        default=None, ge=1, description="Stop after this many repositories; null collects every result."
    )
    readmes: bool = Field(default=True, description="Fetch each repository's README as a document.")
    refresh_interval: float | None = Field(
        default=None,
        description="Skip the query while its last complete run is younger than this ('6h', '1d'); "
        "null runs it every time the spider runs.",
    )

    @field_validator("query")
    @classmethod
    def _strip(cls, v: str) -> str:
        v = " ".join(v.split())
        if not v:
            raise ValueError("the query is empty")
        return v

    @field_validator("refresh_interval", mode="before")
    @classmethod
    def _duration(cls, v: Any) -> float | None:
        return parse_duration(v)

    @property
    def key(self) -> str:
        """Identity of the search (text, sort, order) for state and logs."""
        return f"{self.query}|{self.sort}|{self.order}"


class GithubSearchConfig(SpiderConfig):
    """``spiders_config/github_search.yaml``: a list of searches."""

    queries: list[GithubQueryConfig] = Field(
        default_factory=list, description="The searches to run; '-a query=...' replaces them for one run."
    )
    readme_revisit: float | None = Field(
        default=7 * 86400.0,
        description="Re-fetch a stored README after this long ('7d'), conditionally; 'never' keeps "
        "the first copy.",
    )

    @field_validator("readme_revisit", mode="before")
    @classmethod
    def _revisit(cls, v: Any) -> float | None:
        return parse_duration(v)

    @field_validator("queries", mode="before")
    @classmethod
    def _bare_strings(cls, v: Any) -> Any:
        if isinstance(v, list):
            return [{"query": q} if isinstance(q, str) else q for q in v]
        return v

    @model_validator(mode="after")
    def _unique(self) -> GithubSearchConfig:
        seen: set[str] = set()
        for q in self.queries:
            if q.key in seen:
                raise ValueError(f"the query {q.query!r} (sort {q.sort}, order {q.order}) is listed twice")
            seen.add(q.key)
        return self


def _max_results(value: Any) -> int | None:
    text = str(value).strip().lower()
    if text in {"", "all", "none", "0"}:
        return None
    if text.isdigit():
        return int(text)
    raise ValueError(f"expected a positive number or 'all', got {text!r}")


class GithubSearchArgs(SpiderArgs):
    """``-a query`` replaces the configured searches; ``max_results/sort/order/readmes`` apply to each."""

    query: str | None = None
    max_results: Annotated[int | None, BeforeValidator(_max_results)] = None
    sort: Stripped | None = None
    order: Stripped | None = None
    readmes: Flag | None = None
