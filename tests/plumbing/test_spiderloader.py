"""The spider loader imports only the spider a crawl runs, and still finds every spider."""

from __future__ import annotations

import subprocess
import sys

import pytest
from scrapy.settings import Settings

from harvest.plumbing.spiderloader import SpiderLoader
from tests import PROJECT_ROOT

_PROBE = """
import sys
from scrapy.utils.project import get_project_settings
from scrapy.utils.misc import load_object
settings = get_project_settings()
loader = load_object(settings["SPIDER_LOADER_CLASS"]).from_settings(settings)
print(loader.load("blogs").__module__)
print(sorted(m for m in sys.modules if m.startswith("harvest.spiders.")))
"""


def test_a_crawl_imports_only_its_own_spider_module() -> None:
    # A fresh interpreter: this test process has imported every spider already.
    probe = subprocess.run(
        [sys.executable, "-c", _PROBE], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120
    )
    assert probe.returncode == 0, probe.stderr
    module, loaded = probe.stdout.splitlines()
    assert module == "harvest.spiders.blogs"
    assert "github_search" not in loaded and "trending" not in loaded


def test_every_spider_is_still_found() -> None:
    settings = Settings({"SPIDER_MODULES": ["harvest.spiders", "tests.runner.spiders_for_tests"]})
    loader = SpiderLoader.from_settings(settings)
    assert {"blogs", "github_search", "trending", "alpha", "announces"} <= set(loader.list())
    # A spider whose module has another name is found by loading every module, as Scrapy does.
    assert SpiderLoader.from_settings(settings).load("beta").name == "beta"
    with pytest.raises(KeyError, match="Spider not found: nope"):
        SpiderLoader.from_settings(settings).load("nope")
