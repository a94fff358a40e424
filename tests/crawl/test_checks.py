"""The settings check before a crawl: no false alarms on valid values (bad ones: test_bad_input.py)."""

from __future__ import annotations

import multiprocessing
import subprocess
from pathlib import Path
from typing import Any

import pytest
from scrapy.settings import Settings

import harvest.settings as project_settings
from harvest.crawl.checks import data_dir_problem, settings_problems, token_problem


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


def test_a_data_folder_that_can_hold_files_passes_and_is_left_as_it_was(tmp_path: Path) -> None:
    assert data_dir_problem(tmp_path / "a" / "b" / "data") is None
    assert list(tmp_path.iterdir()) == []  # the folders made for the try are removed again
    (tmp_path / "data").mkdir()
    assert data_dir_problem(tmp_path / "data") is None
    assert list((tmp_path / "data").iterdir()) == []


def test_a_data_folder_that_cannot_hold_files_is_named_with_why(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    assert data_dir_problem(tmp_path / "file") == f"{tmp_path / 'file'} is not a folder"
    assert data_dir_problem(tmp_path / "file" / "data") == f"{tmp_path / 'file'} is not a folder"
    assert (
        data_dir_problem("/proc/harvest-x/data") == "cannot create /proc/harvest-x: No such file or directory"
    )
    assert data_dir_problem("/proc") == "cannot create a file in it: No such file or directory"


def test_a_read_only_data_folder_is_refused(tmp_path: Path) -> None:
    mount = tmp_path / "ro"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(mount)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a read-only tmpfs here (needs root): {done.stderr.decode().strip()}")
    try:
        assert data_dir_problem(mount) == "cannot create a file in it: Read-only file system"
        assert data_dir_problem(mount / "data") == f"cannot create {mount / 'data'}: Read-only file system"
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


def _check_many(folder: str, start: Any, rounds: int) -> list[str | None]:
    start.wait()
    return [data_dir_problem(Path(folder) / str(n) / "data") for n in range(rounds)]


def test_workers_checking_one_new_folder_at_once_all_pass(tmp_path: Path) -> None:
    # The workers of one crawl start together and each checks the data folder: one making the
    # folder another is making, or removing it while another probes, must refuse none of them.
    workers, rounds = 6, 40
    with multiprocessing.Manager() as manager:
        start = manager.Barrier(workers)
        with multiprocessing.Pool(workers) as pool:
            results = pool.starmap(_check_many, [(str(tmp_path), start, rounds)] * workers)
    assert [problem for answers in results for problem in answers if problem] == []
