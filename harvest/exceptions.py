"""Project exceptions; each builds its message in ``__init__`` so callers cannot forget the context."""

from __future__ import annotations

import logging
from pathlib import Path

from scrapy.exceptions import NotConfigured


class HarvestError(Exception):
    """Base class for harvest's own errors."""


class ConfigError(HarvestError):
    """A YAML config, spider argument, flag or environment value is invalid.

    The message names the file (or argument) and the key at fault, so the user knows what to fix.
    """

    def __init__(self, source: str | Path, problems: list[tuple[str, str]] | str) -> None:
        self.source = str(source)
        if isinstance(problems, str):
            problems = [("", problems)]
        self.problems = problems
        lines = []
        for key, msg in problems:
            lines.append(f"  {key}: {msg}" if key else f"  {msg}")
        super().__init__(f"invalid configuration in {self.source}:\n" + "\n".join(lines))


class DataDirError(ConfigError):
    """The data folder cannot hold files: one line naming it, refused like bad config (exit 2)."""

    def __init__(self, folder: str | Path, reason: str) -> None:
        self.source = str(folder)
        self.problems = [("HARVEST_DATA_DIR", reason)]
        message = f"the data folder {folder} (HARVEST_DATA_DIR) cannot hold files: {reason}"
        HarvestError.__init__(self, message)


class StateError(HarvestError):
    """The crawl-state store cannot be opened, read or written."""

    def __init__(self, location: str, reason: str) -> None:
        self.location = location
        super().__init__(f"crawl state at {location}: {reason}")


class NotApplicable(NotConfigured):
    """A component that does not apply to this crawl, by design: off without a WARNING.

    Scrapy logs ``Disabled <component>: <reason>`` as a WARNING for every ``NotConfigured`` that
    carries a reason, so each ``scrapy crawl`` warned about components that were off on purpose
    (the fleet's outside the fleet, the safety guards for the GitHub spiders). This one keeps its
    reason out of ``args`` (``str(exc)`` still gives it) and logs it at DEBUG instead: warnings
    are for what a user should act on.
    """

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason
        logging.getLogger(__name__).debug("Component not applicable: %s", reason)

    def __str__(self) -> str:
        return self.reason
