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
  would be sent in a header; the message never shows the token.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy.settings import SETTINGS_PRIORITIES

from harvest.config.settings_model import CHOICES, ENDPOINTS, SOURCE, settings_model_problems
from harvest.exceptions import ConfigError, FolderError

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = [
    "CHOICES",
    "ENDPOINTS",
    "SOURCE",
    "check_settings",
    "folder_problems",
    "settings_problems",
    "token_problem",
    "unwritable",
]
#: Folders under the data folder a crawl writes into, checked when they exist already.
_DATA_SUBFOLDERS = ("state", "logs")


def unwritable(folder: Path) -> str | None:
    """Why this process cannot create files in ``folder``, or None if it can.

    A folder that does not exist yet is judged by the nearest one above it that does (where it
    would be made), so the check creates nothing. Tried for real (a temporary file, removed at
    once): permission bits say nothing of root's capabilities, a read-only mount or an ACL.
    """
    existing = folder
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    try:
        if not existing.is_dir():
            raise NotADirectoryError(20, "not a folder", str(existing))
        with tempfile.TemporaryFile(dir=existing, prefix=".harvest-write-check-"):
            pass
    except OSError as exc:
        why = (exc.strerror or str(exc)).lower()
        try:
            st = existing.stat()
            owner = (
                f" (owned by uid {st.st_uid}, mode {stat.filemode(st.st_mode)}; "
                f"this process runs as uid {os.geteuid()})"
            )
        except OSError:
            owner = ""
        if existing == folder:
            return f"cannot write to {folder}: {why}{owner}"
        where = f" in {existing}" if existing != folder.parent else ""
        return f"cannot create {folder}{where}: {why}{owner}"
    return None


def folder_problems(settings: BaseSettings) -> list[tuple[str, str]]:
    """(setting, problem) for a data or log folder that cannot be written, a config folder missing.

    ``HARVEST_CONFIG_DIR`` is a problem only when given (``-s``, an environment or command-line
    setting): the default ``spiders_config`` may be absent (a scrapyd job), where the packaged
    configs apply.
    """
    problems: list[tuple[str, str]] = []
    config_dir = Path(str(settings.get("HARVEST_CONFIG_DIR")))
    given = (settings.getpriority("HARVEST_CONFIG_DIR") or 0) > SETTINGS_PRIORITIES["project"]
    if given and not config_dir.is_dir():
        problems.append(
            (
                "HARVEST_CONFIG_DIR",
                f"{config_dir.resolve()} is not a folder: give the folder of the spiders' YAML files "
                "(leave the setting out to use spiders_config/)",
            )
        )
        return problems
    data_dir = Path(str(settings.get("HARVEST_DATA_DIR")))
    folders = [("HARVEST_DATA_DIR", data_dir)]
    folders += [("HARVEST_DATA_DIR", data_dir / sub) for sub in _DATA_SUBFOLDERS if (data_dir / sub).is_dir()]
    if settings.get("LOG_FILE"):
        folders.append(("LOG_FILE", Path(str(settings.get("LOG_FILE"))).parent))
    for name, folder in folders:
        why = unwritable(folder)
        if why is not None:
            problems.append((name, why))
            break  # the first one says it: the others are inside it, or follow from it
    return problems


def settings_problems(settings: BaseSettings) -> list[tuple[str, str]]:
    """(setting, problem) for every bad value among ``settings`` (see the module docstring)."""
    from harvest.middlewares.safety import resolver_problems

    # Settings that would let a download bypass the private-address guard (DNS pinning).
    return [*settings_model_problems(settings), *resolver_problems(settings)]


def token_problem(environ: dict[str, str] | None = None) -> str | None:
    """What is wrong with ``GITHUB_TOKEN`` (None when unset or usable); never quotes the token."""
    from harvest.github import TOKEN_ENV

    token = (os.environ if environ is None else environ).get(TOKEN_ENV, "").strip()
    if any(ch.isspace() or not ch.isprintable() for ch in token):
        return (
            "holds whitespace or control characters (a line break or space copied with it?); "
            "set it to the token alone (its value is not shown here)"
        )
    return None


def check_settings(settings: BaseSettings) -> None:
    """Raise ConfigError naming every bad setting and a malformed ``GITHUB_TOKEN``."""
    from harvest.github import TOKEN_ENV

    problems = settings_problems(settings)
    if not problems:  # types first: a folder setting that is no path is said as such
        folders = folder_problems(settings)
        if folders:
            raise FolderError(folders)
    token = token_problem()
    if problems:
        raise ConfigError(SOURCE, [*problems, *([(f"{TOKEN_ENV} (environment)", token)] if token else [])])
    if token:
        raise ConfigError("the environment", [(TOKEN_ENV, token)])
