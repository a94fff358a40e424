"""The Trending parser on every real capture in shared/fixtures/trending (2015-2026), field by field.

Expected values were read by hand from the pages' HTML. Pages written by us (tests/fixtures/
trending) cover what the captures lack: weekly/monthly figures, missing fields, changed layouts.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from harvest.parsers.trending import (
    TrendingDeveloperRow,
    TrendingRepoRow,
    is_empty_listing,
    parse_count,
    parse_trending_developers,
    parse_trending_repos,
)
from tests import OWN_FIXTURES, shared_fixture

WEB = "https://github.com"
REPOS_URL = f"{WEB}/trending"
DEVS_URL = f"{WEB}/trending/developers"

GO = ("trending", "go-trending")
PAGES = {
    "2015": (*GO, "2015-09-10_d8dd61c", "tests", "github.com_trending.html"),
    "2016": (*GO, "2016-12-14_41f32fd", "tests", "github.com_trending.html"),
    "2017": (*GO, "2017-07-02_0b6cd0d", "tests", "github.com_trending.html"),
    "2018": (*GO, "2018-11-03_858012f", "testdata", "github.com_trending_relativepaths.html"),
    "2019": (*GO, "2019-05-11_7f9d151", "testdata", "github.com_trending.html"),
    "2022": (*GO, "2022-04-09_8765a6f", "testdata", "github.com_trending.html"),
    "2023": (*GO, "2023-05-18_bdd2123", "testdata", "github.com_trending.html"),
    "2026": ("trending", "host452b-trending-on-github", "trending_daily.html"),
}
DEV_PAGES = {
    "2015": (*GO, "2015-09-10_d8dd61c", "tests", "github.com_trending_developers.html"),
    "2016": (*GO, "2016-12-14_41f32fd", "tests", "github.com_trending_developers.html"),
    "2019": (*GO, "2019-05-11_7f9d151", "testdata", "github.com_trending_developers.html"),
    "2022": (*GO, "2022-04-09_8765a6f", "testdata", "github.com_trending_developers.html"),
}


def page(era: str) -> str:
    return shared_fixture(*PAGES[era]).read_text(encoding="utf-8")


def dev_page(era: str) -> str:
    return shared_fixture(*DEV_PAGES[era]).read_text(encoding="utf-8")


def own(name: str) -> str:
    return (OWN_FIXTURES / "trending" / name).read_text(encoding="utf-8")


def repo_row(rank: int, repo: str, **fields: object) -> TrendingRepoRow:
    defaults: dict[str, object] = {
        "description": None,
        "language": None,
        "stars": None,
        "forks": None,
        "period_stars": None,
        "period": "daily",
        "built_by": [],
    }
    defaults.update(fields)
    return TrendingRepoRow(rank=rank, repo=repo, url=f"{WEB}/{repo}", **defaults)  # type: ignore[arg-type]


# --- counts ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,234,567", 1234567),
        ("  33,074\n", 33074),
        ("553", 553),
        ("0", 0),
        ("1,014 stars today", 1014),
        ("1.2k", 1200),
        ("12k", 12000),
        ("", None),
        ("Star", None),
        (None, None),
    ],
)
def test_parse_count(text: str | None, expected: int | None) -> None:
    assert parse_count(text) == expected


# --- repository pages: rows per page, rank order, names --------------------------------------

ROW_COUNTS = {"2015": 3, "2016": 2, "2017": 2, "2018": 2, "2019": 25, "2022": 25, "2023": 25, "2026": 11}


@pytest.mark.parametrize("era", sorted(PAGES))
def test_every_page_yields_its_rows_in_rank_order(era: str) -> None:
    rows = parse_trending_repos(page(era), REPOS_URL)
    assert len(rows) == ROW_COUNTS[era]
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    assert all(r.repo and re.fullmatch(r"[\w.-]+/[\w.-]+", r.repo) for r in rows)
    assert all(r.url == f"{WEB}/{r.repo}" for r in rows)
    # Every capture is a default (daily) page, and every row shows its "stars today" figure.
    assert all(r.period == "daily" and r.period_stars is not None for r in rows)
    assert len({r.repo for r in rows}) == len(rows)


def test_2015_rows_field_by_field() -> None:
    rows = parse_trending_repos(page("2015"), REPOS_URL)
    # 2015 rows show no total stars or forks: those stay None, never 0.
    assert rows == [
        repo_row(1, "gloomyson/StarCraft", description="HTML5 version for StarCraft game",
                 language="JavaScript", period_stars=1624, built_by=["gloomyson"]),
        repo_row(2, "black-screen/black-screen", description="A terminal emulator for the 21st century.",
                 language="JavaScript", period_stars=624, built_by=["shockone", "G07cha", "RobertoUa"]),
        repo_row(3, "nodejs/node", description="✨Future Node.js releases will be from this repo. ✨",
                 language="JavaScript", period_stars=348, built_by=["ry", "bnoordhuis"]),
    ]  # fmt: skip


def test_2016_rows_field_by_field() -> None:
    rows = parse_trending_repos(page("2016"), REPOS_URL)
    assert rows == [
        repo_row(1, "cloudson/gitql", description="A git query language", language="Go",
                 stars=1824, forks=53, period_stars=918, built_by=["cloudson"]),
        repo_row(2, "neveragaindottech/neveragaindottech.github.io",
                 description="Source files for the neveragain.tech site", language="HTML",
                 stars=238, forks=699, period_stars=234, built_by=["emhoracek", "zestyping", "sabo"]),
    ]  # fmt: skip


@pytest.mark.parametrize("era", ["2017", "2018"])
def test_2017_and_hand_edited_2018_rows_field_by_field(era: str) -> None:
    rows = parse_trending_repos(page(era), REPOS_URL)
    assert rows == [
        repo_row(1, "campoy/go-tooling-workshop",
                 description="A workshop covering all the tools gophers use in their day to day life",
                 language="Go", stars=553, forks=25, period_stars=164, built_by=["campoy"]),
        repo_row(2, "evilsocket/dnssearch", description="A subdomain enumeration tool.", language="Go",
                 stars=120, forks=14, period_stars=102, built_by=["evilsocket", "infoslack"]),
    ]  # fmt: skip


def test_2018_language_menu_links_are_not_rows() -> None:
    """The hand-edited 2018 page has relative /trending/<lang> menu links that look like /owner/repo."""
    html = page("2018")
    assert 'href="/trending/abap"' in html
    assert [r.repo for r in parse_trending_repos(html, REPOS_URL)] == [
        "campoy/go-tooling-workshop",
        "evilsocket/dnssearch",
    ]


REPOS_2019 = [
    "microsoft/Terminal", "jackfrued/Python-100-Days", "jolaleye/cssfx", "MisterBooo/LeetCodeAnimation",
    "kkuchta/css-only-chat", "GoogleChromeLabs/comlink", "tensorflow/graphics", "intel/wasm-micro-runtime",
    "TheAlgorithms/Python", "go101/go101", "hiroppy/fusuma", "TurboGears/tg2", "edgedb/edgedb",
    "microsoft/PowerToys", "teoga/awesome-product-design", "intel/rust-hypervisor-firmware",
    "996icu/996.ICU", "flutter/flutter_web", "CyC2018/CS-Notes", "flutter/flutter", "victorvoid/dinoql",
    "nodemailer/wildduck", "swiftwasm/swift", "azl397985856/leetcode", "onceupon/Bash-Oneliner",
]  # fmt: skip


def test_2019_full_page() -> None:
    rows = parse_trending_repos(page("2019"), REPOS_URL)
    assert [r.repo for r in rows] == REPOS_2019
    assert rows[0] == repo_row(
        1, "microsoft/Terminal",
        description="The new Windows Terminal, and the original Windows console host -- all in the same "
        "place!",
        language="C++", stars=33074, forks=2914, period_stars=1573,
        built_by=["miniksa", "zadjii-msft", "waf", "LokiMidgard", "DHowett-MSFT"],
    )  # fmt: skip
    assert rows[-1] == repo_row(
        25, "onceupon/Bash-Oneliner",
        description="A large collection of handy Bash one-liner commands and terminal tricks for data "
        "processing and Linux system maintenance.",
        stars=398, forks=35, period_stars=106,
        built_by=["onceupon", "0xflotus", "will-b", "matthewhelmke", "oct8l"],
    )  # fmt: skip
    # Three rows have no language (SOURCE.md says so too).
    assert [r.repo for r in rows if r.language is None] == [
        "microsoft/PowerToys",
        "teoga/awesome-product-design",
        "onceupon/Bash-Oneliner",
    ]
    by_repo = {r.repo: r for r in rows}
    # Emoji (a <g-emoji> element) and a link's text are part of what a reader sees.
    assert by_repo["jolaleye/cssfx"].description == "✨ Beautifully simple click-to-copy CSS effects"
    assert by_repo["hiroppy/fusuma"].description == "✍️Fusuma makes slides with Markdown easily."
    assert by_repo["edgedb/edgedb"].description == (
        "The next generation relational database. A @MagicStack project."
    )
    assert by_repo["intel/wasm-micro-runtime"].description is None
    assert (by_repo["996icu/996.ICU"].stars, by_repo["996icu/996.ICU"].forks) == (243496, 21179)
    assert by_repo["swiftwasm/swift"].language == "C++"
    assert (by_repo["swiftwasm/swift"].stars, by_repo["swiftwasm/swift"].forks) == (148, 7584)


def test_2022_full_page_h1_era() -> None:
    rows = parse_trending_repos(page("2022"), REPOS_URL)
    assert len(rows) == 25
    assert rows[0] == repo_row(
        1, "BoomingTech/Pilot", description="Pilot – mini game engine for games104", language="C++",
        stars=1553, forks=534, period_stars=190,
        built_by=["ShenMian", "kwbm", "wlbksy", "hyv1001", "BoomingTech-YuqiaoZhang"],
    )  # fmt: skip
    assert rows[-1] == repo_row(
        25, "vercel/next.js", description="The React Framework", language="JavaScript",
        stars=84858, forks=17790, period_stars=247,
        built_by=["ijjk", "timneutkens", "Timer", "arunoda", "styfle"],
    )  # fmt: skip
    assert [r.repo for r in rows if r.language is None] == [
        "Lissy93/personal-security-checklist",
        "arthurspk/guiadobackend",
        "zbroyar/mass_killings",
    ]
    by_repo = {r.repo: r for r in rows}
    mass = by_repo["zbroyar/mass_killings"]
    assert (mass.description, mass.stars, mass.forks, mass.period_stars) == (None, 203, 25, 31)
    assert by_repo["Azure/azure-sdk-for-net"].description == (
        "This repository is for active development of the Azure SDK for .NET. For consumers of the "
        "SDK we recommend visiting our public developer docs at https://docs.microsoft.com/dotnet/azure/"
        " or our versioned developer docs at https://azure.github.io/azure-sdk-for-net."
    )
    assert by_repo["saic-mdal/lama"].description.startswith("🦙 LaMa Image Inpainting")  # type: ignore[union-attr]
    # Forks link of this era: /<o>/<r>/network/members.<r>
    assert (by_repo["MicrosoftDocs/azure-docs"].stars, by_repo["MicrosoftDocs/azure-docs"].forks) == (
        6934,
        15881,
    )
    # A GitHub App among the contributors ("/apps/github-actions", alt "@github-actions").
    assert by_repo["Anduin2017/HowToCook"].built_by == [
        "Anduin2017",
        "github-actions",
        "WakiJi",
        "draem0507",
        "bobby285271",
    ]


REPOS_2023 = [
    "smol-ai/developer", "StanGirard/quivr", "sunner/ChatALL", "microsoft/guidance", "langgenius/dify",
    "DataTalksClub/mlops-zoomcamp", "dsdanielpark/Bard-API", "airbnb/javascript", "bluesky-social/social-app",
    "Gioman101/FlipperAmiibo", "geekan/HowToLiveLonger", "toverainc/willow", "Yidadaa/ChatGPT-Next-Web",
    "pengzhile/pandora", "csunny/DB-GPT", "go-skynet/LocalAI", "haoel/haoel.github.io",
    "microsoft/playwright", "e-johnstonn/BriefGPT", "PrefectHQ/marvin", "brexhq/prompt-engineering",
    "Tencent/secguide", "UberGuidoZ/Flipper", "openai/chatgpt-retrieval-plugin", "public-apis/public-apis",
]  # fmt: skip


def test_2023_full_page_h2_era() -> None:
    rows = parse_trending_repos(page("2023"), REPOS_URL)
    assert [r.repo for r in rows] == REPOS_2023
    assert rows[0] == repo_row(
        1, "smol-ai/developer",
        description="with 100k context windows on the way, it's now feasible for every dev to have their "
        "own smol developer",
        language="Python", stars=5096, forks=277, period_stars=1582,
        built_by=["sw-yx", "talboren", "Kilian", "fardeem"],
    )  # fmt: skip
    assert rows[-1] == repo_row(
        25, "public-apis/public-apis", description="A collective list of free APIs", language="Python",
        stars=240084, forks=27440, period_stars=97,
        built_by=["matheusfelipeog", "davemachado", "pawelborkar", "jbrooksuk", "marekdano"],
    )  # fmt: skip
    assert [r.repo for r in rows if r.language is None] == [
        "geekan/HowToLiveLonger",
        "brexhq/prompt-engineering",
        "Tencent/secguide",
    ]
    by_repo = {r.repo: r for r in rows}
    assert by_repo["haoel/haoel.github.io"].description is None
    assert by_repo["microsoft/guidance"].language == "Jupyter Notebook"
    assert by_repo["go-skynet/LocalAI"].description.startswith("🤖 Self-hosted, community-driven")  # type: ignore[union-attr]
    assert by_repo["airbnb/javascript"].stars == 134008


def test_2026_full_page_tmp_classes() -> None:
    rows = parse_trending_repos(page("2026"), REPOS_URL)
    assert [(r.repo, r.stars, r.forks, r.period_stars) for r in rows] == [
        ("tinyhumansai/openhuman", 3342, 310, 1014),
        ("rohitg00/agentmemory", 6382, 581, 1048),
        ("CloakHQ/CloakBrowser", 8566, 634, 1606),
        ("apernet/hysteria", 20408, 2111, 51),
        ("mattpocock/skills", 77256, 6669, 3867),
        ("anonfaded/FadCam", 2323, 177, 116),
        ("millionco/react-doctor", 8957, 283, 788),
        ("rasbt/LLMs-from-scratch", 94073, 14437, 772),
        ("datawhalechina/hello-agents", 48697, 5851, 599),
        ("yikart/AiToEarn", 12283, 2121, 1282),
        ("HKUDS/AI-Trader", 16865, 2628, 229),
    ]
    assert [r.language for r in rows] == [
        "Rust", "TypeScript", "Python", "Go", "Shell", "Java", "TypeScript", "Jupyter Notebook",
        "Python", "TypeScript", "Python",
    ]  # fmt: skip
    assert rows[0] == repo_row(
        1, "tinyhumansai/openhuman",
        description="Your Personal AI super intelligence. Private, Simple and extremely powerful.",
        language="Rust", stars=3342, forks=310, period_stars=1014,
        built_by=["senamakel", "claude", "graycyrus", "github-actions", "M3gA-Mind"],
    )  # fmt: skip
    assert rows[8].description == "📚 《从零开始构建智能体》——从零开始的智能体原理与实践教程"
    assert rows[10].description == '"AI-Trader: 100% Fully-Automated Agent-Native Trading"'
    assert rows[10].built_by == ["TianyuFan0504", "chaohuang-ai", "Dennis-yxchen", "Hoder-zyf", "yuh-yang"]


# --- pages we wrote: periods, missing fields, absolute links ----------------------------------


def test_weekly_page_with_missing_fields() -> None:
    rows = parse_trending_repos(own("weekly_2026.html"), f"{REPOS_URL}?since=weekly")
    assert rows == [
        repo_row(1, "octo-org/mega-lib", period="weekly",
                 description="🚀 The fastest library, see mega-lib.example.org & @octocat.",
                 language="Python", stars=1234567, forks=98765, period_stars=12345,
                 built_by=["alice", "dependabot", "bob-2"]),
        # No description, no language, 0 forks, "1 star this week" (singular).
        repo_row(2, "solo/dotfiles", period="weekly", stars=875, forks=0, period_stars=1, built_by=["solo"]),
        # A description that itself says "Built by"; no contributors and no period figure.
        repo_row(3, "new-kid/block.chain", period=None, description="Built by hand, one block at a time.",
                 language="Go", stars=42, forks=7),
    ]  # fmt: skip


def test_monthly_page_with_absolute_links() -> None:
    rows = parse_trending_repos(own("monthly_2017.html"), f"{REPOS_URL}?since=monthly")
    assert rows == [
        repo_row(1, "fffaraz/awesome-cpp", period="monthly",
                 description="A curated list of awesome C/C++ frameworks, libraries, resources, and shiny "
                 "things. Inspired by awesome-... stuff.",
                 language="C++", stars=21003, forks=3945, period_stars=1021,
                 built_by=["fffaraz", "nucleogenesis"]),
        repo_row(2, "golang/tour", period="monthly", description="[mirror] A Tour of Go", language="Go",
                 stars=1187, forks=402, period_stars=188, built_by=["adg"]),
    ]  # fmt: skip


def test_urls_follow_the_page_host() -> None:
    """Served from a staging host, row URLs point there (relative links resolve against the page)."""
    rows = parse_trending_repos(page("2023"), "http://127.0.0.1:8080/trending")
    assert rows[0].url == "http://127.0.0.1:8080/smol-ai/developer"


def test_changed_layout_yields_no_rows() -> None:
    html = own("changed_layout.html")
    assert parse_trending_repos(html, REPOS_URL) == []
    assert not is_empty_listing(html)


def test_rows_without_names_are_returned_so_the_caller_sees_them() -> None:
    rows = parse_trending_repos(own("unnamed_rows.html"), REPOS_URL)
    assert [(r.rank, r.repo, r.period_stars) for r in rows] == [(1, None, 56), (2, None, 12)]


def test_empty_language_page_is_recognised() -> None:
    html = own("empty_language.html")
    assert is_empty_listing(html)
    assert parse_trending_repos(html, f"{REPOS_URL}/abap") == []
    assert not is_empty_listing(page("2026"))


# --- robustness: the same pages with the markup other scrapers' captures or a redesign give ----

VARIANTS: dict[str, Callable[[str], str]] = {
    # A browser's "save page" writes absolute links.
    "absolute links": lambda h: re.sub(r'href="/(?!/)', f'href="{WEB}/', h),
    # Every class name gone (a redesign that renames them all).
    "no class names": lambda h: re.sub(r'\sclass="[^"]*"', "", h),
    "no classes or ids": lambda h: re.sub(r'\sid="[^"]*"', "", re.sub(r'\sclass="[^"]*"', "", h)),
    # Rows become <div>s.
    "rows as divs": lambda h: (
        h.replace("<article", "<div")
        .replace("</article>", "</div>")
        .replace("<li", "<div")
        .replace("</li>", "</div>")
    ),
    # The heading level moves again (h3 -> h1 -> h2 happened already).
    "headings as h4": lambda h: re.sub(r"<(/?)h[123]\b", r"<\1h4", h),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("era", sorted(PAGES))
def test_repo_rows_survive_markup_changes(era: str, variant: str) -> None:
    html = page(era)
    assert parse_trending_repos(VARIANTS[variant](html), REPOS_URL) == parse_trending_repos(html, REPOS_URL)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("era", sorted(DEV_PAGES))
def test_developer_rows_survive_markup_changes(era: str, variant: str) -> None:
    html = dev_page(era)
    expected = parse_trending_developers(html, DEVS_URL)
    assert parse_trending_developers(VARIANTS[variant](html), DEVS_URL) == expected


# --- developers ------------------------------------------------------------------------------


def dev(rank: int, username: str, name: str | None, popular_repo: str | None) -> TrendingDeveloperRow:
    return TrendingDeveloperRow(rank, username, name, f"{WEB}/{username}", popular_repo)


def test_developers_2015() -> None:
    assert parse_trending_developers(dev_page("2015"), DEVS_URL) == [
        dev(1, "gloomyson", "Ryuta", "gloomyson/StarCraft"),
        dev(2, "black-screen", "Black Screen", "black-screen/black-screen"),
    ]


def test_developers_2016() -> None:
    assert parse_trending_developers(dev_page("2016"), DEVS_URL) == [
        dev(1, "cloudson", "Claudson Oliveira", "cloudson/gitql"),
        dev(2, "zeit", "ZEIT", "zeit/hyper"),
    ]


def test_developers_2019_full_page() -> None:
    rows = parse_trending_developers(dev_page("2019"), DEVS_URL)
    assert [r.username for r in rows] == [
        "microsoft", "jackfrued", "tensorflow", "MisterBooo", "intel", "GoogleChromeLabs", "jolaleye",
        "kkuchta", "flutter", "go101", "TheAlgorithms", "google", "hiroppy", "facebook", "TurboGears",
        "sindresorhus", "torvalds", "apache", "edgedb", "vuejs", "teoga", "alibaba", "swiftwasm",
        "jaywcjlove", "CyC2018",
    ]  # fmt: skip
    assert [r.rank for r in rows] == list(range(1, 26))
    assert rows[0] == dev(1, "microsoft", "Microsoft", "microsoft/vscode")
    assert rows[1] == dev(2, "jackfrued", "骆昊", "jackfrued/Python-100-Days")
    # An organisation without a display name shows only its login.
    assert rows[2] == dev(3, "tensorflow", None, "tensorflow/tensorflow")
    assert rows[16] == dev(17, "torvalds", "Linus Torvalds", "torvalds/linux")
    assert rows[-1] == dev(25, "CyC2018", None, "CyC2018/CS-Notes")


def test_developers_2022_full_page() -> None:
    rows = parse_trending_developers(dev_page("2022"), DEVS_URL)
    assert len(rows) == 25
    assert [r.rank for r in rows] == list(range(1, 26))
    assert rows[0] == dev(1, "Rich-Harris", "Rich Harris", "Rich-Harris/degit")
    assert rows[-1] == dev(25, "Geal", "Geoffroy Couprie", "Geal/nom")
    # Four developers show no "Popular repo" card.
    assert [r.username for r in rows if r.popular_repo is None] == [
        "crynobone",
        "fulmicoton",
        "Artur-",
        "simonbasle",
    ]
    by_login = {r.username: r for r in rows}
    assert by_login["kdy1"] == dev(13, "kdy1", "Donny/강동윤", "kdy1/rweb")
    assert by_login["knolleary"].name == "Nick O'Leary"
    assert by_login["simonbasle"].name == "Simon Baslé"


def test_developers_2022_a_display_name_equal_to_the_login_is_kept() -> None:
    # No saved page has a row whose display name reads as its login (GitHub's PySimpleGUI:
    # "PySimpleGUI" in the h1 and "PySimpleGUI" in the p). The real 2022 page with Rich-Harris's
    # display name set to his login is that row; everything else on the page stays as saved.
    html = dev_page("2022")
    shown = "\n            Rich Harris\n"
    assert html.count(shown) == 1
    rows = parse_trending_developers(html.replace(shown, "\n            Rich-Harris\n"), DEVS_URL)
    assert rows[0] == dev(1, "Rich-Harris", "Rich-Harris", "Rich-Harris/degit")
    assert rows[1:] == parse_trending_developers(html, DEVS_URL)[1:]
    # Case differences do not matter either: the page shows a name, so there is one.
    rows = parse_trending_developers(html.replace(shown, "\n            rich-harris\n"), DEVS_URL)
    assert rows[0].name == "rich-harris"


def test_developers_2022_a_row_without_display_name_gives_null() -> None:
    # The h1-era row of an account without a display name: the login in the h1 and no p.
    html = dev_page("2022")
    start = html.index('id="pa-Geal"')
    p_start = html.index('<p class="f4 text-normal mb-1"', start)
    p_end = html.index("</p>", p_start) + len("</p>")
    html = html[:start] + html[start:p_start].replace("Geoffroy Couprie", "Geal") + html[p_end:]
    assert parse_trending_developers(html, DEVS_URL)[-1] == dev(25, "Geal", None, "Geal/nom")


def test_developers_without_display_name_on_saved_pages() -> None:
    # Real rows that show only the login (2019: "tensorflow", no "(Name)"): still null.
    by_login = {r.username: r for r in parse_trending_developers(dev_page("2019"), DEVS_URL)}
    assert [login for login, r in by_login.items() if r.name is None] == [
        "tensorflow",
        "GoogleChromeLabs",
        "CyC2018",
    ]
    # ...and a display name equal to the login, "vuejs (vuejs)", is a name.
    assert by_login["vuejs"].name == "vuejs"


def test_developers_2026_own_page() -> None:
    rows = parse_trending_developers(own("developers_2026.html"), DEVS_URL)
    assert rows == [
        # The popular repo may belong to another owner; the Sponsor link is not a repository.
        dev(1, "ada-l", "Ada Lovelace", "analytical-engines/notes"),
        dev(2, "nameless42", None, "nameless42/tiny-vm"),
        dev(3, "grace-h", "Grace Hopper 🐛", None),
    ]


def test_developers_changed_layout_yields_no_rows() -> None:
    assert parse_trending_developers(own("changed_layout.html"), DEVS_URL) == []
