"""Spider configuration: YAML files in ``HARVEST_CONFIG_DIR`` validated by pydantic models."""

from __future__ import annotations

from harvest.config.base import SpiderConfig, parse_bool
from harvest.config.loader import config_path, load_config, validate_config

__all__ = [
    "SpiderConfig",
    "config_path",
    "load_config",
    "parse_bool",
    "validate_config",
]
