"""Base pydantic model and value parsers shared by every spider's config model."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytimeparse
from pydantic import BaseModel, ConfigDict, Field, field_validator

# A bare number is seconds (pytimeparse wants a unit); no sign, exponent, inf or nan.
_SECONDS_RE = re.compile(r"^\d+(?:\.\d+)?$")


def parse_duration(value: Any) -> float | None:
    """Seconds from ``90``, ``"90s"``, ``"15m"``, ``"6h"``, ``"7d"``, ``"2w"``; None/"never" -> None.

    Compound and spelled-out durations (``"1h30m"``, ``"3m 20s"``, ``"1 hour"``) are read by
    pytimeparse.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"expected a duration such as '6h' or '7d', got {value!r}")
    if isinstance(value, (int, float)):
        if value < 0:
            raise ValueError("a duration cannot be negative")
        return float(value)
    if isinstance(value, timedelta):
        return value.total_seconds()
    text = str(value).strip().lower()
    if text in {"never", "none", "off", ""}:
        return None
    if _SECONDS_RE.match(text):
        return float(text)
    # Clock forms are refused: pytimeparse reads "1:30" as 90 seconds, where a user setting a
    # refresh interval may mean an hour and a half. Signs are refused like negative numbers.
    seconds = None if ":" in text or text[0] in "+-" else pytimeparse.parse(text)
    if seconds is None:
        raise ValueError(f"expected a duration such as '90s', '15m', '6h', '7d' or '1h30m', got {value!r}")
    return float(seconds)


def parse_bool(value: Any, name: str = "value") -> bool:
    """Parse a spider argument or env value: true/false, 1/0, yes/no, on/off."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in {"1", "true", "yes", "on", "y"}:
        return True
    if text in {"0", "false", "no", "off", "n", ""}:
        return False
    raise ValueError(f"{name} must be true or false, got {value!r}")


class SpiderConfig(BaseModel):
    """Settings every spider's YAML shares. Unknown keys are errors (typos fail early)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    refresh_interval: float | None = Field(
        default=86400.0,
        description="How often run_all.py starts a new round of this spider ('6h', '1d'...).",
    )

    @field_validator("refresh_interval", mode="before")
    @classmethod
    def _duration(cls, v: Any) -> float | None:
        return parse_duration(v)
