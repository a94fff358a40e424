"""Every request-meta key harvest defines, declared once (docs/ARCHITECTURE.md, "Request meta").

Keys are ``harvest_`` prefixed so they never meet Scrapy's or another library's; a leading
underscore marks a key a component sets and reads on the same request, never persisted. Requests
are persisted with their meta (the frontier, hand-off spools, Redis queues), so a key renamed here
is read under its old name too: :func:`upgrade` renames them where a stored request is read back.
"""

from __future__ import annotations

from typing import Any

# --- Set by spiders, read by shared components --------------------------------------------------
#: ``"listing"`` (refetched every round) or ``"document"`` (skipped while fresh, revisited).
META_KIND = "harvest_kind"
#: Seconds before a document is revisited; None = never.
META_TTL = "harvest_ttl"
#: Extra text mixed into the key under which ETag/Last-Modified are stored (per token).
META_VALIDATOR_KEY = "harvest_validator_key"
#: False: items from this response bypass the dedup pipeline.
META_DEDUP = "harvest_dedup"
#: The configured site a request belongs to (per-site page and depth limits).
META_SITE = "harvest_site"
#: Where its URL came from: seed, robots, sitemap, feed (lists a site publishes) or link.
META_VIA = "harvest_via"
#: True for robots.txt, sitemaps and feeds: not pages, not capped at the page size.
META_LIST = "harvest_list"
#: The origin whose sitemap a robots.txt or guessed sitemap request looks for.
META_ORIGIN = "harvest_origin"
#: True for a site's /.well-known/tdmrep.json.
META_TDMREP = "harvest_tdmrep"

# --- Set by components ------------------------------------------------------------------------
#: The site's TDM rights, found by SiteRightsMiddleware.
META_RIGHTS_SITE = "harvest_rights_site"
#: ``"unreadable"`` on a page whose site's robots.txt could not be read (harvest's
#: RobotsTxtMiddleware); absent when it was read and allowed the page.
META_ROBOTS_TXT = "harvest_robots_txt"
#: The raw exchange kept for the WARC pipeline.
META_WARC_CAPTURE = "harvest_warc_capture"
#: A conditional revisit (If-None-Match / If-Modified-Since sent).
META_CONDITIONAL = "harvest_conditional"
#: The pace key of a request (its site), set by the spider or the pace middleware.
META_PACE = "harvest_pace"
#: The pace grant a request holds while on the wire.
META_PACE_GRANT = "_harvest_pace_grant"
#: The host a request's connection is pinned to (DNS pinning of the safety middleware).
META_PINNED_HOST = "_harvest_pinned_host"
#: The scheduler's key of a persisted request (removed from requests a callback yields).
META_FRONTIER_KEY = "harvest_frontier_key"

# --- The GitHub API ---------------------------------------------------------------------------
#: False: send no conditional request for this API call (github_conditional before issue 31).
META_GITHUB_CONDITIONAL = "harvest_github_conditional"
#: The resource an API request's ETag is kept under (github_resource before issue 31).
META_GITHUB_RESOURCE = "harvest_github_resource"
META_GITHUB_NOT_MODIFIED = "harvest_github_not_modified"
META_GITHUB_MEMO = "harvest_github_memo"
META_GITHUB_ETAG = "harvest_github_etag"
META_GITHUB_LAST_MODIFIED = "harvest_github_last_modified"
META_GITHUB_RATE_RETRIES = "harvest_github_rate_retries"
META_GITHUB_GRANT = "harvest_github_grant"

# --- Web archives and GitHub's abuse page (trending_history, trending) ------------------------
#: True: GitHub's "Whoa there!" abuse page answered to this request is a rate limit (waited out).
META_ABUSE_CHECK = "harvest_abuse_page"
#: Set on the response's request when the abuse page was still there after the last try.
META_ABUSE_FINAL = "harvest_abuse_page_final"
#: Abuse pages this request received so far, and when it may be sent again.
META_ABUSE_TRIES = "harvest_abuse_page_tries"
META_ABUSE_UNTIL = "harvest_abuse_page_until"
#: The archive endpoint's grant a request holds while on the wire.
META_ARCHIVE_GRANT = "_harvest_archive_grant"
#: 429/503 answers this archive request received in a row.
META_ARCHIVE_REFUSALS = "harvest_archive_refusals"

# --- github_search's own requests -------------------------------------------------------------
#: The search a page belongs to: its key and its validated config.
META_QUERY_KEY = "harvest_query_key"
META_QUERY_CFG = "harvest_query_cfg"
#: The created: slice a page searches, and the total GitHub gave for it.
META_SLICE = "harvest_slice"
META_SLICE_TOTAL = "harvest_slice_total"
#: The first page of a search (or slice).
META_FIRST = "harvest_first"
#: Times a page with incomplete_results was asked again.
META_INCOMPLETE_TRIES = "harvest_incomplete_tries"

#: Old name -> key, for requests persisted before the keys were prefixed (issue 31).
RENAMED: dict[str, str] = {
    "github_conditional": META_GITHUB_CONDITIONAL,
    "github_resource": META_GITHUB_RESOURCE,
    "query_key": META_QUERY_KEY,
    "query_cfg": META_QUERY_CFG,
    "slice": META_SLICE,
    "slice_total": META_SLICE_TOTAL,
    "first": META_FIRST,
    "incomplete_tries": META_INCOMPLETE_TRIES,
}


def upgrade(meta: dict[str, Any]) -> dict[str, Any]:
    """``meta`` of a stored request with its keys under their current names (in place)."""
    for old, new in RENAMED.items():
        if old in meta and new not in meta:
            meta[new] = meta.pop(old)
    return meta
