"""README titles from the ways real READMEs open (Markdown, HTML headings, reStructuredText)."""

from __future__ import annotations

import pytest

from harvest.parsers.readme import readme_title


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("# Hello *World*\n\ntext", "Hello World"),
        ("[![CI](https://ci/badge.svg)](https://ci)\n\nMy Project\n==========\n\nbody", "My Project"),
        (
            '<p align="center"><img src="logo.png" alt="logo"></p>\n<h1 align="center">\n'
            "  Cool <b>Tool</b>\n</h1>\n\n## Install",
            "Cool Tool",
        ),
        # A logo-only <h1> has no text; the Markdown heading after it is the title.
        ('<h1 align="center"><img src="x.png"></h1>\n\n# [Name](http://x) &amp; co\n', "Name & co"),
        ("```\n# not a title\n```\n## Usage\n", "Usage"),
        ("=========\nRST Title\n=========\n\nSection\n-------\n", "RST Title"),
        ("Project\n-------\n\ntext", "Project"),
        # A level-1 heading later in the file wins over an earlier level-2 one.
        ("## Install\n\n# Real Name\n", "Real Name"),
        ("#hashtag is not a heading\n\ntext", None),
        ("just text\non two lines\n", None),
        ("", None),
    ],
)
def test_readme_title(text: str, title: str | None) -> None:
    assert readme_title(text) == title
