"""Opt-out and licence signals: robots directives, TDMRep header/meta/tdmrep.json, rel=license."""

from __future__ import annotations

import lxml.html

from harvest.parsers.rights import (
    PageSignals,
    TdmRule,
    agent_token,
    combine,
    page_signals,
    parse_tdmrep,
    robots_directives,
    tdmrep_rule,
)


def test_agent_token() -> None:
    assert agent_token("harvest/0.1 (+https://github.com/harvest-crawler/harvest; Scrapy)") == "harvest"


def test_robots_directives_for_every_agent_or_ours() -> None:
    assert robots_directives(["noai, noimageai", "NoIndex"], "harvest") == ["noai", "noimageai", "noindex"]
    assert robots_directives(["otherbot: noai", "harvest: noindex"], "harvest") == ["noindex"]
    assert robots_directives(["unavailable_after: 2030-01-01"], "harvest") == [
        "unavailable_after: 2030-01-01"
    ]


def test_page_signals() -> None:
    tree = lxml.html.fromstring(
        "<html><head><meta name='robots' content='noai, noimageai'>"
        "<meta name='harvest' content='noindex'><meta name='googlebot' content='nosnippet'>"
        "<meta name='tdm-reservation' content='1'><meta name='tdm-policy' content='/policy.json'>"
        "<link rel='license' href='https://creativecommons.org/licenses/by/4.0/'></head><body></body></html>"
    )
    signals = page_signals(tree, "https://blog.example/post/", "harvest")
    assert signals == PageSignals(
        robots=["noai", "noimageai", "noindex"],
        tdm_reservation="1",
        tdm_policy="https://blog.example/policy.json",
        license_url="https://creativecommons.org/licenses/by/4.0/",
    )


def test_tdmrep_rules_first_match() -> None:
    rules = parse_tdmrep(
        b'[{"location": "/reserved/*", "tdm-reservation": 1, "tdm-policy": "https://x.example/p.json"},'
        b' {"location": "/", "tdm-reservation": 0}]'
    )
    assert tdmrep_rule(rules, "/reserved/a/") == TdmRule(True, "https://x.example/p.json")
    assert tdmrep_rule(rules, "/open/b/") == TdmRule(False, None)
    assert parse_tdmrep(b"<html>not json</html>") == []
    assert tdmrep_rule(parse_tdmrep(b'[{"location": "/only/exact"}]'), "/other") is None


def test_combine_priority_and_opt_out() -> None:
    header = combine(agent="harvest", header_tdm_reservation="1", page=PageSignals(tdm_reservation="0"))
    assert header.tdm_reservation is True and header.tdm_source == "header" and header.opted_out
    meta = combine(agent="harvest", page=PageSignals(tdm_reservation="0"), site_rule=TdmRule(True))
    assert meta.tdm_reservation is False and meta.tdm_source == "meta" and not meta.opted_out
    site = combine(agent="harvest", site_rule=TdmRule(True, "/p.json"), base_url="https://a.example/x")
    assert (
        site.tdm_source == "tdmrep.json" and site.tdm_policy == "https://a.example/p.json" and site.opted_out
    )
    noai = combine(agent="harvest", headers_robots=["harvest: noai"], robots_txt="allowed")
    assert noai.robots == ["noai"] and noai.opted_out and noai.robots_txt == "allowed"
    image_only = combine(agent="harvest", headers_robots=["noimageai, noindex"])
    assert not image_only.opted_out
    assert not combine(agent="harvest").opted_out
