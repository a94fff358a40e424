"""trending.yaml validation and the spider's -a arguments: good values load, bad ones name the key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from harvest.config import load_config
from harvest.config.trending import TrendingConfig
from harvest.exceptions import ConfigError
from harvest.spiders.trending import TrendingSpider
from harvest.util.units import parse_duration

PROJECT_YAML = Path(__file__).resolve().parents[2] / "spiders_config" / "trending.yaml"


def load(tmp_path: Path, text: str) -> TrendingConfig:
    (tmp_path / "trending.yaml").write_text(text, encoding="utf-8")
    config = load_config(TrendingConfig, tmp_path, "trending")
    assert isinstance(config, TrendingConfig)
    return config


def test_shipped_yaml_is_valid_and_sensible() -> None:
    config = load_config(TrendingConfig, PROJECT_YAML.parent, "trending")
    assert isinstance(config, TrendingConfig)
    # Every key of the file reaches the config as written (durations parsed), none is ignored.
    raw = yaml.safe_load(PROJECT_YAML.read_text(encoding="utf-8"))
    assert raw, "the shipped trending.yaml sets its keys explicitly"
    for key, value in raw.items():
        expected = parse_duration(value) if key in {"readme_revisit", "refresh_interval"} else value
        assert getattr(config, key) == expected, key
    # And the settings nobody would want by surprise: a round every day, READMEs not refetched daily.
    assert config.periods and config.refresh_interval is not None and config.refresh_interval >= 3600
    assert config.readme_revisit is None or config.readme_revisit > config.refresh_interval


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    config = load_config(TrendingConfig, tmp_path, "trending")
    assert config == TrendingConfig()


@pytest.mark.parametrize(
    ("yaml_text", "expected"),
    [
        ("languages: [Python, rust]", {"languages": ["python", "rust"]}),
        ("languages: [Jupyter Notebook, C++, 'c#']", {"languages": ["jupyter-notebook", "c++", "c#"]}),
        ("languages: []", {"languages": []}),
        ("languages: python", {"languages": ["python"]}),
        ("periods: [daily, weekly, monthly]", {"periods": ["daily", "weekly", "monthly"]}),
        ("periods: [Weekly, weekly]", {"periods": ["weekly"]}),
        ("spoken_language: EN", {"spoken_language": "en"}),
        ("spoken_language: ''", {"spoken_language": None}),
        ("developers: false\nreadmes: no", {"developers": False, "readmes": False}),
        ("readme_revisit: 12h", {"readme_revisit": 43200.0}),
        ("readme_revisit: never", {"readme_revisit": None}),
        ("refresh_interval: 6h", {"refresh_interval": 21600.0}),
    ],
)
def test_valid_yaml(tmp_path: Path, yaml_text: str, expected: dict[str, Any]) -> None:
    config = load(tmp_path, yaml_text)
    for key, value in expected.items():
        assert getattr(config, key) == value


@pytest.mark.parametrize(
    ("yaml_text", "key"),
    [
        ("language: [python]", "language"),  # unknown key (typo of "languages")
        ("periods: [daily, hourly]", "periods[1]"),  # bad period
        ("periods: []", "periods"),
        ("periods: 7", "periods"),  # wrong type
        ("languages: 5", "languages"),
        ("languages: [python/django]", "languages"),
        ("spoken_language: english", "spoken_language"),
        ("developers: sometimes", "developers"),
        ("readmes: [true]", "readmes"),
        ("readme_revisit: soon", "readme_revisit"),
        ("refresh_interval: -5", "refresh_interval"),
    ],
)
def test_invalid_yaml_names_file_and_key(tmp_path: Path, yaml_text: str, key: str) -> None:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, yaml_text)
    message = str(info.value)
    assert str(tmp_path / "trending.yaml") in message
    assert f"  {key}:" in message


def test_yaml_that_is_not_a_mapping(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="mapping"):
        load(tmp_path, "- python\n- rust\n")


# --- -a arguments -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"language": "python"}, {"languages": ["python"], "periods": ["daily"]}),
        ({"language": "Python,Rust"}, {"languages": ["python", "rust"]}),
        ({"language": ""}, {"languages": []}),
        ({"since": "weekly"}, {"periods": ["weekly"]}),
        ({"since": "daily,monthly"}, {"periods": ["daily", "monthly"]}),
        ({"spoken_language": "zh"}, {"spoken_language": "zh"}),
        ({"spoken_language": ""}, {"spoken_language": None}),
        ({"developers": "false"}, {"developers": False}),
        ({"developers": "1", "readmes": "no"}, {"developers": True, "readmes": False}),
    ],
)
def test_arguments_override_yaml(arguments: dict[str, str], expected: dict[str, Any]) -> None:
    base = TrendingConfig(languages=["go"], spoken_language="en", readmes=True)
    config = TrendingSpider.apply_arguments(base, arguments)
    assert isinstance(config, TrendingConfig)
    for key, value in expected.items():
        assert getattr(config, key) == value
    # What the arguments do not mention keeps its YAML value.
    if "spoken_language" not in arguments:
        assert config.spoken_language == "en"


@pytest.mark.parametrize(
    ("arguments", "name"),
    [
        ({"since": "yearly"}, "-a since"),
        ({"since": ""}, "-a since"),
        ({"language": "a/b"}, "-a language"),
        ({"spoken_language": "english"}, "-a spoken_language"),
        ({"developers": "maybe"}, "-a developers"),
        ({"readmes": "2"}, "-a readmes"),
    ],
)
def test_bad_arguments_name_the_argument(arguments: dict[str, str], name: str) -> None:
    with pytest.raises(ConfigError) as info:
        TrendingSpider.apply_arguments(TrendingConfig(), arguments)
    assert f"  {name}:" in str(info.value)
    assert "spider arguments of 'trending'" in str(info.value)
