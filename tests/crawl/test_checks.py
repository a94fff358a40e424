"""The settings check before a crawl: no false alarms on valid values (bad ones: test_bad_input.py)."""

from __future__ import annotations

from scrapy.settings import Settings

import harvest.settings as project_settings
from harvest.crawl.checks import settings_problems, token_problem


def settings(**cmdline: object) -> Settings:
    s = Settings()
    s.setmodule(project_settings, priority="project")
    s.setdict(cmdline, priority="cmdline")
    return s


def test_the_project_settings_pass() -> None:
    assert settings_problems(settings()) == []


def test_valid_command_line_values_pass() -> None:
    ok = settings(
        DOWNLOAD_TIMEOUT="7.5",  # Scrapy reads it as a float although its default is an integer
        HARVEST_STATE_COMMIT_ITEMS="3",
        HARVEST_DEDUP_CROSS_SPIDER="false",
        HARVEST_STATE_URL="redis://127.0.0.1:6379/0",
        GITHUB_API_URL="http://127.0.0.1:8080",
        ITEM_PIPELINES='{"harvest.pipelines.output.OutputPipeline": 800}',
        TEST_SITE_URL="anything",  # not a harvest name: another project's own setting
    )
    assert settings_problems(ok) == []


def test_a_harvest_name_set_below_the_command_line_is_not_called_unknown() -> None:
    s = settings()
    s.set("HARVEST_SOMETHING_NEW", 1, priority="spider")  # a spider's custom_settings
    assert settings_problems(s) == []


def test_token_whitespace_around_is_trimmed_inside_is_refused_unquoted() -> None:
    assert token_problem({"GITHUB_TOKEN": "  ghp_abc123\n"}) is None
    assert token_problem({}) is None
    problem = token_problem({"GITHUB_TOKEN": "ghp_abc123\r\nX-Evil: 1"})
    assert problem is not None and "ghp_abc123" not in problem and "X-Evil" not in problem
