"""The ``-a`` arguments of a spider run: one pydantic model per spider, one way to report them.

``scrapy crawl <spider> -a name=value`` hands a spider strings. Each spider declares what it
accepts as a model (``args_model`` on :class:`harvest.spiders.base.HarvestSpider`, the pattern
zyte-spider-templates uses): the names, their types and how a string is read. Validation and its
errors go through :func:`parse_args` and :func:`arguments_error` only, so every bad argument is
reported the same way, naming it (``-a max_results: expected a positive number or 'all', got
'x'``), whether the argument itself is bad or the config it produces.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, ValidationInfo

from harvest.config.base import parse_bool
from harvest.exceptions import ConfigError


def _flag(value: Any, info: ValidationInfo) -> bool:
    return parse_bool(value, f"-a {info.field_name}")


def _whole(value: Any) -> int:
    try:
        return int(str(value).strip())
    except ValueError:
        raise ValueError(f"expected a whole number, got {value!r}") from None


def _csv(value: Any) -> list[str]:
    return [part for part in str(value).split(",") if part.strip()]


def _stripped(value: Any) -> str:
    return str(value).strip()


#: ``true/false``, ``1/0``, ``yes/no``, ``on/off``.
Flag = Annotated[bool, BeforeValidator(_flag)]
#: A whole number (``-a max_pages=50``).
Whole = Annotated[int, BeforeValidator(_whole)]
#: Comma-separated values (``-a language=python,rust``).
CommaList = Annotated[list[str], BeforeValidator(_csv)]
#: Text with its surrounding spaces removed.
Stripped = Annotated[str, BeforeValidator(_stripped)]


class SpiderArgs(BaseModel):
    """The ``-a`` arguments every harvest spider accepts; each spider's model adds its own."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    #: ``-a reset=1``: start from a clean crawl state (see HARVEST_DEDUP_RESET).
    reset: Flag = False
    #: The job id scrapyd passes to every job.
    job: str | None = Field(default=None, alias="_job")

    def given(self, *names: str) -> dict[str, Any]:
        """The arguments among ``names`` this run was given, by name."""
        return {name: getattr(self, name) for name in names if name in self.model_fields_set}


ArgsT = TypeVar("ArgsT", bound=SpiderArgs)


def accepted(model: type[SpiderArgs]) -> list[str]:
    """The argument names ``model`` accepts, as a user types them (scrapyd's own left out)."""
    return sorted((f.alias or name) for name, f in model.model_fields.items() if name != "job")


def arguments_error(
    spider: str,
    exc: ValidationError,
    *,
    model: type[SpiderArgs],
    fields: Mapping[str, str] | None = None,
    default: str = "",
) -> ConfigError:
    """The ConfigError of ``exc``, each problem naming the ``-a`` argument at fault.

    ``fields`` maps a config field to the argument that sets it (trending's ``languages`` is
    ``-a language``); a problem of the config as a whole names ``-a <default>``.
    """
    problems = []
    for error in exc.errors():
        loc = [str(part) for part in error["loc"]]
        flag = (fields or {}).get(loc[0], "") if loc else ""
        flag = flag or f"-a {'.'.join(loc) or default}"
        if error["type"] == "extra_forbidden":
            message = f"unknown argument; this spider accepts: {', '.join(accepted(model)) or '(none)'}"
        elif error["type"] == "value_error":
            message = str((error.get("ctx") or {}).get("error", error["msg"]))
        else:
            message = error["msg"]
        problems.append((flag, message))
    return ConfigError(f"spider arguments of {spider!r}", problems)


def parse_args(spider: str, model: type[ArgsT], arguments: Mapping[str, str]) -> ArgsT:
    """``arguments`` (``-a`` strings) as ``model``; ConfigError naming each bad one."""
    try:
        return model.model_validate(dict(arguments))
    except ValidationError as exc:
        raise arguments_error(spider, exc, model=model) from None
