"""Base pydantic model and value parsers shared by every spider's config model."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from harvest.util.units import parse_duration


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
