"""Settings and environment checked before a crawl starts, so a typo exits with 2 and a message.

Scrapy reads each setting where a component is built, inside the running crawl: a ``-s
HARVEST_STATE_COMMIT_ITEMS=abc`` would surface as a traceback (exit 1) after the engine started,
and under ``run_all.py`` as a crash loop. ``scrapy crawl`` (:mod:`harvest.commands.crawl`) and
``run_all.py`` (:mod:`harvest.runner.cli`) call :func:`check_settings` first instead. It checks

- every setting whose default (harvest's, else Scrapy's) is a bool, a number or a dict, against
  that type, the way components read it (``getbool``, ``getint``/``getfloat``, ``getdict``);
  harvest's numbers must not be negative, and its word-valued settings take one of their words;
- ``HARVEST_*`` names typed on the command line, against those harvest defines (a misspelt
  knob would otherwise be ignored without a word);
- ``HARVEST_STATE_URL`` against the known state backends, and the ``GITHUB_*_URL`` endpoints;
- ``GITHUB_TOKEN``: whitespace or control characters inside it (a line break pasted with it)
  would be sent in a header; the message never shows the token.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from harvest.exceptions import ConfigError

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

#: How a bad setting is named in the error message (the same words as the fleet's own checks).
SOURCE = "settings (-s or harvest/settings.py)"
#: Endpoint settings that must be absolute http(s) URLs.
ENDPOINTS = ("GITHUB_WEB_URL", "GITHUB_RAW_URL", "GITHUB_API_URL")


def _defaults() -> tuple[dict[str, Any], dict[str, Any]]:
    import scrapy.settings.default_settings as scrapy_defaults

    import harvest.settings as harvest_defaults

    def upper(module: Any) -> dict[str, Any]:
        return {k: getattr(module, k) for k in dir(module) if k.isupper()}

    return upper(harvest_defaults), upper(scrapy_defaults)


def _type_problem(settings: BaseSettings, name: str, default: Any, *, strict_int: bool) -> str | None:
    value = settings.get(name)
    if value is None or value is default:
        return None
    try:
        if isinstance(default, bool):
            settings.getbool(name)
        elif isinstance(default, int) and strict_int:
            settings.getint(name)
        elif isinstance(default, (int, float)):
            settings.getfloat(name)
        elif isinstance(default, dict):
            settings.getdict(name)
        else:
            return None
    except (TypeError, ValueError):
        if isinstance(default, bool):
            expected = "true or false (1/0)"
        elif isinstance(default, int) and strict_int:
            expected = "a whole number"
        elif isinstance(default, (int, float)):
            expected = "a number"
        else:
            expected = "a JSON object"
        return f"expected {expected}, got {value!r}"
    return None


#: Settings that take one of a few words.
CHOICES = {"HARVEST_BLOGS_EXTRACTION": ("pool", "inline", "off")}


def _value_problem(settings: BaseSettings, name: str, default: Any) -> str | None:
    """Range and choice checks of harvest's own settings (their types are checked already)."""
    if name in CHOICES and str(settings.get(name)) not in CHOICES[name]:
        return f"expected one of {', '.join(CHOICES[name])}, got {settings.get(name)!r}"
    # Counts, sizes and durations: none of harvest's means anything below zero.
    if isinstance(default, (int, float)) and not isinstance(default, bool) and settings.getfloat(name) < 0:
        return f"expected 0 or more, got {settings.get(name)!r}"
    return None


def settings_problems(settings: BaseSettings) -> list[tuple[str, str]]:
    """(setting, problem) for every bad value among ``settings`` (see the module docstring)."""
    from scrapy.settings import SETTINGS_PRIORITIES

    from harvest.state import STORE_SCHEMES

    harvest_defaults, scrapy_defaults = _defaults()
    cmdline = SETTINGS_PRIORITIES["cmdline"]
    problems: list[tuple[str, str]] = []
    for name in sorted(settings):
        if (settings.getpriority(name) or 0) <= SETTINGS_PRIORITIES["default"]:
            continue  # Scrapy's own defaults (reading a deprecated one would warn)
        if name in harvest_defaults:
            # Harvest's own integers are read with getint: "2.5" must fail here, not mid-crawl.
            strict = name.startswith("HARVEST_")
            default = harvest_defaults[name]
            problem = _type_problem(settings, name, default, strict_int=strict)
            if problem is None and strict:
                problem = _value_problem(settings, name, default)
        elif name in scrapy_defaults:
            problem = _type_problem(settings, name, scrapy_defaults[name], strict_int=False)
        elif name.startswith("HARVEST_") and (settings.getpriority(name) or 0) >= cmdline:
            problem = "unknown setting (check the spelling; harvest/settings.py lists every HARVEST_*)"
        else:
            problem = None
        if problem:
            problems.append((name, problem))
    state_url = str(settings.get("HARVEST_STATE_URL") or "")
    scheme = urlsplit(state_url).scheme if state_url else ""
    if scheme not in STORE_SCHEMES:
        known = ", ".join(f"{s}://" for s in sorted(STORE_SCHEMES) if s)
        problem = f"unknown scheme {scheme!r} in {state_url!r} (use empty, or {known})"
        problems.append(("HARVEST_STATE_URL", problem))
    for name in ENDPOINTS:
        url = str(settings.get(name) or "")
        parts = urlsplit(url)
        if parts.scheme not in {"http", "https"} or not parts.hostname:
            problems.append((name, f"expected an absolute http(s) URL, got {url!r}"))
    return problems


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
    token = token_problem()
    if problems:
        raise ConfigError(SOURCE, [*problems, *([(f"{TOKEN_ENV} (environment)", token)] if token else [])])
    if token:
        raise ConfigError("the environment", [(TOKEN_ENV, token)])
