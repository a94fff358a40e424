"""docs/SETTINGS.md: generated from harvest/settings.py, current, complete; retired names still work."""

from __future__ import annotations

import logging
import re
import subprocess
import sys

import pytest
from scrapy.settings import Settings

import harvest.settings
from harvest.config.reference import TARGET, current, read_areas
from harvest.config.settings_model import RETIRED, retired_value, settings_model_problems
from harvest.crawl.checks import check_settings
from harvest.exceptions import ConfigError
from harvest.github import limits
from tests import PROJECT_ROOT

SETTINGS_SOURCE = (PROJECT_ROOT / "harvest" / "settings.py").read_text(encoding="utf-8")


def test_the_reference_is_current() -> None:
    on_disk = (PROJECT_ROOT / TARGET).read_text(encoding="utf-8")
    assert on_disk == current(), "docs/SETTINGS.md is stale: run python -m harvest.config.reference"


def test_the_check_mode_names_a_stale_reference(tmp_path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / TARGET).write_text("old\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "harvest.config.reference", "--check"]
    env_path = {"PYTHONPATH": str(PROJECT_ROOT)}
    stale = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, env=env_path, timeout=120)
    assert stale.returncode == 1
    assert "SETTINGS.md is stale" in stale.stderr
    subprocess.run(cmd[:-1], cwd=tmp_path, check=True, capture_output=True, env=env_path, timeout=120)
    fresh = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, env=env_path, timeout=120)
    assert fresh.returncode == 0, fresh.stderr


def test_every_harvest_setting_is_documented_with_its_own_reason() -> None:
    defined = {n for n in dir(harvest.settings) if n.startswith("HARVEST_")}
    documented = {s.name: s.doc for area in read_areas(SETTINGS_SOURCE) for s in area.settings}
    assert defined <= set(documented)
    without = sorted(n for n in defined if not documented[n] or documented[n].startswith("Scrapy's own"))
    assert without == []
    reference = (PROJECT_ROOT / TARGET).read_text(encoding="utf-8")
    assert all(f"`{name}`" in reference for name in defined)


def test_settings_are_grouped_by_area() -> None:
    titles = [area.title for area in read_areas(SETTINGS_SOURCE)]
    assert len(titles) == len(set(titles)) > 5
    reference = (PROJECT_ROOT / TARGET).read_text(encoding="utf-8")
    assert re.findall(r"^## (.+)$", reference, re.M) == [*titles, "Retired names"]


def test_the_readme_points_to_the_reference() -> None:
    assert "docs/SETTINGS.md" in (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")


def test_no_retired_name_is_still_defined() -> None:
    assert sorted(n for n in RETIRED if hasattr(harvest.settings, n)) == []


def test_a_retired_name_is_still_used_with_one_deprecation_line(caplog: pytest.LogCaptureFixture) -> None:
    settings = Settings()
    settings.setmodule(harvest.settings, priority="project")
    assert retired_value(settings, "HARVEST_GITHUB_RESULT_CAP", limits.RESULT_CAP) == 1000
    settings.set("HARVEST_GITHUB_RESULT_CAP", "500", priority="cmdline")
    assert settings_model_problems(settings) == []  # accepted, not an unknown name
    assert retired_value(settings, "HARVEST_GITHUB_RESULT_CAP", limits.RESULT_CAP) == 500
    with caplog.at_level(logging.WARNING):
        check_settings(settings)
    lines = [r.getMessage() for r in caplog.records if "HARVEST_GITHUB_RESULT_CAP" in r.getMessage()]
    assert len(lines) == 1
    assert "retired" in lines[0] and "harvest.github.limits.RESULT_CAP" in lines[0]
    assert "accepted in this release" in lines[0]


def test_a_retired_name_with_a_bad_value_is_named() -> None:
    settings = Settings({"HARVEST_BLOGS_EXTRACT_DEPTH": "deep"})
    with pytest.raises(ConfigError, match="HARVEST_BLOGS_EXTRACT_DEPTH"):
        retired_value(settings, "HARVEST_BLOGS_EXTRACT_DEPTH", 4)


def test_an_unknown_name_is_still_refused() -> None:
    settings = Settings()
    settings.setmodule(harvest.settings, priority="project")
    settings.set("HARVEST_GITHUB_RESULTS_CAP", "500", priority="cmdline")
    assert [name for name, _ in settings_model_problems(settings)] == ["HARVEST_GITHUB_RESULTS_CAP"]
