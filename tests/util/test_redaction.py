"""The token in no WARC record and no log line, in any encoding a server may echo it in.

- :func:`harvest.util.redaction.scrub` masks every form of the token: raw, ``Bearer``/``token``
  prefixed, base64 of itself, of ``Bearer <token>``, of Basic auth's ``user:<token>`` and of
  GitHub's ``x-access-token:<token>`` (standard and URL-safe, in any alignment), URL-encoded.
- ``scrapy crawl trending`` and ``scrapy crawl github_search`` with ``HARVEST_WARC_ENABLED`` and
  ``GITHUB_TOKEN`` set: every WARC file (read with warcio, raw, gunzipped) holds none of them;
  the request records say ``Authorization: ***`` and ``WARC-Harvest-Redacted: authorization``.
- An API that echoes the Authorization header in its error bodies (in every encoding): the
  crawl's output and the fleet's ``data/logs/github_search/*.log`` hold none of them.
- ``HARVEST_BLOGS_EXTRACTION=off`` with WARC: every stored page is archived.
"""

from __future__ import annotations

import base64
import gzip
import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote, quote_plus, unquote

import pytest
import yaml
from warcio.archiveiterator import ArchiveIterator

from harvest.util.redaction import MASK, RedactedLogRecord, redact_headers, scrub, scrub_bytes
from tests import PROJECT_ROOT, read_jsonl, scrapy_crawl, shared_fixture
from tests.github_emulator import Limits, generate_repos, github_emulator
from tests.servers import LoggedRequest, Reply, loopback_server

TOKEN = "ghp_S3cretTokenThatMustNeverBeWritten42"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _b64url(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


#: Every form in which a server may echo the token it was sent.
FORMS = {
    "raw": TOKEN,
    "bearer": f"Bearer {TOKEN}",
    "token": f"token {TOKEN}",
    "base64": _b64(TOKEN),
    "base64 of Bearer": _b64(f"Bearer {TOKEN}"),
    "base64 of token": _b64(f"token {TOKEN}"),
    "base64 of user:token": _b64(f"octocat:{TOKEN}"),
    "base64 of x-access-token": _b64(f"x-access-token:{TOKEN}"),
    "base64 of token:x-oauth-basic": _b64(f"{TOKEN}:x-oauth-basic"),
    "url-safe base64 of Bearer": _b64url(f"Bearer {TOKEN}"),
    "base64 of Bearer, JSON-escaped": _b64(f"Bearer {TOKEN}").replace("/", "\\/"),
    "base64 of Bearer, URL-encoded": quote(_b64(f"Bearer {TOKEN}"), safe=""),
    "URL-encoded": quote(TOKEN, safe="").replace("_", "%5F"),
    "URL-encoded, every byte": "".join(f"%{b:02x}" for b in TOKEN.encode()),
    "URL-encoded Bearer": quote(f"Bearer {TOKEN}", safe=""),
    "form-encoded Bearer": quote_plus(f"Bearer {TOKEN}"),
}
#: What a scan looks for: the token itself, and the base64 core of each alignment of it.
NEEDLES = [
    TOKEN,
    *(base64.b64encode(b"\0" * k + TOKEN.encode()).decode()[(8 * k + 5) // 6 : (8 * (k + len(TOKEN))) // 6]
      for k in range(3)),
]  # fmt: skip


def _leaks(text: str) -> list[str]:
    """The encodings of the token found in ``text`` (URL-decoded and JSON-unescaped too)."""
    variants = [text, text.replace("\\/", "/")]
    variants += [v.replace("+", " ") for v in variants]
    variants += [unquote(v) for v in variants]
    variants += [v.replace("-", "+").replace("_", "/") for v in variants]
    return sorted({needle for v in variants for needle in NEEDLES if needle in v})


# --- the function, against each form --------------------------------------------------------------


@pytest.fixture
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_scrub_masks_each_form_of_the_token(form: str, token_env: None) -> None:
    echoed = f'{{"message":"Bad credentials","sent":"{FORMS[form]}","documentation_url":"x"}}'
    assert _leaks(echoed), "the scan must see the form before it is masked"
    masked = scrub(echoed)
    assert _leaks(masked) == [], masked
    assert MASK in masked and '"message":"Bad credentials"' in masked and "documentation_url" in masked


def test_scrub_leaves_other_base64_and_words_alone(token_env: None) -> None:
    text = f"Basic setup: {_b64('octocat:hunter2-other-password')} and {_b64('x' * 60)} stay"
    assert scrub(text) == text


@pytest.mark.parametrize("form", sorted(FORMS))
def test_log_records_are_scrubbed_whichever_handler_writes_them(form: str, token_env: None) -> None:
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(self.format(record))

    import harvest  # noqa: F401 - importing harvest installs the redaction

    assert logging.getLogRecordFactory() is RedactedLogRecord
    log = logging.getLogger("tests.redaction")
    handler = Keep()
    handler.setFormatter(logging.Formatter("%(message)s"))
    log.addHandler(handler)
    try:
        log.error("GitHub answered 401: %s", FORMS[form])
        try:
            raise ValueError(f"echoed {FORMS[form]}")
        except ValueError:
            log.exception("failed")
    finally:
        log.removeHandler(handler)
    assert len(records) == 2 and "Traceback" in records[1]
    assert [_leaks(r) for r in records] == [[], []], records


def test_warc_headers_are_masked_by_name_and_by_value(token_env: None) -> None:
    headers = [
        ("Authorization", f"Bearer {TOKEN}"),
        ("Proxy-Authorization", "Basic " + _b64("proxyuser:proxypass")),
        ("Cookie", "session=abc123"),
        ("Accept", "application/json"),
        ("X-Echo", _b64(f"x-access-token:{TOKEN}")),
        ("X-Api-Key", "k-123456"),
        ("Private-Token", "p-123456"),
        ("X-GitHub-Api-Version", "2022-11-28"),
        ("Referer", "http://blog.example/feed?access_token=abc123&page=2"),
    ]
    masked, names = redact_headers(headers)
    assert masked == [
        ("Authorization", MASK),
        ("Proxy-Authorization", MASK),
        ("Cookie", MASK),
        ("Accept", "application/json"),
        ("X-Echo", MASK),
        ("X-Api-Key", MASK),
        ("Private-Token", MASK),
        ("X-GitHub-Api-Version", "2022-11-28"),
        ("Referer", "http://blog.example/feed?access_token=***&page=2"),
    ]
    assert names == ["authorization", "proxy-authorization", "cookie", "x-echo", "x-api-key", "private-token",
                     "referer"]  # fmt: skip
    assert scrub_bytes(b"\x1f\x8b\xffprefix " + TOKEN.encode() + b"\xfe", ()) == b"\x1f\x8b\xffprefix ***\xfe"


# --- WARC files of real crawls --------------------------------------------------------------------


def _scan_warcs(data_dir: Path) -> tuple[list[str], list[dict[str, str]], list[dict[str, str]]]:
    """Leaks in every WARC file (warcio's reading, raw bytes, gunzipped), requests, responses."""
    leaks: list[str] = []
    requests: list[dict[str, str]] = []
    responses: list[dict[str, str]] = []
    files = sorted(data_dir.rglob("*.warc.gz"))
    assert files, "no WARC file written"
    for path in files:
        raw = path.read_bytes()
        for label, blob in (("raw", raw), ("gunzipped", gzip.decompress(raw))):
            leaks += [f"{path.name} {label}: {n}" for n in _leaks(blob.decode("latin-1"))]
        with path.open("rb") as fh:
            for record in ArchiveIterator(fh, check_digests="raise"):
                text = record.rec_headers.to_str()
                text += record.http_headers.to_str() if record.http_headers else ""
                text += record.content_stream().read().decode("latin-1")
                leaks += [f"{path.name} record: {n}" for n in _leaks(text)]
                if record.rec_type == "request":
                    requests.append(
                        {
                            "authorization": record.http_headers.get_header("Authorization") or "",
                            "redacted": record.rec_headers.get_header("WARC-Harvest-Redacted") or "",
                            "uri": record.rec_headers.get_header("WARC-Target-URI"),
                        }
                    )
                elif record.rec_type == "response":
                    responses.append(
                        {
                            "redacted": record.rec_headers.get_header("WARC-Harvest-Redacted") or "",
                            "uri": record.rec_headers.get_header("WARC-Target-URI"),
                        }
                    )
    return leaks, requests, responses


def _file_leaks(root: Path) -> list[str]:
    files = [p for p in sorted(root.rglob("*")) if p.is_file()]
    return [f"{p}: {n}" for p in files for n in _leaks(p.read_bytes().decode("latin-1"))]


def test_trending_and_github_search_warc_records_hold_no_credential(tmp_path: Path) -> None:
    shared_fixture("github-api")
    data_dir, config_dir = tmp_path / "data", tmp_path / "config"
    config_dir.mkdir()
    (config_dir / "github_search.yaml").write_text(
        yaml.safe_dump({"queries": [{"query": "topic:web-scraping created:>=2025-10-01"}]}), encoding="utf-8"
    )
    (config_dir / "trending.yaml").write_text("developers: false\n", encoding="utf-8")
    with github_emulator(tokens={TOKEN}, limits=Limits(search_limit=30, search_window=2.0)) as emulator:
        result = scrapy_crawl(
            "github_search",
            settings={
                "GITHUB_API_URL": emulator.base_url,
                "HARVEST_DATA_DIR": data_dir,
                "HARVEST_CONFIG_DIR": config_dir,
                "HARVEST_WARC_ENABLED": True,
                "CLOSESPIDER_TIMEOUT": 60,
            },
            env={"GITHUB_TOKEN": TOKEN},
            timeout=90,
        )
        assert result.returncode == 0, result.stderr[-3000:]
        assert all(r.headers.get("Authorization") == f"Bearer {TOKEN}" for r in emulator.requests)
    logs = [result.stderr]
    with loopback_server() as server:
        daily = shared_fixture("trending", "host452b-trending-on-github", "trending_daily.html")
        server.add("/robots.txt", Reply(body="User-agent: *\nDisallow:\n", content_type="text/plain"))
        server.add_file("/trending", daily)

        def readme(request: LoggedRequest) -> Reply:
            # A proxy that echoes the credential it was sent, in a header and in the body (one
            # README gzip-encoded: the echo is found once decoded).
            sent = request.headers.get("Authorization", "")
            body = {
                "encoding": "base64",
                "content": base64.b64encode(
                    f"# README of {request.path}\n\nSeen: {sent}\n".encode()
                ).decode(),
                "_proxy": {"saw": sent, "as_basic": _b64(f"x-access-token:{sent.split()[-1]}")},
            }
            data = json.dumps(body).encode()
            headers = {"X-Proxy-Saw": _b64(sent)}
            if "openhuman" in request.path:
                data, headers = gzip.compress(data), {**headers, "Content-Encoding": "gzip"}
            return Reply(body=data, headers=headers, content_type="application/json")

        for repo in ("tinyhumansai/openhuman", "rohitg00/agentmemory", "mattpocock/skills"):
            server.add(f"/api/repos/{repo}/readme", readme)
        result = scrapy_crawl(
            "trending",
            settings={
                "GITHUB_WEB_URL": server.base_url,
                "GITHUB_RAW_URL": server.base_url,
                "GITHUB_API_URL": f"{server.base_url}/api",
                "HARVEST_DATA_DIR": data_dir,
                "HARVEST_CONFIG_DIR": config_dir,
                "HARVEST_WARC_ENABLED": True,
                "AUTOTHROTTLE_ENABLED": False,
                "CLOSESPIDER_TIMEOUT": 60,
            },
            env={"GITHUB_TOKEN": TOKEN},
            timeout=90,
        )
        assert result.returncode == 0, result.stderr[-3000:]
        assert sum(1 for r in server.requests if r.headers.get("Authorization") == f"Bearer {TOKEN}") >= 3
    logs.append(result.stderr)
    leaks, requests, responses = _scan_warcs(data_dir)
    assert leaks == []
    # The echoing READMEs are archived with the echo masked, and say so; the others as received.
    echoed = [r["redacted"] for r in responses if "/api/repos/" in r["uri"]]
    assert echoed == ["x-proxy-saw, payload"] * 3
    assert {r["redacted"] for r in responses if "/api/repos/" not in r["uri"]} == {""}
    # The README that echoes it into its text is stored with the echo masked, the rest kept.
    stored = (data_dir / "trending" / "readmes").glob("*.md")
    assert sum("Seen: Bearer ***" in p.read_text(encoding="utf-8") for p in stored) == 3
    readmes = [r for r in requests if "/readme" in r["uri"]]
    # Both spiders archived their README requests, each with its credential masked and said so.
    assert {"/repos/" in r["uri"] and "/api/repos/" not in r["uri"] for r in readmes} == {True, False}
    assert {(r["authorization"], r["redacted"]) for r in readmes} == {(MASK, "authorization")}
    assert _file_leaks(data_dir) == [] and [_leaks(text) for text in logs] == [[], []]


# --- logs of an API that echoes the Authorization header ------------------------------------------


def _echoing_api(request: LoggedRequest) -> Reply:
    """Every error body echoes the request's credential in each form (as some proxies do)."""
    sent = request.headers.get("Authorization", "")
    if "stars%3A" in request.path or "stars:" in request.path:
        # A proxy's HTML error page: not JSON, so its text is what is logged.
        basic = _b64(f"x-access-token:{TOKEN}")
        html = f"<html><body>401 from proxy: Authorization: Basic {basic}</body></html>"
        return Reply(401, html)
    body = {
        "message": "Validation Failed; you sent " + " | ".join(FORMS.values()),
        "errors": [{"message": f"header {_b64(sent)}"}],
        "documentation_url": "https://docs.github.com/rest",
    }
    return Reply(422, json.dumps(body), content_type="application/json")


def _echo_config(config_dir: Path) -> None:
    config_dir.mkdir(exist_ok=True)
    queries = [{"query": "topic:web-scraping", "readmes": False}, {"query": "stars:>5", "readmes": False}]
    (config_dir / "github_search.yaml").write_text(yaml.safe_dump({"queries": queries}), encoding="utf-8")


def test_echoed_authorization_is_masked_in_crawl_output_in_every_form(tmp_path: Path) -> None:
    _echo_config(tmp_path / "config")
    with loopback_server() as server:
        server.add("/search/repositories", _echoing_api)
        result = scrapy_crawl(
            "github_search",
            settings={
                "GITHUB_API_URL": server.base_url,
                "HARVEST_DATA_DIR": tmp_path / "data",
                "HARVEST_CONFIG_DIR": tmp_path / "config",
                "LOG_LEVEL": "DEBUG",
                "CLOSESPIDER_TIMEOUT": 60,
            },
            env={"GITHUB_TOKEN": TOKEN},
            timeout=90,
        )
        assert {r.headers.get("Authorization") for r in server.requests} == {f"Bearer {TOKEN}"}
    failed = [line for line in result.stderr.splitlines() if "failed: GitHub answered" in line]
    assert len(failed) == 2, result.stderr[-3000:]
    assert any("Validation Failed" in line for line in failed) and any("401" in line for line in failed)
    assert _leaks(result.stdout + result.stderr) == [], failed
    assert _file_leaks(tmp_path / "data") == []


def test_echoed_authorization_is_masked_in_the_fleet_logs(tmp_path: Path) -> None:
    _echo_config(tmp_path / "config")
    data = tmp_path / "data"
    with loopback_server() as server:
        server.add("/search/repositories", _echoing_api)
        cmd = [sys.executable, "run_all.py", "--once", "--no-live", "--data-dir", str(data),
               "--spiders", "github_search"]  # fmt: skip
        for key, value in {
            "GITHUB_API_URL": server.base_url,
            "HARVEST_CONFIG_DIR": tmp_path / "config",
            "LOG_LEVEL": "DEBUG",
            "CLOSESPIDER_TIMEOUT": 60,
        }.items():
            cmd += ["-s", f"{key}={value}"]
        env = {**os.environ, "GITHUB_TOKEN": TOKEN, "PYTHONUNBUFFERED": "1"}
        result = subprocess.run(cmd, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=180, env=env)
        sent = {r.headers.get("Authorization") for r in server.requests}
        assert sent == {f"Bearer {TOKEN}"}, result.stdout[-3000:] + result.stderr[-3000:]
    logs = sorted((data / "logs" / "github_search").glob("*.log"))
    assert logs, result.stdout[-3000:] + result.stderr[-3000:]
    text = "".join(p.read_text(encoding="utf-8") for p in logs)
    assert text.count("failed: GitHub answered") == 2, text[-3000:]
    assert _leaks(text) == [] and _leaks(result.stdout + result.stderr) == []
    assert _file_leaks(data) == []


# --- WARC with extraction off ---------------------------------------------------------------------


def test_warc_with_extraction_off_archives_every_stored_page(tmp_path: Path) -> None:
    with loopback_server() as server:
        links = "".join(f'<a href="/posts/{n}">post {n}</a>' for n in range(3))
        server.add("/", Reply(body=f"<html><body>{links}</body></html>"))
        for n in range(3):
            text = f"Post number {n}, a page with enough words to read as an article. " * 5
            page = f"<html><body><article><p>{text}</p></article></body></html>"
            server.add(f"/posts/{n}", Reply(body=page))
        config = tmp_path / "config"
        config.mkdir()
        site = {"name": "site", "start_urls": [server.base_url + "/"]}
        (config / "blogs.yaml").write_text(yaml.safe_dump({"sites": [site]}), encoding="utf-8")
        result = scrapy_crawl(
            "blogs",
            settings={
                "HARVEST_CONFIG_DIR": config,
                "HARVEST_DATA_DIR": tmp_path / "data",
                "HARVEST_BLOGS_EXTRACTION": "off",
                "HARVEST_CRAWL_WORKERS": 1,
                "HARVEST_WARC_ENABLED": True,
                "AUTOTHROTTLE_ENABLED": False,
                "CLOSESPIDER_TIMEOUT": 60,
            },
            timeout=90,
        )
    assert result.returncode == 0, result.stderr[-3000:]
    assert " WARNING" not in result.stderr, result.stderr[-3000:]
    pages = read_jsonl(tmp_path / "data" / "blogs" / "page.jsonl")
    assert len(pages) == 4
    records: dict[str, tuple[str, bytes]] = {}
    for path in sorted((tmp_path / "data" / "blogs" / "warc").glob("*.warc.gz")):
        with path.open("rb") as fh:
            for record in ArchiveIterator(fh, check_digests="raise"):
                if record.rec_type == "response":
                    records[record.rec_headers.get_header("WARC-Record-ID")] = (
                        record.rec_headers.get_header("WARC-Target-URI"),
                        record.content_stream().read(),
                    )
    assert len(records) == len(pages)
    for row in pages:
        url, body = records[row["warc_record_id"]]
        assert url == row["url"] and body.decode() == row["html"]  # as received
        assert (tmp_path / "data" / row["warc_file"]).exists()


# --- items of a spider that sends the token -------------------------------------------------------


def test_an_api_that_echoes_the_token_into_fields_leaves_it_in_no_item(tmp_path: Path) -> None:
    """Search results whose descriptions echo the token (each form) are stored with it masked.

    Only a server that was sent the token can echo it; the rest of each description is kept.
    """
    shared_fixture("github-api")
    repos = generate_repos(40, topic_count=40, seed=7)
    forms = sorted(FORMS.values())
    for i, repo in enumerate(repos):
        repo.description = f"kept words {i}: {forms[i % len(forms)]}"
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    (config_dir / "github_search.yaml").write_text(
        yaml.safe_dump({"queries": [{"query": "topic:web-scraping", "readmes": False}]}), encoding="utf-8"
    )
    with github_emulator(tokens={TOKEN}, repos=repos) as emulator:
        result = scrapy_crawl(
            "github_search",
            settings={
                "GITHUB_API_URL": emulator.base_url,
                "HARVEST_DATA_DIR": tmp_path / "data",
                "HARVEST_CONFIG_DIR": config_dir,
                "CLOSESPIDER_TIMEOUT": 60,
            },
            env={"GITHUB_TOKEN": TOKEN},
            timeout=90,
        )
    assert result.returncode == 0, result.stderr[-3000:]
    stored = read_jsonl(tmp_path / "data" / "github_search" / "repo.jsonl")
    assert len(stored) == len(repos)
    assert all(row["description"].startswith("kept words ") for row in stored)
    assert _file_leaks(tmp_path / "data") == [] and _leaks(result.stderr) == []
