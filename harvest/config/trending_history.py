"""Config of the ``trending_history`` spider: ``spiders_config/trending_history.yaml``."""

from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any

from pydantic import Field, field_validator, model_validator

from harvest.config.args import CommaList, Flag, SpiderArgs, Stripped
from harvest.config.trending import TrendingPagesConfig


class TrendingHistoryConfig(TrendingPagesConfig):
    """Which archived Trending pages to read, and the window of days (UTC, both ends included)."""

    enabled: bool = Field(
        default=False,
        description="Run in the fleet by default; history is a one-off job, so off "
        "(python run_all.py --spiders trending_history runs it anyway).",
    )
    start: date | None = Field(
        default=None, alias="from", description="First day of the window (YYYY-MM-DD)."
    )
    end: date | None = Field(default=None, alias="to", description="Last day of the window (YYYY-MM-DD).")
    refresh_interval: float | None = Field(
        default=None, description="One round by default: the past does not change."
    )

    model_config = {**TrendingPagesConfig.model_config, "populate_by_name": True}

    @field_validator("start", "end", mode="before")
    @classmethod
    def _day(cls, value: Any) -> Any:
        if isinstance(value, str):
            text = value.strip()
            if not text:
                return None
            try:
                return date.fromisoformat(text)
            except ValueError:
                raise ValueError(f"expected a day such as 2021-01-31, got {value!r}") from None
        return value

    @model_validator(mode="after")
    def _window(self) -> TrendingHistoryConfig:
        if self.start is not None and self.end is not None and self.start > self.end:
            raise ValueError(f"from ({self.start}) is after to ({self.end})")
        today = datetime.now(timezone.utc).date()
        if self.start is not None and self.start > today:
            raise ValueError(f"from ({self.start}) is in the future")
        return self


class TrendingHistoryArgs(SpiderArgs):
    """``-a from/to/language/since/spoken_language/developers``: this run's share of the YAML."""

    start: Stripped | None = Field(default=None, alias="from")
    end: Stripped | None = Field(default=None, alias="to")
    language: CommaList | None = None
    since: CommaList | None = None
    spoken_language: str | None = None
    developers: Flag | None = None
