"""README documents, one way for both spiders; README answers of the API."""

from __future__ import annotations

import base64
import json

import pytest

from harvest.fingerprints import content_hash
from harvest.github.readme import api_readme, readme_document


def test_readme_document() -> None:
    doc = readme_document(
        "octo/Hello", "# Hello *World*\r\n\r\ntext\r", url="https://raw/x", web_url="https://gh/"
    )
    assert doc is not None
    assert (doc.url, doc.canonical_url, doc.repo, doc.title, doc.source) == (
        "https://raw/x", "https://gh/octo/Hello", "octo/Hello", "Hello World", "readme"
    )  # fmt: skip
    assert doc.content == "# Hello *World*\n\ntext\n"  # one line-ending convention
    assert doc.content_hash == content_hash(doc.content)
    assert doc.path is not None and doc.path.startswith("readmes/") and doc.path.endswith(".md")
    untitled = readme_document("octo/plain", "no heading\n", url="u", web_url="https://gh")
    assert untitled is not None and untitled.title == "octo/plain"  # the repository's name
    assert readme_document("octo/blank", " \r\n\t", url="u", web_url="https://gh") is None


def test_api_readme() -> None:
    content = base64.encodebytes("# Ünïcödé\n".encode()).decode()  # wrapped, as the API sends it
    body = {"encoding": "base64", "content": content, "download_url": "https://raw/a/b/README.md"}
    assert api_readme(json.dumps(body).encode(), "https://api/x") == (
        "# Ünïcödé\n",
        "https://raw/a/b/README.md",
    )
    page_only = {"content": content, "html_url": "https://gh/a/b/blob/main/README.md"}
    assert (
        api_readme(json.dumps(page_only).encode(), "https://api/x")[1] == "https://gh/a/b/blob/main/README.md"
    )
    assert api_readme(json.dumps({"content": content}).encode(), "https://api/x")[1] == "https://api/x"
    with pytest.raises(ValueError):
        api_readme(b"<html>proxy error</html>", "https://api/x")
