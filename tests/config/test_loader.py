"""The YAML config loader: a key given twice and a file that is not a regular one are refused, named."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harvest.config.blogs import BlogsConfig
from harvest.config.loader import load_config
from harvest.exceptions import ConfigError


def _load(tmp_path: Path, text: str) -> BlogsConfig:
    (tmp_path / "blogs.yaml").write_text(text, encoding="utf-8")
    return load_config(BlogsConfig, tmp_path, "blogs")


SITE = "sites:\n  - name: one\n    start_urls: ['http://127.0.0.1:1/']\n"


@pytest.mark.parametrize(
    ("text", "key", "lines"),
    [
        (SITE + "    max_pages: 3\n    max_pages: 5\n", "sites[0].max_pages", (4, 5)),
        (SITE + "refresh_interval: 1d\nrefresh_interval: 2d\n", "refresh_interval", (4, 5)),
        (SITE + "  - name: two\n    start_urls: []\n    name: three\n", "sites[1].name", (4, 6)),
        # Quoting does not make it another key.
        (SITE + "'refresh_interval': 1d\nrefresh_interval: 2d\n", "refresh_interval", (4, 5)),
    ],
)
def test_a_key_given_twice_is_refused_naming_file_key_and_both_lines(
    tmp_path: Path, text: str, key: str, lines: tuple[int, int]
) -> None:
    with pytest.raises(ConfigError) as err:
        _load(tmp_path, text)
    assert err.value.source == str(tmp_path / "blogs.yaml")
    assert err.value.problems == [(key, f"given twice, at line {lines[0]} and at line {lines[1]} (keep one)")]


def test_the_same_key_in_two_mappings_is_no_duplicate(tmp_path: Path) -> None:
    text = (
        SITE + "    max_pages: 3\n  - name: two\n    start_urls: ['http://127.0.0.1:2/']\n    max_pages: 4\n"
    )
    config = _load(tmp_path, text)
    assert [(s.name, s.max_pages) for s in config.sites] == [("one", 3), ("two", 4)]


def test_a_merge_key_overridden_by_the_mapping_is_no_duplicate(tmp_path: Path) -> None:
    text = SITE.replace("- name", "- &one\n    name") + "  - <<: *one\n    name: two\n"
    config = _load(tmp_path, text)
    assert [s.name for s in config.sites] == ["one", "two"]


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_config_that_is_not_a_regular_file_is_refused_without_reading(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "blogs.yaml"
    if kind == "fifo":
        os.mkfifo(path)  # a plain open of it waits for a writer for ever
    else:
        path.mkdir()
    with pytest.raises(ConfigError) as err:
        load_config(BlogsConfig, tmp_path, "blogs")
    assert err.value.source == str(path)
    words = {"fifo": "a FIFO", "folder": "a folder"}[kind]
    assert err.value.problems == [("", f"not a regular file ({words}); a config must be a YAML file")]


def test_a_link_to_a_regular_file_is_read(tmp_path: Path) -> None:
    real = tmp_path / "real.yaml"
    real.write_text(SITE, encoding="utf-8")
    (tmp_path / "blogs.yaml").symlink_to(real)
    assert [s.name for s in load_config(BlogsConfig, tmp_path, "blogs").sites] == ["one"]


def test_an_anchor_inside_itself_is_checked_once_not_for_ever(tmp_path: Path) -> None:
    # The duplicate check walks what an alias repeats once: a node holding itself ended in a
    # RecursionError traceback.
    with pytest.raises(ConfigError) as err:
        _load(tmp_path, SITE.replace("sites:", "sites: &s") + "    x: *s\n")
    assert err.value.problems[0][0] == "sites[0].x"
