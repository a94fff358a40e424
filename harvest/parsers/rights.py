"""What a site says about the use of its pages: opt-out and licence signals, as pure functions.

Sources, all recorded per document in a :class:`Rights`:

- robots.txt for harvest's user agent (Scrapy's robots.txt middleware decides; with
  ``ROBOTSTXT_OBEY`` a stored page was allowed);
- ``<meta name="robots">`` (and ``<meta name="<our agent>">``) and ``X-Robots-Tag`` headers:
  ``noai``, ``noimageai``, ``noindex`` and any other directive that applies to every agent or to
  ours (``X-Robots-Tag: harvest: noai``);
- TDMRep (W3C community group, https://www.w3.org/community/reports/tdmrep/CG-FINAL-tdmrep-20240510/):
  the ``tdm-reservation`` / ``tdm-policy`` HTTP headers, the same names as ``<meta>``, and the
  site-wide ``/.well-known/tdmrep.json`` (a list of rules, the first whose ``location`` matches
  the path applies). Priority as the report gives it: header, then meta, then tdmrep.json;
- ``<link rel="license">`` / ``<a rel="license">``: the licence the page names.

A document is *opted out* when text-and-data mining is reserved (``tdm-reservation: 1``) or a
robots directive says ``noai``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

from lxml import etree

from harvest.util.urls import join_url

#: Robots directives that say "not for AI" (``noimageai`` only covers images).
OPT_OUT_DIRECTIVES = frozenset({"noai"})


@dataclass
class Rights:
    """Opt-out and licence signals of one document (see the module docstring)."""

    #: "allowed" for harvest's user agent (a disallowed page is never fetched), "unreadable" when
    #: the site's robots.txt could not be read; None when robots.txt was not consulted.
    robots_txt: str | None = None
    #: Robots directives (meta robots and X-Robots-Tag) that apply to harvest, lower case, sorted.
    robots: list[str] = field(default_factory=list)
    #: TDMRep: True = text-and-data mining reserved, False = not reserved, None = not said.
    tdm_reservation: bool | None = None
    #: TDMRep policy URL, if the site gives one.
    tdm_policy: str | None = None
    #: Where the TDMRep answer came from: "header", "meta" or "tdmrep.json".
    tdm_source: str | None = None
    #: The licence the page links to with rel="license".
    license_url: str | None = None
    #: TDM reserved or ``noai``: with HARVEST_RESPECT_OPTOUT the text is not kept.
    opted_out: bool = False


@dataclass(frozen=True)
class TdmRule:
    """One TDMRep answer: reservation and policy URL."""

    reservation: bool | None
    policy: str | None = None


@dataclass
class PageSignals:
    """The signals in a page's HTML (read by the article parser, which has the tree)."""

    robots: list[str] = field(default_factory=list)
    tdm_reservation: str | None = None
    tdm_policy: str | None = None
    license_url: str | None = None


def agent_token(user_agent: str) -> str:
    """The product token robots directives name an agent by: ``harvest`` of ``harvest/0.1 (...)``."""
    return re.split(r"[/\s]", user_agent.strip(), maxsplit=1)[0].lower()


_VALUED_DIRECTIVES = frozenset({"unavailable_after", "max-snippet", "max-image-preview", "max-video-preview"})
_AGENT_PREFIX_RE = re.compile(r"^\s*([A-Za-z][\w.-]*)\s*:\s*(.*)$", re.S)


def robots_directives(values: Iterable[str], agent: str) -> list[str]:
    """Directives of robots meta / X-Robots-Tag values that apply to every agent or to ``agent``.

    ``"noai, noimageai"`` -> ``["noai", "noimageai"]``; ``"otherbot: noindex"`` -> nothing;
    ``"harvest: noai"`` -> ``["noai"]``; in ``"noimageai, otherbot: noai"`` the agent prefix
    applies from where it stands. ``unavailable_after: <date>`` is kept whole.
    """
    found: set[str] = set()
    for value in values:
        applies = True
        for part in value.split(","):
            directive = " ".join(part.strip().lower().split())
            m = _AGENT_PREFIX_RE.match(directive)
            if m and m.group(1) not in _VALUED_DIRECTIVES:
                applies = m.group(1) == agent
                directive = m.group(2).strip()
            if directive and applies:
                found.add(directive)
    return sorted(found)


def parse_tdm_reservation(value: str | None) -> bool | None:
    """``"1"`` -> True, ``"0"`` -> False, anything else (absent, junk) -> None."""
    if value is None:
        return None
    value = value.strip()
    return True if value == "1" else False if value == "0" else None


def page_signals(tree: etree._Element, url: str, agent: str) -> PageSignals:
    """Robots meta, TDMRep meta and rel=license of a parsed HTML page."""
    signals = PageSignals()
    robots: list[str] = []
    for meta in tree.iter("meta"):
        name = (meta.get("name") or "").strip().lower()
        content = meta.get("content")
        if content is None:
            continue
        if name in {"robots", agent}:
            robots.append(content)
        elif name == "tdm-reservation" and signals.tdm_reservation is None:
            signals.tdm_reservation = content.strip()
        elif name == "tdm-policy" and signals.tdm_policy is None:
            signals.tdm_policy = join_url(url, content.strip())
    signals.robots = robots_directives(robots, agent)
    for el in tree.iter("link", "a"):
        rel = el.get("rel")
        if not rel or "license" not in (rel := rel.lower()):  # most links have no rel: no string work
            continue
        href = (el.get("href") or "").strip()
        if "license" in rel.split() and href:
            signals.license_url = join_url(url, href)
            break
    return signals


def parse_tdmrep(body: bytes | str) -> list[dict[str, Any]]:
    """The rules of a ``/.well-known/tdmrep.json`` body (an unreadable one has none)."""
    try:
        data = json.loads(body)
    except ValueError:
        return []
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        return []
    return [rule for rule in data if isinstance(rule, dict) and isinstance(rule.get("location"), str)]


def tdmrep_rule(rules: Iterable[Mapping[str, Any]], path: str) -> TdmRule | None:
    """The first rule whose ``location`` (``*`` = any characters) matches ``path``."""
    for rule in rules:
        location = str(rule["location"]).strip() or "/"
        if not location.startswith("/"):
            location = "/" + location
        pattern = "^" + ".*".join(re.escape(part) for part in location.split("*"))
        if not location.endswith("*") and location.endswith("/"):
            pattern += ".*"
        if re.match(pattern + "$", path):
            reservation = rule.get("tdm-reservation")
            policy = rule.get("tdm-policy")
            return TdmRule(
                parse_tdm_reservation(str(reservation)) if reservation is not None else None,
                str(policy) if policy else None,
            )
    return None


def combine(
    *,
    agent: str,
    headers_robots: Iterable[str] = (),
    header_tdm_reservation: str | None = None,
    header_tdm_policy: str | None = None,
    page: PageSignals | None = None,
    site_rule: TdmRule | None = None,
    robots_txt: str | None = None,
    base_url: str = "",
) -> Rights:
    """One document's :class:`Rights` from its headers, page signals and site-wide TDMRep rule."""
    page = page or PageSignals()
    robots = sorted(set(robots_directives(headers_robots, agent)) | set(page.robots))
    rights = Rights(robots_txt=robots_txt, robots=robots, license_url=page.license_url)
    header = parse_tdm_reservation(header_tdm_reservation)
    meta = parse_tdm_reservation(page.tdm_reservation)
    if header is not None:
        rights.tdm_reservation, rights.tdm_source = header, "header"
        rights.tdm_policy = urljoin(base_url, header_tdm_policy.strip()) if header_tdm_policy else None
    elif meta is not None:
        rights.tdm_reservation, rights.tdm_source = meta, "meta"
        rights.tdm_policy = page.tdm_policy
    elif site_rule is not None and site_rule.reservation is not None:
        rights.tdm_reservation, rights.tdm_source = site_rule.reservation, "tdmrep.json"
        rights.tdm_policy = urljoin(base_url, site_rule.policy) if site_rule.policy else None
    rights.opted_out = bool(rights.tdm_reservation) or bool(OPT_OUT_DIRECTIVES & set(robots))
    return rights
