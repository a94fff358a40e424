"""Load ``<config_dir>/<spider>.yaml`` into its pydantic model, with errors naming file and key.

What the file cannot be is refused the same way, before anything starts: a file that is not a
regular file (a FIFO would block the read for ever, a device would never end), and a mapping
that gives one key twice (YAML takes the last one without a word, so a ``max_pages`` added
below an existing one would silently change the crawl).
"""

from __future__ import annotations

import errno
import logging
import os
import stat
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
    return _parse(model, read_config_file(path), path)


def read_config_file(path: Path) -> str:
    """The text of the config file ``path``; ConfigError when it is not a readable regular file.

    Opened without blocking and checked on the open descriptor: a FIFO (whose plain open waits
    for a writer for ever), a device or a folder is refused naming what it is, with no race
    between the check and the read.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.EISDIR:  # some systems refuse to open a folder at all
            raise ConfigError(path, "not a regular file (a folder); a config must be a YAML file") from None
        raise ConfigError(path, f"cannot read the file: {exc.strerror or exc}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise ConfigError(path, f"not a regular file ({_file_kind(mode)}); a config must be a YAML file")
    with os.fdopen(fd, "rb") as fh:
        try:
            return fh.read().decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(path, f"cannot read the file: {exc}") from None


def _file_kind(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "a special file")


class _UniqueKeyLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing a mapping that gives one key twice (see the module docstring).

    Merge keys (``<<: *defaults``) may still be overridden: that is what they are for.
    """

    def check_unique_keys(self, node: yaml.Node, path: str = "", done: set[int] | None = None) -> None:
        """Raise DuplicateKey for the first key given twice in ``node`` or below it.

        ``path`` names where ``node`` is from the top (``sites[0].max_pages``), as pydantic's
        errors are named. A node an alias repeats is checked once (``done``): an anchor inside
        itself would otherwise recurse for ever.
        """
        done = set() if done is None else done
        if id(node) in done:
            return
        done.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            for i, child in enumerate(node.value):
                self.check_unique_keys(child, f"{path}[{i}]", done)
        elif isinstance(node, yaml.MappingNode):
            seen: dict[tuple[str, str], yaml.Node] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge" or not isinstance(key_node, yaml.ScalarNode):
                    continue
                name = str(key_node.value)
                where = f"{path}.{name}" if path else name
                first = seen.setdefault((key_node.tag, name), key_node)
                if first is not key_node:
                    raise DuplicateKey(where, first.start_mark.line + 1, key_node.start_mark.line + 1)
                self.check_unique_keys(value_node, where, done)


class DuplicateKey(Exception):
    """A mapping gives ``key`` twice, at ``first`` and at ``second`` (1-based lines)."""

    def __init__(self, key: str, first: int, second: int) -> None:
        super().__init__(key, first, second)
        self.key, self.first, self.second = key, first, second


def _load_yaml(text: str) -> Any:
    """The data of one YAML document, safely (no Python objects), each key given once."""
    loader = _UniqueKeyLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        loader.check_unique_keys(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _parse(model: type[M], text: str, source: str | Path) -> M:
    """Parse YAML ``text`` read from ``source`` and validate it against ``model``."""
    if not text.strip():
        raise ConfigError(source, "the file is empty (delete it to use the defaults)")
    try:
        # A safe loader: a config file must never be able to construct arbitrary Python objects.
        data = _load_yaml(text)
    except DuplicateKey as dup:
        raise ConfigError(
            source,
            [(dup.key, f"given twice, at line {dup.first} and at line {dup.second} (keep one)")],
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(source, f"YAML syntax error at {where}{problem}") from None
    return validate_config(model, data, source)
