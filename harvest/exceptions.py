"""Project exceptions; each builds its message in ``__init__`` so callers cannot forget the context."""

from __future__ import annotations

from pathlib import Path


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


class StateError(HarvestError):
    """The crawl-state store cannot be opened, read or written."""

    def __init__(self, location: str, reason: str) -> None:
        self.location = location
        super().__init__(f"crawl state at {location}: {reason}")
