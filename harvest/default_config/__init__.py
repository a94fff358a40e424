"""The spiders' YAML configs as packaged with harvest: a build-time copy of ``spiders_config/``.

``setup.py`` copies ``spiders_config/*.yaml`` here whenever the package is built (an egg for
scrapyd, a wheel for pip); the source tree holds only this module. The config loader reads
these when ``HARVEST_CONFIG_DIR`` does not exist, as in a scrapyd job, whose working folder is
scrapyd's. They are read through ``importlib.resources`` because scrapyd imports the egg as a
zip file: there is no folder on disk to open.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from importlib import resources

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PackagedConfig:
    """One packaged YAML config: where it came from (for error messages) and its text."""

    source: str
    text: str


def packaged_config(spider_name: str) -> PackagedConfig | None:
    """The YAML config of ``spider_name`` packaged with harvest, or None if there is none."""
    base = resources.files(__name__)
    for suffix in (".yaml", ".yml"):
        resource = base / f"{spider_name}{suffix}"
        if resource.is_file():
            return PackagedConfig(f"{resource} (packaged with harvest)", resource.read_text(encoding="utf-8"))
    return None


def packaged_config_names() -> list[str]:
    """Names of the spiders that have a packaged config (sorted)."""
    names = {
        entry.name.rsplit(".", 1)[0]
        for entry in resources.files(__name__).iterdir()
        if entry.name.endswith((".yaml", ".yml"))
    }
    return sorted(names)
