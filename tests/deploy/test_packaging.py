"""The egg scrapyd-deploy builds from a clean clone carries everything a scrapyd job needs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests import PROJECT_ROOT
from tests.deploy.scrapyd import clean_copy, ignored_by_git, require_scrapyd


@pytest.fixture(scope="module")
def built_egg(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(clean copy of the working tree, the egg scrapyd-deploy built from it)."""
    require_scrapyd()
    root = tmp_path_factory.mktemp("egg")
    source = clean_copy(root / "clone")
    before = {p.relative_to(source).as_posix() for p in source.rglob("*") if p.is_file()}
    egg = root / "harvest.egg"
    env = {**os.environ, "TMPDIR": str(root), "HOME": str(root)}  # its build folder lands here
    result = subprocess.run(
        ["scrapyd-deploy", "--build-egg", str(egg)],
        cwd=source,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    after = {p.relative_to(source).as_posix() for p in source.rglob("*") if p.is_file()}
    created = sorted(after - before)
    # A deploy leaves the clone clean: whatever the build writes is git-ignored.
    assert set(created) == ignored_by_git(created), sorted(set(created) - ignored_by_git(created))
    return source, egg


def test_egg_has_the_settings_entry_point_and_every_module(built_egg: tuple[Path, Path]) -> None:
    source, egg = built_egg
    with zipfile.ZipFile(egg) as zf:
        names = set(zf.namelist())
        entry_points = zf.read("EGG-INFO/entry_points.txt").decode()
    # scrapyd's runner reads this entry point to find the project's settings module.
    assert "[scrapy]" in entry_points
    assert "settings = harvest.settings" in entry_points
    modules = {p.relative_to(source).as_posix() for p in (source / "harvest").rglob("*.py")}
    assert modules, "no harvest modules in the clean copy"
    assert modules <= names, sorted(modules - names)
    assert "harvest/py.typed" in names
    # Only the harvest package: tests and scripts stay out of what runs on the server.
    assert {n.split("/")[0] for n in names} == {"EGG-INFO", "harvest"}


def test_egg_carries_the_spider_configs_as_package_data(built_egg: tuple[Path, Path]) -> None:
    source, egg = built_egg
    configs = sorted((source / "spiders_config").glob("*.yaml"))
    assert {c.stem for c in configs} >= {"trending", "github_search", "blogs"}
    with zipfile.ZipFile(egg) as zf:
        for config in configs:
            packaged = zf.read(f"harvest/default_config/{config.name}")
            assert packaged == config.read_bytes(), config.name


def test_packaged_configs_are_readable_from_the_zipped_egg(built_egg: tuple[Path, Path]) -> None:
    """scrapyd imports the egg as a zip file: the configs are read without a folder on disk."""
    source, egg = built_egg
    names = sorted(p.stem for p in (source / "spiders_config").glob("*.yaml"))
    assert set(names) >= {"trending", "github_search", "blogs"}
    probe = (
        "import json, harvest, harvest.default_config as d\n"
        "print(json.dumps({'file': harvest.__file__, 'names': d.packaged_config_names(),\n"
        "  'configs': {n: [c.source, c.text] for n in d.packaged_config_names()\n"
        "              for c in [d.packaged_config(n)] if c}}))\n"
    )
    # The egg first on sys.path, as scrapyd's runner puts it ahead of nothing else named harvest.
    env = {**os.environ, "PYTHONPATH": str(egg)}
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=egg.parent, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["file"].startswith(str(egg) + os.sep), report["file"]
    assert report["names"] == names
    for name in names:
        source_label, text = report["configs"][name]
        assert text == (source / "spiders_config" / f"{name}.yaml").read_text(encoding="utf-8")
        assert source_label.startswith(str(egg)), source_label


def test_packaged_configs_are_never_committed() -> None:
    """The packaged configs are a build-time copy: spiders_config/ stays the only source."""
    copies = [f"harvest/default_config/{p.name}" for p in (PROJECT_ROOT / "spiders_config").glob("*.y*ml")]
    copies = copies or ["harvest/default_config/trending.yaml"]
    assert ignored_by_git(copies) == set(copies)
