"""Settings and environment checked before a crawl starts, so a typo exits with 2 and a message.

Scrapy reads each setting where a component is built, inside the running crawl: a ``-s
HARVEST_STATE_COMMIT_ITEMS=abc`` would surface as a traceback (exit 1) after the engine started,
and under ``run_all.py`` as a crash loop. ``scrapy crawl`` (:mod:`harvest.commands.crawl`) and
``run_all.py`` (:mod:`harvest.runner.cli`) call :func:`check_settings` first instead. It checks

- the settings against one pydantic model (:mod:`harvest.config.settings_model`): the type of
  every setting whose default (harvest's, else Scrapy's) is a bool, a number or a dict, read the
  way components read it; harvest's numbers not negative (the fleet's knobs not below their
  floors), its word-valued settings one of their words; ``HARVEST_*`` names typed on the command
  line against those harvest defines (a misspelt knob would otherwise be ignored without a
  word); ``HARVEST_STATE_URL`` against the known state backends, and the ``GITHUB_*_URL``
  endpoints;
- while the private-address guard is on, ``DNSCACHE_ENABLED`` and the DNS resolver settings
  (``harvest.middlewares.safety.resolver_problems``);
- ``GITHUB_TOKEN``: whitespace or control characters inside it (a line break pasted with it)
  would be sent in a header; the message never shows the token;
- ``HARVEST_DATA_DIR`` (``run_all.py --data-dir``) can hold files (:func:`data_dir_problem`):
  a folder under ``/proc``, a path through a regular file or a read-only mount was a chained
  traceback once the crawl opened its state, after the engine had started.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from harvest.config.settings_model import RETIRED, SOURCE, retired_in, settings_model_problems
from harvest.exceptions import ConfigError, DataDirError
from harvest.github import TOKEN_ENV
from harvest.middlewares.safety import resolver_problems

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

__all__ = ["check_settings", "data_dir_problem", "settings_problems", "token_problem"]


def settings_problems(settings: BaseSettings) -> list[tuple[str, str]]:
    """(setting, problem) for every bad value among ``settings`` (see the module docstring)."""
    # Settings that would let a download bypass the private-address guard (DNS pinning).
    return [*settings_model_problems(settings), *resolver_problems(settings)]


def token_problem(environ: dict[str, str] | None = None) -> str | None:
    """What is wrong with ``GITHUB_TOKEN`` (None when unset or usable); never quotes the token."""
    token = (os.environ if environ is None else environ).get(TOKEN_ENV, "").strip()
    if any(ch.isspace() or not ch.isprintable() for ch in token):
        return (
            "holds whitespace or control characters (a line break or space copied with it?); "
            "set it to the token alone (its value is not shown here)"
        )
    return None


def check_settings(settings: BaseSettings) -> None:
    """Raise ConfigError naming every bad setting and a malformed ``GITHUB_TOKEN``."""
    for name in retired_in(settings):
        logger.warning("%s is retired (now the %s); accepted in this release only", name, RETIRED[name])
    problems = settings_problems(settings)
    token = token_problem()
    if problems:
        raise ConfigError(SOURCE, [*problems, *([(f"{TOKEN_ENV} (environment)", token)] if token else [])])
    if token:
        raise ConfigError("the environment", [(TOKEN_ENV, token)])
    data_dir = settings.get("HARVEST_DATA_DIR")
    problem = data_dir_problem(data_dir)
    if problem:
        raise DataDirError(data_dir, problem)


def data_dir_problem(path: str | Path) -> str | None:
    """Why the folder ``path`` cannot hold files (None when it can), leaving nothing behind.

    Tried, not guessed from permissions (root may write anywhere ``os.access`` says, yet not
    under ``/proc``): the missing folders are made, a file is created in the last and removed,
    and the folders made are removed again, so a refusal elsewhere still leaves no trace.
    """
    folder = Path(path).absolute()
    made: list[Path] = []
    try:
        for parent in [*reversed(folder.parents), folder]:
            if parent.is_dir():
                continue
            if parent.exists() or parent.is_symlink():
                return f"{parent} is not a folder"
            try:
                parent.mkdir()
            except OSError as exc:
                return f"cannot create {parent}: {exc.strerror or exc}"
            made.append(parent)
        try:
            fd, probe = tempfile.mkstemp(prefix=".harvest-probe-", dir=folder)
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:
            return f"cannot create a file in it: {exc.strerror or exc}"
    finally:
        for parent in reversed(made):
            try:
                parent.rmdir()
            except OSError:
                pass  # someone else put a file there meanwhile: theirs to keep
    return None
