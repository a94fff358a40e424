"""One pydantic model of the Scrapy settings harvest checks: types, bounds and names, declared once.

The defaults live in :mod:`harvest.settings` (and Scrapy's own), and the model derives its fields
from them: every setting whose default is a bool, a number or a dict is read the way components
read it (``getbool``, ``getint``/``getfloat``, ``getdict``); harvest's own integers are whole
numbers (``getint``: ``"2.5"`` must fail here, not mid-crawl), its numbers are at least
:data:`MINIMUMS` (else 0), its word-valued settings take one of :data:`CHOICES`. ``HARVEST_*`` names
are closed (``extra="forbid"``): one typed on the command line that harvest does not define is
refused, naming it. ``HARVEST_STATE_URL`` names a known state backend and the :data:`ENDPOINTS`
are absolute http(s) URLs.

:func:`read_settings` validates a ``Settings`` object and returns the model (typed values, the
defaults where unset); :func:`settings_model_problems` gives the (setting, problem) pairs that
:class:`harvest.exceptions.ConfigError` renders.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    create_model,
    field_validator,
)
from scrapy.settings import SETTINGS_PRIORITIES, BaseSettings

import harvest.settings
from harvest.exceptions import ConfigError
from harvest.state import STORE_SCHEMES

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantic_core import ErrorDetails

#: How a bad setting is named in the error message (``scrapy crawl`` and ``run_all.py`` alike).
SOURCE = "settings (-s or harvest/settings.py)"
#: Endpoint settings that must be absolute http(s) URLs.
ENDPOINTS = ("GITHUB_WEB_URL", "GITHUB_RAW_URL", "GITHUB_API_URL")
#: Settings that take one of a few words.
CHOICES: dict[str, tuple[str, ...]] = {"HARVEST_BLOGS_EXTRACTION": ("pool", "inline", "off")}
#: Harvest numbers with a floor above 0 (none of the others means anything below zero): the
#: fleet's knobs below which the supervisor cannot work.
MINIMUMS: dict[str, float] = {
    "HARVEST_FLEET_PROCESSES_PER_CPU": 1,
    "HARVEST_FLEET_MAX_PROCESSES_PER_CPU": 1,
    "HARVEST_FLEET_PROCESS_MEMORY_MB": 1,
    "HARVEST_FLEET_MAX_CRASHES": 1,
    "HARVEST_FLEET_CRASH_WINDOW": 1,
    "HARVEST_FLEET_HUNG_TIMEOUT": 1,
    "HARVEST_FLEET_START_TIMEOUT": 1,
    "HARVEST_FLEET_STATUS_INTERVAL": 0.1,
    "HARVEST_FLEET_LOG_INTERVAL": 0.1,
    "HARVEST_FLEET_SIZE_CHECK_INTERVAL": 0.1,
    "HARVEST_FLEET_POLL_INTERVAL": 0.05,
    "HARVEST_FLEET_LOG_KEEP": 1,
    "HARVEST_FLEET_UNREACHABLE_RETRY": 1,
    "HARVEST_FLEET_UNREACHABLE_RETRY_MAX": 1,
}
#: Names that are no longer settings, and what replaced them: GitHub's documented facts became
#: constants in :mod:`harvest.github.limits`, benchmark-tuned intervals constants of the component
#: they tune (their reasons and figures in BENCHMARKS.md). Accepted for one release: a value set
#: under an old name is still used (:func:`retired_value`) and the crawl's log says so once.
RETIRED: dict[str, str] = {
    "HARVEST_GITHUB_API_VERSION": "constant `harvest.github.limits.API_VERSION` (GitHub's API version)",
    "HARVEST_GITHUB_PER_PAGE": "constant `harvest.github.limits.PER_PAGE` (GitHub's maximum)",
    "HARVEST_GITHUB_RESULT_CAP": "constant `harvest.github.limits.RESULT_CAP` (GitHub's documented cap)",
    "HARVEST_GITHUB_MAX_QUERY_LENGTH": "constant `harvest.github.limits.MAX_QUERY_LENGTH` (GitHub's limit)",
    "HARVEST_GITHUB_MAX_OPERATORS": "constant `harvest.github.limits.MAX_OPERATORS` (GitHub's limit)",
    "HARVEST_GITHUB_CREATED_FLOOR": "constant `harvest.github.limits.CREATED_FLOOR` (GitHub's first day)",
    "HARVEST_PACE_POLL": "constant `harvest.middlewares.pace.POLL`",
    "HARVEST_CRAWL_HANDOFF_POLL": "constant `harvest.crawl.handoff.POLL`",
    "HARVEST_FLEET_DASHBOARD_REFRESH": "constant `harvest.runner.dashboard.REFRESH`",
    "HARVEST_CRAWL_STUCK_CHECK": "constant `harvest.extensions.stuck.CHECK`",
    "HARVEST_BLOGS_EXTRACT_DEPTH": "constant `harvest.extraction.pool.DEPTH`",
    "HARVEST_BLOGS_EXTRACT_MAX_TASKS_PER_CHILD": "constant `harvest.extraction.pool.MAX_TASKS_PER_CHILD`",
    # Plumbing between harvest's own processes: a worker's supervisor sets it in the worker's
    # environment; the fleet set the replica for its children, and no component read it.
    "HARVEST_CRAWL_WORKER": "worker's environment (harvest.state.partition.WORKER_ENV)",
    "HARVEST_CRAWL_RUN": "worker's environment (harvest.state.partition.RUN_ENV)",
    "HARVEST_CRAWL_SUPERVISOR": "worker's environment (harvest.state.partition.SUPERVISOR_ENV)",
    "HARVEST_FLEET_REPLICA": "fleet's own bookkeeping (status.json `replica`; no longer a setting)",
    "HARVEST_FLEET_REPLICAS": "fleet's own bookkeeping (status.json; no longer a setting)",
}
#: The words of an unknown ``HARVEST_*`` name's problem.
UNKNOWN = "unknown setting (check the spelling; harvest/settings.py lists every HARVEST_*)"
_OWN = "HARVEST_"


def _reader(method: str, expected: str) -> Callable[[Any], Any]:
    """A before-validator reading a value with ``BaseSettings.<method>``, as a component would."""

    def read(value: Any) -> Any:
        try:
            return getattr(BaseSettings({"value": value}), method)("value")
        except (TypeError, ValueError):
            raise ValueError(f"expected {expected}, got {value!r}") from None

    return read


_BOOL = BeforeValidator(_reader("getbool", "true or false (1/0)"))
_WHOLE = BeforeValidator(_reader("getint", "a whole number"))
_NUMBER = BeforeValidator(_reader("getfloat", "a number"))
_DICT = BeforeValidator(_reader("getdict", "a JSON object"))


def _field_type(name: str, default: Any, *, own: bool) -> Any:
    """The annotated type of setting ``name`` from its ``default`` (``own``: defined by harvest)."""
    strict = own and name.startswith(_OWN)
    if name in CHOICES:
        return Literal[CHOICES[name]]
    if isinstance(default, bool):
        return Annotated[bool, _BOOL]
    if isinstance(default, (int, float)):
        if not strict:  # Scrapy reads its numbers with getfloat as often as getint (DOWNLOAD_TIMEOUT)
            return Annotated[float, _NUMBER]
        floor = Field(ge=MINIMUMS.get(name, 0))
        return Annotated[int, _WHOLE, floor] if isinstance(default, int) else Annotated[float, _NUMBER, floor]
    if isinstance(default, dict):
        return Annotated[dict[Any, Any], _DICT]
    return Any


class _Checks(BaseModel):
    """The checks that are not a field's type: state backend and endpoints."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("HARVEST_STATE_URL", check_fields=False)
    @classmethod
    def _known_backend(cls, value: Any) -> Any:
        url = str(value or "")
        scheme = urlsplit(url).scheme if url else ""
        if scheme not in STORE_SCHEMES:
            known = ", ".join(f"{s}://" for s in sorted(STORE_SCHEMES) if s)
            raise ValueError(f"unknown scheme {scheme!r} in {url!r} (use empty, or {known})")
        return value

    @field_validator(*ENDPOINTS, check_fields=False)
    @classmethod
    def _absolute_url(cls, value: Any) -> Any:
        url = str(value or "")
        parts = urlsplit(url)
        if parts.scheme not in {"http", "https"} or not parts.hostname:
            raise ValueError(f"expected an absolute http(s) URL, got {url!r}")
        return value


def _upper(module: Any) -> dict[str, Any]:
    return {k: getattr(module, k) for k in dir(module) if k.isupper()}


@cache
def _harvest_defaults() -> dict[str, Any]:
    """Every setting :mod:`harvest.settings` defines, with its default."""
    return _upper(harvest.settings)


@cache
def settings_model() -> type[BaseModel]:
    """The model: one field per setting harvest checks, its default the one harvest (or Scrapy) sets."""
    import scrapy.settings.default_settings as scrapy_settings

    own = _harvest_defaults()
    fields: dict[str, Any] = {}
    for name, default in _upper(scrapy_settings).items():
        if name not in own and isinstance(default, (bool, int, float, dict)):
            fields[name] = (_field_type(name, default, own=False), default)
    for name, default in own.items():
        fields[name] = (_field_type(name, default, own=True), default)
    return create_model("HarvestSettings", __base__=_Checks, **fields)


def _input(settings: BaseSettings) -> dict[str, Any]:
    """The values to validate: every field set above Scrapy's defaults, and HARVEST_* names typed."""
    fields = settings_model().model_fields
    data: dict[str, Any] = {}
    for name in settings:
        priority = settings.getpriority(name) or 0
        if priority <= SETTINGS_PRIORITIES["default"]:
            continue  # Scrapy's own defaults (reading a deprecated one would warn)
        if name in RETIRED:
            continue  # accepted for one release (retired_value reads it)
        known = name in fields
        if known or (name.startswith(_OWN) and priority >= SETTINGS_PRIORITIES["cmdline"]):
            value = settings.get(name)
            if value is not None or not known:
                data[name] = value
    for name in ("HARVEST_STATE_URL", *ENDPOINTS):  # checked even where unset
        data[name] = settings.get(name) or ""
    return data


def _problem(error: ErrorDetails, data: dict[str, Any]) -> tuple[str, str]:
    """(setting, message) of one pydantic error, quoting the value as it was given."""
    name = str(error["loc"][0]) if error["loc"] else ""
    value = data.get(name)
    ctx = error.get("ctx") or {}
    kind = error["type"]
    if kind == "extra_forbidden":
        return name, UNKNOWN
    if kind == "value_error":
        return name, str(ctx["error"])
    if kind == "literal_error":
        return name, f"expected one of {', '.join(CHOICES[name])}, got {value!r}"
    if kind == "greater_than_equal":
        return name, f"expected {ctx['ge']:g} or more, got {value!r}"
    return name, f"{error['msg']}, got {value!r}"


def _validate(settings: BaseSettings) -> tuple[BaseModel | None, list[tuple[str, str]]]:
    data = _input(settings)
    try:
        return settings_model().model_validate(data), []
    except ValidationError as exc:
        problems = [_problem(error, data) for error in exc.errors()]
        return None, sorted(problems)


def settings_model_problems(settings: BaseSettings) -> list[tuple[str, str]]:
    """(setting, problem) for every value of ``settings`` the model refuses, by setting name."""
    return _validate(settings)[1]


def read_settings(settings: BaseSettings) -> BaseModel:
    """The settings harvest checks, validated and typed; raises ConfigError naming each bad one."""
    model, problems = _validate(settings)
    if model is None:
        raise ConfigError(SOURCE, problems)
    return model


_T = TypeVar("_T", int, float, str)


def retired_in(settings: BaseSettings) -> list[str]:
    """The retired names ``settings`` still sets (above Scrapy's defaults)."""
    return sorted(n for n in RETIRED if (settings.getpriority(n) or 0) > SETTINGS_PRIORITIES["default"])


def retired_value(settings: BaseSettings, name: str, constant: _T) -> _T:
    """``constant``, or the value still set under its retired setting ``name`` (one release).

    Raises :class:`harvest.exceptions.ConfigError` naming the setting when the value is not of
    the constant's type.
    """
    if name not in RETIRED:
        raise KeyError(f"{name} is not a retired setting")
    value = settings.get(name)
    if value is None or value == "":
        return constant
    try:
        return type(constant)(value)
    except (TypeError, ValueError):
        kind = {int: "a whole number", float: "a number"}.get(type(constant), "text")
        raise ConfigError(SOURCE, [(name, f"expected {kind}, got {value!r}")]) from None
