"""Read GitHub Trending pages (repositories and developers), from every markup era since 2015.

GitHub has reworked this page many times: ``li.repo-list-item`` rows in 2015, ``li.col-12`` rows
from late 2016 to 2019, ``article.Box-row`` with an ``h1`` heading (2019-2022) then an ``h2``
(2023 on), paired ``tmp-*`` utility classes in 2026. Each change silently broke the scrapers that
keyed on class names. So class names here only help *find* the rows; the fields come from what
has stayed stable for a decade:

- the repository heading links to ``/owner/repo``;
- the total stars link to ``/owner/repo/stargazers``, the forks link to ``/owner/repo/forks``
  (``/network``, ``/network/members`` and ``/network/members.<repo>`` in earlier years);
- the language sits in ``itemprop="programmingLanguage"`` (2016 on) or first in the 2015 meta line;
- the "Built by" avatars carry ``alt="@login"``;
- the period figure reads "N stars today", "N stars this week" or "N stars this month".

When the class-based row finders yield nothing usable, rows are found again from the repository
headings alone. The functions are pure: HTML text and the page's URL in, plain rows out.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import unquote, urljoin, urlsplit

from parsel import Selector

logger = logging.getLogger(__name__)

#: Hosts whose absolute links count as GitHub links (pages saved by a browser have absolute hrefs).
_GITHUB_HOSTS = frozenset({"github.com", "www.github.com"})

#: First path segments that are GitHub's own pages, never an owner (``/sponsors/x``, ``/login?...``).
_RESERVED_OWNERS = frozenset(
    {
        "about", "account", "apps", "blog", "codespaces", "collections", "contact", "copilot",
        "customer-stories", "dashboard", "enterprise", "events", "explore", "features", "gist",
        "hovercards", "issues", "join", "login", "logout", "marketplace", "new", "notifications",
        "organizations", "orgs", "password_reset", "pricing", "pulls", "readme", "resources",
        "search", "security", "sessions", "settings", "signup", "site", "solutions", "sponsors",
        "stars", "topics", "trending", "users",
    }
)  # fmt: skip

# GitHub logins: letters, digits and single hyphens (a few legacy ones have underscores).
_OWNER_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,38}$")
_REPO_RE = re.compile(r"^[A-Za-z0-9._-]{1,100}$")
#: Path tails of the forks link over the years: /network (2016-2018), /network/members (2019),
#: /network/members.<repo> (2020-2022), /forks (2023 on).
_FORK_TAILS = frozenset({"forks", "network", "members"})

_COUNT_RE = re.compile(r"(\d{1,3}(?:[,\u00a0\u202f ]\d{3})+|\d+(?:\.\d+)?)\s*([kKmM](?![A-Za-z]))?")
_PERIOD_RE = re.compile(
    r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?\s*[kK]?)\s+stars?\s+(today|this\s+week|this\s+month)",
    re.IGNORECASE,
)
_PERIOD_NAMES = {"today": "daily", "this week": "weekly", "this month": "monthly"}
_BUILT_BY_RE = re.compile(r"\bBuilt\s+by\b", re.IGNORECASE)
#: GitHub's abuse-detection page ("Whoa there! You have triggered an abuse detection mechanism"):
#: a rate limit answered with 200 (live) or captured by an archive, never a listing.
_ABUSE_RE = re.compile(
    r"<(?:title|h1)[^>]*>\s*Whoa\s+there!?\s*<|abuse\s+detection\s+mechanism", re.IGNORECASE
)
#: GitHub's sign-in page (a logged-out visitor sent to /login): a form posting to /session.
_SIGN_IN_RE = re.compile(
    r"<form[^>]+action=\"[^\"]*/session\"|<title>\s*Sign\s+in\s+to\s+GitHub", re.IGNORECASE
)
_EMPTY_RE = re.compile(r"don(?:\u2019|'|&#39;|&#x27;|&rsquo;)t\s+have\s+any\s+trending", re.IGNORECASE)
#: Elements whose text a reader never sees as text.
_INVISIBLE = frozenset({"script", "style", "svg", "template", "noscript", "head"})
_HEADINGS = ("h1", "h2", "h3", "h4")


@dataclass
class TrendingRepoRow:
    """One repository row as the page shows it (``repo`` is None when the row has no name link)."""

    rank: int
    repo: str | None
    url: str | None
    description: str | None
    language: str | None
    stars: int | None
    forks: int | None
    period_stars: int | None
    #: ``daily``/``weekly``/``monthly``, from the words after the period figure (None if absent).
    period: str | None
    built_by: list[str] = field(default_factory=list)


@dataclass
class TrendingDeveloperRow:
    """One developer row (``username`` is None when the row has no profile link)."""

    rank: int
    username: str | None
    name: str | None
    url: str | None
    popular_repo: str | None


_Row = TypeVar("_Row", TrendingRepoRow, TrendingDeveloperRow)


# --- small helpers -----------------------------------------------------------------------------


def parse_count(text: str | None) -> int | None:
    """``"1,234,567"`` -> 1234567, ``"1.2k"`` -> 1200; None when the text holds no number."""
    if not text:
        return None
    m = _COUNT_RE.search(text)
    if not m:
        return None
    digits, suffix = m.group(1), (m.group(2) or "").lower()
    if suffix:
        scale = 1000 if suffix == "k" else 1_000_000
        return round(float(digits.replace(",", "")) * scale)
    cleaned = re.sub(r"[,\u00a0\u202f ]", "", digits)
    return int(float(cleaned)) if "." in cleaned else int(cleaned)


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _tag(el: Any) -> str:
    # Comments and processing instructions have a callable tag, not a string.
    return el.tag.lower() if isinstance(el.tag, str) else ""


def _has_class(el: Any, name: str) -> bool:
    return name in (el.get("class") or "").split()


def _is_inside(el: Any, ancestor: Any) -> bool:
    return any(a is ancestor for a in el.iterancestors())


def _walk(el: Any, skip: tuple[Any, ...] = ()) -> Iterator[tuple[str, Any]]:
    """Document-order events below ``el``: ("el", element) and ("text", str), as a reader sees.

    Invisible elements and those in ``skip`` are left out (their tails, which belong to the
    parent, are kept); ``<br>`` reads as a space and an emoji ``<img>`` as its alt text.
    """
    tag = _tag(el)
    if tag and tag not in _INVISIBLE and not any(el is s for s in skip):
        yield "el", el
        if tag == "br":
            yield "text", " "
        elif tag == "img" and "emoji" in (el.get("class") or ""):
            yield "text", el.get("alt") or ""
        if el.text:
            yield "text", el.text
        for child in el:
            yield from _walk(child, skip)
            if child.tail:
                yield "text", child.tail


def _text(el: Any, skip: tuple[Any, ...] = ()) -> str:
    """The visible text of ``el`` with whitespace collapsed (link text and emoji included)."""
    return _collapse("".join(v for kind, v in _walk(el, skip) if kind == "text"))


def _segments(href: str | None, base_url: str) -> list[str] | None:
    """Path segments of a link that points into GitHub (or the page's own host), else None."""
    if not href:
        return None
    href = href.strip()
    if not href or href.startswith("#") or href.lower().startswith(("javascript:", "mailto:")):
        return None
    try:
        parts = urlsplit(urljoin(base_url, href))
        host = (parts.hostname or "").lower()
    except ValueError:
        return None  # a link that does not parse ("http://[::1"): none to follow
    if host not in _GITHUB_HOSTS and host != (urlsplit(base_url).hostname or "").lower():
        return None
    return [unquote(s) for s in parts.path.split("/") if s]


def _repo_of(segments: list[str] | None) -> str | None:
    """``owner/name`` from the first two path segments, when they can name a repository."""
    if not segments or len(segments) < 2:
        return None
    owner, name = segments[0], segments[1]
    if owner.lower() in _RESERVED_OWNERS or not _OWNER_RE.match(owner):
        return None
    if not _REPO_RE.match(name) or name in {".", ".."}:
        return None
    return f"{owner}/{name}"


def _login_of(segments: list[str] | None) -> str | None:
    """A login from a one-segment profile link (``/torvalds``)."""
    if not segments or len(segments) != 1:
        return None
    login = segments[0]
    if login.lower() in _RESERVED_OWNERS or not _OWNER_RE.match(login):
        return None
    return login


def _repo_link(a: Any, base_url: str) -> str | None:
    """``owner/name`` when the link points at a repository's own page (``/owner/name``)."""
    segments = _segments(a.get("href"), base_url)
    return _repo_of(segments) if segments is not None and len(segments) == 2 else None


def _class_xpath(tag: str, cls: str) -> str:
    return f"//{tag}[contains(concat(' ', normalize-space(@class), ' '), ' {cls} ')]"


def _rows_by_xpath(root: Any, xpaths: Iterable[str]) -> Iterator[list[Any]]:
    """The rows each non-empty xpath finds, in the order the xpaths are given."""
    for xpath in xpaths:
        rows = root.xpath(xpath)
        if rows:
            yield rows


def _first_named(
    candidates: Iterable[list[Any]],
    parse_row: Callable[[Any, int], _Row],
    named: Callable[[_Row], bool],
) -> list[_Row]:
    """The rows of the first row finder whose rows are all ``named``, else of the first one.

    Row finders go from the most specific (known class names) to the most general. When none
    names every row, the first non-empty attempt is returned as is, so the caller sees rows
    without a name (a changed layout) rather than an empty list that looks like a quiet day.
    """
    fallback: list[_Row] | None = None
    for rows in candidates:
        parsed = [parse_row(row, rank) for rank, row in enumerate(rows, start=1)]
        if all(named(r) for r in parsed):
            return parsed
        if fallback is None:
            fallback = parsed
    return fallback or []


def _split_rows(anchors: list[Any]) -> list[Any]:
    """For each anchor, its largest ancestor that holds no other anchor: one row per anchor."""
    rows = []
    for anchor in anchors:
        node = anchor
        while True:
            parent = node.getparent()
            if parent is None or _tag(parent) in {"body", "html"}:
                break
            if any(other is not anchor and _is_inside(other, parent) for other in anchors):
                break
            node = parent
        rows.append(node)
    return rows


def _outside_chrome(el: Any) -> bool:
    """Not in the site's navigation, header or footer (where language menus live)."""
    return not any(_tag(a) in {"nav", "header", "footer"} for a in el.iterancestors())


def is_empty_listing(html: str) -> bool:
    """True when the page says it has no trending entries (a real state for rare languages)."""
    return bool(_EMPTY_RE.search(html))


def is_abuse_page(html: str) -> bool:
    """True for GitHub's "Whoa there!" abuse-detection page: a rate limit, not a layout."""
    return bool(_ABUSE_RE.search(html))


def is_sign_in_page(html: str) -> bool:
    """True for GitHub's sign-in page (what a capture redirected to /login holds)."""
    return bool(_SIGN_IN_RE.search(html))


# --- repositories ------------------------------------------------------------------------------


def _repo_heading(row: Any, base_url: str) -> tuple[Any, str] | tuple[None, None]:
    for heading in row.iter(*_HEADINGS):
        for a in heading.iter("a"):
            repo = _repo_link(a, base_url)
            if repo:
                return heading, repo
    return None, None


def _description_element(row: Any, exclude: tuple[Any, ...]) -> Any | None:
    candidates = []
    for p in row.iter("p"):
        if any(p is e or _is_inside(p, e) for e in exclude if e is not None):
            continue
        cls = p.get("class") or ""
        if "meta" in cls:
            continue
        # The 2015 meta line is a <p> too: it holds the language, counts and avatars, never a
        # description (which may well say "Built by ..." itself, so text alone does not decide).
        if p.xpath(
            ".//*[@itemprop='programmingLanguage'] | .//a[contains(@href, '/stargazers')]"
            " | .//img[starts-with(normalize-space(@alt), '@')]"
        ):
            continue
        candidates.append(p)
    for p in candidates:
        if "description" in (p.get("class") or ""):
            return p
    return candidates[0] if candidates else None


def _language(row: Any, skip: tuple[Any, ...]) -> str | None:
    for el in row.xpath(".//*[@itemprop='programmingLanguage']"):
        value = _text(el)
        if value:
            return value
    # 2015: a meta line "JavaScript • 1,624 stars today • Built by ..." with the language first
    # (and absent when the repository has none).
    for el in row.iter():
        own = (el.text or "") + "".join(child.tail or "" for child in el)
        if "\u2022" not in own or not _tag(el) or _tag(el) in _INVISIBLE:
            continue
        if any(el is e or _is_inside(el, e) for e in skip):
            continue
        first = _text(el).split("\u2022")[0].strip()
        if first and not _PERIOD_RE.search(first) and not _BUILT_BY_RE.search(first):
            if not first.replace(",", "").isdigit():
                return first
        return None
    return None


def _link_counts(row: Any, repo: str | None, base_url: str) -> tuple[int | None, int | None]:
    stars = forks = None
    for a in row.iter("a"):
        segments = _segments(a.get("href"), base_url)
        if not segments or len(segments) < 3:
            continue
        link_repo = _repo_of(segments)
        if repo and link_repo and link_repo.lower() != repo.lower():
            continue
        tail = segments[2].lower()
        value = parse_count(_text(a))
        if value is None:
            value = parse_count(a.get("aria-label") or a.get("title"))
        if tail == "stargazers" and len(segments) == 3 and stars is None:
            stars = value
        elif tail in _FORK_TAILS and forks is None:
            forks = value
    return stars, forks


def _built_by(row: Any, exclude: tuple[Any, ...], base_url: str) -> list[str]:
    """Logins of the "Built by" avatars, in page order."""
    after_marker: list[Any] = []
    everything: list[Any] = []
    seen_marker = False
    for kind, value in _walk(row, exclude):
        if kind == "text":
            if _BUILT_BY_RE.search(value):
                seen_marker = True
        else:
            everything.append(value)
            if seen_marker:
                after_marker.append(value)
    elements = after_marker or everything
    names: list[str] = []
    for el in elements:
        if _tag(el) == "img":
            alt = (el.get("alt") or "").strip()
            if alt.startswith("@") and len(alt) > 1:
                names.append(alt[1:])
    if not names:
        # Avatars without an "@login" alt: fall back to the user links around them.
        for el in elements:
            if _tag(el) == "a" and (el.get("data-hovercard-type") == "user" or after_marker):
                login = _login_of(_segments(el.get("href"), base_url))
                if login:
                    names.append(login)
    return list(dict.fromkeys(names))


def _parse_repo_row(row: Any, rank: int, base_url: str) -> TrendingRepoRow:
    heading, repo = _repo_heading(row, base_url)
    if repo is None:
        # No heading link: the stargazers link still names the repository.
        for a in row.iter("a"):
            segments = _segments(a.get("href"), base_url)
            if segments and len(segments) == 3 and segments[2].lower() == "stargazers":
                repo = _repo_of(segments)
                break
    description_el = _description_element(row, (heading,))
    skip = tuple(e for e in (heading, description_el) if e is not None)
    stars, forks = _link_counts(row, repo, base_url)
    meta_text = _text(row, skip)
    period_match = _PERIOD_RE.search(meta_text)
    period_stars = parse_count(period_match.group(1)) if period_match else None
    period = _PERIOD_NAMES.get(_collapse(period_match.group(2)).lower()) if period_match else None
    return TrendingRepoRow(
        rank=rank,
        repo=repo,
        url=urljoin(base_url, f"/{repo}") if repo else None,
        description=(_text(description_el) or None) if description_el is not None else None,
        language=_language(row, skip),
        stars=stars,
        forks=forks,
        period_stars=period_stars,
        period=period,
        built_by=_built_by(row, skip, base_url),
    )


def _repo_row_candidates(root: Any, base_url: str) -> Iterator[list[Any]]:
    yield from _rows_by_xpath(
        root,
        (
            _class_xpath("article", "Box-row"),
            _class_xpath("li", "repo-list-item"),
            _class_xpath("ol", "repo-list") + "/li",
        ),
    )
    # Semantic: one row per repository heading link, outside the site's chrome.
    anchors = []
    for heading in root.iter(*_HEADINGS):
        if not _outside_chrome(heading):
            continue
        link = next((a for a in heading.iter("a") if _repo_link(a, base_url)), None)
        if link is not None:
            anchors.append(link)
    if anchors:
        yield _split_rows(anchors)


def parse_trending_repos(html: str, page_url: str) -> list[TrendingRepoRow]:
    """Every repository row of a Trending page, in page order (rank 1 first).

    Row finders are tried from the most specific (known class names) to the most general
    (repository headings); the first whose rows all carry a repository name wins (see
    :func:`_first_named` for when none does).
    """
    return _first_named(
        _repo_row_candidates(Selector(text=html).root, page_url),
        lambda row, rank: _parse_repo_row(row, rank, page_url),
        lambda parsed: bool(parsed.repo),
    )


# --- developers --------------------------------------------------------------------------------


def _own_headings(row: Any) -> Iterator[Any]:
    """Headings of the row itself, not of a nested card (the 2022+ "Popular repo" article)."""
    for heading in row.iter(*_HEADINGS):
        nested = any(_tag(a) == "article" for a in _ancestors_below(heading, row))
        if not nested:
            yield heading


def _ancestors_below(el: Any, top: Any) -> Iterator[Any]:
    for ancestor in el.iterancestors():
        if ancestor is top:
            return
        yield ancestor


def _developer_login(row: Any, heading: Any | None, base_url: str) -> str | None:
    # The avatar: <a href="/login"><img alt="@login"></a>, the most stable mark since 2015.
    for img in row.iter("img"):
        alt = (img.get("alt") or "").strip()
        if not alt.startswith("@"):
            continue
        link = next((a for a in img.iterancestors("a")), None)
        login = _login_of(_segments(link.get("href"), base_url)) if link is not None else None
        if login and login.lower() == alt[1:].lower():
            return login
    if heading is not None:
        for a in heading.iter("a"):
            login = _login_of(_segments(a.get("href"), base_url))
            if login:
                return login
    row_id = row.get("id") or ""
    if row_id.startswith("pa-") and _OWNER_RE.match(row_id[3:]):
        return row_id[3:]
    return None


def _shows_login_apart(row: Any, heading: Any, login: str, base_url: str) -> bool:
    """Whether the row shows the login outside its heading (2020+: ``<p><a href="/x">x</a></p>``)."""
    for a in row.iter("a"):
        if a is heading or _is_inside(a, heading) or _text(a).lower() != login.lower():
            continue
        linked = _login_of(_segments(a.get("href"), base_url))
        if linked and linked.lower() == login.lower():
            return True
    return False


def _developer_name(row: Any, heading: Any | None, login: str | None, base_url: str) -> str | None:
    """The display name, None only when the row shows none.

    A heading that reads as the login is the display name when the login is also shown apart
    (``PySimpleGUI`` / ``PySimpleGUI``); alone, it is the login standing in for a missing name.
    """
    if heading is None:
        return None
    full = _text(heading)
    if not full:
        return None
    if login and full.lower() == login.lower():
        return full if _shows_login_apart(row, heading, login, base_url) else None
    # 2015-2019: "login (Full Name)" in one heading.
    m = re.fullmatch(r"(\S+)\s*\((.*)\)", full)
    if m and login and m.group(1).lower() == login.lower():
        return m.group(2).strip() or None
    return full


def _developer_rank(row: Any, position: int) -> int:
    for a in row.iter("a"):
        if (a.get("href") or "").startswith("#pa-"):
            value = _text(a)
            if value.isdigit():
                return int(value)
    return position


def _popular_repo(row: Any, base_url: str) -> str | None:
    for a in row.iter("a"):
        repo = _repo_link(a, base_url)
        if repo:
            return repo
    return None


def _parse_developer_row(row: Any, position: int, base_url: str) -> TrendingDeveloperRow:
    heading = next(_own_headings(row), None)
    login = _developer_login(row, heading, base_url)
    return TrendingDeveloperRow(
        rank=_developer_rank(row, position),
        username=login,
        name=_developer_name(row, heading, login, base_url),
        url=urljoin(base_url, f"/{login}") if login else None,
        popular_repo=_popular_repo(row, base_url),
    )


def _developer_row_candidates(root: Any, base_url: str) -> Iterator[list[Any]]:
    box_row = _class_xpath("article", "Box-row")
    yield from _rows_by_xpath(
        root,
        (
            f"{box_row}[not(ancestor::article)]",
            _class_xpath("li", "user-leaderboard-list-item"),
            "//li[starts-with(@id, 'pa-')]",
            "//*[starts-with(@id, 'pa-')][not(ancestor::*[starts-with(@id, 'pa-')])]",
        ),
    )
    # Semantic: one row per avatar link <a href="/login"><img alt="@login"></a>.
    anchors = []
    seen: set[str] = set()
    for img in root.iter("img"):
        alt = (img.get("alt") or "").strip()
        link = next((a for a in img.iterancestors("a")), None)
        if not alt.startswith("@") or link is None or not _outside_chrome(link):
            continue
        login = _login_of(_segments(link.get("href"), base_url))
        if login and login.lower() == alt[1:].lower() and login.lower() not in seen:
            seen.add(login.lower())
            anchors.append(link)
    rows = [row for row in _split_rows(anchors) if _names_developer(row, base_url)]
    if rows:
        yield rows


def _names_developer(row: Any, base_url: str) -> bool:
    """True when a heading of the row links to a profile.

    An avatar alone is not enough: a page saved while logged in has the user's own avatar menu.
    """
    for heading in _own_headings(row):
        for a in heading.iter("a"):
            if _login_of(_segments(a.get("href"), base_url)):
                return True
    return False


def parse_trending_developers(html: str, page_url: str) -> list[TrendingDeveloperRow]:
    """Every developer row of a Trending developers page, in page order.

    Same policy as :func:`parse_trending_repos`: the first row finder whose rows all carry a
    username wins (see :func:`_first_named` for when none does).
    """
    return _first_named(
        _developer_row_candidates(Selector(text=html).root, page_url),
        lambda row, position: _parse_developer_row(row, position, page_url),
        lambda parsed: bool(parsed.username),
    )
