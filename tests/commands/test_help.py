"""Help where a user looks: ``scrapy describe``, ``scrapy crawl -h``, the README, one source.

Real runs of the commands; the README's argument lists checked against the arguments models the
help is generated from, both ways (nothing missing, nothing that does not exist).
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from harvest.config.args import argument_help
from harvest.spiders.blogs import BlogsSpider
from harvest.spiders.github_search import GithubSearchSpider
from harvest.spiders.trending import TrendingSpider
from tests import PROJECT_ROOT

SPIDERS = {s.name: s for s in (TrendingSpider, GithubSearchSpider, BlogsSpider)}


def _scrapy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scrapy", *args], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("name", sorted(SPIDERS))
def test_describe_lists_every_argument_with_its_value_default_and_use(name: str) -> None:
    result = _scrapy("describe", name)
    assert result.returncode == 0, result.stderr
    rows = argument_help(SPIDERS[name].args_model)
    assert {r.name for r in rows} >= {"reset"} and len(rows) >= 5
    for row in rows:
        line = next(line for line in result.stdout.splitlines() if line.strip().startswith(f"-a {row.name}="))
        assert f"-a {row.name}={row.metavar}" in line and f"(default: {row.default})" in line
        assert row.description and row.description in line
    # Every argument the model accepts is listed, and a crawl accepts each one listed.
    listed = re.findall(r"^\s+-a ([a-z_]+)=", result.stdout, re.M)
    assert listed == [r.name for r in rows]


def test_crawl_help_lists_every_spiders_arguments() -> None:
    result = _scrapy("crawl", "blogs", "-h")
    assert result.returncode == 0, result.stderr
    for name, spider in SPIDERS.items():
        assert f"Arguments (scrapy crawl {name} -a NAME=VALUE):" in result.stdout
        for row in argument_help(spider.args_model):
            assert row.line() in result.stdout
    assert "Exit codes: 0 finished, 1 the crawl ended badly" in result.stdout


def test_describe_an_unknown_spider_is_exit_2_with_a_guess() -> None:
    result = _scrapy("describe", "blgs")
    assert result.returncode == 2
    assert result.stderr.rstrip().endswith("did you mean 'blogs'?") and "Traceback" not in result.stderr


def test_the_readme_lists_what_the_models_accept() -> None:
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Spider arguments", 1)[1].split("\n### ", 1)[0]
    common = re.search(r"^- every spider: (.*)$", section, re.M)
    assert common is not None
    shared = set(re.findall(r"`-a ([a-z_]+)=", common.group(1)))
    for name, spider in SPIDERS.items():
        m = re.search(rf"^- `{name}`: (.*?)(?=^- |\Z)", section, re.M | re.S)
        assert m is not None, name
        documented = set(re.findall(r"`-a ([a-z_]+)=", m.group(1))) | shared
        assert documented == {r.name for r in argument_help(spider.args_model)}, name
