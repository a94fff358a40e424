"""The remote-control stand-in: aiohttp stays out of a crawl while the server is off."""

from __future__ import annotations

import subprocess
import sys

import pytest
from scrapy.extensions.remote_control import RemoteControl as ScrapyRemoteControl

from harvest.exceptions import NotApplicable
from harvest.extensions.remote_control import RemoteControl
from tests import PROJECT_ROOT, get_crawler

_PROBE = """
import sys
from scrapy.extension import ExtensionManager
from tests import get_crawler
crawler = get_crawler(settings={"REMOTE_CONTROL_ENABLED": %s})
manager = ExtensionManager.from_crawler(crawler)
names = sorted(type(ext).__module__ + "." + type(ext).__name__ for ext in manager.middlewares)
print("aiohttp" in sys.modules, "scrapy.extensions.remote_control.RemoteControl" in names)
"""


@pytest.mark.parametrize(("enabled", "expected"), [(False, "False False"), (True, "True True")])
def test_the_project_imports_scrapys_remote_control_only_when_it_is_on(enabled: bool, expected: str) -> None:
    # A fresh interpreter: this test process has imported aiohttp already (above).
    probe = subprocess.run(
        [sys.executable, "-c", _PROBE % enabled],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split() == expected.split()


def test_the_stand_in_builds_scrapys_extension_when_turned_on() -> None:
    assert isinstance(
        RemoteControl.from_crawler(get_crawler(settings={"REMOTE_CONTROL_ENABLED": True})),
        ScrapyRemoteControl,
    )
    with pytest.raises(NotApplicable, match="REMOTE_CONTROL_ENABLED is off"):
        RemoteControl.from_crawler(get_crawler())
