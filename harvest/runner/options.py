"""What one fleet run is asked to do: command-line options and the HARVEST_FLEET_* settings."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harvest.exceptions import ConfigError

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
    """The supervisor's knobs, from ``HARVEST_FLEET_*`` (defaults and reasons in harvest/settings.py)."""

    grace: float
    processes_per_cpu: int
    max_processes_per_cpu: int
    process_memory_mb: int
    restart_backoff: float
    restart_backoff_max: float
    max_crashes: int
    crash_window: float
    hung_timeout: float
    status_interval: float
    log_interval: float
    size_check_interval: float
    poll_interval: float
    log_keep: int

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> FleetConfig:
        """Read and check every HARVEST_FLEET_* knob; a bad value raises ConfigError naming it."""
        problems: list[tuple[str, str]] = []

        def number(name: str, *, minimum: float = 0.0, integer: bool = False) -> float:
            try:
                value = settings.getint(name) if integer else settings.getfloat(name)
            except (TypeError, ValueError):
                problems.append((name, f"expected a number, got {settings.get(name)!r}"))
                return minimum
            if value < minimum:
                problems.append((name, f"must be at least {minimum:g}, got {value!r}"))
                return minimum
            return value

        config = cls(
            grace=number("HARVEST_FLEET_GRACE"),
            processes_per_cpu=int(number("HARVEST_FLEET_PROCESSES_PER_CPU", minimum=1, integer=True)),
            max_processes_per_cpu=int(number("HARVEST_FLEET_MAX_PROCESSES_PER_CPU", minimum=1, integer=True)),
            process_memory_mb=int(number("HARVEST_FLEET_PROCESS_MEMORY_MB", minimum=1, integer=True)),
            restart_backoff=number("HARVEST_FLEET_RESTART_BACKOFF"),
            restart_backoff_max=number("HARVEST_FLEET_RESTART_BACKOFF_MAX"),
            max_crashes=int(number("HARVEST_FLEET_MAX_CRASHES", minimum=1, integer=True)),
            crash_window=number("HARVEST_FLEET_CRASH_WINDOW", minimum=1),
            hung_timeout=number("HARVEST_FLEET_HUNG_TIMEOUT", minimum=1),
            status_interval=number("HARVEST_FLEET_STATUS_INTERVAL", minimum=0.1),
            log_interval=number("HARVEST_FLEET_LOG_INTERVAL", minimum=0.1),
            size_check_interval=number("HARVEST_FLEET_SIZE_CHECK_INTERVAL", minimum=0.1),
            poll_interval=number("HARVEST_FLEET_POLL_INTERVAL", minimum=0.05),
            log_keep=int(number("HARVEST_FLEET_LOG_KEEP", minimum=1, integer=True)),
        )
        if problems:
            raise ConfigError("settings (-s or harvest/settings.py)", problems)
        return config
