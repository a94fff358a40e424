"""The cookie middleware stand-in: cookies work as with Scrapy's, whose module loads only when needed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from scrapy.http import Request

from harvest.exceptions import NotApplicable
from harvest.middlewares.cookies import LazyCookiesMiddleware
from harvest.util.loopback import LoggedRequest, LoopbackServer, Reply
from tests import PROJECT_ROOT, get_crawler, read_jsonl, scrapy_crawl


def _page(links: str) -> str:
    return f"<html><head><title>t</title></head><body><article><p>text</p>{links}</article></body></html>"


#: Enough posts that both workers of a partitioned crawl own some (all on one: 2 in 65,536).
_POSTS = 16


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_cookie_set_by_a_site_is_sent_back_on_its_next_requests(
    server: LoopbackServer, tmp_path: Path, workers: str
) -> None:
    """Through ``scrapy crawl blogs``: the index sets a session cookie, every post must receive it.

    With two workers, half the posts are fetched by the worker that never saw the index: the
    requests handed to it carry the cookie.
    """
    links = "".join(f'<a href="/posts/{i}.html">{i}</a>' for i in range(_POSTS))
    server.routes["/index.html"] = Reply(body=_page(links), headers={"Set-Cookie": "session=abc123; Path=/"})

    def post(request: LoggedRequest) -> Reply:
        # A site that answers its content only with the session it handed out.
        if "session=abc123" not in request.headers.get("Cookie", ""):
            return Reply(403, "no session", content_type="text/plain")
        return Reply(body=_page(""))

    for i in range(_POSTS):
        server.routes[f"/posts/{i}.html"] = post
    result = scrapy_crawl(
        "blogs",
        args={"url": f"{server.base_url}/index.html"},
        settings={
            "HARVEST_DATA_DIR": str(tmp_path),
            "HARVEST_BLOGS_EXTRACTION": "off",
            "HARVEST_CRAWL_WORKERS": workers,
            "LOG_LEVEL": "INFO",
        },
    )
    assert result.returncode == 0, result.stderr[-3000:]
    if workers == "2":
        assert "All 2 crawl workers finished" in result.stderr
        assert "'harvest/handoff/sent'" in result.stderr, "no post was handed to the other worker"
    cookies = {r.path: r.headers.get("Cookie") for r in server.requests}
    assert cookies["/index.html"] is None
    for i in range(_POSTS):
        assert cookies[f"/posts/{i}.html"] == "session=abc123"
    stored = {line["url"] for path in (tmp_path / "blogs").glob("page*.jsonl") for line in read_jsonl(path)}
    assert {f"{server.base_url}/posts/{i}.html" for i in range(_POSTS)} <= stored


def test_request_cookies_and_cookies_enabled_keep_their_meaning() -> None:
    """``Request(cookies=...)`` is sent; ``COOKIES_ENABLED=False`` turns the middleware off."""
    middleware = LazyCookiesMiddleware.from_crawler(get_crawler())
    plain = Request("http://127.0.0.1/a")
    assert middleware.process_request(plain) is None
    assert middleware.inner is None  # nothing to do yet: Scrapy's middleware is not built
    with_cookie = Request("http://127.0.0.1/b", cookies={"lang": "en"})
    middleware.process_request(with_cookie)
    assert with_cookie.headers.get("Cookie") == b"lang=en"
    assert middleware.inner is not None
    with pytest.raises(NotApplicable):
        LazyCookiesMiddleware.from_crawler(get_crawler(settings={"COOKIES_ENABLED": False}))


def test_a_crawl_process_does_not_import_scrapys_cookie_module_before_a_cookie() -> None:
    """The point of the stand-in: tldextract (and requests) stay out of a crawl process's memory."""
    code = (
        "import sys\n"
        "from scrapy.utils.reactor import install_reactor\n"
        "install_reactor('twisted.internet.asyncioreactor.AsyncioSelectorReactor')\n"
        "from scrapy.utils.project import get_project_settings\n"
        "from scrapy.crawler import Crawler\n"
        "from scrapy.core.downloader.middleware import DownloaderMiddlewareManager\n"
        "from harvest.spiders.blogs import BlogsSpider\n"
        "crawler = Crawler(BlogsSpider, get_project_settings())\n"
        "crawler._apply_settings()\n"
        "manager = DownloaderMiddlewareManager.from_crawler(crawler)\n"
        "names = [type(m).__name__ for m in manager.middlewares]\n"
        "print('LazyCookiesMiddleware' in names, 'tldextract' in sys.modules, 'requests' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == ["True", "False", "False"], result.stdout


def test_a_site_that_sets_a_cookie_sends_no_request_beyond_it(server: LoopbackServer, tmp_path: Path) -> None:
    """Splitting a cookie's domain reads the suffix list shipped with tldextract: nothing is fetched.

    Scrapy's own middleware downloads the Public Suffix List from publicsuffix.org on its first
    cookie, and writes it to its cache folder. The crawl runs with a cold cache in a folder of the
    test's (``TLDEXTRACT_CACHE``) and ``HTTPS_PROXY`` at a second loopback server, so that a
    download attempt leaves its trace here (the cache folder, or a request at the proxy) instead
    of leaving the machine.
    """
    links = "".join(f'<a href="/posts/{i}.html">{i}</a>' for i in range(2))
    server.routes["/index.html"] = Reply(body=_page(links), headers={"Set-Cookie": "session=abc123; Path=/"})
    for i in range(2):
        server.routes[f"/posts/{i}.html"] = Reply(body=_page(""))
    with LoopbackServer() as proxy:
        result = scrapy_crawl(
            "blogs",
            args={"url": f"{server.base_url}/index.html"},
            settings={
                "HARVEST_DATA_DIR": str(tmp_path / "data"),
                "HARVEST_BLOGS_EXTRACTION": "off",
                "HARVEST_CRAWL_WORKERS": "1",
                "LOG_LEVEL": "INFO",
            },
            env={
                "HTTPS_PROXY": proxy.base_url,
                "https_proxy": proxy.base_url,
                "TLDEXTRACT_CACHE": str(tmp_path / "suffix-cache"),
            },
        )
        assert result.returncode == 0, result.stderr[-3000:]
        assert [(r.method, r.path) for r in proxy.requests] == []
    assert not (tmp_path / "suffix-cache").exists()
    assert "WARNING" not in result.stderr and "Traceback" not in result.stderr, result.stderr[-3000:]
    assert {r.path for r in server.requests} >= {"/posts/0.html", "/posts/1.html"}
