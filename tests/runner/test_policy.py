"""The fleet's pure parts: flag parsing, sizes and durations, machine capacity, watchdog policy."""

from __future__ import annotations

import pytest

from harvest.runner.cli import build_parser, parse_args
from harvest.runner.jobs import Counts, Job, JobState
from harvest.util.machine import Capacity
from harvest.util.units import format_duration, format_size, parse_positive_duration, parse_size

GB = 1024**3


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("20GB", 20 * GB),
        ("20gb", 20 * GB),
        ("500MB", 500 * 1024**2),
        ("500M", 500 * 1024**2),
        ("1.5TiB", int(1.5 * 1024**4)),
        ("4096", 4096),
        ("10 KB", 10 * 1024),
    ],
)
def test_parse_size(text: str, expected: int):
    assert parse_size(text) == expected


@pytest.mark.parametrize("text", ["", "GB", "twenty", "-1GB", "0", "5 parsecs", "10i"])
def test_parse_size_rejects(text: str):
    with pytest.raises(ValueError, match="expected a size|at least 1 byte"):
        parse_size(text)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("2h", 7200), ("90s", 90), ("1.5d", 129600), ("15m", 900), ("1h30m", 5400), ("3m 20s", 200)],
)
def test_parse_positive_duration(text: str, seconds: float):
    assert parse_positive_duration(text) == seconds


@pytest.mark.parametrize("text", ["0", "never", "soon", "-5m", "1:30", "inf", "1y"])
def test_parse_positive_duration_rejects(text: str):
    with pytest.raises(ValueError, match="expected a duration"):
        parse_positive_duration(text)


def test_formats():
    assert format_size(1536) == "1.5 KB"
    assert format_size(20 * GB) == "20.0 GB"
    assert format_duration(3725) == "1h 2m"
    assert format_duration(42.3) == "42s"
    assert format_duration(None) == "never"


@pytest.mark.parametrize(
    ("argv", "flag", "words"),
    [
        (["--duration", "soon"], "--duration", "expected a duration"),
        (["--max-data-size", "lots"], "--max-data-size", "expected a size"),
        (["--processes", "0"], "--processes", "at least 1"),
        (["--processes", "two"], "--processes", "whole number"),
        (["-s", "LOG_LEVEL"], "-s/--set", "expected NAME=VALUE"),
        (["--replicas", "blogs"], "--replicas", "SPIDER=N"),
        (["--replicas", "blogs=0"], "--replicas", "at least 1"),
        (["--replicas", "blogs=2", "--replicas", "blogs=3"], "--replicas", "given twice"),
        (["--spiders", ","], "--spiders", "spider names"),
        (["--demo", "--spiders", "blogs"], "--spiders", "--demo always runs"),
        (["--grace", "-1"], "--grace", "expected a duration"),
        (["--bogus"], "unrecognized arguments", "--bogus"),
    ],
)
def test_bad_flags_exit_2_naming_the_flag(argv: list[str], flag: str, words: str, capsys):
    with pytest.raises(SystemExit) as exc:
        parse_args(argv, build_parser())
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert flag in err and words in err, err


def test_flags_parse():
    opts = parse_args(
        [
            "--spiders",
            "trending, blogs",
            "--duration",
            "2h",
            "--max-data-size",
            "20GB",
            "--processes",
            "3",
            "-s",
            "A=1",
            "-s",
            "B=x=y",
            "-s",
            "A=2",
            "--replicas",
            "blogs=3",
            "--grace",
            "0",
        ],
        build_parser(),
    )
    assert opts.spiders == ["trending", "blogs"]
    assert opts.duration == 7200 and opts.max_data_size == 20 * GB and opts.processes == 3
    assert opts.settings == {"A": "2", "B": "x=y"}  # later -s wins, values may hold "="
    assert opts.replicas == {"blogs": 3}
    assert opts.grace == 0 and not opts.once
    assert parse_args(["--demo"], build_parser()).once


def test_capacity_default_and_refusal():
    small = Capacity.compute(cpus=2, memory=23 * GB, per_cpu=2, max_per_cpu=4, process_memory_mb=300)
    assert small.default == 4 and small.limit == 8
    assert small.refusal(8) is None
    why = small.refusal(100)
    assert why is not None and "2 CPUs allow up to 8" in why and "--force" in why
    # Memory binds before CPUs on a box with little of it.
    tight = Capacity.compute(cpus=16, memory=1 * GB, per_cpu=2, max_per_cpu=4, process_memory_mb=300)
    assert tight.default == 3 and tight.limit == 3
    assert "fits 3 at ~300 MB each" in (tight.refusal(10) or "")


def crash(job: Job, now: float, max_crashes: int = 3, window: float = 100.0) -> None:
    job.crash("killed by SIGKILL", now, backoff=2.0, backoff_max=10.0, max_crashes=max_crashes, window=window)


def test_crashes_back_off_exponentially_then_fail():
    job = Job("blogs", refresh_interval=3600)
    job.start_process(100, 0.0, "log")
    crash(job, 1.0)
    assert job.state == JobState.RESTARTING and job.next_start == 3.0 and job.restarts == 1
    job.start_process(101, 3.0, "log")
    crash(job, 4.0)
    assert job.next_start == 8.0  # 2 s, then 4 s
    job.start_process(102, 8.0, "log")
    crash(job, 9.0)
    assert job.state == JobState.FAILED and job.is_final
    assert "3 crashes within 100 s" in (job.last_error or "")


def test_backoff_is_capped_and_old_crashes_are_forgotten():
    job = Job("blogs", refresh_interval=3600)
    for i in range(6):
        job.start_process(100 + i, i * 200.0, "log")
        crash(job, i * 200.0 + 1, max_crashes=3, window=100.0)
        assert job.state == JobState.RESTARTING  # each crash is alone in its window
    assert job.next_start - (5 * 200.0 + 1) == 10.0  # 2, 4, 8, then the 10 s ceiling


def test_rounds_follow_the_refresh_interval():
    job = Job("trending", refresh_interval=600)
    job.start_process(1, 100.0, "log")
    job.report(Counts(items=5, pages=6), None, 110.0)
    job.finish_round("finished", JobState.DONE, 130.0, again=True)
    assert job.state == JobState.WAITING and job.next_start == 700.0  # starts are 600 s apart
    assert not job.due(699.0) and job.due(700.0)
    assert job.counts.items == 5 and job.rounds == 1
    job.start_process(2, 700.0, "log")
    job.report(Counts(items=2), None, 710.0)
    job.finish_round("finished", JobState.DONE, 1500.0, again=True)
    assert job.next_start == 1500.0  # the round overran its interval: next one at once
    assert job.counts.items == 7
    job.start_process(3, 1500.0, "log")
    job.finish_round("finished", JobState.DONE, 1510.0, again=False)
    assert job.state == JobState.DONE and job.is_final


def test_a_stop_cancels_what_was_scheduled():
    waiting = Job("a", refresh_interval=60)
    waiting.start_process(1, 0.0, "log")
    waiting.finish_round("finished", JobState.DONE, 1.0, again=True)
    queued = Job("b")
    waiting.cancel()
    queued.cancel()
    assert waiting.state == JobState.DONE and queued.state == JobState.STOPPED
    assert waiting.is_final and queued.is_final


def test_progress_resets_the_hang_clock_and_feeds_the_rate():
    job = Job("blogs")
    job.start_process(1, 0.0, "log")
    job.report(Counts(items=0, pages=0, requests=1), None, 10.0)
    job.report(Counts(items=0, pages=0, requests=1), None, 50.0)
    assert job.hung_for(50.0) == 40.0  # the same counts again are no progress
    job.report(Counts(items=30, pages=31, requests=32), None, 70.0)
    assert job.hung_for(70.0) == 0.0
    assert job.items_per_minute(70.0) == pytest.approx(30.0)  # 30 items in the minute since t=10
