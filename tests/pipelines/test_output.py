"""OutputPipeline: files as a user reads them, and reconciliation with what a killed run left."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harvest.state.sqlite import SqliteStateStore
from tests import read_jsonl
from tests.state.harness import Run, document, trending

TEXT_A = "First article. It has two sentences."
TEXT_B = "Second article, on another subject entirely."


def jsonl(tmp_path: Path, item_type: str = "document") -> Path:
    return tmp_path / "spider" / f"{item_type}.jsonl"


def committed_offsets(tmp_path: Path) -> dict[str, int]:
    store = SqliteStateStore.open(tmp_path / "state", "spider", readonly=True)
    try:
        return store.output_offsets()
    finally:
        store.close()


def test_markdown_and_json_lines(tmp_path: Path) -> None:
    run = Run(tmp_path)
    assert run.feed(document("https://example.org/a", TEXT_A))
    run.close()
    [record] = read_jsonl(jsonl(tmp_path))
    assert "content" not in record
    md = Path(record["path"])
    assert md.parent.parent == tmp_path / "spider" and md.suffix == ".md"
    text = md.read_text(encoding="utf-8")
    assert text.startswith("---\nurl: https://example.org/a\n")
    assert text.rstrip().endswith(TEXT_A)
    assert f"content_hash: {record['content_hash']}" in text
    assert committed_offsets(tmp_path) == {"document.jsonl": jsonl(tmp_path).stat().st_size}


def test_lines_written_after_the_last_commit_are_not_written_again(tmp_path: Path) -> None:
    run = Run(tmp_path)
    assert run.feed(document("https://example.org/a", TEXT_A))
    run.close()
    committed = jsonl(tmp_path).stat().st_size

    # What a run killed between two commit points leaves: complete lines past the committed
    # offset (their keys never reached the state) and a last line cut in the middle.
    uncommitted_doc = document("https://example.org/b", TEXT_B)
    uncommitted_repo = trending("octo/cat", "2024-05-01T10:00:00Z")
    with jsonl(tmp_path).open("ab") as fh:
        record = {k: v for k, v in uncommitted_doc.__dict__.items() if k != "content"}
        fh.write(json.dumps(record).encode() + b"\n")
    with jsonl(tmp_path, "trending_repo").open("ab") as fh:
        fh.write(json.dumps(uncommitted_repo.__dict__).encode() + b"\n")
        fh.write(b'{"repo": "octo/dog", "since": "dai')
    assert committed_offsets(tmp_path) == {"document.jsonl": committed}

    run = Run(tmp_path)
    # The restarted crawl fetches the same pages again; what was written is not written twice.
    assert not run.feed(document("https://example.org/b", TEXT_B))
    assert not run.feed(trending("octo/cat", "2024-05-01T11:00:00Z"))
    assert run.feed(trending("octo/dog", "2024-05-01T11:00:00Z"))  # the cut line is written anew
    run.close()
    assert run.stats["harvest/output/reconciled_lines"] == 2
    assert run.stats["harvest/output/truncated_bytes"] == len(b'{"repo": "octo/dog", "since": "dai')
    assert [r["repo"] for r in read_jsonl(jsonl(tmp_path, "trending_repo"))] == ["octo/cat", "octo/dog"]
    assert len(read_jsonl(jsonl(tmp_path))) == 2
    sizes = {p.name: p.stat().st_size for p in (tmp_path / "spider").glob("*.jsonl")}
    assert committed_offsets(tmp_path) == sizes


def test_a_lost_or_corrupt_state_is_rebuilt_from_the_output(tmp_path: Path) -> None:
    run = Run(tmp_path)
    assert run.feed(document("https://example.org/a", TEXT_A))
    assert run.feed(trending("octo/cat", "2024-05-01T10:00:00Z"))
    run.close()
    state_file = tmp_path / "state" / "spider" / "state.sqlite"
    for extra in ("-wal", "-shm"):
        Path(f"{state_file}{extra}").unlink(missing_ok=True)
    state_file.write_bytes(b"garbage" * 1000)

    run = Run(tmp_path)
    assert run.state.store is not None and run.state.store.origin.value == "recovered"
    assert not run.feed(document("https://example.org/a", TEXT_A))
    assert not run.feed(trending("octo/cat", "2024-05-01T10:00:00Z"))
    run.close()
    assert run.stats["harvest/output/reconciled_lines"] == 2


def test_reset_does_not_replay_existing_output(tmp_path: Path) -> None:
    run = Run(tmp_path)
    assert run.feed(document("https://example.org/a", TEXT_A))
    run.close()
    run = Run(tmp_path, reset=True)
    assert run.feed(document("https://example.org/a", TEXT_A))
    run.close()
    assert "harvest/output/reconciled_lines" not in run.stats
    assert len(read_jsonl(jsonl(tmp_path))) == 2


def test_temporary_files_of_a_killed_run_are_removed(tmp_path: Path) -> None:
    leftover = tmp_path / "spider" / "docs" / ".tmp-abc123"
    leftover.parent.mkdir(parents=True)
    leftover.write_text("half a document")
    run = Run(tmp_path)
    run.close()
    assert not leftover.exists()


def test_output_shorter_than_committed_is_left_alone(tmp_path: Path) -> None:
    run = Run(tmp_path)
    assert run.feed(document("https://example.org/a", TEXT_A))
    assert run.feed(document("https://example.org/b", TEXT_B))
    run.close()
    jsonl(tmp_path).write_text("")  # a user emptied the file
    run = Run(tmp_path)
    assert not run.feed(document("https://example.org/a", TEXT_A))  # still remembered
    run.close()
    assert committed_offsets(tmp_path) == {"document.jsonl": 0}


def test_without_state_output_still_works(tmp_path: Path) -> None:
    from harvest.pipelines.output import OutputPipeline

    pipeline = OutputPipeline(tmp_path, "spider")
    pipeline.open_spider()
    pipeline.process_item(document("https://example.org/a", TEXT_A))
    pipeline.process_item(document("https://example.org/a", TEXT_A))
    pipeline.close_spider()
    assert len(read_jsonl(jsonl(tmp_path))) == 2


def test_front_matter_is_what_pyyamls_safe_dump_writes() -> None:
    # render_markdown uses libyaml's dumper for speed: the text must not change with it.
    import yaml

    from harvest.pipelines.output import render_markdown

    front = {
        "url": "https://example.com/2024/01/um-título/",
        "title": "Um título: com 'aspas' e \"mais\" - ünïcode 中文",
        "author": None,
        "published": "2024-01-02",
        "tags": ["a", "b: c"],
        "rights": {"opted_out": False, "license": None},
        "long": "palavra " * 300,
    }
    head = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=1000)
    assert render_markdown(front, "Corpo.\n\n") == f"---\n{head}---\n\nCorpo.\n"
    assert yaml.safe_load(render_markdown(front, "x").split("---\n")[1]) == front


def test_documents_are_fsynced_before_the_commit_that_records_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Markdown files are fsynced together at the commit point, never after the state names them.

    A power cut cannot be staged here, so the fsync calls are recorded (by inode) around the real
    ones, with the state's commit among them.
    """
    import os

    events: list[tuple[str, int]] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        events.append(("fsync", os.fstat(fd).st_ino))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    run = Run(tmp_path, HARVEST_STATE_COMMIT_ITEMS=1000)
    store = run.state.open()
    real_commit = store.commit

    def commit(batch: object) -> None:
        events.append(("commit", 0))
        real_commit(batch)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "commit", commit)
    for n, text in enumerate((TEXT_A, TEXT_B, "Third, yet another one.")):
        assert run.feed(document(f"https://example.org/{n}", text))
    documents = {Path(r["path"]).stat().st_ino for r in read_jsonl(jsonl(tmp_path))}
    assert len(documents) == 3
    assert not documents & {ino for kind, ino in events}, "fsynced one by one, as written"
    run.state.commit()
    commit_at = events.index(("commit", 0))
    assert documents <= {ino for kind, ino in events[:commit_at] if kind == "fsync"}
    run.close()


def test_documents_cannot_leave_the_folder_through_links(tmp_path: Path) -> None:
    """A site folder that links outside the data folder is refused, however many documents went
    in first; a document file that is a link is replaced, not written through."""
    from harvest.items import DocumentItem
    from harvest.pipelines.output import OutputPipeline

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.md").write_text("untouched", encoding="utf-8")
    pipeline = OutputPipeline(tmp_path / "data", "blogs")
    pipeline.open_spider()
    spider_dir = tmp_path / "data" / "blogs"

    def doc(path: str) -> DocumentItem:
        return DocumentItem(
            url=f"https://example.org/{path}",
            title=None,
            path=path,
            content_hash="",
            fetched_at="t",
            source="blog",
            content=f"text of {path}",
        )

    pipeline.process_item(doc("site/one.md"))
    pipeline.process_item(doc("site/two.md"))  # the folder resolved once, then cached
    (spider_dir / "linked").symlink_to(outside, target_is_directory=True)
    with pytest.raises(ValueError, match="escapes"):
        pipeline.process_item(doc("linked/three.md"))
    (spider_dir / "site" / "victim.md").symlink_to(outside / "victim.md")
    pipeline.process_item(doc("site/victim.md"))
    pipeline.close_spider()
    assert (outside / "victim.md").read_text(encoding="utf-8") == "untouched"
    assert not (spider_dir / "site" / "victim.md").is_symlink()
    assert "text of site/victim.md" in (spider_dir / "site" / "victim.md").read_text(encoding="utf-8")
    assert sorted(p.name for p in outside.iterdir()) == ["victim.md"]
