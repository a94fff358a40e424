"""Load ``<config_dir>/<spider>.yaml`` into its pydantic model, with errors naming file and key."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from harvest.default_config import packaged_config
from harvest.exceptions import ConfigError

logger = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)


def config_path(config_dir: str | Path, spider_name: str) -> Path:
    """The YAML file of one spider (``.yaml``, or ``.yml`` if only that exists)."""
    base = Path(config_dir)
    path = base / f"{spider_name}.yaml"
    alt = base / f"{spider_name}.yml"
    if not path.exists() and alt.exists():
        return alt
    return path


def _format_loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def validate_config(model: type[M], data: Any, source: str | Path) -> M:
    """Validate a mapping against ``model``; raise ConfigError naming ``source`` and each bad key."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(source, f"expected a mapping of keys at the top level, got {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            key = _format_loc(err["loc"]) or "(top level)"
            msg = err["msg"]
            if err["type"] == "extra_forbidden":
                msg = "unknown key (check the spelling)"
            problems.append((key, msg))
        raise ConfigError(source, problems) from None


def load_config(model: type[M], config_dir: str | Path, spider_name: str, *, required: bool = False) -> M:
    """Read and validate one spider's YAML; a missing file gives the defaults unless ``required``.

    When ``config_dir`` itself does not exist (a scrapyd job runs in scrapyd's folder, where the
    relative default ``spiders_config`` is absent), the configs packaged with harvest at build
    time are used instead, so a deployed egg crawls what its source tree said.
    """
    path = config_path(config_dir, spider_name)
    if not Path(config_dir).is_dir():
        packaged = packaged_config(spider_name)
        if packaged is not None:
            logger.info("No folder %s; using the %s config packaged with harvest", config_dir, spider_name)
            return _parse(model, packaged.text, packaged.source)
    if not path.exists():
        if required:
            raise ConfigError(path, "file not found (set HARVEST_CONFIG_DIR or create it)")
        logger.info("No %s; using the defaults of the %s spider", path, spider_name)
        return validate_config(model, {}, path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(path, f"cannot read the file: {exc}") from None
    return _parse(model, text, path)


def _parse(model: type[M], text: str, source: str | Path) -> M:
    """Parse YAML ``text`` read from ``source`` and validate it against ``model``."""
    if not text.strip():
        raise ConfigError(source, "the file is empty (delete it to use the defaults)")
    try:
        # safe_load: a config file must never be able to construct arbitrary Python objects.
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(source, f"YAML syntax error at {where}{problem}") from None
    return validate_config(model, data, source)
