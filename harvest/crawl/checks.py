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
  traceback once the crawl opened its state, after the engine had started;
- the other folders a run uses (:func:`folder_problems`): ``state/`` and ``logs/`` of the data
  folder when they exist, ``LOG_FILE``'s folder, and a ``HARVEST_CONFIG_DIR`` given that is no
  folder (the defaults were used without a word).
"""

from __future__ import annotations

import errno
import logging
import os
import stat
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from scrapy.settings import SETTINGS_PRIORITIES

from harvest.config.settings_model import RETIRED, SOURCE, retired_in, settings_model_problems
from harvest.exceptions import ConfigError, DataDirError, FolderError
from harvest.github import TOKEN_ENV
from harvest.middlewares.safety import resolver_problems
from harvest.state.sqlite import named_root

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

__all__ = [
    "check_settings",
    "data_dir_problem",
    "folder_problems",
    "settings_problems",
    "token_problem",
    "unwritable",
]
#: Folders under the data folder a crawl writes into, checked when they exist already.
_DATA_SUBFOLDERS = ("state", "logs")


def unwritable(folder: Path) -> str | None:
    """Why this process cannot create files in the existing ``folder``, or None if it can.

    Tried for real (a temporary file, removed at once): permission bits say nothing of root's
    capabilities, a read-only mount or an ACL. The message names the folder's owner and mode.
    """
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".harvest-write-check-"):
            pass
    except OSError as exc:
        return f"cannot write to {folder}: {exc.strerror or exc}{_owner(folder, exc)}"
    return None


def _owner(folder: Path, exc: OSError) -> str:
    """`` (owned by uid 1001, mode drwxr-xr-x; this process runs as uid 0)`` for a refused permission."""
    if exc.errno not in (errno.EACCES, errno.EPERM):
        return ""
    try:
        st = folder.stat()
    except OSError:
        return ""
    mode = stat.filemode(st.st_mode)
    return f" (owned by uid {st.st_uid}, mode {mode}; this process runs as uid {os.geteuid()})"


def folder_problems(settings: BaseSettings) -> list[tuple[str, str]]:
    """(setting, problem) for a config folder given but missing, a log or state folder not writable.

    ``HARVEST_CONFIG_DIR`` is a problem only when given (``-s``, an environment or command-line
    setting): the default ``spiders_config`` may be absent (a scrapyd job), where the packaged
    configs apply. The data folder itself is :func:`data_dir_problem`'s.
    """
    config_dir = Path(str(settings.get("HARVEST_CONFIG_DIR")))
    given = (settings.getpriority("HARVEST_CONFIG_DIR") or 0) > SETTINGS_PRIORITIES["project"]
    if given and not config_dir.is_dir():
        return [
            (
                "HARVEST_CONFIG_DIR",
                f"{config_dir.resolve()} is not a folder: give the folder of the spiders' YAML files "
                "(leave the setting out to use spiders_config/)",
            )
        ]
    data_dir = Path(str(settings.get("HARVEST_DATA_DIR")))
    folders = [("HARVEST_DATA_DIR", data_dir / sub) for sub in _DATA_SUBFOLDERS if (data_dir / sub).is_dir()]
    log_file = settings.get("LOG_FILE")
    if log_file and Path(str(log_file)).parent.is_dir():
        folders.append(("LOG_FILE", Path(str(log_file)).parent))
    for name, folder in folders:
        why = unwritable(folder)
        if why is not None:
            return [(name, why)]  # the first one says it: the others follow from it
    url = str(settings.get("HARVEST_STATE_URL") or "")
    state_root = named_root(url) if urlsplit(url).scheme == "sqlite" else None
    if state_root is not None:
        why = data_dir_problem(state_root)
        if why is not None:
            return [("HARVEST_STATE_URL", f"the state folder {state_root} cannot hold files: {why}")]
    return []


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
    folders = folder_problems(settings)
    if folders:
        raise FolderError(folders)


def data_dir_problem(path: str | Path) -> str | None:
    """Why the folder ``path`` cannot hold files (None when it can), leaving nothing behind.

    Tried, not guessed from permissions (root may write anywhere ``os.access`` says, yet not
    under ``/proc``): the missing folders are made, a file is created in the last and removed,
    and the folders made are removed again, so a refusal elsewhere still leaves no trace.

    The workers of one crawl start together and check the same folder at once: one may make a
    folder another is about to make, or remove one another is trying. Such a race shows as a
    folder missing or present when it was just seen otherwise; it passes on the next try, where
    a real refusal (``/proc`` says "no such file" every time) does not.
    """
    folder = Path(path).absolute()
    problem: str | None = None
    for _ in range(_TRIES):
        problem, raced = _try_once(folder)
        if not raced:
            return problem
    return problem


# A race needs another worker of the same crawl between two calls here, so it passes on a
# later try; a few tries outlast any number of workers starting together.
_TRIES = 8


def _try_once(folder: Path) -> tuple[str | None, bool]:
    """One try of :func:`data_dir_problem`, and whether its refusal may be another's race."""
    made: list[Path] = []
    try:
        for parent in [*reversed(folder.parents), folder]:
            if parent.is_dir():
                continue
            try:
                parent.mkdir()
            except FileExistsError:
                try:
                    if stat.S_ISDIR(parent.stat().st_mode):
                        continue  # another worker made it meanwhile
                except FileNotFoundError:
                    if not parent.is_symlink():
                        return f"{parent} came and went", True
                return f"{parent} is not a folder", False
            except OSError as exc:
                why = f"cannot create {parent}: {exc.strerror or exc}{_owner(parent.parent, exc)}"
                return why, isinstance(exc, FileNotFoundError)
            made.append(parent)
        try:
            fd, probe = tempfile.mkstemp(prefix=".harvest-probe-", dir=folder)
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:
            why = f"cannot create a file in it: {exc.strerror or exc}{_owner(folder, exc)}"
            return why, isinstance(exc, FileNotFoundError)
    finally:
        for parent in reversed(made):
            try:
                parent.rmdir()
            except OSError:
                pass  # someone else put a file there meanwhile: theirs to keep
    return None, False
