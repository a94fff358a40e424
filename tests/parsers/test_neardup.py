"""Near-duplicate signatures on the real Octopress blog: template changes are near-copies,
pagination pages that repeat several posts are not copies of any one of them."""

from __future__ import annotations

import re

from harvest.parsers.article import extract_article
from harvest.parsers.neardup import (
    BandLayout,
    Signatures,
    band_keys,
    shingles,
    signature,
    similarity,
    words,
)
from tests import shared_fixture

OCTO = ("blogs", "octopress-1up4developers-github-io", "site")


def retemplate(html: str, extra: str) -> str:
    """The same post's article inside another site's template, with one line added."""
    body = re.search(r"<article.*?</article>", html, re.S)
    assert body is not None
    article = body.group(0).replace(
        '<div class="entry-content">', f'<div class="entry-content"><p>{extra}</p>', 1
    )
    return (
        "<!DOCTYPE html><html lang='pt-BR'><head><meta charset='utf-8'><title>Mirror</title></head><body>"
        "<header><nav><a href='/'>Mirror home</a> <a href='/about/'>About this mirror</a></nav></header>"
        f"<main>{article}</main><aside><h2>Links</h2><ul><li>Other mirror</li></ul></aside>"
        "<footer>Hosted mirror, all rights with the authors</footer></body></html>"
    )


def _markdown(html: str) -> str:
    article = extract_article(html, "http://1up4dev.org/x/")
    assert article is not None
    return article.markdown


def test_same_post_in_another_template_is_a_near_duplicate() -> None:
    root = shared_fixture(*OCTO)
    posts = sorted(p for p in root.glob("201[2-5]/*/*/index.html") if p.stat().st_size > 20_000)[:5]
    sigs = []
    for post in posts:
        html = post.read_text(encoding="utf-8")
        original = _markdown(html)
        copy = _markdown(retemplate(html, "Republicado com permissão do autor."))
        assert original != copy
        a, b = signature(original), signature(copy)
        assert a is not None and b is not None
        assert similarity(a, b) >= 0.9
        layout = BandLayout.for_threshold(0.9)
        assert set(band_keys(a, layout)) & set(band_keys(b, layout))
        sigs.append(a)
    # Different posts are far apart.
    for i, a in enumerate(sigs):
        for b in sigs[i + 1 :]:
            assert similarity(a, b) < 0.3


def test_kept_signatures_compared_at_once_score_as_one_by_one() -> None:
    """Signatures finds what similarity() finds, in the same order, with the same scores."""
    root = shared_fixture(*OCTO)
    posts = sorted(root.glob("20*/*/*/index.html"))[:40]
    sigs = []
    for post in posts:
        html = post.read_text(encoding="utf-8")
        for text in (_markdown(html), _markdown(retemplate(html, "Republicado com permissão do autor."))):
            sig = signature(text)
            assert sig is not None
            sigs.append(sig)
    kept = Signatures()
    for sig in sigs:
        kept.append(sig)  # past 64: the matrix grows
    assert len(kept) == len(sigs) > 64
    for sig in sigs[::7]:
        scores = [similarity(sig, other) for other in sigs]
        expected = [(i, score) for i, score in enumerate(scores) if score >= 0.9]
        assert kept.similar(sig, 0.9) == expected
        assert len(expected) >= 2  # the post and its copy
    kept.clear()
    assert len(kept) == 0 and kept.similar(sigs[0], 0.9) == []


def test_pagination_page_is_not_a_copy_of_the_posts_it_repeats() -> None:
    root = shared_fixture(*OCTO)
    page = (root / "page" / "2" / "index.html").read_text(encoding="utf-8")
    listing = signature(_markdown(page))
    assert listing is not None
    linked = re.findall(r'href="http://1up4dev\.org(/20\d\d/\d\d/[^"/]+/)"', page)
    assert linked
    for path in sorted(set(linked))[:5]:
        post = signature(_markdown((root / path.strip("/") / "index.html").read_text(encoding="utf-8")))
        assert post is not None
        assert similarity(listing, post) < 0.9


def test_shingles_of_cjk_and_short_texts() -> None:
    assert len(shingles("这是一个中文的博客文章")) == 7
    assert shingles("two words") == {b"two words"}
    assert signature("") is None


def test_signatures_are_datasketchs_own_so_stored_indexes_stay_comparable() -> None:
    """The shingles and hashes are computed in bulk, yet every signature is bit for bit what
    datasketch's MinHash gives with its default SHA-1 hash: an index written by an earlier
    version still finds the same documents."""
    import numpy as np
    from datasketch import MinHash

    root = shared_fixture(*OCTO)
    posts = sorted(root.glob("20*/*/*/index.html"))
    assert len(posts) == 109
    for post in posts:
        text = _markdown(post.read_text(encoding="utf-8"))
        grams = shingles(text)
        # The n-grams by slicing, as before the bulk version.
        tokens = words(text)
        sliced = {" ".join(tokens[i : i + 5]).encode() for i in range(len(tokens) - 4)}
        assert not sliced or grams == sliced
        reference = MinHash(128, seed=1, scheme="affine32")
        reference.update_batch(list(grams))
        ours = signature(text)
        assert ours is not None
        assert np.array_equal(ours, np.asarray(reference.hashvalues, dtype=np.uint32)), post
