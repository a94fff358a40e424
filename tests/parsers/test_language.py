"""Language detection on real pages: the Portuguese Octopress blog, a Chinese post, English docs."""

from __future__ import annotations

from pathlib import Path

import pytest

from harvest.parsers.article import extract_article
from harvest.parsers.language import detect_language, prose
from tests import OWN_FIXTURES, shared_fixture, skip_or_fail
from tests.devsites import heldout_page

OCTO = ("blogs", "octopress-1up4developers-github-io", "site")
MKDOCS = Path("/usr/share/doc/mkdocs/html")


def test_portuguese_posts_detected_although_declared_english() -> None:
    root = shared_fixture(*OCTO)
    posts = sorted(root.glob("201[0-6]/*/*/index.html"))[:12]
    assert len(posts) == 12
    for post in posts:
        article = extract_article(post.read_text(encoding="utf-8"), "http://1up4dev.org/x/")
        assert article is not None
        # The Octopress theme says lang="en"; the text is Brazilian Portuguese.
        assert article.language == "en"
        guess = detect_language(article.markdown)
        assert guess is not None, post
        assert guess.language == "pt", (post, guess)
        assert 0.5 < guess.score <= 1.0


def test_chinese_post() -> None:
    html = (OWN_FIXTURES / "blogs" / "gbk.html").read_bytes().decode("gbk")
    article = extract_article(html, "http://example.cn/posts/gbk")
    assert article is not None and article.language == "zh-CN"
    guess = detect_language(article.markdown)
    assert guess is not None and guess.language == "zh"


def test_english_docs_code_not_counted() -> None:
    if not (MKDOCS / "index.html").exists():
        skip_or_fail("mkdocs-doc is not installed (apt-get install mkdocs-doc)")
    for page in (
        "user-guide/configuration.html",
        "getting-started.html",
        "user-guide/writing-your-docs.html",
    ):
        article = extract_article(
            (MKDOCS / page).read_text(encoding="utf-8"), f"https://www.mkdocs.org/{page}"
        )
        assert article is not None
        guess = detect_language(article.markdown)
        assert guess is not None and guess.language == "en", (page, guess)
    assert "site_name" not in prose("Text\n\n```yaml\nsite_name: x\n```\n")


def test_too_little_text_gives_no_guess() -> None:
    assert detect_language("") is None
    assert detect_language("```python\nprint(1)\n```\n[x](http://a.b/c)") is None


def test_reading_the_first_max_chars_gives_the_language_of_the_whole_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Detection reads MAX_CHARS characters: on every real post, the same language as all of it."""
    from harvest.parsers import language

    root = shared_fixture(*OCTO)
    texts = []
    for post in sorted(root.glob("20*/*/*/index.html")):
        article = extract_article(post.read_text(encoding="utf-8"), "http://1up4dev.org/x/")
        if article is not None:
            texts.append(article.markdown)
    longer = [t for t in texts if len(prose(t)) > language.MAX_CHARS]
    assert len(longer) >= 20  # the cut is exercised, not only short posts
    bounded = [detect_language(t) for t in texts]
    monkeypatch.setattr(language, "MAX_CHARS", 1_000_000)
    whole = [detect_language(t) for t in texts]
    assert [g and g.language for g in bounded] == [g and g.language for g in whole]


def test_every_language_the_detector_can_emit_is_stored_as_iso_639_1_where_one_exists() -> None:
    import re

    from harvest.parsers.language import _identifier, iso_639_1

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    kept = set(re.findall(r"`([a-z]{3})`", readme.split("keep their ISO 639-3 code:", 1)[1].split(".", 1)[0]))
    emitted = list(_identifier().nb_classes)
    assert len(emitted) >= 97
    stored = {code: iso_639_1(code) for code in emitted}
    three = {code: value for code, value in stored.items() if value is not None and len(value) != 2}
    # Every three-letter code left is one the README names as having no ISO 639-1 code.
    assert set(three.values()) == kept, sorted(three.values())
    assert stored["wuu"] == stored["yue"] == "zh" and stored["arz"] == "ar" and stored["kik"] == "ki"
    assert stored["zxx"] is None
    assert all(re.fullmatch(r"[a-z]{2}", v) for v in stored.values() if v is not None and v not in kept)


def test_cantonese_text_is_stored_as_zh() -> None:
    from harvest.parsers.language import _identifier

    text = "佢哋喺度食緊飯，我哋一陣間先去睇戲，你想唔想一齊嚟呀？佢哋好鍾意食嘢。" * 3
    assert _identifier().classify(text)[0] == "yue"  # the detector's own answer: ISO 639-3
    guess = detect_language(text)
    assert guess is not None and guess.language == "zh"


def test_a_dozen_japanese_characters_are_enough() -> None:
    """The held-out sites' one-line Japanese post: "ビルドが三倍速くなった。" under its title.

    Twelve characters were fewer than the twenty letters asked for a guess, and the post had no
    language (its site declares ``en`` on every page); a Chinese character, kana or Hangul
    syllable says as much as a short word, and the detector is sure of it.
    """
    path = "blogs/news/kyou-no-memo.html"
    article = extract_article(
        heldout_page("vuepress-reco", path), f"https://vuepress-reco.heldout.example/{path}"
    )
    assert article is not None
    guess = detect_language(article.markdown)
    assert guess is not None and guess.language == "ja"
    assert detect_language("ok, fine.") is None  # still: nine Latin letters say nothing
