"""``scrapy export``: committed items of a real crawl as Parquet / JSON Lines plus a dataset card.

Loaded back as a dataset user would: pyarrow, pandas and ``datasets.load_dataset("parquet")``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from harvest.report.export import export, schema_for
from tests import PROJECT_ROOT
from tests.servers import Reply, loopback_server
from tests.spiders.test_blogs import OCTO_HOST, assert_finished, crawl
from tests.spiders.test_blogs_dataset import _posts, _serve, _site_pages


def scrapy_export(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scrapy", "export", *args, "-s", f"HARVEST_DATA_DIR={data}"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_export_parquet_and_jsonl_incremental(tmp_path: Path) -> None:
    posts = _posts()
    data = tmp_path / "data"
    out = tmp_path / "dataset"
    with loopback_server() as server:
        pages = _site_pages(posts)
        _serve(server, pages)
        site = {"name": "signals", "start_urls": [server.base_url + "/"]}
        result, docs, _ = crawl(tmp_path, [site], timeout=120)
        assert_finished(result)
        # A line a running crawl wrote but did not commit yet: never exported.
        jsonl = data / "blogs" / "document.jsonl"
        committed = jsonl.read_bytes()
        with jsonl.open("ab") as fh:
            fh.write(json.dumps({**docs[0], "url": "http://uncommitted.example/"}).encode() + b"\n")

        first = scrapy_export(data, "all", "--output", str(out))
        assert first.returncode == 0, first.stderr[-2000:]
        assert "Exported 9 document" in first.stdout
        jsonl.write_bytes(committed)

        part = out / "document" / "part-00000.parquet"
        table = pq.read_table(part)
        assert table.schema.equals(schema_for("document"))
        frame = table.to_pandas()
        assert len(frame) == len(pages) == 9
        assert "http://uncommitted.example/" not in set(frame["url"])
        assert set(frame["spider"]) == {"blogs"}
        withheld = frame[frame["text_withheld"]]
        assert len(withheld) == 5 and (withheld["text"] == "").all()
        kept = frame[~frame["text_withheld"]]
        assert (kept["text"].str.len() > 100).all()
        assert set(frame["language"]) == {"pt", "zh"}
        assert frame["near_duplicate_of"].notna().sum() == 1
        assert frame["rights"].map(lambda r: r["opted_out"]).sum() == 5

        card = (out / "README.md").read_text(encoding="utf-8")
        assert "| document | 9 |" in card and "| pt | 8 |" in card and "| zh | 1 |" in card
        assert "Near-duplicate documents" in card and "): 5" in card
        assert "`HARVEST_RESPECT_OPTOUT` = `True`" in card and "belong to their authors" in card

        # Incremental: the next round's new article becomes a new part, nothing else.
        server.add("/2099/07/new/", Reply(body=posts[7].replace(OCTO_HOST.decode(), server.base_url)))
        server.add("/", Reply(body='<html><body><a href="/2099/07/new/">n</a></body></html>'))
        result2, _, _ = crawl(tmp_path, [site], timeout=120)
        assert_finished(result2)
    second = export(data, "blogs", out)
    assert second.rows == {"document": 1}
    assert sorted(p.name for p in (out / "document").iterdir()) == [
        "part-00000.parquet",
        "part-00001.parquet",
    ]
    both = pd.read_parquet(out / "document")
    assert len(both) == 10 and both["url"].is_unique
    assert "| document | 10 |" in (out / "README.md").read_text(encoding="utf-8")
    assert not export(data, "blogs", out).rows

    # JSON Lines, filtered by date: everything was fetched today, nothing before 2000.
    lines_out = tmp_path / "jsonl"
    assert export(data, "blogs", lines_out, fmt="jsonl").rows == {"document": 10}
    rows = pd.read_json(lines_out / "document" / "part-00000.jsonl", lines=True)
    assert len(rows) == 10 and list(rows.columns) == schema_for("document").names
    assert not export(data, "blogs", tmp_path / "none", since="2999-01-01").rows
    bad = scrapy_export(data, "nosuchspider", "--output", str(tmp_path / "x"))
    assert bad.returncode == 2 and "nosuchspider" in bad.stderr

    # The Hugging Face datasets library reads the Parquet parts as they are (offline).
    import datasets  # a test extra (pyproject.toml)

    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    loaded = datasets.load_dataset(
        "parquet", data_dir=str(out / "document"), split="train", cache_dir=str(tmp_path / "hf-cache")
    )
    assert loaded.num_rows == 10
    assert set(loaded.column_names) == set(schema_for("document").names)
