"""The settings model: fields derived from harvest/settings.py, one message per kind of bad value."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

import harvest.settings as project_settings
from harvest.config.settings_model import MINIMUMS, read_settings, settings_model
from harvest.crawl.checks import settings_problems
from harvest.exceptions import ConfigError
from harvest.runner.options import FleetConfig


def settings(**cmdline: object) -> Settings:
    s = Settings()
    s.setmodule(project_settings, priority="project")
    s.setdict(cmdline, priority="cmdline")
    return s


def test_every_harvest_setting_is_a_field_with_the_default_of_harvest_settings() -> None:
    fields = settings_model().model_fields
    names = [name for name in dir(project_settings) if name.isupper()]
    for name in names:
        assert name in fields, name
        assert fields[name].default == getattr(project_settings, name), name
    assert set(MINIMUMS) <= set(fields)


@pytest.mark.parametrize(
    ("name", "value", "problem"),
    [
        ("HARVEST_STATE_COMMIT_ITEMS", "abc", "expected a whole number, got 'abc'"),
        ("HARVEST_STATE_COMMIT_ITEMS", "2.5", "expected a whole number, got '2.5'"),
        ("HARVEST_DEDUP_CROSS_SPIDER", "maybe", "expected true or false (1/0), got 'maybe'"),
        ("HARVEST_GITHUB_BACKOFF_BASE", "soon", "expected a number, got 'soon'"),
        ("CONCURRENT_REQUESTS", "many", "expected a number, got 'many'"),
        ("COOKIES_ENABLED", "perhaps", "expected true or false (1/0), got 'perhaps'"),  # Scrapy's own
        ("HARVEST_GC_THRESHOLD", "-5", "expected 0 or more, got '-5'"),
        ("HARVEST_FLEET_PROCESSES_PER_CPU", "0", "expected 1 or more, got '0'"),
        ("HARVEST_FLEET_POLL_INTERVAL", "0.01", "expected 0.05 or more, got '0.01'"),
        ("HARVEST_BLOGS_EXTRACTION", "fast", "expected one of pool, inline, off, got 'fast'"),
        ("GITHUB_API_URL", "api.github.com", "expected an absolute http(s) URL, got 'api.github.com'"),
        ("HARVEST_STATE_COMIT_ITEMS", "5", "unknown setting (check the spelling"),
    ],
)
def test_a_bad_value_is_named_with_its_problem(name: str, value: str, problem: str) -> None:
    [(named, message)] = settings_problems(settings(**{name: value}))
    assert named == name and message.startswith(problem), message


def test_the_state_url_names_the_known_backends() -> None:
    [(name, message)] = settings_problems(settings(HARVEST_STATE_URL="ftp://x"))
    assert name == "HARVEST_STATE_URL" and message.startswith("unknown scheme 'ftp' in 'ftp://x'")
    assert "redis://" in message and "sqlite://" in message


def test_every_problem_is_reported_at_once_in_name_order() -> None:
    problems = settings_problems(settings(HARVEST_GC_THRESHOLD="-1", HARVEST_DEDUP_DEBUG="x", HARVEST_ZZ="1"))
    assert [name for name, _ in problems] == ["HARVEST_DEDUP_DEBUG", "HARVEST_GC_THRESHOLD", "HARVEST_ZZ"]


def test_read_settings_types_the_values_and_fills_the_defaults() -> None:
    values = read_settings(settings(HARVEST_STATE_COMMIT_ITEMS="7", HARVEST_DEDUP_DEBUG="true"))
    assert values.HARVEST_STATE_COMMIT_ITEMS == 7  # type: ignore[attr-defined]
    assert values.HARVEST_DEDUP_DEBUG is True  # type: ignore[attr-defined]
    assert values.HARVEST_STATE_COMMIT_SECONDS == project_settings.HARVEST_STATE_COMMIT_SECONDS  # type: ignore[attr-defined]


def test_fleet_config_reads_its_knobs_through_the_model() -> None:
    config = FleetConfig.from_settings(settings(HARVEST_FLEET_LOG_KEEP="3", HARVEST_FLEET_GRACE="1.5"))
    assert config.log_keep == 3 and config.grace == 1.5
    assert config.max_crashes == project_settings.HARVEST_FLEET_MAX_CRASHES


def test_fleet_config_refuses_a_knob_below_its_floor_naming_it() -> None:
    with pytest.raises(ConfigError) as exc:
        FleetConfig.from_settings(settings(HARVEST_FLEET_MAX_CRASHES="0", HARVEST_FLEET_GRACE="soon"))
    assert exc.value.source == "settings (-s or harvest/settings.py)"
    assert exc.value.problems == [
        ("HARVEST_FLEET_GRACE", "expected a number, got 'soon'"),
        ("HARVEST_FLEET_MAX_CRASHES", "expected 1 or more, got '0'"),
    ]
