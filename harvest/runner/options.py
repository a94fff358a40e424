"""What one fleet run is asked to do: command-line options and the HARVEST_FLEET_* settings."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING

from harvest.config.settings_model import read_settings

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)


@dataclass
class FleetOptions:
    """The command line of ``run_all.py``, parsed and checked (see harvest.runner.cli)."""

    spiders: list[str] | None = None
    once: bool = False
    duration: float | None = None
    max_data_size: int | None = None
    processes: int | None = None
    force: bool = False
    #: ``-s KEY=VALUE`` in order; later ones win.
    settings: dict[str, str] = field(default_factory=dict)
    data_dir: str | None = None
    grace: float | None = None
    demo: bool = False
    replicas: dict[str, int] = field(default_factory=dict)
    #: None: a live table when stdout is a terminal; False: log lines always.
    live: bool | None = None
    #: ``--dashboard [HOST:]PORT`` (None: HARVEST_FLEET_DASHBOARD decides).
    dashboard: str | None = None


@dataclass(frozen=True)
class FleetConfig:
    """The supervisor's knobs, from ``HARVEST_FLEET_<FIELD>``.

    Defaults and reasons in harvest/settings.py; types and floors in harvest/config/settings_model.py.
    """

    grace: float
    processes_per_cpu: int
    max_processes_per_cpu: int
    process_memory_mb: int
    restart_backoff: float
    restart_backoff_max: float
    unreachable_retry: float
    unreachable_retry_max: float
    max_crashes: int
    crash_window: float
    hung_timeout: float
    start_timeout: float
    status_interval: float
    log_interval: float
    size_check_interval: float
    poll_interval: float
    log_keep: int

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> FleetConfig:
        """Read every HARVEST_FLEET_* knob through the settings model; a bad one raises ConfigError."""
        values = read_settings(settings)
        return cls(**{f.name: getattr(values, f"HARVEST_FLEET_{f.name.upper()}") for f in fields(cls)})
