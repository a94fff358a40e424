"""SiteRounds: the per-site round times of the blogs spider, where and how they are stored."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from harvest.state.rounds import SiteRounds, rounds_path
from harvest.util.files import atomic_write_text


def test_path_is_the_crawl_states_folder(tmp_path: Path) -> None:
    assert rounds_path(tmp_path, "blogs") == tmp_path / "state" / "blogs" / "site_rounds.json"
    assert rounds_path(str(tmp_path), "blogs.w1") == tmp_path / "state" / "blogs.w1" / "site_rounds.json"


def test_round_trip_keeps_the_json_format(tmp_path: Path) -> None:
    path = rounds_path(tmp_path, "blogs")
    assert SiteRounds.load(path).finished == {}  # no file yet: every site is due
    rounds = SiteRounds.load(path)
    rounds.record(["b", "a"], 1700000000.5)
    assert rounds.save(atomic_write_text)
    assert path.read_text(encoding="utf-8") == json.dumps({"a": 1700000000.5, "b": 1700000000.5}, indent=1)
    assert [p.name for p in path.parent.iterdir()] == ["site_rounds.json"]  # no temp file left
    again = SiteRounds.load(path)
    assert again.last("a") == 1700000000.5 and again.last("c") is None


@pytest.mark.parametrize("text", ["{not json", '{"a": null}', '{"a": "soon"}'])
def test_an_unreadable_file_makes_every_site_due(
    tmp_path: Path, text: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "site_rounds.json"
    path.write_text(text, encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert SiteRounds.load(path).finished == {}
    assert "Ignoring unreadable" in caplog.text


def test_a_failed_save_is_logged_not_raised(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    def failing(path: Path, text: str) -> None:
        raise OSError("disk full")

    with caplog.at_level(logging.WARNING):
        assert not SiteRounds(tmp_path / "site_rounds.json", {"a": 1.0}).save(failing)
    assert "Could not record the round times" in caplog.text
