"""Build hook for harvest; all metadata is in pyproject.toml.

Committed on purpose: without it, ``scrapyd-deploy`` writes its own setup.py (``name='project'``,
``find_packages()``, which would also ship ``tests``), and the egg would not carry the spiders'
YAML configs. With it, ``scrapyd-deploy`` builds the same package as ``pip install .``, and every
build copies ``spiders_config/*.yaml`` (the files users edit) into the package as
``harvest/default_config/*.yaml``, which the config loader falls back to when
``HARVEST_CONFIG_DIR`` does not exist on the host (a scrapyd job runs in scrapyd's folder).
A build-time copy rather than a second set of files in git: the two could drift apart.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: The user-facing config folder, relative to this file.
CONFIG_SOURCE = Path(__file__).resolve().parent / "spiders_config"


class BuildPyWithConfigs(build_py):
    """``build_py`` that also copies the spiders' YAML configs into ``harvest/default_config/``."""

    def run(self) -> None:
        """Build the package as usual, then add the configs as package data."""
        super().run()
        target = Path(self.build_lib) / "harvest" / "default_config"
        target.mkdir(parents=True, exist_ok=True)
        # An sdist has no spiders_config/: then the package simply carries no defaults.
        sources = sorted(CONFIG_SOURCE.glob("*.yaml")) + sorted(CONFIG_SOURCE.glob("*.yml"))
        for source in sources:
            shutil.copyfile(source, target / source.name)


setup(cmdclass={"build_py": BuildPyWithConfigs})
