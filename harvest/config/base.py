"""Base pydantic model and value parsers shared by every spider's config model."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

_DURATION_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$", re.IGNORECASE)
_DURATION_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_duration(value: Any) -> float | None:
    """Seconds from ``90``, ``"90s"``, ``"15m"``, ``"6h"``, ``"7d"``, ``"2w"``; None/"never" -> None."""
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
    m = _DURATION_RE.match(text)
    if not m:
        raise ValueError(f"expected a duration such as '90s', '15m', '6h' or '7d', got {value!r}")
    return float(m.group(1)) * _DURATION_UNITS[m.group(2).lower()]


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
