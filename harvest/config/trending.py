"""Config of the ``trending`` spider: ``spiders_config/trending.yaml``."""

from __future__ import annotations

import logging
import re
from typing import Any, Literal

from pydantic import Field, field_validator

from harvest.config.args import CommaList, Flag, SpiderArgs
from harvest.config.base import SpiderConfig
from harvest.util.units import parse_duration

logger = logging.getLogger(__name__)

Period = Literal["daily", "weekly", "monthly"]

# GitHub's language slugs: lower case, "-" for spaces, and a few symbols (c++, c#, f*, ...).
_LANGUAGE_RE = re.compile(r"^[a-z0-9][a-z0-9+#*'.\-_ ]{0,60}$")
# ISO 639-1 codes as used by ?spoken_language_code= ("en", "zh"...).
_SPOKEN_RE = re.compile(r"^[a-z]{2,3}$")


def language_slug(value: str) -> str:
    """``"Jupyter Notebook"`` -> ``"jupyter-notebook"``: the form GitHub puts in /trending/<slug>."""
    return "-".join(str(value).strip().lower().split())


class TrendingConfig(SpiderConfig):
    """What the ``trending`` spider fetches each round."""

    languages: list[str] = Field(
        default_factory=list,
        description="Language slugs as in github.com/trending/<slug> ('python', 'c++'); empty = all.",
    )
    periods: list[Period] = Field(
        default_factory=lambda: list[Period](["daily"]),
        min_length=1,
        description="Trending windows to fetch: daily, weekly, monthly.",
    )
    spoken_language: str | None = Field(
        default=None,
        description="Spoken-language filter (ISO 639-1 code such as 'en'); none by default, "
        "because a filter hides every repository whose README GitHub classifies otherwise.",
    )
    developers: bool = Field(
        default=True,
        description="Also fetch github.com/trending/developers for the same languages and periods.",
    )
    readmes: bool = Field(default=True, description="Fetch each trending repository's README.")
    readme_revisit: float | None = Field(
        default=7 * 86400.0,
        description="Re-fetch a stored README after this long ('7d'); 'never' keeps the first copy.",
    )

    @field_validator("languages", mode="before")
    @classmethod
    def _languages(cls, value: Any) -> Any:
        if value is None:
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            return value
        slugs = []
        for item in value:
            if not isinstance(item, str):
                raise ValueError(f"each language must be a string such as 'python', got {item!r}")
            slug = language_slug(item)
            if not slug:
                continue
            if "/" in slug or not _LANGUAGE_RE.match(slug):
                raise ValueError(f"{item!r} is not a GitHub language name (e.g. 'python', 'c++')")
            slugs.append(slug)
        return list(dict.fromkeys(slugs))

    @field_validator("periods", mode="before")
    @classmethod
    def _periods(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = [value]
        if isinstance(value, list):
            value = [v.strip().lower() if isinstance(v, str) else v for v in value]
            return list(dict.fromkeys(value))
        return value

    @field_validator("spoken_language", mode="before")
    @classmethod
    def _spoken(cls, value: Any) -> Any:
        if value is None:
            return None
        if not isinstance(value, str):
            raise ValueError(f"expected a language code such as 'en', got {value!r}")
        code = value.strip().lower()
        if not code:
            return None
        if not _SPOKEN_RE.match(code):
            raise ValueError(f"expected an ISO 639-1 code such as 'en' or 'zh', got {value!r}")
        return code

    @field_validator("readme_revisit", mode="before")
    @classmethod
    def _revisit(cls, value: Any) -> float | None:
        return parse_duration(value)


class TrendingArgs(SpiderArgs):
    """``-a language/since/spoken_language/developers/readmes``: this run's share of the YAML."""

    language: CommaList | None = None
    since: CommaList | None = None
    spoken_language: str | None = None
    developers: Flag | None = None
    readmes: Flag | None = None
