"""How many spider processes this machine can run: from its CPUs and available memory."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

_MB = 1024 * 1024


def cpu_count() -> int:
    """CPUs this process may run on (respects taskset/cgroup affinity where the OS reports it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def available_memory() -> int | None:
    """Bytes of memory available to new processes (Linux MemAvailable), or None if unknown."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


@dataclass(frozen=True)
class Capacity:
    """The machine's budget for spider processes."""

    cpus: int
    memory: int | None
    #: --processes when the user gives none.
    default: int
    #: Largest --processes accepted without --force.
    limit: int
    per_cpu: int
    max_per_cpu: int
    process_memory: int

    @classmethod
    def measure(cls, per_cpu: int, max_per_cpu: int, process_memory_mb: int) -> Capacity:
        """Measure this machine with the HARVEST_FLEET_* budgets."""
        return cls.compute(cpu_count(), available_memory(), per_cpu, max_per_cpu, process_memory_mb)

    @classmethod
    def compute(
        cls, cpus: int, memory: int | None, per_cpu: int, max_per_cpu: int, process_memory_mb: int
    ) -> Capacity:
        """The default and the limit for a machine with ``cpus`` and ``memory`` bytes available."""
        process_memory = max(1, process_memory_mb) * _MB
        by_memory = None if memory is None else max(1, memory // process_memory)
        default = max(1, cpus * max(1, per_cpu))
        limit = max(1, cpus * max(1, max_per_cpu))
        if by_memory is not None:
            default = min(default, by_memory)
            limit = min(limit, by_memory)
        return cls(cpus, memory, default, max(limit, default), per_cpu, max_per_cpu, process_memory)

    def refusal(self, requested: int) -> str | None:
        """Why ``requested`` processes are too many for this machine, or None if they fit."""
        if requested <= self.limit:
            return None
        parts = [
            f"{self.cpus} CPU{'s' if self.cpus != 1 else ''} allow up to "
            f"{self.cpus * self.max_per_cpu} ({self.max_per_cpu} per CPU, since crawlers mostly "
            f"wait on the network)"
        ]
        if self.memory is not None:
            fit = self.memory // self.process_memory
            parts.append(
                f"{self.memory / 1024**3:.1f} GB of available memory fits {fit} at "
                f"~{self.process_memory // _MB} MB each"
            )
        return (
            f"{requested} processes are far beyond this machine: {'; '.join(parts)}. "
            f"Use --processes {self.limit} or fewer, or add --force to run {requested} anyway."
        )
