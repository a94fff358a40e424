"""``scrapy crawl trending -O out.csv``: every field of every item type, and no silent empty file.

A real crawl against a loopback GitHub serving real Trending pages (repositories, developers,
READMEs): the CSV has fixed columns (harvest.feeds), a second crawl the same day says why its
feed holds no rows and how to get them.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from harvest.extensions.feeds import csv_columns
from tests import read_jsonl, scrapy_crawl
from tests.servers import LoopbackServer, Reply
from tests.spiders.test_trending import README_OPENHUMAN, ROBOTS, TEXT, daily_2026, developers_2022


def _crawl(server: LoopbackServer, tmp_path: Path, out: Path, now: str) -> Any:
    return scrapy_crawl(
        "trending",
        settings={
            "GITHUB_WEB_URL": server.base_url,
            "GITHUB_RAW_URL": server.base_url,
            "GITHUB_API_URL": f"{server.base_url}/api",
            "HARVEST_DATA_DIR": tmp_path / "data",
            "HARVEST_CONFIG_DIR": tmp_path / "config",
            "AUTOTHROTTLE_ENABLED": False,
            "DOWNLOAD_DELAY": 0,
            "CLOSESPIDER_TIMEOUT": 60,
        },
        env={"HARVEST_NOW": now},
        extra=["-O", str(out)],
        timeout=120,
    )


def test_csv_feed_has_every_field_and_an_empty_one_says_why(server: LoopbackServer, tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    server.add("/robots.txt", ROBOTS)
    server.add_file("/trending", daily_2026())
    server.add_file("/trending/developers", developers_2022())
    server.add("/tinyhumansai/openhuman/HEAD/README.md", Reply(body=README_OPENHUMAN, content_type=TEXT))

    first = _crawl(server, tmp_path, tmp_path / "out.csv", "2026-03-01T08:00:00Z")
    assert first.returncode == 0, first.stderr[-3000:]
    assert "dropped fields" not in first.stderr and "WARNING" not in first.stderr
    with (tmp_path / "out.csv").open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        assert reader.fieldnames == csv_columns()
        rows = list(reader)
    stored = tmp_path / "data" / "trending"
    by_type: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        by_type.setdefault(row["type"], []).append(row)
    assert {t: len(r) for t, r in by_type.items()} == {
        "trending_repo": len(read_jsonl(stored / "trending_repo.jsonl")),
        "trending_developer": len(read_jsonl(stored / "trending_developer.jsonl")),
        "document": len(read_jsonl(stored / "document.jsonl")),
    }
    developers = read_jsonl(stored / "trending_developer.jsonl")
    assert {r["username"] for r in by_type["trending_developer"]} == {d["username"] for d in developers}
    assert all(r["username"] and r["popular_repo"] is not None for r in by_type["trending_developer"])
    # language is a repository's programming language; a text's language has its own column.
    assert "Rust" in {r["language"] for r in by_type["trending_repo"]}
    documents = {d["url"]: d for d in read_jsonl(stored / "document.jsonl")}
    for row in by_type["document"]:
        assert row["language"] == ""
        assert row["text_language"] == (documents[row["url"]]["language"] or "")
    assert f"Feed {tmp_path / 'out.csv'}: {len(rows):,} rows written" in first.stderr

    # The same day again: everything is already stored, so nothing reaches the feed; it says so.
    second = _crawl(server, tmp_path, tmp_path / "again.csv", "2026-03-01T20:00:00Z")
    assert second.returncode == 0, second.stderr[-3000:]
    lines = [line for line in second.stderr.splitlines() if f"Feed {tmp_path / 'again.csv'}" in line]
    assert len(lines) == 1 and "WARNING" in lines[0], second.stderr[-3000:]
    assert "0 rows written" in lines[0] and "already stored in" in lines[0]
    assert "scrapy export trending --output DIR" in lines[0]
